"""Who rests in each round of a session and where he plays again, named for the director's pages.

The list comes from the pure core (``preferans.movements.rests``) over the session's stored movement; this
module only adds the participants' names and the words, so the seating page, the dashboard and the hand-over
say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from duplicate.rounds import session_movement
from preferans.movements import Rest, rests
from tournaments.models import Participant, Session


@dataclass(frozen=True)
class Resting:
    round: int
    number: int
    name: str
    back_round: int | None
    back_room: int | None
    back_seat: str  # "2W", "" when he does not play again
    came_from: str  # the seat he leaves for the rest ("1N"), "" in round 1 or after another rest
    back_text: str  # «тур 3: стол 2, позиция W» in the request's language; "" after the last round

    @property
    def label(self) -> str:
        return f"{_('No.')} {self.number} {self.name}".strip()  # «№ 13 Иванов» in Russian


def back_words(rest: Rest, last_round: int, many_rooms: bool) -> str:
    """Where a resting participant sits again, in words («тур 3: стол 2, позиция W»)."""
    if rest.back is None:
        return "" if rest.round >= last_round else _("does not play again in this session")
    b = rest.back
    if many_rooms:
        return _("round %(r)s: room %(room)s, table %(t)s, seat %(seat)s") % {
            "r": b.round,
            "room": b.room,
            "t": b.seat.table,
            "seat": b.seat.line.value,
        }
    return _("round %(r)s: table %(t)s, seat %(seat)s") % {
        "r": b.round,
        "t": b.seat.table,
        "seat": b.seat.line.value,
    }


def session_rests(session: Session) -> dict[int, list[Resting]]:
    """Round number -> who rests in it; empty when the session has no movement or nobody rests."""
    m = session_movement(session)
    if m is None:
        return {}
    by_round = rests(m)
    numbers = {r.participant for found in by_round.values() for r in found}
    if not numbers:
        return {}
    names = dict(
        Participant.objects.filter(tournament=session.tournament, number__in=numbers).values_list(
            "number", "name"
        )
    )
    last = max((rnd.number for rnd in m.rounds), default=0)
    out: dict[int, list[Resting]] = {}
    for number, found in by_round.items():
        out[number] = [
            Resting(
                round=r.round,
                number=r.participant,
                name=names.get(r.participant, ""),
                back_round=r.back.round if r.back else None,
                back_room=r.back.room if r.back else None,
                back_seat=str(r.back.seat) if r.back else "",
                came_from=str(r.came_from[1]) if r.came_from else "",
                back_text=back_words(r, last, m.rooms > 1),
            )
            for r in found
        ]
    return out


@dataclass(frozen=True)
class NextSeat:
    """Where a player of a table goes when the round ends."""

    seat: str  # his seat now: "N"
    number: int
    name: str
    text: str  # «стол 2, позиция E», «остаётся на месте», «отдыхает в туре 2, затем тур 3: стол 2, позиция W»
    rests: bool


def next_seats(session: Session, *, room: int, table: int, round_number: int) -> list[NextSeat]:
    """Where each player of one table sits in the next round (or that he rests, and where he comes back);
    empty after the last round or without a movement."""
    m = session_movement(session)
    if m is None:
        return []
    numbers = [rnd.number for rnd in m.rounds]
    if round_number not in numbers or numbers.index(round_number) + 1 >= len(numbers):
        return []
    i = numbers.index(round_number)
    now = next((ta for ta in m.rounds[i].tables if ta.room == room and ta.table == table), None)
    if now is None:
        return []
    nxt = m.rounds[i + 1]
    where = nxt.where()
    resting = {r.participant: r for r in rests(m)[nxt.number]}
    last = numbers[-1]
    names = dict(
        Participant.objects.filter(tournament=session.tournament, number__in=now.participants()).values_list(
            "number", "name"
        )
    )
    out: list[NextSeat] = []
    for line, p in now.seats:
        if p in where:
            to_room, seat = where[p]
            if to_room == room and seat.table == table and seat.line == line:
                text = _("stays at this seat")
            elif m.rooms > 1:
                text = _("room %(room)s, table %(t)s, seat %(seat)s") % {
                    "room": to_room,
                    "t": seat.table,
                    "seat": seat.line.value,
                }
            else:
                text = _("table %(t)s, seat %(seat)s") % {"t": seat.table, "seat": seat.line.value}
            out.append(NextSeat(line.value, p, names.get(p, ""), text, False))
        else:
            text = _("rests in round %(n)s") % {"n": nxt.number}
            rest = resting.get(p)
            back = back_words(rest, last, m.rooms > 1) if rest is not None else ""
            if back:
                text = _("%(rest)s, then %(back)s") % {"rest": text, "back": back}
            out.append(NextSeat(line.value, p, names.get(p, ""), text, True))
    return out
