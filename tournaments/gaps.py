"""What is still open in an event's results before a round ends or the results are published, either form.

A *gap* at a duplicate table is a board it should have played and has no row for (missing), a row the opponents
have not confirmed yet (unconfirmed), or a row an opponent disputes (disputed) — found by ``duplicate.gaps``. At a
pulka table it is a deal written and not yet confirmed (unconfirmed deals), a table still playing, or players tied
at an Olympic cut whom nobody has decided between (tie) — found by ``pulkas.services.gaps``.

Ending a round or publishing with gaps is allowed — the director may have good reasons — but only after the
director has seen them and said so: the page (or the API, or ``manage.py publish --acknowledge-gaps``) posts an
acknowledgement token, and the token names exactly the gaps the director saw, so a page that was open while
results changed asks again. The book does not define this check; it is the software's safeguard (rules §1:
results become official only once play is over, and corrections run for a set time after that).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import UserError
from tournaments.numbers import list_count

# A duplicate table's boards.
MISSING, UNCONFIRMED, DISPUTED = "missing", "unconfirmed", "disputed"
# A pulka table: deals not confirmed, the table still playing, a tie at the cut undecided.
DEALS_UNCONFIRMED, PLAYING, TIE = "deals_unconfirmed", "playing", "tie"
DUPLICATE_KINDS = (MISSING, UNCONFIRMED, DISPUTED)
PULKA_KINDS = (DEALS_UNCONFIRMED, PLAYING, TIE)
KINDS = (*DUPLICATE_KINDS, *PULKA_KINDS)
# Kinds counted by the boards or deals they name; the others count one per table.
COUNTED_BY_NUMBERS = (MISSING, UNCONFIRMED, DISPUTED, DEALS_UNCONFIRMED)


@dataclass(frozen=True)
class Gap:
    """One table's gap of one kind in one round: the boards or deals it concerns (none for a whole table)."""

    session: int  # a duplicate session's number; 0 at a pulka event
    round: int
    room: int
    table: int
    kind: str  # one of KINDS
    numbers: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.numbers) if self.kind in COUNTED_BY_NUMBERS else 1


@dataclass(frozen=True)
class Gaps:
    items: tuple[Gap, ...] = ()
    rooms: bool = False  # more than one room: name the room in every line
    sessions: bool = False  # more than one session: name the session in every line

    def __bool__(self) -> bool:
        return bool(self.items)

    def count(self, kind: str) -> int:
        return sum(g.size for g in self.items if g.kind == kind)

    def counts(self) -> dict[str, int]:
        """How many of each kind of the form the gaps are in, zeros too (for the audit trail)."""
        kinds = {g.kind for g in self.items}
        forms = [f for f in (DUPLICATE_KINDS, PULKA_KINDS) if kinds & set(f)]
        return {k: self.count(k) for f in forms for k in f}

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
        text = ";".join(f"{g.session}.{g.round}.{g.room}.{g.table}.{g.kind}:{g.numbers}" for g in self.items)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def summary(self) -> str:
        """«не введено: 8, не подтверждено: 2, оспорено: 1» — only the kinds there are."""
        labels = {
            MISSING: _("missing: %(n)s"),
            UNCONFIRMED: _("unconfirmed: %(n)s"),
            DISPUTED: _("disputed: %(n)s"),
            DEALS_UNCONFIRMED: _("deals not confirmed: %(n)s"),
            PLAYING: _("tables still playing: %(n)s"),
            TIE: _("ties at the cut undecided: %(n)s"),
        }
        return ", ".join(labels[k] % {"n": self.count(k)} for k in KINDS if self.count(k))

    def lines(self) -> list[str]:
        """One line per table and round: «Тур 3, стол 2 (зал 2) — не введены сдачи: 5, 6»."""
        kinds = {
            MISSING: ("board not entered: %(boards)s", "boards not entered: %(boards)s"),
            UNCONFIRMED: ("board not confirmed: %(boards)s", "boards not confirmed: %(boards)s"),
            DISPUTED: ("board disputed: %(boards)s", "boards disputed: %(boards)s"),
            DEALS_UNCONFIRMED: _("deals written and not confirmed: %(numbers)s"),
            PLAYING: _("the pulka is still being played"),
            TIE: _("players tied at the cut: nobody has decided who goes on"),
        }
        grouped: dict[tuple[int, int, int, int], list[str]] = defaultdict(list)
        for g in self.items:
            numbers = ", ".join(map(str, g.numbers))
            grouped[(g.session, g.round, g.room, g.table)].append(
                _label(kinds[g.kind], g.numbers) % {"boards": numbers, "numbers": numbers}
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


def _label(kind: str | tuple[str, str], numbers: Sequence[int]) -> str:
    """A line's label; a pair of singular and plural follows the number of boards («сдача 5», «сдачи 5, 6»)."""
    if isinstance(kind, tuple):
        return ngettext(kind[0], kind[1], list_count(numbers))
    return kind


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
