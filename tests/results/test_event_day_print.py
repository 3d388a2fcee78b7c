"""Issue 17, «print that works»: the seating and PIN slips as PDFs, and protocols several to a sheet.

- The seating PDF of a session has every seat of every table of every round, each participant (number and
  name) in his seat's column (N E S W), the room where there are two, and the round's resting player.
- PIN slips: one per participant with the event, his number, name and PIN and the table (code, address) where
  he sits down first; several slips to an A4 page.
- The protocols PDF packs several boards to a page (13 participants, 52 boards: far fewer than 52 pages), and
  every board's protocol is in it, for a 4-player and a 3-player event.
- The director's seating, PINs and exports pages link these files; the exports page carries the director's tabs.

The text of a PDF is read with ``pdftotext -layout`` (poppler): a table's row is one line, its cells left to
right, so «in the right column» is «in the right place of the line».
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import timezone
from pypdf import PdfReader

from duplicate.rounds import movement_choose
from events.bundles import import_bundle
from preferans.simulate import simulated_bundle
from results.services import build_file
from tests.conftest import in_ci
from tests.html import parse
from tournaments.models import Participant, Seating, Session, Table, Tournament
from tournaments.personal_links import personal_token
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db
LINES = ("N", "E", "S", "W")


def _poppler(tool: str) -> None:
    if shutil.which(tool) is None:
        if in_ci():
            pytest.fail(f"CI=true but poppler's {tool} is not installed: .ci/run installs poppler-utils")
        pytest.skip(f"poppler's {tool} is not installed")


def rendered_pages(body: bytes, tmp: Path) -> list[Path]:
    """Every page rendered by ``pdftoppm`` (greyscale, 30 dpi); each must carry ink (no blank or broken page)."""
    _poppler("pdftoppm")
    subprocess.run(["pdftoppm", "-r", "30", "-gray", "-", str(tmp / "page")], input=body, check=True)
    pages = sorted(tmp.glob("page*.pgm"))
    for page in pages:
        data = page.read_bytes()
        _magic, width, height, _rest = data.split(maxsplit=3)  # P5, width, height, "255\n" + the raster
        raster = data[-int(width) * int(height) :]
        assert sum(1 for v in raster if v < 128) > 50, f"{page.name} is blank"
    return pages


def pdf_lines(body: bytes, tmp: Path | None = None) -> list[str]:
    """The PDF's text, one line per printed line (``pdftotext -layout``); rendered first when ``tmp`` is given."""
    if tmp is not None:
        assert len(rendered_pages(body, tmp)) == len(PdfReader(io.BytesIO(body)).pages)
    _poppler("pdftotext")
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=body, capture_output=True, check=True)
    return out.stdout.decode("utf-8").splitlines()


def seat_token(p: Participant) -> str:
    return rf"{p.number}\s+{re.escape(p.name)}"


def assert_every_seat(lines: list[str], t: Tournament, session: Session, *, round_word: str = "Тур") -> None:
    """Under each round's heading, each table's row names its N, E, S (W) in that order, after the table number
    (and the room); the column titles read N E S W."""
    seatings = Seating.objects.filter(session=session).select_related("seat_n", "seat_e", "seat_s", "seat_w")
    rounds: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        m = re.match(rf"^\s*{round_word} (\d+)\s*$", line)
        if m:
            current = rounds.setdefault(int(m.group(1)), [])
        elif current is not None:
            current.append(line)
    numbers = sorted({s.round_number for s in seatings})
    assert sorted(rounds) == numbers, "every round has its heading"
    seats = LINES[: t.players_per_table]
    for number, block in rounds.items():
        assert any(re.search(r"\s+".join(seats) + r"\s*$", line) for line in block), f"round {number}: titles"
    many_rooms = seatings.filter(room__gt=1).exists()
    for s in seatings:
        people = [p for p in (s.seat_n, s.seat_e, s.seat_s, s.seat_w) if p is not None]
        assert len(people) == t.players_per_table
        lead = (rf"{s.room}\s+" if many_rooms else "") + rf"{s.table_number}\s+{s.set_number}\s+"
        row = re.compile(r"^\s*" + lead + r"\s+".join(seat_token(p) for p in people) + r"\s*$")
        found = [line for line in rounds[s.round_number] if row.search(line)]
        assert len(found) == 1, f"round {s.round_number}, table {s.room}/{s.table_number}: {people}"


def seated_event(director, *, name: str, slug: str, count: int, spec: dict) -> Tournament:  # type: ignore[no-untyped-def]
    """A 4-player event of ``count`` participants («Игрок01»…, PIN 2001…) seated by the movement ``spec``."""
    t = tournament_create(name=name, user=director, slug=slug, players_per_table=4, now=timezone.now())
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок{n:02d}", pin=f"{2000 + n}")
        for n in range(1, count + 1)
    )
    movement_choose(session=t.sessions.get(number=1), user=director, spec=spec, now=timezone.now())
    return t


