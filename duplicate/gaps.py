"""What is still open in the results before a round ends or the results are published: the one rule.

A *gap* is a board a table should have played and has no row for (missing), a row the opponents have not
confirmed yet (unconfirmed), or a row an opponent disputes (disputed). Ending a round or publishing with gaps is
allowed — the director may have good reasons — but only after the director has seen them and said so: the page
posts an acknowledgement token, and the token names exactly the gaps the director saw, so a page that was open
while results changed asks again. The book does not define this check; it is the software's safeguard (rules §1:
results become official only once play is over, and corrections run for a set time after that).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from boards.models import Board
from scoring.models import Result
from tournaments.errors import UserError
from tournaments.models import Round, Seating, Session, Tournament

MISSING, UNCONFIRMED, DISPUTED = "missing", "unconfirmed", "disputed"
KINDS = (MISSING, UNCONFIRMED, DISPUTED)


@dataclass(frozen=True)
class Gap:
    """One table's boards of one kind in one round."""

    session: int
    round: int
    room: int
    table: int
    kind: str  # MISSING | UNCONFIRMED | DISPUTED
    boards: tuple[int, ...]


@dataclass(frozen=True)
class Gaps:
    items: tuple[Gap, ...] = ()
    rooms: bool = False  # more than one room: name the room in every line
    sessions: bool = False  # more than one session: name the session in every line

    def __bool__(self) -> bool:
        return bool(self.items)

    def count(self, kind: str) -> int:
        return sum(len(g.boards) for g in self.items if g.kind == kind)

    @property
    def missing(self) -> int:
        return self.count(MISSING)

    @property
    def unconfirmed(self) -> int:
        return self.count(UNCONFIRMED)

    @property
    def disputed(self) -> int:
        return self.count(DISPUTED)

    @property
    def token(self) -> str:
        """Names exactly these gaps: the acknowledgement a page posts back (empty when there are none)."""
        if not self.items:
            return ""
        text = ";".join(f"{g.session}.{g.round}.{g.room}.{g.table}.{g.kind}:{g.boards}" for g in self.items)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def summary(self) -> str:
        """«не введено: 8, не подтверждено: 2, оспорено: 1» — only the kinds there are."""
        labels = {
            MISSING: _("missing: %(n)s"),
            UNCONFIRMED: _("unconfirmed: %(n)s"),
            DISPUTED: _("disputed: %(n)s"),
        }
        return ", ".join(labels[k] % {"n": self.count(k)} for k in KINDS if self.count(k))

    def lines(self) -> list[str]:
        """One line per table and round: «Тур 3, стол 2 (зал 2) — не введены сдачи: 5, 6»."""
        kinds = {
            MISSING: _("boards not entered: %(boards)s"),
            UNCONFIRMED: _("boards not confirmed: %(boards)s"),
            DISPUTED: _("boards disputed: %(boards)s"),
        }
        grouped: dict[tuple[int, int, int, int], list[str]] = defaultdict(list)
        for g in self.items:
            grouped[(g.session, g.round, g.room, g.table)].append(
                kinds[g.kind] % {"boards": ", ".join(map(str, g.boards))}
            )
        out = []
        for (session, rnd, room, table), what in grouped.items():
            where = _("Round %(r)s, table %(t)s") % {"r": rnd, "t": table}
            if self.rooms:
                where += " " + _("(room %(n)s)") % {"n": room}
            if self.sessions:
                where = _("Session %(s)s") % {"s": session} + ", " + where[:1].lower() + where[1:]
            out.append(f"{where} — {'; '.join(what)}")
        return out


def _session_gaps(session: Session, round_numbers: list[int]) -> list[Gap]:
    boards_of: dict[int, list[int]] = defaultdict(list)
    for number, set_number in Board.objects.filter(session=session).values_list("number", "set_number"):
        boards_of[set_number].append(number)
    rows: dict[tuple[int, int, int], dict[int, str]] = defaultdict(dict)
    for rnd, room, table, board, status in Result.objects.filter(
        session=session, round_number__in=round_numbers
    ).values_list("round_number", "room", "table_number", "board_number", "status"):
        rows[(rnd, room, table)][board] = status
    out: list[Gap] = []
    seatings = Seating.objects.filter(session=session, round_number__in=round_numbers).order_by(
        "round_number", "room", "table_number"
    )
    for s in seatings.values_list("round_number", "room", "table_number", "set_number"):
        rnd, room, table, set_number = s
        entered = rows.get((rnd, room, table), {})
        found = {
            MISSING: tuple(b for b in sorted(boards_of.get(set_number, [])) if b not in entered),
            UNCONFIRMED: tuple(sorted(b for b, st in entered.items() if st == Result.Status.ENTERED)),
            DISPUTED: tuple(sorted(b for b, st in entered.items() if st == Result.Status.DISPUTED)),
        }
        out.extend(Gap(session.number, rnd, room, table, k, found[k]) for k in KINDS if found[k])
    return out


def _rooms(sessions: list[Session]) -> bool:
    return Seating.objects.filter(session__in=sessions, room__gt=1).exists()


def round_gaps(rnd: Round) -> Gaps:
    """The gaps of one round (before it ends)."""
    session = rnd.session
    return Gaps(tuple(_session_gaps(session, [rnd.number])), rooms=_rooms([session]))


def publication_gaps(tournament: Tournament) -> Gaps:
    """The gaps in every round that has ended (before publishing): the running round is still being played."""
    sessions = list(tournament.sessions.order_by("number"))
    items: list[Gap] = []
    for session in sessions:
        ended = list(session.rounds.filter(status=Round.Status.ENDED).values_list("number", flat=True))
        if ended:
            items.extend(_session_gaps(session, ended))
    return Gaps(tuple(items), rooms=_rooms(sessions), sessions=len({g.session for g in items}) > 1)


def require_acknowledged(gaps: Gaps, acknowledged: str, *, refusal: str) -> None:
    """Refuse unless there are no gaps or the director acknowledged exactly these gaps.

    ``refusal`` says what was asked («Round 3 has gaps»); the message adds the summary and asks to tick the box.
    """
    if gaps and acknowledged != gaps.token:
        raise UserError(
            _("%(refusal)s: %(summary)s. Look at the list, tick “I know” and confirm.")
            % {"refusal": refusal, "summary": gaps.summary()},
            code="gaps_not_acknowledged",
            status=409,
        )
