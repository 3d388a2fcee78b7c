"""The tournament of a bundle (formats.md §2, ``tournament``): its name, variant and rules, table size, boards a
set, how matchpoints are scored (``scoring``) and this project's optional totals over sessions and carry-over
(docs/formats.md); read field for field and written back.

The rules are checked by the preferans core (``make_rules``) unless the caller gives its own check.
Pure Python, no Django import. See :mod:`preferans.bundle.document`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from preferans.bundle.shape import (
    Loc,
    Problems,
    check_bound,
    check_keys,
    check_text,
    describe,
    json_copy,
    positive_int,
)
from preferans.duplicate.artificial import artificial_bounds
from preferans.duplicate.matchpoints import DEFAULT_ARTIFICIAL, UnequalRule
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

__all__ = [
    "SESSION_TOTALS",
    "VARIANTS",
    "BundleScoring",
    "BundleTournament",
    "RulesCheck",
    "parse_tournament",
    "tournament_to_dict",
]

VARIANTS = ("sochi", "leningrad", "rostov")
SESSION_TOTALS = ("matchpoints", "percent")

RulesCheck = Callable[[str, Mapping[str, object]], str | None]
"""``(variant, overrides) -> None`` if the rules are valid, else the message (naming the key) of the problem."""


@dataclass(frozen=True)
class BundleScoring:
    """``tournament.scoring``: how unequal groups are scored and what artificial results are worth (%)."""

    unequal_results: UnequalRule = UnequalRule.NEUBERG
    artificial: Mapping[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_ARTIFICIAL))


@dataclass(frozen=True)
class BundleTournament:
    name: str
    variant: str
    rules: Mapping[str, Any]
    """Overrides of the variant parameters, as written (JSON values); checked by the preferans core."""
    players_per_table: int
    deals_per_set: int
    scoring: BundleScoring = field(default_factory=BundleScoring)
    # This project's optional additions (docs/formats.md, «Totals over sessions and carry-over»); written only
    # when not the default, so a bundle without them reads as before.
    session_totals: str = "matchpoints"
    """``"matchpoints"`` (the sums, the rules' one field) or ``"percent"`` (the sessions' percentages averaged)."""
    qualification: str | None = None
    """A final's qualification event, by its short name (slug); ``None``: none."""
    carry_over: Fraction = Fraction(0)
    """The share ``c`` of the qualification percent a final carries over, 0 to 1."""
    bidding_record: bool = False
    """Rules §13.1 «запись торговли»: the organisers set written bidding, so a played row may carry its bidding
    (optional; written only when true)."""


_TOURNAMENT_KEYS = frozenset(
    {
        "name",
        "variant",
        "rules",
        "players_per_table",
        "deals_per_set",
        "scoring",
        "session_totals",
        "qualification",
        "carry_over",
        "bidding_record",
    }
)
_SCORING_KEYS = frozenset({"unequal_results", "artificial"})


def parse_tournament(
    raw: object, problems: Problems, rules_check: RulesCheck | None
) -> tuple[BundleTournament | None, bool]:
    """``tournament``: the tournament (``None`` when it has problems of its own, all reported) and whether its
    rules are valid."""
    loc = Loc(where="tournament")
    if raw is None:
        return None, False
    if not isinstance(raw, dict):
        problems.add(loc, f"must be an object, not {describe(raw)}")
        return None, False
    before = len(problems)
    check_keys(
        problems,
        loc,
        raw,
        allowed=_TOURNAMENT_KEYS,
        required=("name", "variant", "players_per_table"),
        what="tournament",
    )
    name = raw.get("name", "")
    if not isinstance(name, str):
        problems.add(loc, f"name must be a string, not {describe(name)}")
    else:
        check_text(problems, loc, "name", name)
    variant = raw.get("variant")
    if "variant" in raw and variant not in VARIANTS:
        problems.add(loc, f"variant {variant!r} is unknown — use sochi, leningrad or rostov")
    rules = raw.get("rules", {})
    if not isinstance(rules, dict):
        problems.add(loc, f"rules must be an object of variant parameters, not {describe(rules)}")
    players = raw.get("players_per_table")
    if "players_per_table" in raw and (players not in (3, 4) or isinstance(players, bool)):
        problems.add(loc, f"players_per_table must be 3 or 4, not {players!r}")
    deals = raw.get("deals_per_set", players)
    given = positive_int(deals)
    if "deals_per_set" in raw and given is None:
        problems.add(loc, f"deals_per_set must be a positive integer, not {deals!r}")
    elif "deals_per_set" in raw and given is not None:
        check_bound(problems, loc, "deals_per_set", given)
    scoring = _parse_scoring(raw.get("scoring", {}), problems)
    totals, qualification, carry = _parse_totals(raw, problems, loc)
    bidding_record = raw.get("bidding_record", False)
    if not isinstance(bidding_record, bool):
        problems.add(loc, f"bidding_record must be true or false, not {bidding_record!r}")
    if len(problems) > before or scoring is None:
        return None, False
    assert isinstance(variant, str) and isinstance(players, int) and isinstance(deals, int)
    assert isinstance(name, str) and isinstance(rules, dict)
    check = rules_check or _preferans_rules_check
    message = check(variant, rules)
    if message is not None:
        problems.add(loc, f"rules: {message}")
    return (
        BundleTournament(
            name,
            variant,
            rules,
            players,
            deals,
            scoring,
            totals,
            qualification,
            carry,
            bidding_record is True,
        ),
        message is None,
    )


