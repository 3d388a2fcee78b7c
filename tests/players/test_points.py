"""Master points (issue 20): awarded by the configured scheme when the results become final, recomputed with an
audit entry when a correction changes them afterwards (rules §1: once final, only an arithmetic error is corrected);
each person's history is his awards. The book names master points without a formula (seed 004 §9)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from appeals import services as appeals
from duplicate.gaps import publication_gaps
from events.publication import publish
from players.models import MasterPointAward, Person, Series, SeriesEvent
from players.services import points
from preferans.numbers import parse_fraction
from scoring.models import Result, Standing
from tests.publishing import end_every_round, publish_to
from tournaments.models import AuditEntry, Publication, Tournament

pytestmark = pytest.mark.django_db
# The demo is seeded now, its rounds running; its director ends them and publishes official results a day later.
OFFICIAL = timezone.now() + dt.timedelta(days=1)
FINAL = OFFICIAL + dt.timedelta(hours=1)


@pytest.fixture
def demo():
    """The demo event (20 players; places 1, 2, 3-5 shared, …), every participant a person, official results."""
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    for p in t.participants.all():
        p.person = Person.objects.create(name=p.name or f"P{p.number}", federation_id=f"F{p.number}")
        p.save(update_fields=["person"])
    director = t.directors.get()
    end_every_round(
        t, director, OFFICIAL - dt.timedelta(minutes=10)
    )  # the rounds left, then official results
    publish_to(t, Publication.OFFICIAL, director, OFFICIAL)
    return t


def make_final(t):
    """The director makes the results final, knowing of the demo's unconfirmed rows (duplicate.gaps)."""
    publish(tournament=t, to=Publication.FINAL, user=None, now=FINAL, acknowledged=publication_gaps(t).token)


def awards(t):
    return {
        a.participant.number: parse_fraction(a.points) for a in MasterPointAward.objects.filter(tournament=t)
    }


def by_rank(t):
    return {
        s.participant.number: s.rank
        for s in Standing.objects.filter(tournament=t).select_related("participant")
    }


def test_final_results_award_the_default_scheme(demo):
    make_final(demo)
    ranks = by_rank(demo)
    # The default over 20 players: factor 20/16, 5 places paid, linearly (6 − place) × 5/2: 25/2, 10, then the
    # places 3-5 shared by three players: (15/2 + 5 + 5/2) / 3 = 5 each. Nobody else gets anything.
    expected = {
        n: {"1": F(25, 2), "2": F(10), "3-5": F(5)}[r] for n, r in ranks.items() if r in ("1", "2", "3-5")
    }
    assert awards(demo) == expected and len(expected) == 5
    entry = AuditEntry.objects.get(tournament=demo, action="master_points.award")
    assert entry.data["total"] == "75/2" and entry.data["scheme"] == "place(first=10, field=16, cut=1/4)"
    assert {a.person.federation_id for a in MasterPointAward.objects.all()} == {f"F{n}" for n in expected}
    assert all(a.computed_at == FINAL for a in MasterPointAward.objects.all())


def test_the_series_scheme_is_used(demo):
    series = Series.objects.create(
        name="Club season",
        slug="club",
        master_points={"scheme": "percent", "per_percent": "1", "above": "60"},
    )
    SeriesEvent.objects.create(series=series, tournament=demo, order=1)
    make_final(demo)
    got = {by_rank(demo)[n]: v for n, v in awards(demo).items()}
    # 63/2 of 48 = 65.625 % → 45/8; 61/2 of 48 = 63.541… % → 85/24; 29 of 48 = 60.416… % → 5/12 (each of 3-5).
    assert got == {"1": F(45, 8), "2": F(85, 24), "3-5": F(5, 12)}
    assert len(awards(demo)) == 5


def test_no_person_no_award_and_official_results_award_nothing(demo):
    winner = Standing.objects.get(tournament=demo, rank="1").participant
    winner.person = None
    winner.save(update_fields=["person"])
    assert not MasterPointAward.objects.exists()  # official results: nothing yet
    make_final(demo)
    assert winner.number not in awards(demo) and len(awards(demo)) == 4


