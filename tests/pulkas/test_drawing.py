"""The pulka sheet drawn as SVG (the phone page) and as a PDF page (the table's record): pure, no database."""

from __future__ import annotations

import io
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import fields, replace
from typing import Any

import pytest
from pypdf import PdfReader

from preferans.pulka import PulkaScore, PulkaSetup, play_pulka
from preferans.pulka.document import score_document
from preferans.pulka.simulate import random_pulka
from tests import golden
from ui.pulka_drawing import SheetLabels, estimate_width, fit_entries, running_entries, sheet_svg
from ui.pulka_shapes import sheet_number
from ui.pulka_sheet_pdf import sheet_pdf

SVG = "{http://www.w3.org/2000/svg}"
CASES: dict[str, dict[str, Any]] = {c["id"]: c for c in golden.load("pulka_vectors.json")["cases"]}
PLAYABLE = [cid for cid, case in CASES.items() if "exit" not in case["expected"]]
LABELS = SheetLabels(
    sheet="пулька",
    pool="пуля",
    mountain="гора",
    whists="висты",
    help="помощь",
    write_off="списано с горы",
    raspasy="распасы",
    raspasy_step="шаг распасов",
    pool_target="пуля до",
    deal="Сдача",
    dealer="Сдаёт",
    contract="Игра",
    result="Результат",
    total="Итог",
    player="Игрок",
    closing="Закрытие",
    vists="Висты",
    whole_vists="Целые висты",
    rank="Место",
    misere="мизер",
    no_trump="БК",
    no_play="запись",
    in_progress="игра не окончена",
    rounding_off="Целые: %(seat)s списывает очко, остальные пишут на него по %(whists)s виста.",
    rounding_on="Целые: %(seat)s приписывает очко и пишет на каждого по %(whists)s виста.",
    rounding_none="Целые: округлять не понадобилось.",
    lang="ru",
)
HOSTILE = {"N": '<script>&"', "E": "Ёлкина\u202eлизавета\x00", "S": "O'Brien & <Co>", "W": "Григорьев"}


def scored(case_id: str) -> tuple[dict[str, str], PulkaScore]:
    document, score = score_document(CASES[case_id]["input"])
    return dict(document.names), score


def texts(svg: str) -> list[str]:
    """The text of every <text> element of the picture, its spans joined."""
    root = ET.fromstring(svg)
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("case_id", PLAYABLE)
def test_every_vector_draws_valid_svg(case_id: str) -> None:
    names, score = scored(case_id)
    svg = sheet_svg(score, names=names, labels=LABELS)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("width") == "100%"
    assert root.get("viewBox") and "px" not in (root.get("width") or "")
    drawn = "\n".join(texts(svg))
    for seat, name in names.items():
        assert seat in drawn and name in drawn
    assert all(name in (root.get("aria-label") or "") for name in names.values())


def test_hostile_names_are_escaped_and_cleaned() -> None:
    _, score = scored("V06")
    svg = sheet_svg(score, names=HOSTILE, labels=LABELS)
    assert "<script>" not in svg and "&lt;script&gt;&amp;&quot;" in svg
    root = ET.fromstring(svg)  # a NUL would make it unreadable
    drawn = "\n".join(texts(svg))
    assert '<script>&"' in drawn and "O'Brien & <Co>" in drawn  # whole, never cut with an ellipsis
    assert "\u202e" not in svg and "\x00" not in svg  # no direction override: "evil" must not read "live"
    label = root.get("aria-label") or ""
    assert '<script>&"' in label and "O'Brien & <Co>" in label and "Ёлкинализавета" in label


def test_v06_four_players_running_totals_help_and_write_off() -> None:
    names, score = scored("V06")
    drawn = texts(sheet_svg(score, names=names, labels=LABELS))
    assert "4*.6*" in drawn  # W's pool: both points came as help
    assert "2.6*" in drawn  # S's pool: 2, then helped to 6
    assert "−6↓" in drawn  # E wrote the rest of his nine off the mountain (P-3)
    assert drawn.count("40*") == 2 and "20*" in drawn  # N's help whists on S and W, E's on W
    assert sorted(t for t in drawn if re.fullmatch(r"висты [NESW]", t)) == sorted(
        f"висты {o}" for s in "NESW" for o in "NESW" if o != s
    )  # one whist cell per opponent, 12 at four players
    assert any("помощь" in t and "списано с горы" in t for t in drawn)  # the legend
    assert not any(t.startswith("×") for t in drawn)  # no progression: no raspasy badge


