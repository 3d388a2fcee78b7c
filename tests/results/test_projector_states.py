"""Issue 30, «Pages that fit»: the playing hall's projector says what the hall needs in every state of both forms
(the walk found it showing only the wall clock and the standings after a pulka round, after the last round, before
a pulka event's first draw and once play was over, and never the results' state). Each state is reached through
the services, as the director reaches it; what the projector carries is read from its JSON and its page, nobody
logged in. The browser half (screens at 1920, 1366 and 390 px, axe-core) is tests/e2e/test_projector_screens.py.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duplicate.rests import session_rests
from duplicate.rounds import movement_choose
from events.bundles import import_bundle
from pulkas.models import PulkaRound
from tests.html import english_phrases, parse, visible_text
from tests.publishing import end_every_round, publish_to
from tests.results.projector_events import (
    draw,
    duplicate_event,
    end,
    finish_pulka,
    play_rounds,
    pulka,
    start,
    start_pulka,
)
from tests.results.test_event_day_pages import thirteen_bundle
from tournaments.models import Publication, Tournament
from tournaments.services.event import session_add

UNPUBLISHED = "Результаты ещё не опубликованы."
PROVISIONAL = "Предварительные результаты: они ещё могут измениться."
BETWEEN = "Турнирная таблица показывается между турами."


def hall(t: Tournament, lang: str = "ru") -> tuple[dict[str, Any], Any]:
    """What the projector carries now (its JSON) and its page, parsed; nobody logged in."""
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    data = client.get(reverse("results:projector-data", kwargs={"slug": t.slug}))
    page = client.get(reverse("results:projector", kwargs={"slug": t.slug}))
    assert data.status_code == 200 and page.status_code == 200
    html = page.content.decode()
    if lang == "ru":  # no interface word left in English
        assert english_phrases(visible_text(html)) == [], english_phrases(visible_text(html))
    return data.json(), parse(html)


def seated(t: Tournament, number: int) -> set[tuple[int, str, int]]:
    session = t.sessions.order_by("-number").first()
    return {
        (s.table_number, seat, p.number)
        for s in session.seatings.filter(round_number=number)
        for seat, p in s.seats().items()
    }


def shown_seats(data: dict[str, Any]) -> set[tuple[int, str, int]]:
    return {(t["table"], seat, n) for t in data["tables"] for seat, n, _name in t["seats"]}


def pulka_seats(r: PulkaRound) -> set[tuple[int, str, int]]:
    return {(t.number, seat, p.number) for t in r.tables.all() for seat, p in t.seats().items()}


@pytest.fixture
def dup(db, director) -> Tournament:
    return duplicate_event(director, slug="pj-dup", tables=3, played=None)  # 12 players, basic movement


def test_duplicate_before_and_during_a_round(dup, director):
    total = dup.sessions.get().rounds.count()
    data, doc = hall(dup)  # seated, nothing started, nothing published
    assert data["phase"] == "before" and data["round_text"] == f"Скоро начнётся тур 1 из {total}"
    assert (
        shown_seats(data) == seated(dup, 1) and "Тур 1: кто где сидит" in doc.one(id="pj-seats-title").text()
    )
    assert data["status"] == "draft" and doc.one(id="pj-status").text() == UNPUBLISHED
    assert data["standings"] is None and not doc.find_all(id="pj-standings")
    start(dup, 1, director, minutes_ago=7)
    data, doc = hall(dup)  # round 1 played: its countdown, round 2's seats (where the players go next)
    assert data["phase"] == "playing" and doc.one(id="pj-round").text() == f"Идёт тур 1 из {total}"
    started = dup.sessions.get().rounds.get(number=1).started_at
    ends = dt.datetime.fromisoformat(data["ends_at"])
    assert ends - started == dt.timedelta(minutes=dup.minutes_per_deal * dup.deals_per_set)
    assert (
        doc.one(id="projector").get("data-ends-at") and "До конца тура" in doc.one(id="pj-clock-label").text()
    )
    assert data["next_round"] == 2 and shown_seats(data) == seated(dup, 2)


def test_duplicate_between_rounds_last_round_and_over(dup, director):
    session = dup.sessions.get()
    total = session.rounds.count()
    play_rounds(dup, 1, director)
    publish_to(dup, Publication.PROVISIONAL, director, timezone.now())
    data, doc = hall(dup)  # between rounds: the next round, its seats, the standings and the state
    assert data["phase"] == "between" and data["round_text"] == f"Скоро начнётся тур 2 из {total}"
    assert shown_seats(data) == seated(dup, 2) and len(doc.one(id="pj-standings").find_all("li")) == 12
    assert data["status"] == "provisional" and doc.one(id="pj-status").text() == PROVISIONAL
    play_rounds(dup, total - 1, director)
    start(dup, total, director)
    data, doc = hall(dup)  # the last round: its own seats (there is no next), the standings hidden (§12.2.4)
    assert data["round_text"] == f"Идёт тур {total} из {total}" and data["next_round"] == total
    assert shown_seats(data) == seated(dup, total)
    assert data["standings"] is None and doc.one(id="pj-standings-note").text() == BETWEEN
    end(dup, total, director)
    publish_to(dup, Publication.OFFICIAL, director, timezone.now())
    data, doc = hall(dup)  # play is over, official results
    assert data["phase"] == "over" and doc.one(id="pj-round").text() == "Игра окончена"
    assert data["tables"] == [] and len(data["standings"]) == 12
    dup.refresh_from_db()
    until = timezone.localtime(dup.correction_ends_at, dup.time_zone).strftime("%H:%M")
    assert doc.one(id="pj-status").text() == f"Официальные результаты. Исправления — до {until}."
    en, en_doc = hall(dup, "en")
    assert en["round_text"] == "Play is over" and en_doc.one(id="pj-status").text().startswith(
        "Official results."
    )


def test_duplicate_rests_and_the_next_session(db, director):
    t = import_bundle(data=thirteen_bundle(), user=director, slug="pj13", now=timezone.now())
    data, doc = hall(t)
    (resting,) = session_rests(t.sessions.get())[1]
    assert doc.one(id="pj-rests").find("b").text() == "Отдыхает:"  # one rests: the singular
    assert f"№ {resting.number} {resting.name}" in doc.one(id="pj-rests").text()
    end_every_round(t, director, timezone.now())
    second = session_add(now=timezone.now(), tournament=t, user=director)
    data, doc = hall(t)  # session 2 added, its movement not chosen yet
    assert data["phase"] == "preparing" and data["session_text"] == "Сессия 2"
    assert doc.one(id="pj-notice").text() == "Рассадки ещё нет."
    movement_choose(
        session=second, user=director, spec={"scheme": "book", "participants": 13}, now=timezone.now()
    )
    data, doc = hall(t)
    assert (
        data["phase"] == "before" and "Сессия 2 · Скоро начнётся тур 1 из 13" in doc.one(id="pj-round").text()
    )
    assert shown_seats(data) == seated(t, 1)


def test_compensation_event_in_every_state(db, director):
    t = pulka(director, "compensation", players=8, per_table=4, slug="pj-comp", rounds=2)
    data, doc = hall(t)  # nothing drawn yet
    assert data["phase"] == "preparing" and doc.one(id="pj-notice").text() == "Рассадки на 1-й тур ещё нет."
    assert doc.one(id="pj-status").text() == UNPUBLISHED
    first = draw(t, director)
    data, doc = hall(t)
    assert data["phase"] == "before" and data["round_text"] == "Скоро начнётся тур 1 из 2"
    assert shown_seats(data) == pulka_seats(first)
    start_pulka(first, director)
    data, doc = hall(t)  # the round played: its countdown (the round's time limit), its own tables
    first.refresh_from_db()
    assert data["phase"] == "playing" and data["round_text"] == "Идёт тур 1 из 2"
    assert dt.datetime.fromisoformat(data["ends_at"]) == first.ends_at
    assert shown_seats(data) == pulka_seats(first) and data["standings"] is None
    finish_pulka(t, first, director, random.Random(1))
    publish_to(t, Publication.PROVISIONAL, director, timezone.now())
    data, doc = hall(t)  # between rounds, the next one not drawn: said so, and the standings
    assert data["phase"] == "between" and data["round_text"] == "Тур 1 из 2 окончен"
    assert doc.one(id="pj-notice").text() == "Рассадки на 2-й тур ещё нет." and data["tables"] == []
    assert len(data["standings"]) == 8 and all(line["score"] for line in data["standings"])
    assert doc.one(id="pj-status").text() == PROVISIONAL
    second = draw(t, director)
    data, doc = hall(t)  # drawn: who sits where next
    assert data["round_text"] == "Скоро начнётся тур 2 из 2" and shown_seats(data) == pulka_seats(second)
    assert "Тур 2: кто где сидит" in doc.one(id="pj-seats-title").text() and data["standings"] is not None
    finish_pulka(t, start_pulka(second, director), director, random.Random(2))
    publish_to(t, Publication.FINAL, director, timezone.now())
    data, doc = hall(t)
    assert data["phase"] == "over" and data["round_text"] == "Игра окончена" and data["tables"] == []
    assert doc.one(id="pj-status").text() == "Окончательные результаты." and data["status"] == "final"


def test_olympic_event_names_its_final(db, director):
    t = pulka(director, "olympic", players=9, per_table=3, slug="pj-oly")
    first = start_pulka(draw(t, director), director)
    data, _doc = hall(t)
    assert data["round_text"] == "Идёт тур 1 из 2" and shown_seats(data) == pulka_seats(first)
    finish_pulka(t, first, director, random.Random(3))
    data, doc = hall(t)
    assert data["round_text"] == "Тур 1 из 2 окончен"
    assert doc.one(id="pj-notice").text() == "Рассадки на 2-й тур ещё нет."
    final = draw(t, director)
    data, doc = hall(t)
    assert data["round_text"] == "Скоро начнётся финал" and shown_seats(data) == pulka_seats(final)
    assert "Финал: кто где сидит" in doc.one(id="pj-seats-title").text()
    start_pulka(final, director)
    data, _doc = hall(t)
    assert data["round_text"] == "Идёт финал" and data["ends_at"]
    en, _doc = hall(t, "en")
    assert (
        en["round_text"] == "The final is being played" and en["seats_title"] == "The final: who sits where"
    )
    finish_pulka(t, final, director, random.Random(4))
    data, _doc = hall(t)
    assert data["phase"] == "over" and data["round_text"] == "Игра окончена"


def test_swiss_event_counts_its_rounds(db, director):
    t = pulka(director, "swiss", players=8, per_table=4, slug="pj-swiss", rounds=2)
    first = start_pulka(draw(t, director), director)
    data, _doc = hall(t)
    assert (
        data["phase"] == "playing" and data["round_text"] == "Идёт тур 1 из 2" and data["rounds_total"] == 2
    )
    finish_pulka(t, first, director, random.Random(5))
    data, doc = hall(t)
    assert data["phase"] == "between" and doc.one(id="pj-notice").text() == "Рассадки на 2-й тур ещё нет."
