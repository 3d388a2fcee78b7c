"""Invariants over many random inputs: matchpoint groups, Neuberg, standings against rows, round trips."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.bundle.document import bundle_to_dict, parse_bundle
from preferans.duplicate.matchpoints import UnequalRule, raw_matchpoints, score_group
from preferans.duplicate.session_scoring import validate_and_score
from preferans.numbers import format_percent

fractions = st.builds(Fraction, st.integers(-300, 300), st.sampled_from([1, 2, 3, 4, 6]))


@given(st.lists(fractions, min_size=1, max_size=40))
def test_a_group_of_a_results_hands_out_a_times_a_minus_1(scores: list[Fraction]) -> None:
    mps = raw_matchpoints(scores)
    count = len(scores)
    assert sum(mps) == count * (count - 1)
    assert all(0 <= mp <= 2 * (count - 1) for mp in mps)


@given(st.lists(fractions, min_size=1, max_size=30))
def test_raw_matchpoints_match_the_definition(scores: list[Fraction]) -> None:
    expected = [
        sum(2 if s > o else 1 if s == o else 0 for j, o in enumerate(scores) if j != i)
        for i, s in enumerate(scores)
    ]
    assert raw_matchpoints(scores) == expected


@given(st.lists(fractions, min_size=1, max_size=30), st.integers(0, 10))
def test_neuberg_keeps_the_order_and_scales_to_the_full_top(scores: list[Fraction], missing: int) -> None:
    expected = len(scores) + missing
    group = score_group(scores, expected=expected)
    assert group.top == 2 * (expected - 1)
    assert sum(group.matchpoints) == len(scores) * (expected - 1)
    for i, a in enumerate(scores):
        for j, b in enumerate(scores):
            if a < b:
                assert group.matchpoints[i] < group.matchpoints[j]
            elif a == b:
                assert group.matchpoints[i] == group.matchpoints[j]
    assert all(0 <= mp <= group.top for mp in group.matchpoints)


@given(st.lists(fractions, min_size=1, max_size=30), st.integers(0, 10))
def test_none_keeps_raw_values(scores: list[Fraction], missing: int) -> None:
    group = score_group(scores, expected=len(scores) + missing, method=UnequalRule.NONE)
    assert list(group.matchpoints) == raw_matchpoints(scores)
    assert group.top == 2 * (len(scores) - 1)


@st.composite
def bundles(draw: st.DrawFn) -> dict[str, Any]:
    """Random events of assigned and artificial rows (no preferans needed), some rows missing, fouled boards."""
    players = draw(st.sampled_from([3, 4]))
    seats = ("N", "E", "S", "W")[:players]
    tables = draw(st.integers(1, 4))
    people = list(range(1, tables * players + 1))
    sessions = []
    for number in range(1, draw(st.integers(1, 2)) + 1):
        results = []
        rounds = draw(st.integers(1, 3))
        per_round = draw(st.integers(1, 2))
        for rnd in range(1, rounds + 1):
            order = draw(st.permutations(people))
            for j in range(per_round):
                board = (rnd - 1) * per_round + j + 1
                for t in range(tables):
                    if draw(st.integers(0, 5)) == 0:
                        continue  # this table did not play the board
                    row: dict[str, Any] = {
                        "board": board,
                        "round": rnd,
                        "table": t + 1,
                        "dealer": "N",
                        "seats": {s: order[t * players + k] for k, s in enumerate(seats)},
                    }
                    if draw(st.integers(0, 6)) == 0:
                        row["adjusted"] = {s: draw(st.sampled_from(["A-", "A", "A+"])) for s in seats}
                    else:
                        row["assigned"] = {s: str(draw(fractions)) for s in seats}
                    if draw(st.integers(0, 8)) == 0:
                        row["version"] = "B"
                    results.append(row)
        penalties = [
            # A penalty takes matchpoints away (rules §12): always below zero.
            {"participant": draw(st.sampled_from(people)), "matchpoints": str(-abs(draw(fractions)) - 1)}
            for _ in range(draw(st.integers(0, 3)))
        ]
        sessions.append({"number": number, "results": results, "penalties": penalties})
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {
            "name": "t",
            "variant": "sochi",
            "players_per_table": players,
            "scoring": {"unequal_results": draw(st.sampled_from(["neuberg", "none"]))},
        },
        "participants": [{"number": n} for n in people],
        "sessions": sessions,
    }


@settings(max_examples=60, deadline=None)
@given(bundles())
def test_standings_consistent_with_rows(data: dict[str, Any]) -> None:
    bundle, scored = validate_and_score(data)
    mp: dict[int, Fraction] = {p.number: Fraction(0) for p in bundle.participants}
    top: dict[int, Fraction] = dict(mp)
    for session, scored_session in zip(bundle.sessions, scored.sessions, strict=True):
        assert len(scored_session.results) == len(session.results)
        for row, result in zip(session.results, scored_session.results, strict=True):
            assert (result.board, result.table, result.round) == (row.board, row.table, row.round)
            for seat, number in row.seats.items():
                assert result.matchpoints[seat] <= result.top[seat]
                mp[number] += result.matchpoints[seat]
                top[number] += result.top[seat]
        for penalty in session.penalties:
            mp[penalty.participant] += penalty.matchpoints
    standings = {s.participant: s for s in scored.standings}
    assert set(standings) == set(mp)
    for number in mp:
        assert standings[number].matchpoints == mp[number]
        assert standings[number].max == top[number]
    percents = [s.percent for s in scored.standings]
    assert percents == sorted(percents, reverse=True)
    for position, s in enumerate(scored.standings, start=1):
        first, _, last = s.rank.partition("-")
        assert int(first) <= position <= int(last or first)
        tied = [o for o in scored.standings if o.percent == s.percent]
        assert (len(tied) > 1) == ("-" in s.rank)
    # formats.md §1: percentages are rounded half-up from the exact value
    assert all(format_percent(s.percent) for s in scored.standings)


@settings(max_examples=60, deadline=None)
@given(bundles())
def test_round_trip(data: dict[str, Any]) -> None:
    first = parse_bundle(data)
    assert parse_bundle(bundle_to_dict(first)) == first


@settings(max_examples=40, deadline=None)
@given(bundles())
def test_each_board_line_group_hands_out_its_share(data: dict[str, Any]) -> None:
    """Under Neuberg each (board, version) group of A rows out of E hands out A(E − 1) per line."""
    data["tournament"]["scoring"] = {"unequal_results": "neuberg"}
    bundle, scored = validate_and_score(data)
    for session, scored_session in zip(bundle.sessions, scored.sessions, strict=True):
        groups: dict[tuple[int, str], list[int]] = {}
        for i, row in enumerate(session.results):
            if row.adjusted is None:
                groups.setdefault((row.board, row.version), []).append(i)
        counts: dict[int, int] = {}
        for row in session.results:
            counts[row.board] = counts.get(row.board, 0) + 1
        expected = max(counts.values(), default=0)
        for members in groups.values():
            for seat in session.results[members[0]].seats:
                total = sum((scored_session.results[i].matchpoints[seat] for i in members), Fraction(0))
                assert total == len(members) * (expected - 1)