def test_v07_three_players_mountains_closing_and_raspasy_badge() -> None:
    names, score = scored("V07")
    drawn = texts(sheet_svg(score, names=names, labels=LABELS))
    # the mountains deal by deal, then the closing entries of the stopped game (9, 10, 8)
    assert {"3.5.14.23", "6.9.13.23", "1.10.13.19.27"} <= set(drawn)
    assert sum(1 for t in drawn if re.fullmatch(r"висты [NES]", t)) == 6
    assert "×1" in drawn  # the last raspasy chain is at step 1
    table = "\n".join(drawn)
    for value in ("13,33", "−26,67", "14", "13", "−27", "1-2"):  # exact vists with two places, whole ones
        assert value in drawn, value
    assert "шаг распасов" in table and "помощь" not in table
    # 40/3, 40/3, -80/3: N, first of the final order, writes a point off, the others 3 whists on him (4.2.12)
    assert "Целые: N списывает очко, остальные пишут на него по 3 виста." in " ".join(drawn)
    assert not re.search(r"\d+/\d+", table)  # no fraction is drawn


def test_numbers_take_the_labels_language_and_the_rounding_line_says_when_none_was_needed() -> None:
    names, score = scored("V07")
    english = " ".join(texts(sheet_svg(score, names=names, labels=replace(LABELS, lang="en"))))
    assert "13.33" in english and "−26.67" in english and "13,33" not in english
    names, score = scored("V06")
    assert score.rounding is None
    drawn = texts(sheet_svg(score, names=names, labels=LABELS))
    assert "85,00" in drawn and "−75" in drawn and "Целые: округлять не понадобилось." in drawn


def test_v04_help_marks_the_pool_and_whists() -> None:
    names, score = scored("V04")
    entries = running_entries(score)
    assert [(format(e.value), e.mark) for e in entries[("E", "pool", "")]] == [("2", ""), ("4", "help")]
    assert [(format(e.value), e.mark) for e in entries[("N", "whists", "E")]] == [("20", "help")]
    drawn = texts(sheet_svg(score, names=names, labels=LABELS))
    assert "2.4*" in drawn and "20*" in drawn


@pytest.mark.parametrize("players", [3, 4])
def test_an_empty_pulka_draws(players: int) -> None:
    setup = PulkaSetup.create(variant="sochi", players=players, pool=10, first_dealer="N")
    score = play_pulka(setup, [])
    names = {seat: f"Игрок {seat}" for seat in setup.seats}
    drawn = texts(sheet_svg(score, names=names, labels=LABELS))
    assert "10" in drawn and "игра не окончена" in drawn
    assert sum(1 for t in drawn if t.startswith("висты ")) == players * (players - 1)
    pdf = sheet_pdf(score, names=names, labels=LABELS, title="Пустая пулька")
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1


def test_long_lists_keep_the_latest_values_within_the_band() -> None:
    setup = PulkaSetup.create(variant="leningrad", players=3, pool=50, first_dealer="N")
    score = play_pulka(setup, random_pulka(random.Random(3), setup))
    entries = running_entries(score)
    longest = max(entries.values(), key=len)
    assert len(longest) > 10
    spans = fit_entries(longest, 120, 13.5, estimate_width, LABELS)
    text = "".join(s.text for s in spans)
    assert text.startswith("…") and estimate_width(text, 13.5) <= 120
    assert text.rstrip("*↓").endswith(sheet_number(longest[-1].value, LABELS))
    ET.fromstring(sheet_svg(score, names=HOSTILE, labels=LABELS))


def test_no_word_is_drawn_but_the_labels_and_the_names() -> None:
    labels = SheetLabels(**{f.name: f"Ж{i}" for i, f in enumerate(fields(SheetLabels))})
    for case_id in ("V06", "V07", "V08", "V11"):
        names, score = scored(case_id)
        drawn = " ".join(texts(sheet_svg(score, names=names, labels=labels)))
        for name in names.values():
            drawn = drawn.replace(name, "")
        assert not re.findall(r"[A-Za-zА-Яа-яЁё]{2,}", re.sub(r"Ж\d+", "", drawn)), drawn


@pytest.mark.parametrize("case_id", ["V06", "V07", "V02"])
def test_pdf_is_one_a4_page_with_cyrillic_names(case_id: str) -> None:
    names, score = scored(case_id)
    pdf = sheet_pdf(score, names=names, labels=LABELS, title=f"Пулька {case_id}")
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    text = reader.pages[0].extract_text()
    assert "Алексеев" in text and "Борисов" in text and f"Пулька {case_id}" in text
    assert "Итог" in text and "Сдаёт" in text
    assert "Целые:" in text and not re.search(r"\d+/\d+", text)  # the rounding line; no fraction anywhere


def test_pdf_of_a_long_pulka_with_hostile_names_stays_one_page() -> None:
    setup = PulkaSetup.create(
        variant="sochi", players=4, pool=50, first_dealer="E", rules={"progression": "arithmetic"}
    )
    score = play_pulka(setup, random_pulka(random.Random(7), setup))
    assert len(score.deals) > 40
    pdf = sheet_pdf(score, names=HOSTILE, labels=LABELS, title='<b>Стол "1" & 2</b>')
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "Ёлкина" in text and "Итог" in text and '<b>Стол "1" & 2</b>' in text
