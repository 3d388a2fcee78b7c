"""Issue 17, results on the event day: the personal chart marks rest rounds; the phone forms of the results pages
carry what a player needs; the projector for the playing hall."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from preferans.simulate import simulated_bundle
from tests.html import parse
from tournaments.models import Publication, Session, Tournament
from tournaments.services.bundles import import_bundle
from tournaments.services.rests import session_rests


def thirteen_bundle(*, played_rounds: int | None = None) -> dict[str, Any]:
    """13 participants on four-player tables (book movement): one rests in each round."""
    people = [{"number": n, "name": f"Игрок {n}", "club": "Клуб"} for n in range(1, 14)]
    return simulated_bundle(name="Кубок 13", movement={"scheme": "book", "participants": 13},
                            played_rounds=played_rounds, participants=people, seed=5)  # fmt: skip


@pytest.fixture
def t13(db, director) -> Tournament:
    t = import_bundle(data=thirteen_bundle(), user=director, slug="t13", now=timezone.now())
    Session.objects.filter(tournament=t).update(status=Session.Status.FINISHED)
    t.publication = Publication.PROVISIONAL
    t.save(update_fields=["publication"])
    return t


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
    assert "тур " in card.one("table", class_="score-card").find("tbody").find(class_="narrow-only").text()
