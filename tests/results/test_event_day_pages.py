"""Issue 17, results on the event day: the personal chart marks rest rounds; the phone forms of the results pages
carry what a player needs; the projector for the playing hall."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duplicate.gaps import round_gaps
from duplicate.rests import session_rests
from duplicate.rounds import round_end, round_start
from events.bundles import import_bundle
from preferans.simulate import simulated_bundle
from scoring.models import Standing
from tests.html import parse
from tests.publishing import end_every_round, publish_to
from tournaments.models import Publication, Tournament


def thirteen_bundle(*, played_rounds: int | None = None) -> dict[str, Any]:
    """13 participants on four-player tables (book movement): one rests in each round."""
    people = [{"number": n, "name": f"Игрок {n}", "club": "Клуб"} for n in range(1, 14)]
    return simulated_bundle(
        name="Кубок 13",
        movement={"scheme": "book", "participants": 13},
        played_rounds=played_rounds,
        participants=people,
        seed=5,
    )


def imported(bundle: dict[str, Any], *, slug: str, user: Any) -> Tournament:
    """The bundle as an event whose one session is over and whose results are published (provisional)."""
    now = timezone.now()
    t = import_bundle(data=bundle, user=user, slug=slug, now=now)
    end_every_round(t, user, now)
    return publish_to(t, Publication.PROVISIONAL, user, now)


@pytest.fixture
def t13(db, director) -> Tournament:
    return imported(thirteen_bundle(), slug="t13", user=director)


def _url(name: str, t: Tournament, **kw: Any) -> str:
    return reverse(f"results:{name}", kwargs={"slug": t.slug, **kw})


def _rest_round(t: Tournament, number: int) -> int:
    (found,) = [
        rnd for rnd, who in session_rests(t.sessions.get()).items() if any(r.number == number for r in who)
    ]
    return found


def test_personal_chart_marks_the_rest_round(t13):
    number = 5
    rest = _rest_round(t13, number)
    ru = Client().get(_url("player", t13, number=number)).content.decode()
    doc = parse(ru)
    for svg in (doc.one("svg", class_="chart-running"), doc.one("svg", class_="chart-running-phone")):
        (band,) = svg.find_all("g", class_="rest")
        assert band.find("text").text() == "отдых" and f"Тур {rest}: отдых" in band.find("title").text()
        # the line breaks at the rest: two runs of rounds, 13 rounds on the axis, 12 dots
        assert len(svg.find_all("polyline")) == (2 if 1 < rest < 13 else 1)
        assert len(svg.find_all("circle")) == 12
    alone = Client(HTTP_ACCEPT_LANGUAGE="en").get(_url("player-chart", t13, number=number)).content.decode()
    assert f"Round {rest}: rest" in alone


def test_phone_forms_carry_what_a_player_needs(t13):
    doc = parse(Client().get(_url("standings", t13)).content.decode())
    first = doc.one("table", id="standings").find("tbody").find("tr")
    phone = " ".join(c.text() for c in first.find_all(class_="narrow-only"))
    assert "Клуб" in phone and "/" in phone  # the club under the name, the maximum under the matchpoints
    assert "," in first.find(class_="pct").text()  # the Russian decimal comma
    board = parse(Client().get(_url("board", t13, number=1)).content.decode())
    compact = board.one("table", id="protocol-compact")
    rows = compact.find("tbody").find_all("tr")
    wide_rows = board.one("table", id="protocol").find("tbody").find_all("tr")
    assert len(rows) == len(wide_rows) and len(rows[0].find_all("td", class_="seat-result")) == 4
    card = parse(Client().get(_url("player", t13, number=1)).content.decode())
    played = [
        r for r in card.one("table", class_="score-card").find("tbody").find_all("tr") if not r.get("class")
    ]
    assert "тур " in played[0].find(class_="narrow-only").text()


# -- the projector -------------------------------------------------------------------------------------------
@pytest.fixture
def hall(db, director) -> Tournament:
    """Rounds 1-3 played and ended, round 4 under way (started 7 minutes ago), results not published."""
    t = import_bundle(data=thirteen_bundle(played_rounds=3), user=director, slug="hall", now=timezone.now())
    session = t.sessions.get()
    start = timezone.now() - dt.timedelta(minutes=30)
    for rnd in session.rounds.filter(number__lte=3).order_by("number"):
        round_start(rnd=rnd, user=director, now=start)
        round_end(rnd=rnd, user=director, now=start, acknowledged=round_gaps(rnd).token)
    round_start(rnd=session.rounds.get(number=4), user=director, now=timezone.now() - dt.timedelta(minutes=7))
    return t


def _projector(t: Tournament) -> tuple[str, dict[str, Any]]:
    page = Client().get(_url("projector", t))  # nobody logged in
    data = Client().get(_url("projector-data", t))
    assert page.status_code == 200 and data.status_code == 200
    return page.content.decode(), data.json()


def test_projector_shows_next_round_seats_rests_and_the_clock(hall):
    html, data = _projector(hall)
    session = hall.sessions.get()
    doc = parse(html)
    assert "Идёт тур 4 из 13" in doc.one(id="pj-round").text() and data["round"] == 4
    assert data["next_round"] == 5 and "Тур 5: кто где сидит" in html
    seated = {
        (s.table_number, seat, p.number)
        for s in session.seatings.filter(round_number=5)
        for seat, p in s.seats().items()
    }
    assert {(t["table"], seat, n) for t in data["tables"] for seat, n, _name in t["seats"]} == seated
    (resting,) = session_rests(session)[5]
    assert f"№ {resting.number} {resting.name} → тур " in doc.one(id="pj-rests").text()
    # the countdown: the round's end by the director's timer (5 minutes a deal × 4 deals)
    ends = dt.datetime.fromisoformat(data["ends_at"])
    started = session.rounds.get(number=4).started_at
    assert ends - started == dt.timedelta(minutes=hall.minutes_per_deal * hall.deals_per_set)
    assert doc.one(id="projector").get("data-ends-at")


def _percents(t: Tournament) -> list[str]:
    return [s.percent for s in Standing.objects.filter(tournament=t)]


def test_projector_hides_what_the_public_may_not_see(hall, director):
    assert _percents(hall)
    html, data = _projector(hall)  # not published, and a round is being played
    assert data["standings"] is None and 'id="pj-standings"' not in html
    fourth = hall.sessions.get().rounds.get(number=4)
    round_end(rnd=fourth, user=director, now=timezone.now(), acknowledged=round_gaps(fourth).token)
    html, data = _projector(hall)  # between rounds, still not published
    assert data["standings"] is None and 'id="pj-standings"' not in html
    for percent in _percents(hall):
        assert percent.replace(".", ",") not in html and percent not in json.dumps(data)
    publish_to(hall, Publication.PROVISIONAL, director, timezone.now())
    html, data = _projector(hall)  # published, between rounds: the standings
    assert [line["percent"] for line in data["standings"]] == _percents(hall)
    assert len(parse(html).one(id="pj-standings").find_all("li")) == 13
    round_start(rnd=hall.sessions.get().rounds.get(number=5), user=director, now=timezone.now())
    _html, data = _projector(hall)  # published, but round 5 is in play: nothing compared in the hall
    assert data["standings"] is None


def test_projector_of_an_unknown_event_is_404(db):
    assert Client().get("/t/no-such-event/projector/").status_code == 404
    assert Client().get("/t/no-such-event/projector/data.json").status_code == 404


def test_personal_card_marks_the_rest_round_in_its_place(t13):
    """Issue 30: the board-by-board table stopped at the last round played; the round he sat out stands in it."""
    number = 5
    rest = _rest_round(t13, number)
    doc = parse(Client().get(_url("player", t13, number=number)).content.decode())
    rows = doc.one("table", class_="score-card").one("tbody").find_all("tr")
    rounds = [r.find("td").text() for r in rows]
    (marked,) = [i for i, r in enumerate(rows) if "rest-round" in r.classes]
    assert rounds[marked] == str(rest) and "отдыхает" in rows[marked].text()
    assert [int(n) for n in rounds] == sorted(int(n) for n in rounds)  # in its place among the rounds


def test_an_all_pass_board_reads_raspasy_not_a_dash():
    from results.labels import contract_text

    assert (contract_text("-", "ru"), contract_text("-", "en")) == ("распасы", "raspasy")
