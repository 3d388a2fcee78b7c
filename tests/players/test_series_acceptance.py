"""Issue 20, acceptance, first item: «A series of three club events imported from bundles links the same people by
federation number, shows each person's history, awards master points by a configured scheme and recomputes them
after a correction (tested).»

Three club evenings are made from tests/data/small_bundle.json by renaming (each evening seats the same twelve
people, known by their federation numbers, at other numbers), imported with ``import_bundle``; the series
(docs/players/series.md) configures the master-point scheme (docs/players/master-points.md: 1 point per
percent above 50) and counts each player's best 2 evenings by master points.
"""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from pathlib import Path

import pytest
from django.utils import timezone

from appeals import services as appeals
from duplicate.gaps import publication_gaps
from events.bundles import import_bundle
from events.publication import publish
from players.models import MasterPointAward, Person
from players.services import series as series_service
from players.services.history import person_history
from preferans.numbers import parse_fraction, percent_of
from scoring.models import Result, Standing
from tests.publishing import end_every_round, publish_to
from tournaments.models import AuditEntry, Participant, Publication, Tournament

pytestmark = pytest.mark.django_db
SMALL = Path(__file__).resolve().parents[1] / "data" / "small_bundle.json"
# The evenings are imported now; their director ends their rounds, publishes official results and, after the
# correction period, final ones.
FINAL = timezone.now() + dt.timedelta(hours=3)
SCHEME = {"scheme": "percent", "per_percent": "1", "above": "50"}


def evening(k: int) -> dict:
    """Evening ``k`` (0, 1, 2): the bundle renamed; seat number n holds person (n − 1 + 5k) mod 12."""
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    people = [(p["name"], f"FSP-{100 + i}") for i, p in enumerate(data["participants"])]
    data["tournament"]["name"] = f"Клубный вечер {k + 1}"
    for p in data["participants"]:
        name, federation = people[(p["number"] - 1 + 5 * k) % len(people)]
        p["name"], p["federation_id"] = name, federation
    return data


def expected_points(t: Tournament) -> dict[str, Fraction]:
    """The configured scheme by hand: (percent − 50) × 1 for each percent above 50, by federation number."""
    out = {}
    for s in Standing.objects.filter(tournament=t).select_related("participant"):
        percent = percent_of(parse_fraction(s.matchpoints), parse_fraction(s.max))
        if percent > 50:
            out[s.participant.federation_id] = percent - 50
    return out


def awarded(t: Tournament) -> dict[str, Fraction]:
    return {
        a.person.federation_id: parse_fraction(a.points)
        for a in MasterPointAward.objects.filter(tournament=t).select_related("person")
    }


def make_final(t: Tournament, director) -> None:
    end_every_round(t, director, FINAL - dt.timedelta(hours=2))
    publish_to(t, Publication.OFFICIAL, director, FINAL - dt.timedelta(hours=1))
    publish(tournament=t, to=Publication.FINAL, user=None, now=FINAL, acknowledged=publication_gaps(t).token)


def test_three_club_evenings_a_series_and_a_correction(director, django_capture_on_commit_callbacks):
    now = timezone.now()
    events = [
        import_bundle(
            data=evening(k),
            now=now,
            user=director,
            slug=f"club-{k + 1}",
            starts_on=dt.date(2026, 3, 1 + 7 * k),
        )
        for k in range(3)
    ]
    season = series_service.series_create(
        name="Клубный сезон", slug="club-season", measure="points", best=2, user=director, now=now
    )
    season.master_points = SCHEME  # the configured scheme (the series' own; the default otherwise)
    season.save(update_fields=["master_points"])
    for t in events:
        series_service.series_add_event(series=season, tournament=t, user=director, now=now)

    # 1. The same people, linked by federation number (the register's hook in import_bundle).
    assert Person.objects.count() == 12
    for person in Person.objects.all():
        played = Participant.objects.filter(person=person)
        assert played.count() == 3 and {p.federation_id for p in played} == {person.federation_id}
    assert not Participant.objects.filter(person__isnull=True).exists()

    # 2. Final results award the series' scheme.
    for t in events:
        make_final(t, director)
        assert awarded(t) == expected_points(t) and awarded(t), t.slug
        schemes = set(MasterPointAward.objects.filter(tournament=t).values_list("scheme", flat=True))
        assert schemes == {"percent(per_percent=1, above=50)"}

    # 3. Each person's history: three evenings, his places, his master points.
    someone = Person.objects.get(federation_id="FSP-100")
    history = person_history(someone)
    assert sorted(e.tournament_id for e in history.events) == sorted(t.pk for t in events)
    mine = {t.pk: expected_points(t).get("FSP-100", Fraction(0)) for t in events}
    assert history.master_points == sum(mine.values(), Fraction(0))

    # 4. The series table: best 2 of 3 evenings by master points.
    table = series_service.table_of(season)
    line = next((line for line in table.lines if line.person == someone), None)
    best_two = sum(sorted((v for v in mine.values() if v), reverse=True)[:2], Fraction(0))
    assert (line.total if line else Fraction(0)) == best_two
    before = {line.person.federation_id: line.total for line in table.lines}

    # 5. A correction after final (rules §1: an arithmetic error) recomputes the awards, audited.
    first = events[0]
    session = first.sessions.get()
    # A row whose E and W earned different matchpoints: swapping them moves the standings.
    r = next(
        r
        for r in Result.objects.filter(session=session).order_by("pk")
        if r.matchpoints and r.matchpoints.get("E") != r.matchpoints.get("W")
    )
    standings_before = dict(
        Standing.objects.filter(tournament=first).values_list("participant__number", "percent")
    )
    old = awarded(first)
    correction = appeals.correction_request(
        session=session,
        kind="arithmetic",
        description="E and W swapped",
        board=r.board_number,
        round=r.round_number,
        table=r.table_number,
        now=FINAL,
    )
    seats = r.seats()
    with django_capture_on_commit_callbacks(execute=True):
        appeals.correction_apply(
            correction=correction,
            seats={**seats, "E": seats["W"], "W": seats["E"]},
            user=None,
            now=FINAL + dt.timedelta(days=1),
        )
    standings_after = dict(
        Standing.objects.filter(tournament=first).values_list("participant__number", "percent")
    )
    assert standings_after != standings_before
    assert awarded(first) == expected_points(first) != old
    assert AuditEntry.objects.filter(tournament=first, action="master_points.recompute").exists()
    after = {line.person.federation_id: line.total for line in series_service.table_of(season).lines}
    assert after != before  # the series table follows the recomputed awards
