from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from events.settings import tournament_update
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Publication, Round, Seating, Tournament, TournamentStatus
from tournaments.services.event import director_add, director_remove, session_add, tournament_create

pytestmark = pytest.mark.django_db


def test_create_makes_the_first_session_and_the_director(director):
    t = tournament_create(name="Кубок клуба 2026", user=director, now=timezone.now())
    assert t.slug == "kubok-kluba-2026"
    assert list(t.sessions.values_list("number", flat=True)) == [1]
    assert t.directors.filter(pk=director.pk).exists()
    assert (t.minutes_per_deal, t.deals_per_set, t.correction_minutes) == (5, 4, 30)
    assert t.status == TournamentStatus.SETUP
    assert AuditEntry.objects.filter(tournament=t, action="tournament.create").exists()


def test_three_player_tables_default_to_three_deals(director):
    t = tournament_create(name="Тройки", user=director, players_per_table=3, now=timezone.now())
    assert t.deals_per_set == 3


@pytest.mark.parametrize(
    "kwargs",
    [
        {"name": " "},
        {"name": "x", "rule_overrides": {"no_such_key": 1}},
        {"name": "x", "artificial": {"A-": 70, "A": 50, "A+": 60}},
    ],
)
def test_create_refuses_bad_settings(director, kwargs):
    with pytest.raises(UserError):
        tournament_create(user=director, now=timezone.now(), **kwargs)


def test_structure_is_frozen_once_seated(seated, director):
    with pytest.raises(UserError):
        tournament_update(tournament=seated, user=director, changes={"deals_per_set": 3}, now=timezone.now())
    tournament_update(
        tournament=seated, user=director, changes={"minutes_per_deal": 7, "venue": "Клуб"}, now=timezone.now()
    )
    seated.refresh_from_db()
    assert seated.minutes_per_deal == 7
    entry = AuditEntry.objects.filter(tournament=seated, action="tournament.settings").first()
    assert entry.data["before"] == {"minutes_per_deal": 5, "venue": ""}


def test_directors_can_be_added_but_not_all_removed(event, director, other_user):
    director_add(tournament=event, username="someone", user=director, now=timezone.now())
    assert event.directors.count() == 2
    with pytest.raises(UserError):
        director_add(tournament=event, username="nobody", user=director, now=timezone.now())
    director_remove(tournament=event, director=other_user, user=director, now=timezone.now())
    with pytest.raises(UserError):
        director_remove(tournament=event, director=director, user=director, now=timezone.now())


def test_session_add_numbers_sessions(event, director):
    assert session_add(tournament=event, user=director, now=timezone.now()).number == 2


def test_database_refuses_impossible_states(session):
    seating = Seating.objects.filter(session=session).first()
    seating.seat_e = seating.seat_n
    with pytest.raises(IntegrityError), transaction.atomic():
        seating.save()
    r1, r2 = session.rounds.order_by("number")[:2]
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=r1.pk).update(status="running")  # running without a start time
    from django.utils import timezone

    now = timezone.now()
    Round.objects.filter(pk=r1.pk).update(status="running", started_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=r2.pk).update(status="running", started_at=now)  # two running rounds
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=session.tournament_id).update(status="locked")  # locked but not final
    assert session.tournament.publication == Publication.DRAFT


@pytest.mark.parametrize(
    ("artificial", "words"),
    [
        ({"A-": 30, "A": 50, "A+": 60}, "A- is 40 %"),
        ({"A-": 40, "A": 55, "A+": 60}, "A is 50 %"),
        ({"A-": 40, "A": 50, "A+": 55}, r"A\+ is at least 60 %"),
    ],
)
def test_rule_11_2_B1_the_tournament_service_refuses_another_A_minus_or_A(director, artificial, words):
    """§11.2 Б.1: «40% от макса (средний минус) для безусловно виновной стороны; 50% (среднее) для частично
    виновной стороны; и по меньшей мере 60% (средний плюс)» — A- and A are the book's, fixed; only A+ (at least
    60 %) is the organisers'. The one service every channel calls refuses the rest, in words, and changes nothing."""
    t = tournament_create(name="Кубок", user=director, now=timezone.now())
    with pytest.raises(UserError, match=words):
        tournament_update(tournament=t, user=director, changes={"artificial": artificial}, now=timezone.now())
    t.refresh_from_db()
    assert t.artificial == {"A-": 40, "A": 50, "A+": 60}
    t = tournament_update(
        tournament=t, user=director, changes={"artificial": {"A-": 40, "A": 50, "A+": 65}}, now=timezone.now()
    )
    assert t.artificial["A+"] == 65


def test_rule_11_2_B1_the_refusal_of_another_A_minus_is_in_russian(director):
    """§11.2 Б.1 «40% от макса (средний минус)»: the refusal reads in the director's language."""
    from django.utils import translation

    t = tournament_create(name="Кубок", user=director, now=timezone.now())
    with translation.override("ru"), pytest.raises(UserError) as caught:
        tournament_update(
            tournament=t,
            user=director,
            changes={"artificial": {"A-": 35, "A": 50, "A+": 60}},
            now=timezone.now(),
        )
    assert "число правил" in caught.value.message and "35 %" in caught.value.message
