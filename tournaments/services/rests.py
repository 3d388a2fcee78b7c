"""Who rests in each round of a session and where he plays again, named for the director's pages.

The list comes from the pure core (``preferans.movements.rests``) over the session's stored movement; this
module only adds the participants' names and the words, so the seating page, the dashboard and the hand-over
say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from preferans.movements import Rest, rests
from tournaments.models import Participant, Session
from tournaments.services.rounds import session_movement


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
        return f"№ {self.number} {self.name}".strip()


def back_words(rest: Rest, last_round: int, many_rooms: bool) -> str:
    """Where a resting participant sits again, in words («тур 3: стол 2, позиция W»)."""
    if rest.back is None:
        return "" if rest.round >= last_round else _("does not play again in this session")
    b = rest.back
    if many_rooms:
        return _("round %(r)s: room %(room)s, table %(t)s, seat %(seat)s") % {
            "r": b.round, "room": b.room, "t": b.seat.table, "seat": b.seat.line.value}  # fmt: skip
    return _("round %(r)s: table %(t)s, seat %(seat)s") % {
        "r": b.round, "t": b.seat.table, "seat": b.seat.line.value}  # fmt: skip


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
        Participant.objects.filter(tournament=session.tournament, number__in=numbers).values_list("number", "name")
    )
    last = max((rnd.number for rnd in m.rounds), default=0)
    out: dict[int, list[Resting]] = {}
    for number, found in by_round.items():
        out[number] = [
            Resting(
                round=r.round, number=r.participant, name=names.get(r.participant, ""),
                back_round=r.back.round if r.back else None, back_room=r.back.room if r.back else None,
                back_seat=str(r.back.seat) if r.back else "",
                came_from=str(r.came_from[1]) if r.came_from else "",
                back_text=back_words(r, last, m.rooms > 1),
            )
            for r in found
        ]  # fmt: skip
    return out