@pytest.fixture
def thirteen(db, director) -> Tournament:
    """13 participants at 4-player tables, the book's movement: 13 rounds, one player resting in each."""
    return seated_event(
        director, name="Кубок Сочи", slug="sochi13", count=13, spec={"scheme": "book", "participants": 13}
    )


@pytest.fixture
def two_rooms(db, director) -> Tournament:
    return seated_event(
        director, name="Два зала", slug="rooms", count=24, spec={"scheme": "basic", "tables": 3, "rooms": 2}
    )


@pytest.fixture
def played13(db, director) -> Tournament:
    """The 13-participant event with every board played (52 boards), the session over."""
    bundle = simulated_bundle(
        name="Тринадцать",
        movement={"scheme": "book", "participants": 13},
        seed=5,
        participants=[{"number": n, "name": f"Игрок{n:02d}"} for n in range(1, 14)],
    )
    t = import_bundle(data=bundle, user=director, slug="played13", now=timezone.now())
    Session.objects.filter(tournament=t).update(status=Session.Status.FINISHED)
    return t


# -- the seating -------------------------------------------------------------------------------------------
def test_seating_pdf_has_every_seat_in_its_column_and_the_resting_player(thirteen, tmp_path):
    name, body = build_file(thirteen.pk, "seating", "pdf", {"session": 1})
    assert name == "sochi13-seating-s1-ru.pdf"
    lines = pdf_lines(body, tmp_path)  # every page rendered by pdftoppm, none blank
    assert_every_seat(lines, thirteen, thirteen.sessions.get(number=1))
    text = "\n".join(lines)
    assert "Рассадка" in text and "Кубок Сочи" in text and "Сессия 1" in text
    seated = {
        (s.round_number, p.number)
        for s in Seating.objects.filter(session__tournament=thirteen)
        for p in s.seats().values()
        if p
    }
    for rnd in range(1, 14):  # the one participant not seated in a round is named on its «Отдыхают» line
        (resting,) = [n for n in range(1, 14) if (rnd, n) not in seated]
        assert re.search(rf"Отдыхают: № {resting} Игрок{resting:02d}", text), rnd
    assert len(PdfReader(io.BytesIO(body)).pages) <= 4  # landscape A4: four names a row stay readable


def test_seating_pdf_of_two_rooms_names_the_room(two_rooms):
    _name, body = build_file(two_rooms.pk, "seating", "pdf", {"session": 1, "lang": "en"})
    lines = pdf_lines(body)
    assert any(re.search(r"Room\s+Table\s+Set\s+N\s+E\s+S\s+W", line) for line in lines)
    assert_every_seat(lines, two_rooms, two_rooms.sessions.get(number=1), round_word="Round")


def test_seating_pdf_of_three_player_tables(three):
    session = three.sessions.get(number=2)
    _name, body = build_file(three.pk, "seating", "pdf", {"session": 2})
    lines = pdf_lines(body)
    assert_every_seat(lines, three, session, round_word="Round")
    assert not any(re.search(r"\bW\b", line) for line in lines), "no W column at 3-player tables"


def test_seating_pdf_without_a_movement_is_refused_in_words(director):
    t = tournament_create(name="Пусто", user=director, slug="empty", players_per_table=4, now=timezone.now())
    from results.exporters import ExportError

    with pytest.raises(ExportError, match="Session 1 has no movement|В сессии 1 нет|1"):
        build_file(t.pk, "seating", "pdf", {"session": 1})


# -- PIN slips ---------------------------------------------------------------------------------------------
def test_pin_slips_carry_the_event_the_pin_the_starting_table_and_the_own_link(thirteen):
    session = thirteen.sessions.get(number=1)
    _name, body = build_file(
        thirteen.pk, "pin_slips", "pdf", {"session": 1, "base_url": "https://pref.example/"}
    )
    reader = PdfReader(io.BytesIO(body))
    assert len(reader.pages) == 2  # 13 slips, 12 to a page
    text = "\n".join(pdf_lines(body))
    assert text.count("Кубок Сочи") >= 13 + 2  # each slip, and each page's heading
    codes = {(t.room, t.number): t.code for t in Table.objects.filter(session=session)}
    seatings = list(Seating.objects.filter(session=session).order_by("round_number", "room", "table_number"))
    for p in Participant.objects.filter(tournament=thirteen):
        start = next(s for s in seatings if p in s.seats().values())  # his first round's table
        seat = next(line for line, q in start.seats().items() if q == p)
        code = codes[(start.room, start.table_number)]
        assert f"№ {p.number} Игрок{p.number:02d}" in text
        assert f"PIN: {p.pin}" in text
        where = f"Стол {start.table_number}, позиция {seat} · {code}"
        if start.round_number != 1:
            where = f"Тур {start.round_number}: {where}"
        assert f"Начало: {where}" in text, p.number
        # his own link (the QR code opens the same), not the starting table's: it leads to his table every round
        assert f"https://pref.example/p/{personal_token(p)}/" in text


