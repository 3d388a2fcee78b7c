"""Checks of a trick contract's row (spec §11.4; contracts 6…10): the columns, the defenders' whist calls
(half-whist on a six or a seven), the play, a wrong number of cards (Code 3.9.18) and a no-play deal's nominal
tricks. Returns the :class:`Deal` it could read (or ``None``). Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping

from .contracts import half_obligation, level_name, parse_contract
from .ledger import SEATS, Call, Deal, DealKind, Play, TableSeats
from .row_fields import (
    CONTRACT_COLUMN_NAMES,
    ErrorList,
    bool_field,
    int_field,
    positions,
    totals_and_order,
)
from .variants import Rules, WhistMode

__all__ = ["check_contract"]


def check_contract(
    row: Mapping[str, object], level: int, rules: Rules, table: TableSeats, errors: ErrorList
) -> Deal | None:
    """A contract of ``level`` tricks: the deal as read, or ``None`` (its problems in ``errors``)."""
    pos = positions(row, table, CONTRACT_COLUMN_NAMES, errors)
    dealer_whist = bool_field(row, "dealer_whist", errors)
    penalty = int_field(row, "penalty_tricks", errors, 0, 10) or 0
    wrong_cards = _wrong_cards(row, errors)
    if bool_field(row, "misere_shared", errors):
        errors.add(
            "misere_shared", "misere_shared", "misere_shared belongs to a misère, not to a trick contract"
        )
    if pos is None:
        return None
    totals_and_order(pos, table, errors)
    declarer = pos["declarer"][0]
    d1, d2 = table.after(declarer)
    if (pos["w1"][0], pos["w2"][0]) != (d1, d2):
        return None
    calls = _calls(row, level, rules, table, d1, d2, dealer_whist, errors)
    if calls is None:
        return None
    whisters = sum(1 for c in calls.values() if c is Call.WHIST) + (1 if dealer_whist else 0)
    raw_play = row.get("play")
    if raw_play is None:
        play = Play.NONE if whisters == 0 else Play.CLOSED
    elif raw_play not in [p.value for p in Play]:
        errors.add("play", "play", "play {value!r} — use closed, open or none", value=raw_play)
        return None
    else:
        play = Play(raw_play)
    if whisters == 2 and play is not Play.CLOSED:
        errors.add("play_two_whisters", "play", "two whisters must play closed (Code 3.8.4)")
    elif whisters == 0 and play is not Play.NONE:
        errors.add("play_no_whister", "play", "nobody whisted, so there was no play — write play none")
    elif whisters and play is Play.NONE:
        errors.add("play_none", "play", "someone whisted, so the deal was played — write play open or closed")
    _check_wrong_cards(wrong_cards, declarer, (d1, d2), whisters, errors)
    tricks = {seat: t for seat, t in pos.values()}
    if whisters == 0:
        nominal = {declarer: 10, d1: 0, d2: 0}
        for seat in (d1, d2):
            if calls[seat] is Call.HALF:
                half = int(half_obligation(level))
                other = d2 if seat == d1 else d1
                nominal = {declarer: level, seat: half, other: 10 - level - half}
        if tricks != nominal:
            errors.add(
                "nominal_tricks",
                "declarer",
                "no-play deal must record nominal tricks ({expected}), not {actual}",
                expected="/".join(str(nominal[s]) for s in (declarer, d1, d2)),
                actual="/".join(str(tricks[s]) for s in (declarer, d1, d2)),
            )
    return Deal(
        DealKind.CONTRACT,
        tricks=tricks,
        contract=parse_contract(str(row["contract"])),
        declarer=declarer,
        calls=calls,
        play=play,
        dealer_whist=dealer_whist,
        penalty_tricks=penalty,
        wrong_cards=wrong_cards,
    )


def _calls(
    row: Mapping[str, object],
    level: int,
    rules: Rules,
    table: TableSeats,
    d1: str,
    d2: str,
    dealer_whist: bool,
    errors: ErrorList,
) -> dict[str, Call] | None:
    raw = row.get("calls")
    if not isinstance(raw, Mapping):
        errors.add(
            "calls_missing",
            "calls",
            "calls are missing — each defender says whist, pass, half or half_returned",
        )
        return None
    start = len(errors)
    calls: dict[str, Call] = {}
    for seat, value in raw.items():
        if seat not in (d1, d2):
            errors.add(
                "calls_seat",
                f"calls.{seat}",
                "{seat} is not a defender, so {seat} has no whist call",
                seat=seat,
            )
        elif value not in [c.value for c in Call]:
            errors.add(
                "calls_value",
                f"calls.{seat}",
                "{seat}'s call {value!r} — use whist, pass, half or half_returned",
                seat=seat,
                value=value,
            )
        else:
            calls[seat] = Call(value)
    for seat in (d1, d2):
        if seat not in raw:
            errors.add(
                "calls_missing", f"calls.{seat}", "{seat} has no call — each defender has one", seat=seat
            )
    if len(errors) > start:
        return None
    halves = [s for s in (d1, d2) if calls[s] in (Call.HALF, Call.HALF_RETURNED)]
    if halves and level >= 8:
        errors.add(
            "calls_half_level",
            f"calls.{halves[0]}",
            "half-whist on an {level_name} is not allowed — only on a six or a seven (fn60)",
            level_name=level_name(level),
            level=level,
        )
        return None
    if len(halves) == 2:
        errors.add("calls_two_halves", f"calls.{d2}", "only one defender can go for half-whist")
        return None
    for seat in halves:
        other = d2 if seat == d1 else d1
        if seat == d1 and rules.whist_mode is not WhistMode.GENTLEMAN:
            errors.add(
                "calls_half_first",
                f"calls.{seat}",
                "half-whist by the first defender {seat} is allowed only under gentleman's whist (Code 3.8.14)",
                seat=seat,
            )
        elif calls[seat] is Call.HALF and (calls[other] is not Call.PASS or dealer_whist):
            errors.add(
                "calls_half_with_whist",
                f"calls.{seat}",
                "{seat}'s half-whist cannot stand beside a whist — if the whist was returned, write half_returned",
                seat=seat,
            )
        elif calls[seat] is Call.HALF_RETURNED and calls[other] is not Call.WHIST and not dealer_whist:
            errors.add(
                "calls_no_returner",
                f"calls.{seat}",
                "{seat} is half_returned, but nobody returned the whist (the other defender's whist or dealer_whist)",
                seat=seat,
            )
    if dealer_whist:
        if table.dealer is None:
            errors.add("dealer_whist", "dealer_whist", "dealer_whist exists only at a 4-player table")
        elif Call.WHIST in calls.values():
            errors.add("dealer_whist", "dealer_whist", "a defender whists, so the dealer cannot whist too")
    return calls if len(errors) == start else None


def _wrong_cards(row: Mapping[str, object], errors: ErrorList) -> tuple[str, ...]:
    """The seats found with a wrong number of cards (Code 3.9.18): a list of distinct seats, or nothing."""
    raw = row.get("wrong_cards")
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)) or any(seat not in SEATS for seat in raw):
        errors.add(
            "wrong_cards",
            "wrong_cards",
            "wrong_cards {value!r} — list the seats (N, E, S, W) of the players found with a wrong number of cards",
            value=raw,
        )
        return ()
    if len(set(raw)) != len(raw):
        errors.add("wrong_cards_twice", "wrong_cards", "wrong_cards names a seat twice")
        return ()
    return tuple(str(seat) for seat in raw)


def _check_wrong_cards(
    seats: tuple[str, ...], declarer: str, defenders: tuple[str, str], whisters: int, errors: ErrorList
) -> None:
    """Code 3.9.18 names the declarer and the defenders of a played deal, and needs the others' cards right."""
    if not seats:
        return
    if whisters == 0:
        errors.add(
            "wrong_cards_no_play",
            "wrong_cards",
            "nobody whisted, so the deal was not played and nobody can be found with a wrong number of cards",
        )
        return
    playing = (declarer, *defenders)
    for seat in seats:
        if seat not in playing:
            errors.add(
                "wrong_cards_seat",
                "wrong_cards",
                "{seat} held no cards in this deal — wrong_cards names the declarer {declarer} or a defender "
                "({first}, {second})",
                seat=seat,
                declarer=declarer,
                first=defenders[0],
                second=defenders[1],
            )
            return
    if len(seats) == 3:
        errors.add(
            "wrong_cards_all",
            "wrong_cards",
            "all three hands cannot be at fault — Code 3.9.18 punishes a player when the others' cards are right",
        )