def test_a_correction_after_final_recomputes_and_audits(demo, django_capture_on_commit_callbacks):
    make_final(demo)
    before = awards(demo)
    session = demo.sessions.get()
    # An arithmetic error found after final (§1): on board 1 of round 1 at table 1 the runner-up's and his
    # neighbour's results were written in each other's seats.
    correction = appeals.correction_request(
        session=session,
        kind="arithmetic",
        description="E and W swapped",
        board=1,
        round=1,
        table=1,
        now=FINAL,
    )
    r = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    seats = r.seats()
    with django_capture_on_commit_callbacks(execute=True):
        appeals.correction_apply(
            correction=correction,
            seats={**seats, "E": seats["W"], "W": seats["E"]},
            user=None,
            now=FINAL + dt.timedelta(days=1),
        )
    after = awards(demo)
    assert after != before, "the swap changes the top of the standings"
    entry = AuditEntry.objects.get(tournament=demo, action="master_points.recompute")
    changed = {c["participant"]: (c["before"], c["after"]) for c in entry.data["changes"]}
    assert changed and all(parse_fraction(b) == before.get(n, 0) for n, (b, _a) in changed.items())
    assert all(parse_fraction(a) == after.get(n, 0) for n, (_b, a) in changed.items())
    assert entry.reason == "results changed after they became final"
    assert sum(after.values()) == F(75, 2)  # the default's total over 20 players, however the places fall


def test_a_rescore_that_changes_nothing_writes_no_audit_entry(demo):
    make_final(demo)
    from scoring.rescore import rescore_tournament

    rescore_tournament(tournament_id=demo.pk, now=FINAL + dt.timedelta(days=1))
    assert not AuditEntry.objects.filter(action="master_points.recompute").exists()
    assert AuditEntry.objects.filter(action="master_points.award").count() == 1


def test_history_is_the_persons_awards(demo):
    make_final(demo)
    winner = Standing.objects.get(tournament=demo, rank="1").participant.person
    assert [(a.tournament.slug, a.points, a.place) for a in points.history(winner)] == [("demo", "25/2", "1")]


def test_changing_a_series_scheme_recomputes_its_final_events(demo):
    series = Series.objects.create(name="Club season", slug="club")
    SeriesEvent.objects.create(series=series, tournament=demo, order=1)
    make_final(demo)
    assert sum(awards(demo).values()) == F(75, 2)  # the default while the series has no scheme
    redone = points.set_series_scheme(
        series=series,
        raw={"scheme": "percent", "per_percent": "1", "above": "60"},
        user=None,
        now=FINAL + dt.timedelta(days=2),
    )
    assert redone == [demo]
    assert sorted(awards(demo).values()) == [F(5, 12)] * 3 + [F(85, 24), F(45, 8)]
    entry = AuditEntry.objects.get(tournament=demo, action="master_points.recompute")
    assert (
        entry.reason == "the series' master-point scheme changed"
        and entry.data["scheme"] == "percent(per_percent=1, above=60)"
    )


@pytest.mark.parametrize(
    ("raw", "code", "words"),
    [
        ({"scheme": "elo"}, "master_points_unknown_scheme", "«place» (по месту и числу участников)"),
        ({"first": "-1"}, "master_points_bad_number", "значение «first» не подходит"),
        ({"firts": "10"}, "master_points_unknown_key", "неизвестный ключ: firts."),
    ],
)
def test_a_scheme_the_rules_cannot_read_is_refused_in_the_readers_language(raw, code, words):
    from django.utils import translation

    from tournaments.errors import UserError

    series = Series.objects.create(name="Club season", slug="club", master_points={"scheme": "percent"})
    with translation.override("ru"), pytest.raises(UserError) as refused:
        points.set_series_scheme(series=series, raw=raw, user=None, now=FINAL)
    assert refused.value.code == code and words in refused.value.message
    series.refresh_from_db()
    assert series.master_points == {"scheme": "percent"}  # nothing changed


def test_a_merged_duplicate_earns_for_the_person_he_was_merged_into(demo):
    winner = Standing.objects.get(tournament=demo, rank="1").participant
    keeper = Person.objects.create(name="The same player", federation_id="KEEP")
    Person.objects.filter(pk=winner.person_id).update(merged_into=keeper, federation_id="")
    make_final(demo)
    award = MasterPointAward.objects.get(tournament=demo, participant=winner)
    assert award.person == keeper and award.points == "25/2"
    assert [a.points for a in points.history(keeper)] == ["25/2"]


def test_an_event_that_averages_its_sessions_is_paid_on_its_published_percentage(demo):
    """With «percentages averaged» (Tournament.session_totals) the matchpoints no longer make the percentage: the
    percentage scheme reads the published one."""
    series = Series.objects.create(
        name="Club season",
        slug="club",
        master_points={"scheme": "percent", "per_percent": "1", "above": "60"},
    )
    SeriesEvent.objects.create(series=series, tournament=demo, order=1)
    Tournament.objects.filter(pk=demo.pk).update(session_totals="percent")
    demo.refresh_from_db()
    Standing.objects.filter(tournament=demo, rank="1").update(percent="70.25")  # as if the averages gave it
    make_final(demo)
    got = {by_rank(demo)[n]: v for n, v in awards(demo).items()}
    assert got["1"] == F("10.25")  # 70.25 − 60, one point per percent
