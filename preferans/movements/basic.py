"""The basic movement of seed §5, with the skip procedure for any number of tables, and rooms.

Basic movement (prime number of tables T ≥ 5): N never moves; E goes to table +1, S to +2, W to −2; after each
round N hands the set to table −1 (table 1 to table T). With three players per table the lines are N, E, S.

Skip procedure (§5, procedure 3): in the round in which all players of one line would meet a set they have
already played, that line makes one extra move in the same direction, by one table, repeated if needed. The
set a line meets depends only on the line's total displacement, so the whole line skips together and every
player plays every set at most once for any T.

Rooms (§5, procedure 2): R rooms run the same movement on the same sets (boards duplicated, §2); results are
compared across all rooms. Numbering: within a room, line by line, as in the bundle example of formats.md
(5 tables: table 1 seats N 1, E 6, S 11, W 16); room r continues after room r−1.
"""

from __future__ import annotations

from .model import Line, Movement, MovementError, MovementRound, TableAssignment, lines_for, make_table
from .reasons import Reason

STEPS: dict[Line, int] = {Line.N: 0, Line.E: 1, Line.S: 2, Line.W: -2}
SET_STEP = -1  # the set goes to the table numbered one lower


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


def line_displacements(tables: int, lines: tuple[Line, ...], rounds: int) -> dict[Line, list[int]]:
    """For each line, its displacement (in tables, not reduced) in each round, skips included."""
    out: dict[Line, list[int]] = {}
    for line in lines:
        step = STEPS[line]
        direction = (step > 0) - (step < 0)
        d = 0
        used = {0}  # the "phase" d + r fixes which set the line meets: table t plays set t + r in round r
        seq = [0]
        for r in range(1, rounds):
            d += step
            while (d + r) % tables in used:
                if direction == 0:  # pragma: no cover - N meets a new set every round by construction
                    raise MovementError("line N cannot skip: it never moves")
                d += direction
            used.add((d + r) % tables)
            seq.append(d)
        out[line] = seq
    return out


def skips(tables: int, per_table: int, rounds: int | None = None) -> list[tuple[int, Line, int]]:
    """(round, line, extra tables) for every skip the procedure makes (before that round)."""
    lines = lines_for(per_table)
    k = rounds or tables
    disp = line_displacements(tables, lines, k)
    out = []
    for line in lines:
        for r in range(1, k):
            extra = disp[line][r] - disp[line][r - 1] - STEPS[line]
            if extra:
                out.append((r + 1, line, extra))
    return sorted(out, key=lambda x: (x[0], lines.index(x[1])))


SUB_STEPS = (
    3,
    -3,
    -4,
)  # a substitute for line N, E, S moves this far each round: unlike any line or the sets


def substitute_paths(tables: int, per_table: int, extra: int, rounds: int) -> list[list[int]]:
    """Tables (0-based) where substitute i sits, in line ``LINES[i]``, round by round; the player of that line
    who would sit there rests. Greedy like the skip procedure: move ``SUB_STEPS[i]`` tables, then one more
    while the substitute would meet a set twice or make a player of the line rest a second time."""
    lines = lines_for(per_table)
    disp = line_displacements(tables, lines, rounds)
    paths: list[list[int]] = []
    for i in range(extra):
        line = lines[i]
        p = (i * tables) // max(1, extra)
        sets_seen: set[int] = set()
        rested: set[int] = set()
        path: list[int] = []
        for r in range(rounds):
            if r:
                p += SUB_STEPS[i]
            for _ in range(tables):
                s, who = (p + r) % tables, (p - disp[line][r]) % tables
                if s not in sets_seen and who not in rested:
                    break
                p += 1
            else:
                raise MovementError(
                    f"{extra} substitute(s) cannot join the basic movement on {tables} tables for {rounds} rounds "
                    "without someone meeting a set twice or resting twice",
                    code="substitutes_cannot_join",
                    params={"extra": extra, "tables": tables, "rounds": rounds},
                )
            sets_seen.add((p + r) % tables)
            rested.add((p - disp[line][r]) % tables)
            path.append(p % tables)
        paths.append(path)
    return paths


def basic_movement(
    tables: int,
    per_table: int = 4,
    *,
    rounds: int | None = None,
    rooms: int = 1,
    extra: int = 0,
    deals_per_set: int = 0,
) -> Movement:
    """The basic movement on ``tables`` tables per room (skip procedure where needed), ``rooms`` rooms.

    ``extra`` (1 … per_table−1, one room only): that many more participants than seats; substitute i plays in
    line N, E, S in turn, moving on its own path, and the player it replaces rests that round (each at most
    once), so rests stay even.
    """
    lines = lines_for(per_table)
    if extra and (rooms != 1 or not 0 < extra < per_table):
        raise MovementError(
            f"substitutes: 1…{per_table - 1} extra participants in one room, not {extra}",
            code="substitutes",
            params={"maximum": per_table - 1, "extra": extra},
        )
    if tables < 2:
        raise MovementError(
            f"the basic movement needs at least 2 tables per room (§5), not {tables}",
            code="basic_tables",
            params={"tables": tables},
        )
    if rooms < 1:
        raise MovementError(
            f"the number of rooms must be at least 1, not {rooms}", code="rooms", params={"rooms": rooms}
        )
    full = tables
    k = full if rounds is None else rounds
    if not 2 <= k <= full:
        raise MovementError(
            f"the session may be shortened (§5: announced in advance) but must have 2…{full} rounds "
            f"on {tables} tables; {k} asked",
            code="basic_rounds",
            params={"tables": tables, "maximum": full, "rounds": k},
        )
    disp = line_displacements(tables, lines, k)
    per_room = per_table * tables
    paths = substitute_paths(tables, per_table, extra, k) if extra else []
    out_rounds: list[MovementRound] = []
    for r in range(k):
        tas: list[TableAssignment] = []
        resting: list[int] = []
        for room in range(1, rooms + 1):
            base = (room - 1) * per_room
            for t in range(tables):  # t = 0-based table index
                seats: dict[Line, int] = {}
                for li, line in enumerate(lines):
                    start = (t - disp[line][r]) % tables  # the table this player started at
                    seats[line] = base + li * tables + start + 1
                for i, path in enumerate(paths):
                    if path[r] == t:
                        resting.append(seats[lines[i]])
                        seats[lines[i]] = per_room + i + 1
                tas.append(make_table(t + 1, (t + r) % tables + 1, seats, room))
        out_rounds.append(MovementRound(r + 1, tuple(tas), tuple(sorted(resting))))
    prime = is_prime(tables) and tables >= 5
    text = "basic movement (§5)" if prime else "basic movement with the skip procedure (§5, procedure 3)"
    if rooms > 1:
        text += f", {rooms} rooms on the same boards (§5, procedure 2)"
    if extra:
        text += f", {extra} substitute(s) taking turns with the players of line(s) {', '.join(lines[:extra])}"
    note = Reason(
        text,
        "note_basic" if prime else "note_basic_skip",
        {"rooms": rooms, "extra": extra, "lines": ", ".join(lines[:extra])},
    )
    return Movement(
        participants=per_room * rooms + extra,
        per_table=per_table,
        scheme="basic",
        tables=tables,
        sets=tables,
        rounds=tuple(out_rounds),
        deals_per_set=deals_per_set,
        rooms=rooms,
        full_rounds=full if k < full else 0,
        note=note,
    )
