"""A pulka event's paper, as a duplicate event has it: the table cards of every round (the table's code, its
address in full and a QR code of it), the codes on the seating, the PIN slips with each player's own link (both
forms), and the director's rounds, exports and PINs pages offering them.

PDFs are read back with ``pdftotext -layout``; what a QR code holds is checked where it is drawn (the address
handed to ``draw_qr``), since no QR decoder is installed."""

from __future__ import annotations

import io
import random
import shutil
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from events.participants import participant_save
from pulkas.models import PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.simulate import play_round
from results import pdf_pin_slips
from results.exporters import ExportError
from results.models import ExportJob
from results.pulka_exports import table_cards
from results.services import build_file
from tests.conftest import in_ci
from tests.html import english_phrases, parse, visible_text
from tests.pulkas.factory import pulka_event
from tournaments.models import Tournament
from tournaments.personal_links import personal_token

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}
SITE = "https://pref.example/"
NAMES = ["Алексеев", "Борисова", "Воронцов", "Григорьева", "Дмитриев", "Егорова", "Жуков", "Зайцева", "Ильин"]


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def pdf_text(body: bytes) -> str:
    if shutil.which("pdftotext") is None:
        if in_ci():
            pytest.fail("CI=true but poppler's pdftotext is not installed")
        pytest.skip("poppler's pdftotext is not installed")
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=body, capture_output=True, check=True)
    return out.stdout.decode("utf-8")


def pages_of(body: bytes) -> list[str]:
    return pdf_text(body).split("\f")[: len(PdfReader(io.BytesIO(body)).pages)]


@pytest.fixture
def qr_codes(monkeypatch) -> list[str]:
    """Every address drawn as a QR code while the test makes files (the real drawing still runs)."""
    drawn: list[str] = []

    def spy(original):
        def draw(c, data, *args, **kwargs):
            drawn.append(data)
            return original(c, data, *args, **kwargs)

        return draw

    monkeypatch.setattr(table_cards, "draw_qr", spy(table_cards.draw_qr))
    monkeypatch.setattr(pdf_pin_slips, "draw_qr", spy(pdf_pin_slips.draw_qr))
    return drawn


def make_event(director, form: str, players: int, per_table: int, slug: str, **settings) -> Tournament:
    return pulka_event(
        director, form, players, per_table, name="Кубок Невы", slug=slug, names=NAMES, **settings
    )


def play(director, pulka_round: PulkaRound, seed: int, deals: int) -> None:
    now = timezone.now()
    rounds.start_round(pulka_round=pulka_round, user=director, now=now)
    play_round(pulka_round, random.Random(seed), now=now, deals=deals)
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now, reason="время вышло")
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)


@pytest.fixture
def event(director) -> Tournament:
    return played_event(director)


def played_event(director) -> Tournament:
    """A compensation event of 8 at tables of 4: round 1 played and ended, round 2 drawn, not started."""
    t = make_event(director, "compensation", 8, 4, "neva", pool=4, rounds=3)
    play(director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), seed=4, deals=3)
    rounds.draw_round(tournament=t, user=director, now=timezone.now())
    return t


def tables(t: Tournament, number: int) -> list[PulkaTable]:
    return list(PulkaTable.objects.filter(round__tournament=t, round__number=number).order_by("number"))


# -- table cards -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("number", [1, 2])
def test_table_cards_of_every_round_carry_the_code_the_address_and_its_qr(event, qr_codes, number) -> None:
    name, body = build_file(event.pk, "pulka_table_cards", "pdf", {"session": number, "base_url": SITE})
    assert name == f"neva-pulka-table-cards-r{number}-ru.pdf"
    pages = pages_of(body)
    drawn = tables(event, number)
    assert len(pages) == len(drawn) == 2  # one card a table
    for page, table in zip(pages, drawn, strict=True):
        assert "Кубок Невы" in page and f"Тур {number}" in page and f"Стол {table.number}" in page
        assert f"Код стола: {table.code}" in page
        assert (
            f"https://pref.example/pulka/{table.code}/" in page
        )  # the address in full, with the site's host
        for seat, p in table.seats().items():
            assert f"{seat}" in page and p.name in page
        assert not english_phrases(page)
    assert qr_codes == [f"https://pref.example/pulka/{t.code}/" for t in drawn]


def test_table_cards_without_a_round_chosen_are_the_latest_rounds_and_in_english_too(event) -> None:
    name, body = build_file(event.pk, "pulka_table_cards", "pdf", {"lang": "en"})
    assert name == "neva-pulka-table-cards-r2-en.pdf"
    text = pdf_text(body)
    for table in tables(event, 2):
        assert (
            f"Table code: {table.code}" in text and f"/pulka/{table.code}/" in text
        )  # a path without a host
    assert "Round 2" in text and "Стол" not in text


