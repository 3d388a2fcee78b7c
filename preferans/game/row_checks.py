"""Checks of the protocol row's fields (spec §11.4), one function per kind of deal.

Each check appends :class:`RowError` values to an :class:`ErrorList` and returns the :class:`Deal` it could
read (or ``None``). :mod:`.rows` puts them together. Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from .contracts import half_obligation, level_name, parse_contract
from .ledger import SEATS, Call, Deal, DealKind, Play, TableSeats
from .variants import RaspasyMode, Rules, WhistMode

__all__ = [
    "ErrorList",
    "RowError",
    "RowInvalid",
    "check_contract",
    "check_misere",
    "check_raspasy",
    "check_table",
]

_COLUMNS = ("declarer", "w1", "w2")
_CONTRACT_COLUMN_NAMES = {"declarer": "declarer", "w1": "first whister", "w2": "second whister"}
_RASPASY_COLUMN_NAMES = {"declarer": "first hand", "w1": "second hand", "w2": "third hand"}


@dataclass(frozen=True)
class RowError:
    """One broken rule of a protocol row."""

    code: str  # stable machine code, e.g. "tricks_total"
    field: str  # the row field at fault: "declarer", "w1", "calls.E", "play", "vists.N", …
    message: str  # plain English, e.g. "tricks total 11 — they must total 10"
    params: Mapping[str, object] = dataclass_field(default_factory=dict)


class RowInvalid(ValueError):
    """A protocol row breaks one or more rules of spec §11.4; ``errors`` lists them all."""

    def __init__(self, errors: Sequence[RowError]) -> None:
        self.errors: tuple[RowError, ...] = tuple(errors)
        super().__init__("; ".join(error.message for error in self.errors))

    def __reduce__(self) -> tuple[type[RowInvalid], tuple[tuple[RowError, ...]]]:
        return (RowInvalid, (self.errors,))  # survives pickling (task queues) with its errors


class ErrorList(list[RowError]):
    """The problems found so far; ``add`` formats the message from its params."""

    def add(self, code: str, field_name: str, template: str, **params: object) -> None:
        self.append(RowError(code, field_name, template.format(**params), params))


def present(row: Mapping[str, object], key: str) -> bool:
    """An optional row field counts as absent when missing or null."""
    return row.get(key) is not None


def _bool_field(row: Mapping[str, object], key: str, errors: ErrorList) -> bool:
    raw = row.get(key)
    if raw is None:
        return False
    if not isinstance(raw, bool):
        errors.add("not_boolean", key, "{key} must be true or false, not {value!r}", key=key, value=raw)
        return False
    return raw


def _int_field(row: Mapping[str, object], key: str, errors: ErrorList, low: int, high: int) -> int | None:
    raw = row.get(key)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        errors.add(
            "out_of_range",
            key,
            "{key} {value!r} — it must be a whole number {low} to {high}",
            key=key,
            value=raw,
            low=low,
            high=high,
        )
        return None
    return raw


def check_table(players: object, dealer: str | None, errors: ErrorList) -> TableSeats | None:
    if players not in (3, 4):
        errors.add("players", "players", "a table has 3 or 4 players, not {players!r}", players=players)
        return None
    if players == 4:
        if dealer not in SEATS:
            errors.add(
                "dealer",
                "dealer",
                "a 4-player table needs the dealer's seat (N, E, S or W), not {dealer!r}",
                dealer=dealer,
            )
            return None
        return TableSeats.standard(4, dealer)
    if dealer is not None and dealer not in ("N", "E", "S"):
        errors.add(
            "dealer",
            "dealer",
            "the first hand of a 3-player table is N, E or S, not {dealer!r} (W holds the prikup)",
            dealer=dealer,
        )
        return None
    return TableSeats.standard(3, None)


def _positions(
    row: Mapping[str, object], table: TableSeats, names: Mapping[str, str], errors: ErrorList
) -> dict[str, tuple[str, int]] | None:
    """The three [seat, tricks] columns, checked for shape, seat, tricks 0…10 and distinct seats (§11.4.1–3)."""
    found: dict[str, tuple[str, int]] = {}
    start = len(errors)
    for column in _COLUMNS:
        raw = row.get(column)
        name = names[column]
        if not isinstance(raw, (list, tuple)) or len(raw) != 2:
            errors.add(
                "position",
                column,
                "{name} must be written as [seat, tricks], not {value!r}",
                name=name,
                value=raw,
            )
            continue
        seat, tricks = raw
        if seat not in SEATS:
            errors.add("seat", column, "{name}: {seat!r} is not a seat (N, E, S or W)", name=name, seat=seat)
            continue
        if seat not in table.seats:
            errors.add(
                "seat_empty",
                column,
                "{name} is {seat}, but {seat} is empty at a 3-player table (the prikup pocket)",
                name=name,
                seat=seat,
            )
            continue
        if seat == table.dealer:
            errors.add(
                "dealer_position",
                column,
                "{name} is the dealer {seat}, who sits out at a 4-player table",
                name=name,
                seat=seat,
            )
            continue
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 10:
            errors.add(
                "tricks_range",
                column,
                "{name}'s tricks {tricks!r} — tricks are whole numbers 0 to 10",
                name=name,
                tricks=tricks,
            )
            continue
        for other, (other_seat, _) in found.items():
            if other_seat == seat:
                errors.add(
                    "duplicate_position",
                    column,
                    "duplicate position {seat}: {other} and {name} are both {seat}",
                    seat=seat,
                    other=names[other],
                    name=name,
                )
                break
        else:
            found[column] = (seat, tricks)
    return found if len(errors) == start else None


def _check_order(
    pos: Mapping[str, tuple[str, int]], table: TableSeats, first: str, errors: ErrorList, template: str
) -> None:
    expected = table.after(first)
    actual = (pos["w1"][0], pos["w2"][0])
    if actual != expected:
        errors.add("column_order", "w1", template, after=first, first=expected[0], second=expected[1])


# -- the row kinds --------------------------------------------------------------------------------------
def _no_whist_fields(row: Mapping[str, object], errors: ErrorList, what: str, *, calls_code: str) -> None:
    calls = row.get("calls")
    if calls is not None and calls != {}:
        errors.add(calls_code, "calls", "{what} has no whist calls", what=what)
    if _bool_field(row, "dealer_whist", errors):
        errors.add("dealer_whist", "dealer_whist", "{what} has no whist, so no dealer_whist", what=what)
    if present(row, "penalty_tricks"):
        errors.add("penalty_tricks", "penalty_tricks", "penalty_tricks apply only to a trick contract (6…10)")
    if present(row, "wrong_cards"):
        errors.add(
            "wrong_cards_kind",
            "wrong_cards",
            "wrong_cards (Code 3.9.18) applies only to a played trick contract (6…10), not to a {what} — "
            "record the director's penalty as extra entries",
            what=what,
        )


def check_raspasy(
    row: Mapping[str, object], rules: Rules, table: TableSeats, dealer: str | None, errors: ErrorList
) -> Deal | None:
    pos = _positions(row, table, _RASPASY_COLUMN_NAMES, errors)
    _no_whist_fields(row, errors, "raspasy", calls_code="calls_raspasy")
    if _bool_field(row, "misere_shared", errors):
        errors.add("misere_shared", "misere_shared", "misere_shared belongs to a misère, not to raspasy")
    if row.get("play") not in (None, Play.NONE.value):
        errors.add("play", "play", "raspasy has no whist play — leave play out or write none")
    step = _int_field(row, "raspasy_step", errors, 1, rules.progression_cap) or 1
    if present(row, "raspasy_step") and step != 1 and rules.progression.value == "none":
        errors.add(
            "raspasy_step",
            "raspasy_step",
            "raspasy step {step} given, but the rules have no progression",
            step=step,
        )
    if pos is None:
        return None
    first = table.first_hand() or dealer or pos["declarer"][0]
    if pos["declarer"][0] != first:
        errors.add(
            "column_order",
            "declarer",
            "raspasy columns must start with the first hand {first}, not {seat}",
            first=first,
            seat=pos["declarer"][0],
        )
    else:
        _check_order(
            pos,
            table,
            first,
            errors,
            "raspasy columns not in clockwise order: after {after} come {first} and {second}",
        )
    total = sum(t for _, t in pos.values())
    if table.players == 3 and total != 10:
        errors.add(
            "raspasy_total",
            "declarer",
            "raspasy total {total} at a 3-player table — the three hands take 10 tricks",
            total=total,
        )
    elif rules.raspasy_mode is RaspasyMode.WHISTS and total != 10:
        errors.add(
            "raspasy_total",
            "declarer",
            "raspasy total {total} at a 4-player {variant} table — the three hands take 10 tricks (the prikup is not played)",
            total=total,
            variant=rules.variant,
        )
    elif total < 8:
        errors.add(
            "raspasy_total",
            "declarer",
            "4-player raspasy total {total} (<8) — the three hands take 8 to 10 tricks (the dealer at most 2)",
            total=total,
        )
    elif total > 10:
        errors.add(
            "raspasy_total",
            "declarer",
            "4-player raspasy total {total} (>10) — there are only 10 tricks",
            total=total,
        )
    tricks = {seat: t for seat, t in pos.values()}
    return Deal(DealKind.RASPASY, tricks=tricks, raspasy_step=step)


def check_misere(row: Mapping[str, object], table: TableSeats, errors: ErrorList) -> Deal | None:
    pos = _positions(row, table, _CONTRACT_COLUMN_NAMES, errors)
    _no_whist_fields(row, errors, "misere", calls_code="calls_misere")
    if row.get("play") == Play.NONE.value:
        errors.add("play", "play", "a misère is always played — write open or closed, or leave play out")
    shared = _bool_field(row, "misere_shared", errors)
    if shared and table.dealer is None:
        errors.add(
            "misere_shared",
            "misere_shared",
            "a misère can be shared only with the dealer of a 4-player table",
        )
    if pos is None:
        return None
    _totals_and_order(pos, table, errors)
    return Deal(
        DealKind.MISERE,
        tricks={seat: t for seat, t in pos.values()},
        contract=parse_contract("MIS"),
        declarer=pos["declarer"][0],
        misere_shared=shared,
    )


def _totals_and_order(pos: Mapping[str, tuple[str, int]], table: TableSeats, errors: ErrorList) -> None:
    total = sum(t for _, t in pos.values())
    if total != 10:
        errors.add(
            "tricks_total",
            "declarer",
            "tricks total {total} — they must total 10",
            total=total,
            tricks=[t for _, t in pos.values()],
        )
    _check_order(
        pos,
        table,
        pos["declarer"][0],
        errors,
        "whister columns not in clockwise order: after {after} the first whister is {first} and the second {second}",
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


def check_contract(
    row: Mapping[str, object], level: int, rules: Rules, table: TableSeats, errors: ErrorList
) -> Deal | None:
    pos = _positions(row, table, _CONTRACT_COLUMN_NAMES, errors)
    dealer_whist = _bool_field(row, "dealer_whist", errors)
    penalty = _int_field(row, "penalty_tricks", errors, 0, 10) or 0
    wrong_cards = _wrong_cards(row, errors)
    if _bool_field(row, "misere_shared", errors):
        errors.add(
            "misere_shared", "misere_shared", "misere_shared belongs to a misère, not to a trick contract"
        )
    if pos is None:
        return None
    _totals_and_order(pos, table, errors)
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
