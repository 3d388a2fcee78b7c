"""What the scoring core needs from the database, read once: the tournament's facts as the core's bundle.

Every result carries its primary key (:attr:`~preferans.bundle.rows.BundleResult.key`), which the core hands
back with the result's numbers, so :mod:`scoring.rescore` writes them to the row they belong to — whatever rows
came or went meanwhile. Plain values are read (no model instances): a rescore of a large event reads
thousands of rows.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from preferans.bundle.document import Bundle, BundleParticipant, BundleSession
from preferans.bundle.penalties import BundlePenalty
from preferans.bundle.rows import DEAL_FIELDS, BundleResult
from preferans.bundle.tournament import BundleScoring, BundleTournament
from preferans.duplicate.artificial import parse_percent
from preferans.duplicate.matchpoints import UnequalRule
from preferans.numbers import parse_fraction
from scoring.models import Penalty, Result
from tournaments.models import Tournament, default_artificial

_RESULT_COLUMNS = (
    "pk",
    "session_id",
    "board_number",
    "round_number",
    "table_number",
    "seat_n__number",
    "seat_e__number",
    "seat_s__number",
    "seat_w__number",
    "dealer",
    "row",
    "adjusted",
    "assigned",
    "version",
    "room",
    "annulled",
    "percent",
)


def scoring_bundle(tournament: Tournament) -> Bundle:
    """The tournament as the core scores it: participants, and per session its rows (in order of entry, each
    keyed by its primary key) and penalties. The stored rows were checked when they were written."""
    artificial = {
        grade: Fraction(value) for grade, value in (tournament.artificial or default_artificial()).items()
    }
    head = BundleTournament(
        name=tournament.name,
        variant=tournament.variant,
        rules=dict(tournament.rule_overrides or {}),
        players_per_table=tournament.players_per_table,
        deals_per_set=tournament.deals_per_set,
        scoring=BundleScoring(UnequalRule(tournament.unequal_results), artificial),
    )
    participants = tuple(
        BundleParticipant(number, name or None)
        for number, name in tournament.participants.order_by("number").values_list("number", "name")
    )
    sessions = dict(tournament.sessions.order_by("number").values_list("pk", "number"))
    results: dict[int, list[BundleResult]] = defaultdict(list)
    rows = Result.objects.filter(session__tournament=tournament).order_by("session_id", "position", "id")
    for (
        pk,
        session_id,
        board,
        rnd,
        table,
        n,
        e,
        s,
        w,
        dealer,
        facts,
        adjusted,
        assigned,
        version,
        room,
        annulled,
        percent,
    ) in rows.values_list(*_RESULT_COLUMNS):
        results[session_id].append(
            BundleResult(
                board=board,
                round=rnd,
                table=table,
                seats={"N": n, "E": e, "S": s} if w is None else {"N": n, "E": e, "S": s, "W": w},
                dealer=dealer,
                version=version or "A",
                deal={k: v for k, v in (facts or {}).items() if k in DEAL_FIELDS}
                if not (adjusted or assigned)
                else {},
                adjusted=dict(adjusted) if adjusted else None,
                assigned=_fractions(assigned) if assigned and not adjusted else None,
                room=room,
                key=pk,
                annulled=tuple(annulled or ()),
                percent={k: parse_percent(v) for k, v in percent.items()} if percent else None,
            )
        )
    penalties: dict[int, list[BundlePenalty]] = defaultdict(list)
    for session_id, number, matchpoints, reason in (
        Penalty.objects.filter(session__tournament=tournament)
        .order_by("id")
        .values_list("session_id", "participant__number", "matchpoints", "reason")
    ):
        penalties[session_id].append(BundlePenalty(number, parse_fraction(matchpoints), reason or None))
    return Bundle(
        tournament=head,
        participants=participants,
        sessions=tuple(
            BundleSession(number=number, results=tuple(results[pk]), penalties=tuple(penalties[pk]))
            for pk, number in sessions.items()
        ),
    )


def _fractions(values: dict[str, Any]) -> dict[str, Fraction]:
    return {seat: parse_fraction(value) for seat, value in values.items()}
