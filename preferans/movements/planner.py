"""The planner: the movement a director would choose for N participants, with the reasons.

Order of preference (formats.md §4):
  1. the book's special scheme for N (8, 9, 12, 13, 16, 18, 24) — unless a perfectly balanced cyclic scheme of
     the same length exists where the book's is unbalanced (12: every pair meets 3 times);
  2. the basic movement on one room whose number of tables is prime (more exactly: has no factor 2 or 3, which
     is all the basic movement needs), shortened to ``MAX_ROUNDS`` if longer;
  3. otherwise the best-scoring of: several rooms, the skip procedure, substitutes taking turns to rest, and
     cyclic schemes with rests found by search — with 4- or 3-player tables.
Every candidate passes the validator before it is offered.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .basic import basic_movement, is_prime
from .book import BOOK_NOTES, BOOK_SCHEMES, book_movement
from .cyclic import Design, search, shape_for
from .model import Movement, MovementError
from .reasons import Reason
from .routes import route_movement
from .validate import Properties, check, unmet_line_pairs, validate

MAX_ROUNDS = 13  # the longest book scheme (13 rounds of 4 deals ≈ 4½ hours at 5 minutes a deal)
MIN_PARTICIPANTS = 6  # two tables of three
CYCLIC_LIMIT = 40  # above this the cyclic search is tried only when nothing else seats N


@dataclass(frozen=True)
class Candidate:
    movement: Movement
    properties: Properties
    family: str
    summary: Reason
    score: float


@dataclass(frozen=True)
class Plan:
    movement: Movement
    properties: Properties
    explanation: tuple[Reason, ...]
    alternatives: tuple[Reason, ...] = ()


def perfect_basic(tables: int) -> bool:
    """The basic movement meets every player of another line exactly once when T has no factor 2 or 3."""
    return tables >= 5 and math.gcd(tables, 6) == 1


def describe(m: Movement, p: Properties) -> Reason:
    meetings = tuple(
        Reason(f"{n} pairs ×{t}", "meeting_pairs", {"pairs": n, "times": t}) for t, n in p.meetings
    )
    rests = sum(p.rests)
    resting = rests // max(1, len(m.rounds))
    parts = [
        f"{m.rooms} room(s) × {m.tables} tables of {m.per_table}",
        f"{len(m.rounds)} rounds",
        f"{m.sets} sets",
        f"{p.results_per_board_line} results per board and line",
        f"{resting} resting per round" if rests else "nobody rests",
        f"{p.copies} copies of each set per room" if p.copies > 1 else "one copy of each set per room",
        f"meetings: {', '.join(meetings)}",
    ]
    params: dict[str, int | str | Reason | tuple[Reason, ...]] = {
        "rooms": m.rooms,
        "tables": m.tables,
        "per_table": m.per_table,
        "rounds": len(m.rounds),
        "sets": m.sets,
        "results": p.results_per_board_line,
        "rests": rests,
        "resting": resting,
        "copies": p.copies,
        "meetings": meetings,
    }
    return Reason("; ".join(parts), "summary", params)


THREE_PLAYER_PENALTY = 0.25  # tables of four are the norm (all the book's schemes); three is procedure 1


def score(m: Movement, p: Properties) -> float:
    """Lower is better: rests, uneven meetings, extra copies of sets, short sessions, tables of three."""
    mean, var = p.meeting_mean_var()
    cv2 = var / (mean * mean) if mean else 10.0
    rest_frac = sum(p.rests) / max(1, m.participants * len(m.rounds))
    three = THREE_PLAYER_PENALTY if m.per_table == 3 else 0.0
    return 5 * rest_frac + cv2 + 0.2 * (p.copies - 1) + 0.05 * max(0, 9 - len(m.rounds)) + three


def _candidate(family: str, build: Callable[[], Movement]) -> Candidate | None:
    try:
        m = build()
    except MovementError:
        return None
    report = validate(m)
    if not report.ok:
        return None
    return Candidate(
        m, report.properties, family, describe(m, report.properties), score(m, report.properties)
    )


def _length(full: int, rounds: int | None) -> int | None:
    """Rounds to play for a scheme whose full cycle is ``full``; None = the full cycle."""
    if rounds is not None:
        return None if rounds == full else rounds
    return MAX_ROUNDS if full > MAX_ROUNDS else None


def _sizes(per_table: int | None) -> tuple[int, ...]:
    if per_table is None:
        return (4, 3)
    if per_table not in (3, 4):
        raise MovementError(
            f"players per table must be 3 or 4 (rules §1), not {per_table}",
            code="per_table",
            params={"per_table": per_table},
        )
    return (per_table,)


def cyclic_designs(n: int, k: int, length: int, *, effort: int = 1) -> list[Design]:
    shape = shape_for(n, k, length)
    if shape is None:
        return []
    return search(shape, iterations=1500 * effort, restarts=2 * effort)


def _cyclic_movement(design: Design, rounds: int | None, deals: int) -> Movement:
    sh = design.shape
    name = Reason(
        f"cyclic scheme: {sh.orbits} route(s) of {sh.length} places"
        + (f", {sh.fixed} fixed seat(s)" if sh.fixed else "")
        + (f", {sh.resting} resting per round" if sh.resting else ""),
        "cyclic_scheme",
        {"routes": sh.orbits, "length": sh.length, "fixed": sh.fixed, "resting": sh.resting},
    )
    return route_movement(design.scheme(name), rounds=rounds, scheme_label="cyclic", deals_per_set=deals)


def balanced_alternative(n: int, deals: int = 0) -> Candidate | None:
    """A perfectly balanced cyclic scheme of the book scheme's shape, where the book's is not balanced."""
    if n not in BOOK_SCHEMES or len(BOOK_SCHEMES[n].groups) != 1:
        return None
    book = validate(book_movement(n)).properties
    if len(book.meetings) == 1:
        return None
    for design in cyclic_designs(n, 4, BOOK_SCHEMES[n].cycle, effort=3):
        if design.balanced:
            return _candidate("cyclic", partial(_cyclic_movement, design, None, deals))
    return None


def candidates(
    n: int,
    *,
    per_table: int | None = None,
    rounds: int | None = None,
    rooms: int | None = None,
    deals: int = 0,
) -> list[Candidate]:
    """Every valid plan of the "otherwise" families (rooms, skip, substitutes, cyclic)."""
    found: list[Candidate | None] = []
    for k in _sizes(per_table):
        for r in [rooms] if rooms else range(1, n // (2 * k) + 1):
            if n % (r * k):
                continue
            t = n // (r * k)
            if t < 2 or (r > 1 and t < 3):
                continue
            fam = "rooms" if r > 1 else "skip"
            build = partial(basic_movement, t, k, rooms=r, rounds=_length(t, rounds), deals_per_set=deals)
            found.append(_candidate(fam, build))
        if rooms in (None, 1):
            t, m = divmod(n, k)
            if m and t >= 3:
                build = partial(basic_movement, t, k, extra=m, rounds=_length(t, rounds), deals_per_set=deals)
                found.append(_candidate("substitutes", build))
    out = [c for c in found if c is not None]
    if rooms in (None, 1) and (n <= CYCLIC_LIMIT or not out):
        for k in _sizes(per_table):
            lengths = [L for L in range(MAX_ROUNDS, 4, -1) if shape_for(n, k, L) is not None]
            if rounds is not None:
                lengths = [L for L in lengths if rounds <= L] or lengths
            for L in lengths[:2]:
                for design in cyclic_designs(n, k, L)[:1]:
                    length = None if rounds is None or rounds >= L else rounds
                    cand = _candidate("cyclic", partial(_cyclic_movement, design, length, deals))
                    if cand is not None:
                        out.append(cand)
    if rounds is not None:
        out = [c for c in out if len(c.movement.rounds) == rounds] or out
    return sorted(out, key=lambda c: c.score)


def plan(
    n: int,
    *,
    per_table: int | None = None,
    scheme: str = "auto",
    rounds: int | None = None,
    rooms: int | None = None,
    deals_per_set: int = 0,
) -> Plan:
    """The movement for ``n`` participants; raises ``MovementError`` (with the reason) when none exists."""
    if n < MIN_PARTICIPANTS:
        raise MovementError(
            f"{n} participants cannot be seated: a duplicate movement needs at least {MIN_PARTICIPANTS} "
            "(two tables of three, so that every board is compared in each line)",
            code="too_few_participants",
            params={"participants": n, "minimum": MIN_PARTICIPANTS},
        )
    if rounds is not None and rounds < 2:
        raise MovementError(
            f"a session needs at least 2 rounds, not {rounds}",
            code="too_few_rounds",
            params={"rounds": rounds},
        )
    sizes = _sizes(per_table)
    if sizes == (4,) and n < 8:
        raise MovementError(
            f"{n} participants cannot be seated at tables of 4: two tables (8 participants) are the least that "
            "lets every board be compared in each line; try --per-table 3",
            code="too_few_for_tables_of_4",
            params={"participants": n, "minimum": 8},
        )
    if scheme == "book":
        return _book_plan(n, sizes, rounds, rooms, deals_per_set)
    if scheme == "basic":
        return _basic_plan(n, sizes, rounds, rooms, deals_per_set)
    if scheme != "auto":
        raise MovementError(
            f"unknown scheme {scheme!r}: use auto, basic or book",
            code="unknown_scheme",
            params={"scheme": scheme, "choices": "auto, basic, book"},
        )
    why: list[Reason] = []
    if n in BOOK_SCHEMES and 4 in sizes and rooms in (None, 1):
        better = balanced_alternative(n, deals_per_set) if rounds is None else None
        if better is not None:
            book_p = validate(book_movement(n)).properties
            uneven = ", ".join(f"{c}×{t}" for t, c in book_p.meetings)
            times = better.properties.meetings[0][0]
            why.append(
                Reason(
                    f"The book has a scheme for {n} participants, but its meetings are uneven "
                    f"({uneven} pairs×times); a cyclic scheme of the same "
                    f"length where every pair meets {times} times exists and is used "
                    "instead (use --scheme book for the book's).",
                    "book_uneven",
                    {"participants": n, "meetings": uneven, "times": times},
                )
            )
            if better.properties.copies > 1:
                tables, copies = better.movement.tables, better.properties.copies
                why.append(
                    Reason(
                        f"Its price: all {tables} tables play the same set in a round, so each set "
                        f"is needed in {copies} copies (the book does the same for 8 and 9).",
                        "copies_price",
                        {"tables": tables, "copies": copies},
                    )
                )
            return Plan(better.movement, better.properties, tuple(why))
        p = _book_plan(n, (4,), rounds, None, deals_per_set)
        note = BOOK_NOTES[n]
        return Plan(
            p.movement,
            p.properties,
            (
                Reason(
                    f"The book has a special scheme for {n} participants (§5, procedure 4): {note}.",
                    "book_special",
                    {"participants": n, "note": note},
                ),
            ),
        )
    if rooms in (None, 1):
        for k in sizes:
            t, rem = divmod(n, k)
            if rem == 0 and perfect_basic(t):
                length = _length(t, rounds)
                m = basic_movement(t, k, rounds=length, deals_per_set=deals_per_set)
                report = validate(m)
                if report.ok:
                    shortened = length is not None and length < t
                    never, pairs = unmet_line_pairs(m)
                    how = "N stays, E +1, S +2, W −2, sets to table −1" if k == 4 else "with lines N, E, S"
                    if not shortened:
                        why.append(
                            Reason(
                                f"{n} = {t} tables × {k}: the basic movement (§5) — {how}; every player meets "
                                "each player of another line exactly once.",
                                f"basic_perfect_{k}",
                                {"participants": n, "tables": t},
                            )
                        )
                    else:
                        # shortened, the claim no longer holds: say how many pairs are left apart (§5)
                        why.append(
                            Reason(
                                f"{n} = {t} tables × {k}: the basic movement (§5) — {how}; every player meets "
                                f"each player of another line at most once: shortened to {length} of {t} "
                                f"rounds, {never} of the {pairs} pairs of players of different lines never meet.",
                                f"basic_shortened_{k}",
                                {
                                    "participants": n,
                                    "tables": t,
                                    "played": length or t,
                                    "full": t,
                                    "never": never,
                                    "pairs": pairs,
                                },
                            )
                        )
                        why.append(_shortened(length or t, t))
                    return Plan(m, report.properties, tuple(why))
    found = candidates(n, per_table=per_table, rounds=rounds, rooms=rooms, deals=deals_per_set)
    if not found:
        asked: dict[str, int | str] = {"participants": n}
        asked |= {"per_table": per_table} if per_table else {}
        asked |= {"rooms": rooms} if rooms else {}
        asked |= {"rounds": rounds} if rounds else {}
        raise MovementError(
            f"no valid movement seats {n} participants"
            + (f" at tables of {per_table}" if per_table else "")
            + (f" in {rooms} rooms" if rooms else "")
            + (f" in {rounds} rounds" if rounds else ""),
            code="no_movement",
            params=asked,
        )
    best = found[0]
    why.append(_reason(n, sizes, best))
    if best.movement.full_rounds:
        why.append(_shortened(len(best.movement.rounds), best.movement.full_rounds))
    alts = tuple(
        Reason(
            f"{c.family}: {c.summary} (score {c.score:.2f})",
            "alternative",
            {
                "family": Reason(c.family, f"label_{c.family}"),
                "summary": c.summary,
                "score": f"{c.score:.2f}",
            },
        )
        for c in found[1:5]
    )
    why.append(
        Reason(
            f"Chosen by score {best.score:.2f} (lower is better: rests, uneven meetings, extra copies of sets, "
            "short sessions, tables of three).",
            "chosen_by_score",
            {"score": f"{best.score:.2f}"},
        )
    )
    return Plan(best.movement, best.properties, tuple(why), alts)


def _shortened(played: int, full: int) -> Reason:
    return Reason(
        f"Shortened to {played} of {full} rounds, announced before the session (§5).",
        "shortened",
        {"played": played, "full": full},
    )


FAMILIES: dict[str, str] = {
    "rooms": "several rooms, each with the basic movement, all playing the same boards (§5, procedure 2)",
    "skip": "the basic movement with the skip procedure (§5, procedure 3)",
    "substitutes": "the basic movement plus substitutes: each round the extra players take the seats of players "
    "who then rest (each at most once)",
    "cyclic": "a cyclic scheme with rests like the book's for 9 and 13, found by search",
}


def _reason(n: int, sizes: tuple[int, ...], best: Candidate) -> Reason:
    head = (
        Reason(f"No book scheme for {n}", "no_book_scheme", {"participants": n})
        if n not in BOOK_SCHEMES
        else Reason(
            f"The book scheme for {n} is for tables of 4", "book_scheme_tables_of_4", {"participants": n}
        )
    )
    prime = tuple(
        Reason(
            f"{n}/{k} = {n // k} tables", "division", {"participants": n, "per_table": k, "tables": n // k}
        )
        for k in sizes
        if n % k == 0
    )
    basic = (
        Reason(
            f"{', '.join(prime)} is not a number of tables the basic movement handles perfectly (prime ≥ 5)",
            "not_perfect_tables",
            {"divisions": prime},
        )
        if prime
        else Reason(
            f"{n} is not a multiple of {' or '.join(str(k) for k in sizes)}",
            "not_a_multiple" if len(sizes) == 1 else "not_a_multiple_of_either",
            {"participants": n, "per_table": sizes[0]}
            if len(sizes) == 1
            else {"participants": n, "first": sizes[0], "second": sizes[1]},
        )
    )
    what = Reason(FAMILIES[best.family], f"family_{best.family}")
    return Reason(
        f"{head}, and {basic}. Best plan: {what} — {best.summary}.",
        "best_plan",
        {"head": head, "basic": basic, "what": what, "summary": best.summary},
    )


def _book_plan(n: int, sizes: tuple[int, ...], rounds: int | None, rooms: int | None, deals: int) -> Plan:
    if 4 not in sizes:
        raise MovementError(
            "the book's special schemes (§5, procedure 4) are for tables of 4 players",
            code="book_tables_of_4",
        )
    if rooms not in (None, 1):
        raise MovementError("the book's special schemes are for one room", code="book_one_room")
    m = book_movement(n, rounds=rounds, deals_per_set=deals)
    properties = check(m)  # a broken rule is refused with its code (``movement_rules``)
    name = BOOK_SCHEMES[n].name
    text = f"The {name}: {BOOK_NOTES[n]}."
    return Plan(m, properties, (Reason(text, "book_chosen", {"scheme": name, "note": BOOK_NOTES[n]}),))


def _basic_plan(n: int, sizes: tuple[int, ...], rounds: int | None, rooms: int | None, deals: int) -> Plan:
    r = rooms or 1
    for k in sizes:
        if n % (r * k) == 0 and n // (r * k) >= 2:
            t = n // (r * k)
            m = basic_movement(t, k, rounds=rounds, rooms=r, deals_per_set=deals)
            properties = check(m)
            why = [
                Reason(
                    f"{n} = {r} room(s) × {t} tables × {k}: {m.note}.",
                    "basic_layout",
                    {"participants": n, "rooms": r, "tables": t, "per_table": k, "note": m.note},
                )
            ]
            if not (is_prime(t) or perfect_basic(t)):
                why.append(
                    Reason(
                        f"{t} tables is not prime: lines that would meet a set again skip one more table.",
                        "tables_not_prime",
                        {"tables": t},
                    )
                )
            return Plan(m, properties, tuple(why))
    per = " or ".join(str(r * k) for k in sizes)
    raise MovementError(
        f"the basic movement needs a number of participants that is a multiple of {per} "
        f"(tables of {' or '.join(str(k) for k in sizes)}{f' in {r} rooms' if r > 1 else ''}), not {n}",
        code="basic_participants",
        params={
            "participants": n,
            "multiples": ", ".join(str(r * k) for k in sizes),
            "per_table": ", ".join(str(k) for k in sizes),
            "rooms": r,
        },
    )
