"""The public results of pulka events (standings, bracket, rounds, a player's path) and their files."""

from __future__ import annotations

import io
import random
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from preferans.numbers import parse_fraction
from pulkas.models import PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.services.sheet import load_sheet
from pulkas.services.standings import event_table
from results.exporters import ExportError
from results.models import ExportJob
from results.pulka_exports.labels import sheet_labels
from results.services import build_file
from tests.html import english_phrases, parse, visible_text
from tests.publishing import publish_to
from tests.pulkas.factory import SURNAMES, play_to_the_end, pulka_event
from tournaments.models import Participant, Publication
from ui.pulka_sheet_pdf import sheet_pdf

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    """Generated files go to a temporary folder, not the project's media/."""
    settings.MEDIA_ROOT = tmp_path / "media"


def publish(t) -> None:
    """The event's director publishes provisional results, acknowledging what is still open."""
    publish_to(t, Publication.PROVISIONAL, t.directors.get(), timezone.now())


@pytest.fixture
def olympic(director):
    """15 players at tables of 3: five winners (a table of 4 and a bye), then a final of 3 with a lucky loser —
    by the regulation's option of lucky losers and byes (not from the book: off by default)."""
    t = pulka_event(
        director, "olympic", 15, 3, slug="olympic-cup", names=SURNAMES, pool=4, olympic_refill=True
    )
    rng = random.Random(11)
    for _ in range(3):
        play_to_the_end(t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), rng)
    return t


@pytest.fixture
def swiss(director):
    """12 players, 3 rounds, the top 8 kept after round 2."""
    t = pulka_event(
        director, "swiss", 12, 4, slug="swiss-cup", names=SURNAMES, pool=4, rounds=3, cut_after=2, cut_to=8
    )
    rng = random.Random(5)
    for _ in range(3):
        play_to_the_end(
            t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), rng, deals=5
        )
    return t


def url(name: str, t, **kwargs) -> str:
    return reverse(f"results:pulka-{name}", kwargs={"slug": t.slug, **kwargs})


def pages(t) -> list[str]:
    out = [url("standings", t), url("round", t, number=1), url("player", t, number=1)]
    if t.form == "olympic":
        out.append(url("bracket", t))
    return out


def director_client(director) -> Client:
    client = Client()
    client.force_login(director)
    return client


# -- publication ---------------------------------------------------------------------------------------------
def test_nothing_public_before_publication_directors_always(olympic, director, other_user) -> None:
    stranger = Client()
    someone = Client()
    someone.force_login(other_user)
    boss = director_client(director)
    for page in pages(olympic):
        for client in (stranger, someone):
            response = client.get(page)
            assert response.status_code == 403, page
            assert "Борисова" not in response.content.decode()
            assert [t.name for t in response.templates][0] == "results/unpublished.html"
        assert boss.get(page).status_code == 200, page
    publish(olympic)
    for page in pages(olympic):
        response = stranger.get(page)
        assert response.status_code == 200, page
        assert parse(response).by_id("live-region") is not None


def test_not_a_pulka_event_or_no_such_round_or_player_is_404(tournament, published, swiss, director) -> None:
    publish(swiss)
    client = Client()
    assert client.get(reverse("results:pulka-standings", kwargs={"slug": tournament.slug})).status_code == 404
    assert client.get(url("bracket", swiss)).status_code == 404  # the bracket is Olympic only
    assert client.get(url("round", swiss, number=9)).status_code == 404
    assert client.get(url("player", swiss, number=99)).status_code == 404
    assert client.get("/t/no-such-event/pulka/").status_code == 404


