"""What the director prints: table cards («3S–2W») and the director's row of sets, as data and as text.

The seed (§5): «3S–2W» means the S of table 3 goes to table 2 and sits W; such instructions lie on every table.
The director keeps all sets in a row; ``Z`` marks a place whose set is not played this round, a number the
table that plays it. The player at N takes the set from its place and returns it there after the round;
before each next round the first set of the row goes to the end. Hence in round r the place of the row that
holds set s is ((s − 1) − (r − 1)) mod sets + 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Movement, TableSeat

REST = "P"


@dataclass(frozen=True)
class TableRound:
    round: int
    set: int
    place: int  # the place of the director's row the set is taken from
    moves: tuple[str, ...]  # after this round: "3S–2W", "3S–P", "1N stays"; empty after the last round


@dataclass(frozen=True)
class TableCard:
    room: int
    table: int
    rounds: tuple[TableRound, ...]


@dataclass(frozen=True)
class RowRound:
    round: int
    room: int
    places: tuple[str, ...]  # "Z", "3" or "/1,2/"
    returning: tuple[str, ...]  # players resting this round and where they sit next: "No. 5: P–2W"

    @property
    def text(self) -> str:
        return "-".join(self.places)


def row_place(set_number: int, round_number: int, sets: int) -> int:
    return (set_number - round_number) % sets + 1


def _seat_text(seat: TableSeat | None) -> str:
    return REST if seat is None else str(seat)  # rooms never mix: a seat is in the card's own room


def table_cards(m: Movement) -> list[TableCard]:
    where = [rnd.where() for rnd in m.rounds]
    cards: list[TableCard] = []
    for room in range(1, m.rooms + 1):
        for table in range(1, m.tables + 1):
            entries: list[TableRound] = []
            for i, rnd in enumerate(m.rounds):
                ta = next(t for t in rnd.tables if t.room == room and t.table == table)
                moves: list[str] = []
                if i + 1 < len(m.rounds):
                    for line, p in ta.seats:
                        here = TableSeat(table, line)
                        nxt = where[i + 1].get(p)
                        if nxt is not None and nxt[1] == here:
                            moves.append(f"{here} stays")
                        else:
                            moves.append(f"{here}–{_seat_text(None if nxt is None else nxt[1])}")
                entries.append(
                    TableRound(rnd.number, ta.set, row_place(ta.set, rnd.number, m.sets), tuple(moves))
                )
            cards.append(TableCard(room, table, tuple(entries)))
    return cards


def director_rows(m: Movement) -> list[RowRound]:
    where = [rnd.where() for rnd in m.rounds]
    out: list[RowRound] = []
    for i, rnd in enumerate(m.rounds):
        for room in range(1, m.rooms + 1):
            places: list[list[int]] = [[] for _ in range(m.sets)]
            for ta in rnd.tables:
                if ta.room == room:
                    places[row_place(ta.set, rnd.number, m.sets) - 1].append(ta.table)
            texts = tuple(
                "Z" if not ts else str(ts[0]) if len(ts) == 1 else "/" + ",".join(map(str, sorted(ts))) + "/"
                for ts in places
            )
            returning: list[str] = []
            if i + 1 < len(m.rounds):
                for p in rnd.resting:
                    nxt = where[i + 1].get(p)
                    if nxt is not None and nxt[0] == room:
                        returning.append(f"No. {p}: P–{nxt[1]}")
                    elif nxt is None and room == 1:
                        returning.append(f"No. {p}: P–P")
            out.append(RowRound(rnd.number, room, texts, tuple(returning)))
    return out


def render_text(m: Movement, explanation: tuple[str, ...] = (), alternatives: tuple[str, ...] = ()) -> str:
    """Everything a director needs, in plain text, readable without the docs."""
    from .book import book_correction  # local, like validate: keeps import order simple
    from .validate import validate  # local: validate is pure and cheap; keeps import order simple

    p = validate(m).properties
    lines_txt = ", ".join(m.lines)
    out: list[str] = []
    out.append(f"MOVEMENT FOR {m.participants} PARTICIPANTS — {m.note or m.scheme}")
    out.append("")
    if explanation:
        out.append("Why this movement:")
        out += [f"  {e}" for e in explanation]
        out.append("")
    corrected = book_correction(m)
    if corrected is not None:  # the same note the printouts carry (results.pdf_movement.correction_note)
        reason, tables = corrected
        out.append(f"Note on the book (tables {', '.join(map(str, tables))}):")
        out.append(f"  {reason}")
        out.append("")
    room_txt = f"{m.rooms} rooms, each with " if m.rooms > 1 else ""
    out.append(f"Tables: {room_txt}{m.tables} tables of {m.per_table} players (seats {lines_txt}).")
    shortened = (
        f" (shortened from {m.full_rounds}; announce this before the session)" if m.full_rounds else ""
    )
    out.append(f"Rounds: {len(m.rounds)}{shortened}; {m.deals} deals per round, played in board order.")
    out.append(
        f"Sets: {m.sets} sets of {m.deals} boards (set s holds boards {m.deals}·(s−1)+1 … {m.deals}·s, "
        f"boards 1–{m.sets * m.deals})"
        + (
            f"; {p.copies} copies of each set per room (that many tables play a set at once)"
            if p.copies > 1
            else ""
        )
        + (f"; one copy per room, {m.rooms} in all" if m.rooms > 1 and p.copies == 1 else "")
        + "."
    )
    if p.unused_sets:
        out.append(f"Sets not played in this shortened session: {', '.join(map(str, p.unused_sets))}.")
    out.append(
        f"Each board gets {p.results_per_board_line} result(s) in each line"
        + (
            f" (up to {p.results_per_board_line_max})"
            if p.results_per_board_line_max != p.results_per_board_line
            else ""
        )
        + (", compared across all rooms." if m.rooms > 1 else ".")
    )
    out.append(
        "Meetings (how often two participants share a table): "
        + ", ".join(f"{n} pairs {t}×" for t, n in p.meetings)
        + "."
    )
    rc = p.rest_counts()
    if set(rc) == {0}:
        out.append("Rests: nobody rests.")
    else:
        out.append("Rests: " + ", ".join(f"{n} participants rest {k} round(s)" for k, n in rc.items()) + ".")
    if alternatives:
        out.append("")
        out.append("Also considered:")
        out += [f"  {a}" for a in alternatives]
    out.append("")
    out.append("SEATING BY ROUND (P = resting)")
    for rnd in m.rounds:
        out.append(f"Round {rnd.number}")
        for ta in rnd.tables:
            room = f"Room {ta.room}, " if m.rooms > 1 else ""
            seats = "  ".join(f"{ln} {pl:>3}" for ln, pl in ta.seats)
            out.append(f"  {room}Table {ta.table:>2} (set {ta.set:>2}):  {seats}")
        if rnd.resting:
            out.append(f"  Resting: {', '.join(map(str, rnd.resting))}")
    out.append("")
    out.append("TABLE CARDS (one on each table)")
    out.append(
        "The player at N takes the set from the given place of the director's row and puts it back there after "
        "the round. After each round every player moves as the card says: «3S–2W» = the S of table 3 goes to "
        "table 2, seat W; «–P» = rests next round; «stays» = keeps the seat."
    )
    for card in table_cards(m):
        room = f"Room {card.room}, " if m.rooms > 1 else ""
        out.append(f"{room}Table {card.table}")
        for e in card.rounds:
            then = f" Then: {', '.join(e.moves)}." if e.moves else " Last round."
            out.append(f"  Round {e.round}: set {e.set} from place {e.place} of the row.{then}")
    out.append("")
    out.append("DIRECTOR'S ROW OF SETS")
    out.append(
        f"Lay sets 1…{m.sets} in a row, set 1 at place 1. Z = the set at that place is not played this round; a "
        "number = the table(s) that take it. Before each next round move the first set of the row to the end "
        "(shift the others left), then announce the start of the round."
    )
    for row in director_rows(m):
        room = f" room {row.room}" if m.rooms > 1 else ""
        back = f"   after it: {'; '.join(row.returning)}" if row.returning else ""
        out.append(f"  Round {row.round}{room}: {row.text}{back}")
    return "\n".join(out) + "\n"
