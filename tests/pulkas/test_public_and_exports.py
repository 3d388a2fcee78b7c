"""The public results of pulka events (standings, bracket, rounds, a player's path) and their files."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from preferans.numbers import parse_fraction
from pulkas.models import PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.services.event import pulka_event_create
from pulkas.services.standings import event_table
from pulkas.simulate import play_round
from tests.html import english_phrases, parse, visible_text
from tournaments.models import Participant, Publication

pytestmark = pytest.mark.django_db

NAMES = ["Алексеев", "Борисова", "Воронцов", "Григорьева", "Дмитриев", "Егорова", "Жуков", "Зайцева", "Ильин",
         "Кузнецова", "Лебедев", "Морозова", "Никитин", "Орлова", "Петров"]  # fmt: skip


def make_event(director, form: str, players: int, per_table: int, slug: str, **settings):
    t = pulka_event_create(
        name=f"Кубок {form}", form=form, user=director, now=timezone.now(), players_per_table=per_table,
        settings=settings, slug=slug,
    )  # fmt: skip
    for n in range(1, players + 1):
        Participant.objects.create(tournament=t, number=n, name=NAMES[n - 1], pin=f"{1000 + n}")
    return t


def play(t, director, pulka_round: PulkaRound, rng: random.Random, deals: int | None = None) -> None:
    now = timezone.now()
    rounds.start_round(pulka_round=pulka_round, user=director, now=now)
    play_round(pulka_round, rng, now=now, deals=deals)
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now)
    for table in PulkaTable.objects.filter(round=pulka_round):
        if table.advance and table.advance["tied"]:
            places = t.pulka_event.advance - len(table.advance["seats"])
            rounds.decide_tie(table=table, seats=table.advance["tied"][:places], user=director, now=now, reason="lot")
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)


def publish(t) -> None:
    t.publication = Publication.PROVISIONAL
    t.published_at = timezone.now()
    t.save(update_fields=["publication", "published_at"])


@pytest.fixture
def olympic(director):
    """15 players at tables of 3: five winners (a table of 4 and a bye), then a final of 3 with a lucky loser."""
    t = make_event(director, "olympic", 15, 3, "olympic-cup", pool=4)
    rng = random.Random(11)
    for _ in range(3):
        play(t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), rng)
    return t


@pytest.fixture
def swiss(director):
    """12 players, 3 rounds, the top 8 kept after round 2."""
    t = make_event(director, "swiss", 12, 4, "swiss-cup", pool=4, rounds=3, cut_after=2, cut_to=8)
    rng = random.Random(5)
    for _ in range(3):
        play(t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), rng, deals=5)
    return t


def url(name: str, t, **kwargs) -> str:
    return reverse(f"pulkas:public-{name}", kwargs={"slug": t.slug, **kwargs})


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
    assert client.get(reverse("pulkas:public-standings", kwargs={"slug": tournament.slug})).status_code == 404
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
        nxt |= {b.participant.number for b in following.byes.select_related("participant")}  # a bye goes on too
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
    t = make_event(director, "compensation", 8, 4, "comp-cup", pool=4, rounds=3)
    play(t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), random.Random(1), 3)
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
    row = doc.one("section", data_table=result.table.number).one("tr", data_participant=result.participant.number)
    vists = parse_fraction(result.vists)
    cell = row.find_all("td", class_="num")[0]
    assert cell.get("title") == ("" if vists.denominator == 1 else result.vists)
    assert abs(Fraction(cell.text().replace(",", ".").replace("\xa0", "")) - vists) <= Fraction(1, 200)