# -- what the pages say --------------------------------------------------------------------------------------
def test_rating_table_in_event_table_order_with_the_cut_line(swiss) -> None:
    publish(swiss)
    doc = parse(Client().get(url("standings", swiss)))
    rows = doc.one("table", id="standings").find_all("tr", data_participant=True)
    lines = event_table(swiss).lines
    assert [int(r.get("data-participant")) for r in rows] == [line.participant.number for line in lines]
    assert [r.get("data-place") for r in rows] == [line.place for line in lines]
    assert [bool(r.get("data-cut")) for r in rows] == [False] * 8 + [True] * 4
    cut_line = doc.one("tr", id="cut-line")
    body = cut_line.parent
    order = [c for c in body.children if not isinstance(c, str)]
    assert order.index(cut_line) == 8  # drawn between the last who went on and the first who did not
    # round 3: the cut players did not play; the totals shown are the exact totals rounded
    for row, line in zip(rows, lines, strict=True):
        cells = row.find_all("td", class_="round-cell")
        assert len(cells) == 3
        if line.cut:
            assert cells[2].text() == "—"
        total = row.one("td", class_="total")
        assert total.get("title") in ("", f"{line.total.numerator}/{line.total.denominator}")


def test_olympic_standings_final_first_then_by_round_out(olympic) -> None:
    publish(olympic)
    doc = parse(Client().get(url("standings", olympic)))
    rows = doc.one("table", id="standings").find_all("tr", data_participant=True)
    lines = event_table(olympic).lines
    assert [int(r.get("data-participant")) for r in rows] == [line.participant.number for line in lines]
    final = PulkaRound.objects.filter(tournament=olympic).order_by("-number").first()
    finalists = {p for t in final.tables.all() for p in t.seat_ids().values()}
    assert {line.participant.pk for line in lines[: len(finalists)]} == finalists
    assert doc.by_id("champion") is not None


def test_bracket_shows_who_went_on(olympic) -> None:
    publish(olympic)
    doc = parse(Client().get(url("bracket", olympic)))
    columns = doc.one(id="bracket").find_all("section", class_="bracket-round")
    all_rounds = list(PulkaRound.objects.filter(tournament=olympic).order_by("number"))
    assert [int(c.get("data-round")) for c in columns] == [r.number for r in all_rounds]
    for column, r, following in zip(columns, all_rounds, [*all_rounds[1:], None], strict=True):
        boxes = column.find_all("div", data_table=True)
        assert [int(b.get("data-table")) for b in boxes] == [t.number for t in r.tables.order_by("number")]
        went = {int(x.get("data-participant")) for b in boxes for x in b.find_all("tr", data_went_on="1")}
        if following is None:
            assert not went
            winners = [x for b in boxes for x in b.find_all("tr", data_winner="1")]
            assert len(winners) >= 1
            continue
        nxt = {p.number for t in following.tables.all() for p in t.seats().values()}
        nxt |= {
            b.participant.number for b in following.byes.select_related("participant")
        }  # a bye goes on too
        drawn_byes = {b.participant_id for b in r.byes.all()}
        played_here = {p.number for t in r.tables.all() for p in t.seats().values()}
        assert went == nxt & played_here
        assert not drawn_byes or column.find("div", data_byes="1") is not None


def test_round_page_tables_results_and_the_seating_of_the_next(swiss) -> None:
    publish(swiss)
    doc = parse(Client().get(url("round", swiss, number=1)))
    r1 = PulkaRound.objects.get(tournament=swiss, number=1)
    for table in r1.tables.all():
        box = doc.one("section", data_table=table.number)
        for result in table.results.select_related("participant"):
            row = box.one("tr", data_participant=result.participant.number)
            assert row.get("data-seat") == result.seat
            assert row.one("td", class_="rank").text() == result.rank
    r2 = PulkaRound.objects.get(tournament=swiss, number=2)
    seating = doc.one(id="seating").find_all("li", data_table=True)
    assert [int(li.get("data-table")) for li in seating] == [t.number for t in r2.tables.order_by("number")]
    for li, table in zip(seating, r2.tables.order_by("number"), strict=True):
        assert [int(s.get("data-participant")) for s in li.find_all("span", class_="seated")] == [
            p.number for p in table.seats().values()
        ]
    last = parse(Client().get(url("round", swiss, number=3)))
    assert last.one(id="seating").find("li") is None and last.by_id("not-drawn") is None


