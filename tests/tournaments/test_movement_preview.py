"""The movement page says what a director decides by, and shows the rounds one by one before he accepts
(issue 30): no «маршрутов», «мест в маршруте», «×2 — 15» or a score with a decimal point in sight."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse
from django.utils import timezone

from duplicate.movement_preview import movement_preview
from preferans.movements.planner import plan
from tests.html import parse
from tournaments.models import Participant
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}


def test_the_preview_counts_rounds_meetings_and_rests_of_the_book_scheme_for_13():
    movement = plan(13, per_table=4).movement
    preview = movement_preview(movement, {n: f"Игрок {n}" for n in range(1, 14)})
    assert len(preview.rounds) == 13 and preview.boards_per_round == 4 and preview.boards == 52
    # 78 pairs of 13 players; each round 3 tables × 6 pairs = 18 meetings, 13 rounds = 234 meetings in all.
    assert sum(m.pairs for m in preview.meetings) == 78
    assert sum(m.pairs * m.times for m in preview.meetings) == 13 * 3 * 6
    assert preview.rests == 13
    # Everyone rests exactly once, and the resting player sits at no table that round.
    assert Counter(p.number for r in preview.rounds for p in r.resting) == Counter(range(1, 14))
    for r in preview.rounds:
        seated = [s.number for t in r.tables for s in t.seats]
        assert len(seated) == 12 and not {p.number for p in r.resting} & set(seated)


def test_the_movement_page_shows_the_rounds_in_the_directors_words(client, django_user_model):
    user = django_user_model.objects.create_user("vera", password="pw-vera-12345")
    t = tournament_create(name="Клуб", user=user, slug="club", now=timezone.now())
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок {n}", pin=f"{1000 + n}") for n in range(1, 14)
    )
    client.force_login(user)
    page = parse(client.get(reverse("director:movement", kwargs={"slug": t.slug, "session": 1}), headers=RU))
    facts = page.one(id="movement-facts").text()
    assert "13 туров" in facts and "по 4 сдачи за тур" in facts and "всего 52 сдачи" in facts
    assert "Отдыхают в 13 турах" in facts
    first = page.one(id="preview-round-1")
    assert "отдыхает" in first.text() and "Игрок" in first.text()
    assert len(page.find_all("details", class_="movement-round")) == 13
    text = page.text()
    for jargon in ("маршрут", "мест в маршруте", "сколько пар"):
        assert jargon not in text.split("Как программа выбрала")[0], jargon