def test_no_round_drawn_no_table_cards(director) -> None:
    t = make_event(director, "swiss", 4, 4, "empty", pool=4, rounds=2)
    with pytest.raises(ExportError):
        build_file(t.pk, "pulka_table_cards", "pdf")


def test_the_seating_print_carries_each_tables_code(event) -> None:
    lines = pdf_text(build_file(event.pk, "pulka_seating", "pdf", {"session": 2})[1]).splitlines()
    assert any("Код стола" in line for line in lines)
    for table in tables(event, 2):
        first = table.seats()["N"]
        (line,) = [x for x in lines if table.code in x]
        # the table's first row: its number, its code, seat N and the player there
        assert line.split()[:3] == [str(table.number), table.code, "N"] and first.name in line


# -- PIN slips with the own link -------------------------------------------------------------------------------
def test_pulka_pin_slips_carry_the_pin_the_own_link_and_the_latest_table(event, qr_codes) -> None:
    name, body = build_file(event.pk, "pulka_pin_slips", "pdf", {"base_url": SITE})
    assert name == "neva-pulka-pin-slips-ru.pdf"
    text = pdf_text(body)
    people = list(event.participants.order_by("number"))
    for p in people:
        assert f"№ {p.number}  {p.name}" in text or f"№ {p.number} {p.name}" in text
        assert f"PIN: {p.pin}" in text
        assert f"https://pref.example/p/{personal_token(p)}/" in text
        (table,) = [t for t in tables(event, 2) if p.pk in t.seat_ids().values()]
        seat = next(s for s, q in table.seat_ids().items() if q == p.pk)
        assert f"Тур 2: Стол {table.number}, позиция {seat} · {table.code}" in text
    assert "Ваш стол в любом туре" in text and not english_phrases(text)
    assert qr_codes == [f"https://pref.example/p/{personal_token(p)}/" for p in people]


def test_pulka_pin_slips_before_the_draw_have_the_link_and_no_table(director) -> None:
    t = make_event(director, "olympic", 6, 3, "early", pool=4)
    text = pdf_text(build_file(t.pk, "pulka_pin_slips", "pdf")[1])
    for p in t.participants.all():
        assert f"/p/{personal_token(p)}/" in text and f"PIN: {p.pin}" in text
    assert "Тур" not in text.replace("Турнир", "")


def test_duplicate_pin_slips_qr_is_the_own_link(director, qr_codes) -> None:
    from duplicate.rounds import movement_choose
    from tournaments.services.event import tournament_create

    t = tournament_create(name="Кубок", user=director, slug="dup8", players_per_table=4, now=timezone.now())
    for n in range(1, 9):
        participant_save(now=timezone.now(), tournament=t, user=director, number=n, name=NAMES[n - 1])
    session = t.sessions.get(number=1)
    movement_choose(
        session=session, user=director, spec={"scheme": "book", "participants": 8}, now=timezone.now()
    )
    build_file(t.pk, "pin_slips", "pdf", {"session": 1, "base_url": SITE})
    assert qr_codes == [
        f"https://pref.example/p/{personal_token(p)}/" for p in t.participants.order_by("number")
    ]


# -- where the director finds them -----------------------------------------------------------------------------
def test_rounds_page_offers_the_rounds_files_and_makes_them(
    event, director, django_capture_on_commit_callbacks
) -> None:
    client = Client()
    client.force_login(director)
    page = client.get(reverse("director:pulka_rounds", kwargs={"slug": event.slug}) + "?round=1", headers=RU)
    bar = parse(page).one(id="round-files")
    forms = {f.one("button").get("data-pdf"): f for f in bar.find_all("form")}
    assert set(forms) == {"pulka_table_cards", "pulka_seating", "pulka_pin_slips"}
    assert forms["pulka_table_cards"].one("input", name="session").get("value") == "1"
    assert forms["pulka_pin_slips"].find("input", name="session") is None
    assert not english_phrases(visible_text(page))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            forms["pulka_table_cards"].get("action"),
            {"kind": "pulka_table_cards", "format": "pdf", "session": "1"},
        )
    assert response.status_code == 302
    job = ExportJob.objects.get(tournament=event, kind="pulka_table_cards")
    assert (
        job.status == ExportJob.Status.DONE and job.options["filename"] == "neva-pulka-table-cards-r1-ru.pdf"
    )
    assert job.options["base_url"] == "http://testserver/"  # the address in full, with the site's host
    exports = parse(client.get(reverse("results:exports", kwargs={"slug": event.slug}), headers=RU))
    assert exports.one("form", data_kind="pulka_table_cards").find("select", name="session") is not None
    assert exports.one("form", data_kind="pulka_pin_slips").find("select", name="session") is None
    pins = parse(client.get(reverse("director:pins", kwargs={"slug": event.slug}), headers=RU))
    assert {b.get("data-pdf") for b in pins.find_all("button") if b.get("data-pdf")} == {"pulka_pin_slips"}