def test_round_not_drawn_yet_note(director) -> None:
    t = pulka_event(director, "compensation", 8, 4, slug="comp-cup", names=SURNAMES, pool=4, rounds=3)
    play_to_the_end(
        t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), random.Random(1), 3
    )
    publish(t)
    doc = parse(Client().get(url("round", t, number=1)))
    assert doc.by_id("not-drawn") is not None


def test_player_path(olympic) -> None:
    publish(olympic)
    final = PulkaRound.objects.filter(tournament=olympic).order_by("-number").first()
    table = final.tables.get()
    winner_result = table.results.select_related("participant").order_by("rank").first()
    person = winner_result.participant
    doc = parse(Client().get(url("player", olympic, number=person.number)))
    steps = doc.one(id="path").find_all("li", data_round=True)
    assert len(steps) == PulkaRound.objects.filter(tournament=olympic).count()
    last = steps[-1]
    assert last.get("data-table") == "1" and last.get("data-seat") == winner_result.seat
    assert last.one("b", class_="rank").text() == winner_result.rank
    line = next(x for x in event_table(olympic).lines if x.participant.pk == person.pk)
    assert doc.one(id="summary").get("data-place") == line.place


def test_russian_pages_have_no_english(olympic, swiss) -> None:
    publish(olympic)
    publish(swiss)
    client = Client()
    for t in (olympic, swiss):
        names = [p.name for p in t.participants.all()] + [t.name]
        for page in [*pages(t), url("round", t, number=2), url("player", t, number=5)]:
            response = client.get(page, HTTP_ACCEPT_LANGUAGE="ru")
            assert response.status_code == 200
            assert english_phrases(visible_text(response), *names) == [], page


def test_vists_shown_rounded_with_the_exact_value_as_a_title(swiss) -> None:
    publish(swiss)
    results = [r for t in PulkaTable.objects.filter(round__tournament=swiss) for r in t.results.all()]
    result = max(results, key=lambda r: parse_fraction(r.vists).denominator)  # a fraction when there is one
    doc = parse(Client().get(url("round", swiss, number=result.table.round.number)))
    row = doc.one("section", data_table=result.table.number).one(
        "tr", data_participant=result.participant.number
    )
    vists = parse_fraction(result.vists)
    cell = row.find_all("td", class_="num")[0]
    assert cell.get("title") == ("" if vists.denominator == 1 else result.vists)
    assert abs(Fraction(cell.text().replace(",", ".").replace("−", "-")) - vists) <= Fraction(1, 200)


