"""Multi-session totals and a final's carry-over through the rescore (issue 20; docs/players/series.md).

``Tournament.session_totals == "percent"`` averages the sessions' percentages (the default sums matchpoints and
maxima); a final with a qualification and a share carried over ranks on (c·Q + F) / (1 + c).
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from django.utils import timezone

from director.forms import TournamentForm
from events.bundles import import_bundle
from events.settings import tournament_update
from preferans.duplicate.session_scoring import validate_and_score
from preferans.numbers import format_percent
from scoring.models import Standing
from scoring.session_totals import carried

pytestmark = pytest.mark.django_db
SMALL = Path(__file__).resolve().parents[1] / "data" / "small_bundle.json"


def two_sessions() -> dict:
    """small_bundle with a second, shorter session (its first five rows): the sessions weigh differently."""
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    second = copy.deepcopy(data["sessions"][0])
    second["number"] = 2
    second["results"] = second["results"][:5]
    second.pop("movement", None)
    data["sessions"].append(second)
    return data


def percents(tournament) -> dict[int, str]:
    return dict(Standing.objects.filter(tournament=tournament).values_list("participant__number", "percent"))


def settings_change(tournament, user, **changes):
    """Through the director's settings form, as the page does."""
    data = TournamentForm.initial_of(tournament) | changes
    form = TournamentForm(data)
    assert form.is_valid(), form.errors
    with_changes = tournament_update(
        tournament=tournament, user=user, changes=form.values(), now=timezone.now()
    )
    from scoring.rescore import rescore_tournament

    rescore_tournament(tournament_id=tournament.pk)  # on commit in production; the test has no commit
    with_changes.refresh_from_db()
    return with_changes


def test_percent_totals_average_the_sessions_percentages(director):
    data = two_sessions()
    event = import_bundle(data=data, now=timezone.now(), user=director, slug="two")
    summed = percents(event)
    _, scored = validate_and_score(data)
    by_session = [s.totals for s in scored.sessions]
    expected = {}
    for number in summed:
        played = [t[number].percent for t in by_session if number in t and t[number].max > 0]
        expected[number] = format_percent(sum(played, Fraction(0)) / len(played))

    event = settings_change(event, director, session_totals="percent")
    assert event.session_totals == "percent"
    averaged = percents(event)
    assert averaged == expected
    assert averaged != summed  # the sessions weigh differently, so the documented choice changes the table
    # Matchpoints and maxima stay the sums.
    row = Standing.objects.filter(tournament=event).first()
    assert row is not None
    total = next(s for s in scored.standings if s.participant == row.participant.number)
    assert Fraction(row.matchpoints) == total.matchpoints and Fraction(row.max) == total.max

    event = settings_change(event, director, session_totals="matchpoints")
    assert percents(event) == summed  # the default: matchpoints summed (rules' one field)


def test_a_final_carries_over_the_share_of_the_qualification(director):
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    qualification = import_bundle(data=data, now=timezone.now(), user=director, slug="qual")
    final_data = two_sessions()
    final = import_bundle(data=final_data, now=timezone.now(), user=director, slug="final")
    q = {n: Fraction(p) for n, p in percents(qualification).items()}
    f = percents(final)

    final = settings_change(final, director, qualification="qual", carry_over="1/2")
    assert final.qualification == qualification and final.carry_over == "1/2"
    _, scored = validate_and_score(final_data)
    own = {s.participant: s.percent for s in scored.standings}
    # Same names in both events: each finalist is matched by name to his qualification line.
    assert percents(final) == {
        n: format_percent((Fraction(1, 2) * q[n] + own[n]) / Fraction(3, 2)) for n in f
    }
    assert carried(final) == {n: q[n] / 2 for n in f}
    assert percents(final) != f


def test_the_settings_form_refuses_a_share_outside_0_to_1(tournament):
    form = TournamentForm(TournamentForm.initial_of(tournament) | {"carry_over": "3/2"})
    assert not form.is_valid() and "carry_over" in form.errors
    form = TournamentForm(TournamentForm.initial_of(tournament) | {"qualification": "no-such-event"})
    assert not form.is_valid() and "qualification" in form.errors
