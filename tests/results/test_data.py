"""The report data are the core's stored numbers; the sums shown are sums of those numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from events.bundles import tournament_to_bundle
from preferans.duplicate.session_scoring import score_document
from preferans.numbers import format_percent, parse_fraction
from results.data import load_report
from results.derived import frequencies, protocols, running_percentages, score_cards, session_totals
from scoring.models import Result, Standing

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("event", ["demo", "three"])
def test_rows_carry_the_stored_core_numbers(event, request):
    t = request.getfixturevalue(event)
    report = load_report(t.pk)
    stored = {
        (r.session.number, r.board_number, r.round_number, r.table_number): r
        for r in Result.objects.filter(session__tournament=t).select_related("session")
    }
    rows = [r for s in report.sessions for r in s.results]
    assert len(rows) == len(stored)
    for row in rows:
        result = stored[(row.session, row.board, row.round, row.table)]
        for seat, sr in row.seats.items():
            assert sr.matchpoints == parse_fraction(result.matchpoints[seat])
            assert sr.top == parse_fraction(result.top[seat])
            if result.vists and seat in result.vists:
                assert sr.vists == parse_fraction(result.vists[seat])


@pytest.mark.parametrize("event", ["demo", "three"])
def test_cards_and_session_totals_add_up_to_the_standings(event, request):
    t = request.getfixturevalue(event)
    report = load_report(t.pk)
    scored = score_document(tournament_to_bundle(t))  # the core, run again on the same bundle
    by_participant = {s["participant"]: s for s in scored["standings"]}
    totals = session_totals(report)
    for card in score_cards(report):
        st = Standing.objects.get(tournament=t, participant__number=card.person.number)
        assert (
            card.total
            == parse_fraction(st.matchpoints)
            == parse_fraction(by_participant[card.person.number]["matchpoints"])
        )
        assert card.top == parse_fraction(st.max)
        assert format_percent(card.percent) == st.percent
        assert (
            sum((totals[(card.person.number, s.number)].matchpoints for s in card.sessions), Fraction(0))
            == card.total
        )
        points = running_percentages(card)
        assert points, "every participant played"
        assert format_percent(points[-1].percent) == st.percent


def test_three_player_rows_have_no_w_and_awarded_results_are_marked(three):
    report = load_report(three.pk)
    assert report.seats == ("N", "E", "S")
    rows = [r for s in report.sessions for r in s.results]
    assert all("W" not in r.seats for r in rows)
    kinds = {r.kind for r in rows}
    assert kinds == {"played", "adjusted", "assigned"}
    adjusted = next(r for r in rows if r.kind == "adjusted")
    assert adjusted.seats["N"].adjusted == "A+" and adjusted.seats["N"].vists is None
    assert adjusted.seats["N"].matchpoints == Fraction(6, 10) * adjusted.seats["N"].top


def test_frequencies_count_every_row(three):
    report = load_report(three.pk)
    for protocol in protocols(report):
        freq = frequencies(protocol)
        assert sum(n for *_x, n in freq.contracts) == len(protocol.rows)
        for items in freq.lines.values():
            assert sum(f.count for f in items) == len(protocol.rows)
            values = [f.value for f in items if f.value is not None]
            assert values == sorted(values, reverse=True)