# -- the files ---------------------------------------------------------------------------------------------
def pdf_text(body: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(body))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_workbook_cells(swiss) -> None:
    name, body = build_file(swiss.pk, "pulka_workbook", "xlsx", {"lang": "ru"})
    assert name == "swiss-cup-pulka-workbook-ru.xlsx"
    wb = load_workbook(io.BytesIO(body))
    assert wb.sheetnames == [
        "Итоги",
        "Тур 1",
        "Тур 2",
        "Тур 3",
        "Тур 1 — сдачи",
        "Тур 2 — сдачи",
        "Тур 3 — сдачи",
    ]
    ws = wb["Итоги"]
    head = [c.value for c in ws[2]]
    assert head[:4] == ["Место", "№", "Фамилия, имя", "Клуб"] and "Сумма" in head
    assert not any("точно" in title for title in head)  # no fraction's text beside a number
    col = {title: i for i, title in enumerate(head)}
    lines = event_table(swiss).lines
    for row, line in zip(ws.iter_rows(min_row=3), lines, strict=True):
        values = [c.value for c in row]
        place = int(line.place) if str(line.place).isdigit() else line.place  # a number where it is one
        assert (values[0], values[1], values[2]) == (place, line.participant.number, line.participant.name)
        for i, rating in enumerate(line.ratings, start=1):
            cell = row[col[f"Тур {i}: Рейтинг"]]
            assert cell.value == (None if rating is None else pytest.approx(float(rating), abs=1e-9))
        total = row[col["Сумма"]]
        assert total.value == float(line.total) and total.number_format == "0.00"  # the exact value's double
        assert (values[col["Отсев"]] is not None) == line.cut
    # a round's sheet: every player's vists and rating as the table's results store them, and the rounding
    r1 = PulkaRound.objects.get(tournament=swiss, number=1)
    ws = wb["Тур 1"]
    head = [c.value for c in ws[2]]
    col = {title: i for i, title in enumerate(head)}
    stored = {(r.table.number, r.seat): r for t in r1.tables.all() for r in t.results.select_related("table")}
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=3)]
    assert len(rows) == len(stored)
    for values in rows:
        result = stored[(values[col["Стол"]], values[col["Позиция"]])]
        vists = parse_fraction(result.vists)
        assert values[col["Висты"]] == float(vists)
        assert values[col["Целые висты"]] == result.integer_vists
        rounding = load_sheet(result.table).score().rounding
        said = values[col["Как округлены целые висты (Кодекс 4.2.12)"]]
        assert (said is not None) == (rounding is not None and rounding.seat == result.seat)
        assert values[col["Рейтинг"]] == pytest.approx(float(parse_fraction(result.rating)), abs=1e-9)
        assert values[col["Место за столом"]] == result.rank
    # the deals: each table's rows sum to its settlement, and its vists are the stored ones, exactly
    ws = wb["Тур 1 — сдачи"]
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=3)]
    for table in r1.tables.order_by("number"):
        mine = [v for v in rows if v[0] == table.number]
        deals = [v for v in mine if v[1] is not None]
        assert [v[1] for v in deals] == list(range(1, table.deals_count + 1))
        by_label = {v[3]: v for v in mine if v[1] is None}
        seats = list(table.seat_ids())
        for i, seat in enumerate(seats):
            total = sum(Fraction(v[4 + i]).limit_denominator(1000) for v in deals)
            assert float(total) == pytest.approx(by_label["Итог по сдачам"][4 + i], abs=1e-6)
            assert by_label["Висты"][4 + i] == float(parse_fraction(table.results.get(seat=seat).vists))
        assert any(str(label).startswith("Целые висты по Кодексу 4.2.12") for label in by_label)
        assert by_label["Игроки"][4] == f"{table.seat_n.number} {table.seat_n.name}"


def test_pdfs_pages_and_russian_text(olympic) -> None:
    rounds_ = list(PulkaRound.objects.filter(tournament=olympic).order_by("number"))
    names = [p.name for p in olympic.participants.all()]
    pages, text = pdf_text(build_file(olympic.pk, "pulka_standings", "pdf", {"lang": "ru"})[1])
    assert pages == 1 and "Итоговая таблица" in text and all(n in text for n in names)
    pages, text = pdf_text(build_file(olympic.pk, "pulka_bracket", "pdf", {"lang": "ru"})[1])
    assert pages == 1 and "Финал" in text and "Без стола" in text
    assert all(n in text for n in names)  # every player has his box
    for r in rounds_:
        name, body = build_file(olympic.pk, "pulka_seating", "pdf", {"lang": "ru", "session": r.number})
        assert name == f"olympic-cup-pulka-seating-r{r.number}-ru.pdf"
        pages, text = pdf_text(body)
        assert pages == 1 and "По фамилиям" in text
        seated = [p.name for t in r.tables.all() for p in t.seats().values()]
        assert all(text.count(n) == 2 for n in seated)  # once by table, once by name
    first = rounds_[0]
    name, body = build_file(olympic.pk, "pulka_sheets", "pdf", {"lang": "ru", "session": 1})
    pages, text = pdf_text(body)
    assert pages == first.tables.count() == 5
    assert all(f"Стол {n}" in text for n in range(1, 6)) and "гора" in text
    # the last round by default; English on request
    assert build_file(olympic.pk, "pulka_sheets", "pdf", {"lang": "en"})[0].endswith(
        f"-r{rounds_[-1].number}-en.pdf"
    )
    assert (
        "Seating for the final"
        in pdf_text(build_file(olympic.pk, "pulka_seating", "pdf", {"lang": "en"})[1])[1]
    )