def _parse_totals(raw: Mapping[str, Any], problems: Problems, loc: Loc) -> tuple[str, str | None, Fraction]:
    """The optional ``session_totals``, ``qualification`` and ``carry_over`` (docs/formats.md)."""
    totals = raw.get("session_totals", "matchpoints")
    if totals not in SESSION_TOTALS:
        problems.add(loc, f"session_totals must be 'matchpoints' or 'percent', not {totals!r}")
        totals = "matchpoints"
    qualification = raw.get("qualification")
    if qualification is not None and (not isinstance(qualification, str) or not qualification.strip()):
        problems.add(
            loc, f"qualification must be the qualification event's short name, not {qualification!r}"
        )
        qualification = None
    elif isinstance(qualification, str):
        check_text(problems, loc, "qualification", qualification)
    carry = Fraction(0)
    if "carry_over" in raw:
        try:
            carry = parse_fraction(raw["carry_over"])
        except NumberFormatError:
            carry = Fraction(-1)
        if not 0 <= carry <= 1:
            problems.add(
                loc,
                f'carry_over must be an exact fraction from 0 to 1 such as "1/2", not {raw["carry_over"]!r}',
            )
            carry = Fraction(0)
    return str(totals), qualification, carry


def _preferans_rules_check(variant: str, overrides: Mapping[str, object]) -> str | None:
    from preferans.game import RulesError, make_rules

    try:
        make_rules(variant, overrides)
    except RulesError as exc:
        return str(exc)
    return None


def _parse_scoring(raw: object, problems: Problems) -> BundleScoring | None:
    loc = Loc(where="tournament.scoring")
    if not isinstance(raw, dict):
        problems.add(loc, f"must be an object, not {describe(raw)}")
        return None
    before = len(problems)
    check_keys(problems, loc, raw, allowed=_SCORING_KEYS, required=(), what="scoring")
    method = UnequalRule.NEUBERG
    if "unequal_results" in raw:
        try:
            method = UnequalRule(raw["unequal_results"])
        except (ValueError, TypeError):
            problems.add(loc, f"unequal_results must be 'neuberg' or 'none', not {raw['unequal_results']!r}")
    artificial = dict(DEFAULT_ARTIFICIAL)
    given = raw.get("artificial", {})
    if not isinstance(given, dict):
        problems.add(
            loc,
            f'artificial must be an object such as {{"A-": 40, "A": 50, "A+": 60}}, not {describe(given)}',
        )
    else:
        for key, value in given.items():
            if key not in DEFAULT_ARTIFICIAL:
                problems.add(
                    loc, f"artificial: unknown result {key!r} — the artificial results are A-, A and A+"
                )
                continue
            percent = _parse_percent(value)
            if percent is None:
                problems.add(loc, f"artificial {key}: {value!r} is not a percentage from 0 to 100")
            else:
                artificial[key] = percent
        if len(problems) == before:  # the book's bounds (§11.2 B1), one rule for every channel
            for p in artificial_bounds(artificial):
                problems.add(loc, f"artificial: {p.message}")
    if len(problems) > before:
        return None
    return BundleScoring(method, artificial)


def _parse_percent(value: object) -> Fraction | None:
    if isinstance(value, str) and "." in value:
        try:
            number: Fraction = Fraction(value.strip())
        except ValueError:
            return None
    else:
        try:
            number = parse_fraction(value)
        except NumberFormatError:
            return None
    return number if 0 <= number <= 100 else None


def tournament_to_dict(t: BundleTournament) -> dict[str, Any]:
    """The tournament as JSON-able data; numbers as the formats write them (§1)."""
    artificial = {key: _percent_out(value) for key, value in t.scoring.artificial.items()}
    return {
        "name": t.name,
        "variant": t.variant,
        "rules": json_copy(dict(t.rules)),
        "players_per_table": t.players_per_table,
        "deals_per_set": t.deals_per_set,
        "scoring": {"unequal_results": t.scoring.unequal_results.value, "artificial": artificial},
        **_totals_to_dict(t),
    }


def _totals_to_dict(t: BundleTournament) -> dict[str, Any]:
    """The optional totals fields, only those not at their default (a bundle without them is unchanged)."""
    out: dict[str, Any] = {}
    if t.session_totals != "matchpoints":
        out["session_totals"] = t.session_totals
    if t.qualification is not None:
        out["qualification"] = t.qualification
    if t.carry_over:
        out["carry_over"] = format_fraction(t.carry_over)
    if t.bidding_record:
        out["bidding_record"] = True
    return out


def _percent_out(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else format_fraction(value)