def test_pin_slips_without_a_movement_still_print_the_pins(director):
    t = tournament_create(
        name="Без движения", user=director, slug="nomove", players_per_table=4, now=timezone.now()
    )
    Participant.objects.create(tournament=t, number=1, name="Иванов", pin="4321")
    _name, body = build_file(t.pk, "pin_slips", "pdf", {"session": 1})
    text = "\n".join(pdf_lines(body))
    assert "№ 1 Иванов" in text and "PIN: 4321" in text and "в этой сессии не играет" in text


# -- protocols, several to a page --------------------------------------------------------------------------
def test_protocols_pdf_packs_several_boards_to_a_page_13_participants(played13, tmp_path):
    from scoring.models import Result

    _name, body = build_file(played13.pk, "protocols", "pdf")
    pages = len(PdfReader(io.BytesIO(body)).pages)
    assert pages <= 52 // 2, pages  # was one page per board (52); three to a page here
    lines = pdf_lines(body, tmp_path)  # every page rendered by pdftoppm, none blank
    headings = [int(m.group(1)) for line in lines if (m := re.search(r"ПРОТОКОЛ · Сдача (\d+)", line))]
    assert headings == list(range(1, 53)), "every board's protocol, once, in order"
    # Every seat of every row: under its board's heading, the row of (round, table) names the participants who sat
    # N, E, S and W there, each followed by his vists and matchpoints.
    sections: dict[int, list[str]] = {}
    for line in lines:
        if m := re.search(r"ПРОТОКОЛ · Сдача (\d+)", line):
            current = sections.setdefault(int(m.group(1)), [])
        elif sections:
            current.append(line)
    seatings = {
        (s.round_number, s.table_number): s for s in Seating.objects.filter(session__tournament=played13)
    }
    rows = Result.objects.filter(session__tournament=played13)
    assert rows.count() == 52 * 3
    for r in rows:
        seat = seatings[(r.round_number, r.table_number)]
        numbers = [p.number for p in (seat.seat_n, seat.seat_e, seat.seat_s, seat.seat_w)]
        row = re.compile(
            rf"^\s*{r.round_number}\s+{r.table_number}\s+.*?"
            + "".join(rf"\s+{n}\s+\S+\s+\S+" for n in numbers)
        )
        assert sum(1 for line in sections[r.board_number] if row.search(line)) == 1, (r.board_number, numbers)


def test_protocols_pdf_packs_a_three_player_event(three):
    _name, body = build_file(three.pk, "protocols", "pdf")
    pages = len(PdfReader(io.BytesIO(body)).pages)
    lines = pdf_lines(body)
    headings = [
        (int(m.group(1)), int(m.group(2)))
        for line in lines
        if (m := re.search(r"PROTOCOL · Session (\d) · Board (\d+)", line))
    ]
    expected = sorted({(s, b) for s in (1, 2) for b in range(1, 16)})
    assert headings == expected
    assert pages <= len(expected) // 2, pages


# -- the pages that link them ------------------------------------------------------------------------------
def test_seating_and_pins_pages_offer_print_and_their_pdfs(
    client, director, thirteen, django_capture_on_commit_callbacks
):
    client.force_login(director)
    seating = parse(
        client.get("/director/sochi13/s1/seating/", headers={"accept-language": "ru"}).content.decode()
    )
    kinds = {b.get("data-pdf") for b in seating.find_all("button") if b.get("data-pdf")}
    assert kinds == {"seating", "table_cards", "row_of_sets"}
    buttons = [b.text().strip() for b in seating.find_all("button")]
    assert "Печать" in buttons and "Карточки столов, PDF" in buttons
    assert len(seating.find_all("section", class_="round-block")) == 13
    pins = parse(
        client.get("/director/sochi13/participants/pins/", headers={"accept-language": "ru"}).content.decode()
    )
    assert {b.get("data-pdf") for b in pins.find_all("button") if b.get("data-pdf")} == {"pin_slips"}
    # The button starts the export job through the exports page, like the exports page's own form.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/t/sochi13/exports/", {"kind": "pin_slips", "format": "pdf", "session": "1"})
    assert response.status_code == 302
    from results.models import ExportJob

    job = ExportJob.objects.get(kind="pin_slips")
    assert job.status == ExportJob.Status.DONE and job.options["filename"] == "sochi13-pin-slips-s1-ru.pdf"


def test_exports_page_carries_the_directors_tabs(client, director, thirteen):
    client.force_login(director)
    doc = parse(client.get("/t/sochi13/exports/", headers={"accept-language": "ru"}).content.decode())
    tabs = doc.find("nav", class_="d-tabs")
    assert tabs is not None
    assert "/director/sochi13/s1/seating/" in {a.get("href") for a in tabs.find_all("a")}
    assert doc.find("form", data_kind="seating") is not None
    assert doc.find("form", data_kind="pin_slips") is not None