def test_pulka_files_only_for_their_forms(swiss, tournament) -> None:
    with pytest.raises(ExportError):
        build_file(swiss.pk, "pulka_bracket", "pdf")  # Olympic only
    with pytest.raises(ExportError):
        build_file(tournament.pk, "pulka_standings", "pdf")  # a duplicate tournament
    with pytest.raises(ExportError):
        build_file(swiss.pk, "protocols", "pdf")  # the duplicate's files are not a pulka event's
    with pytest.raises(ExportError):
        build_file(swiss.pk, "pulka_seating", "pdf", {"session": 9})
    assert build_file(swiss.pk, "cost_table", "pdf")[1].startswith(b"%PDF")  # made for every form
    csv_text = build_file(swiss.pk, "pulka_standings", "csv", {"lang": "ru"})[1].decode("utf-8-sig")
    assert csv_text.splitlines()[0].startswith("Место;№")  # Russian Excel's dialect, no title line


def test_exports_page_and_a_job(olympic, tournament, director, django_capture_on_commit_callbacks) -> None:
    client = director_client(director)
    exports = reverse("results:exports", kwargs={"slug": olympic.slug})
    doc = parse(client.get(exports))
    kinds = {f.get("data-kind") for f in doc.find_all("form", data_kind=True)}
    assert {"pulka_standings", "pulka_workbook", "pulka_bracket", "pulka_seating", "pulka_sheets"} <= kinds
    assert not kinds & {"protocols", "cards", "pack", "table_cards", "row_of_sets"}
    assert doc.one("form", data_kind="pulka_seating").find("select", name="session") is not None
    tournament.directors.add(director)
    other = parse(client.get(reverse("results:exports", kwargs={"slug": tournament.slug})))
    assert not any(f.get("data-kind").startswith("pulka_") for f in other.find_all("form", data_kind=True))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(exports, {"kind": "pulka_seating", "format": "pdf", "session": "2"})
    job = ExportJob.objects.get(tournament=olympic)
    assert job.status == "done", job.message
    download = client.get(reverse("results:export-download", kwargs={"slug": olympic.slug, "pk": job.pk}))
    assert download["Content-Disposition"] == 'attachment; filename="olympic-cup-pulka-seating-r2-ru.pdf"'
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    assert (
        Client()
        .get(reverse("results:export-download", kwargs={"slug": olympic.slug, "pk": job.pk}))
        .status_code
        == 404
    )


def test_event_page_of_a_pulka_event(olympic) -> None:
    doc = parse(Client().get(reverse("tournament-detail", kwargs={"slug": olympic.slug})))
    assert doc.find("span", data_form="olympic") is not None
    assert doc.by_id("pulka-standings-link") is None  # not published yet
    assert not [a for a in doc.find_all("a") if "/standings/" in (a.get("href") or "")]
    publish(olympic)
    doc = parse(Client().get(reverse("tournament-detail", kwargs={"slug": olympic.slug})))
    assert doc.one("a", id="pulka-standings-link").get("href") == url("standings", olympic)
    hrefs = {a.get("href") for a in doc.find_all("a")}
    assert url("bracket", olympic) in hrefs and url("round", olympic, number=1) in hrefs
    assert not any("/boards/" in (h or "") or "/standings/" in (h or "") for h in hrefs)  # no duplicate pages
    rows = doc.one("table", id="pulka-standings").find_all("tr", data_participant=True)
    assert [int(r.get("data-participant")) for r in rows] == [
        x.participant.number for x in event_table(olympic).lines
    ]


def test_hostile_names_are_text_everywhere(director) -> None:
    t = pulka_event(director, "compensation", 3, 3, slug="hostile-cup", names=SURNAMES, pool=4, rounds=1)
    Participant.objects.filter(tournament=t, number=1).update(name='=HYPERLINK("http://evil","x")')
    Participant.objects.filter(tournament=t, number=2).update(
        name="<script>alert(1)</script>", club="@SUM(A1)"
    )
    play_to_the_end(
        t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), random.Random(3), 2
    )
    publish(t)
    for page in (url("standings", t), url("round", t, number=1), url("player", t, number=2)):
        html = Client().get(page).content.decode()
        assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    wb = load_workbook(io.BytesIO(build_file(t.pk, "pulka_workbook", "xlsx")[1]))
    cells = [c for ws in wb for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert not [c.value for c in cells if c.data_type == "f"]  # no formula, whatever the names
    assert any(c.value == '\'=HYPERLINK("http://evil","x")' for c in cells)
    assert any(c.value == "'@SUM(A1)" for c in cells)
    assert "&lt;script" not in pdf_text(build_file(t.pk, "pulka_standings", "pdf")[1])[1]


def test_a_rounds_sheets_are_the_sheet_pdf_pages(swiss) -> None:
    """results.pulka_exports draws ui.pulka_sheet_pdf's page on one canvas for the whole round: the same page, text for
    text, as the one-table file (if sheet_pdf's layout changes, this says the round's file must follow)."""
    _name, body = build_file(swiss.pk, "pulka_sheets", "pdf", {"lang": "ru", "session": 2})
    reader = PdfReader(io.BytesIO(body))
    r2 = PulkaRound.objects.get(tournament=swiss, number=2)
    tables = list(r2.tables.order_by("number"))
    assert len(reader.pages) == len(tables)
    for page, table in zip(reader.pages, tables, strict=True):
        names = {s: f"{p.number} {p.name}" for s, p in table.seats().items()}
        single = sheet_pdf(
            load_sheet(table).score(),
            names=names,
            labels=sheet_labels("ru"),
            title=f"{swiss.name} · Тур 2 · Стол {table.number}",
        )
        assert page.extract_text() == PdfReader(io.BytesIO(single)).pages[0].extract_text()


def test_a_bye_is_marked(director) -> None:
    t = pulka_event(director, "compensation", 5, 4, slug="bye-cup", names=SURNAMES, pool=4, rounds=2)
    play_to_the_end(
        t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), random.Random(2), 2
    )
    publish(t)
    (bye,) = PulkaRound.objects.get(tournament=t, number=1).byes.select_related("participant")
    doc = parse(Client().get(url("standings", t)))
    row = doc.one("tr", data_participant=bye.participant.number)
    assert row.one("td", data_round="1").find("span", data_bye="1") is not None
    assert len(doc.find_all("span", data_bye="1")) == 1
    page = parse(Client().get(url("round", t, number=1)))
    assert page.one(id="byes").one("a", data_participant=bye.participant.number) is not None
    wb = load_workbook(io.BytesIO(build_file(t.pk, "pulka_workbook", "xlsx", {"lang": "ru"})[1]))
    values = {r[1]: r for r in wb["Итоги"].iter_rows(min_row=3, values_only=True)}
    assert values[bye.participant.number][4:6] == ("без стола", 0)  # round 1: no table, a rating of 0


def test_the_workbook_labels_a_lucky_loser_as_not_from_the_book(olympic) -> None:
    """004-II «Остальные игроки выбывают»: a lucky loser exists only by the regulation's option, and every file
    that names one says it is not from the book, as the pages do."""
    wb = load_workbook(io.BytesIO(build_file(olympic.pk, "pulka_workbook", "xlsx", {"lang": "ru"})[1]))
    cells = [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value]
    assert "лучший из выбывших, не по правилам" in cells
    wb = load_workbook(io.BytesIO(build_file(olympic.pk, "pulka_workbook", "xlsx", {"lang": "en"})[1]))
    cells = [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value]
    assert "lucky loser, not from the book" in cells
