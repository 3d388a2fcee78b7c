"""What a caller asks of the one write path of protocol rows (:func:`scoring.rows.result_save`), as one typed
command (:class:`RowCommand`):

* where the row goes — :class:`RowPlace`: a board at a table in a round of a session, in a room; the seats, or
  the seating's;
* what it holds — :class:`PlayedRow` (a played deal), :class:`ArtificialAdjustment` (A-/A/A+ per seat) or
  :class:`AssignedAdjustment` (vists per seat), each with its fouled-board version and a ruling's per-seat
  adjustments (annulled seats, percentages of the top);
* how it is written — :class:`RowWriting`: a new row or a correction (its reason, the revision its author read),
  the status, an arithmetic correction of final results, a board outside the table's set by ruling, the
  idempotency key, the players' confirmations given with the row;
* who acts — :class:`RowAuthor`: a signed-in user or a player named by the table's device.

The types refuse, as they are built, what cannot be asked at all (a correction without a reason, a revision read
of a row that is new, confirmations of a director's row). Every rule that needs the event's facts is the write
path's (:mod:`scoring.row_checks`, :mod:`scoring.rows`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.translation import gettext as _

from boards.models import Board
from scoring.confirmation import Confirmers
from scoring.models import Result
from tournaments.errors import UserError
from tournaments.models import Seating, Session
from tournaments.refusals import ResultRejected


@dataclass(frozen=True)
class RowPlace:
    """Where the row goes: board ``board`` at table ``table`` in round ``round`` of ``session``, in ``room``.

    ``seats`` (seat → participant number) default to the seating's of that round (rules §5). A caller that
    already holds them may give the ``seating`` (loaded with its seats) and the ``loaded_board``, which saves
    their lookups; ones of another place are looked up again."""

    session: Session
    board: int
    round: int
    table: int
    room: int = 1
    seats: Mapping[str, int] | None = None
    seating: Seating | None = None
    loaded_board: Board | None = None

    def __post_init__(self) -> None:
        for name in ("board", "round", "table", "room"):
            number = getattr(self, name)
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise ValueError(f"a row's {name} is a whole number from 1, not {number!r}")


@dataclass(frozen=True, kw_only=True)
class _RowContent:
    """What every kind of row holds besides its result.

    ``version``: the fouled-board version the row was played in (None: A for a new row; a correction keeps the
    stored row's). ``annulled`` (seats) and ``percent`` (seat → percentage of the top) are a ruling's per-seat
    adjustments (rules §11.2 B1, §11.3 C, §11.6 B; :mod:`scoring.seat_adjustments`); None: a correction keeps the
    stored row's as long as the row stays the same kind, a new row has none."""

    kind: ClassVar[str]
    version: str | None = None
    annulled: Sequence[str] | None = None
    percent: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.annulled, str):
            raise TypeError("annulled is a list of seats, not one string")


@dataclass(frozen=True)
class PlayedRow(_RowContent):
    """A played deal as the protocol row holds it (:data:`preferans.bundle.rows.DEAL_FIELDS`); the core
    checks it and computes its vists."""

    kind: ClassVar[str] = "row"
    row: Mapping[str, Any]
    # §13.1 «запись торговли»: the bidding as written, where the organisers set written bidding (None: a
    # correction keeps the stored row's, a new row has none).
    bidding: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.row, Mapping):
            raise TypeError("a played row is a mapping of the protocol's fields")


@dataclass(frozen=True)
class ArtificialAdjustment(_RowContent):
    """An artificial result in place of the deal (rules §11.2): ``grades``, A-, A or A+ per seat."""

    kind: ClassVar[str] = "adjusted"
    grades: Mapping[str, Any]

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.grades, Mapping):
            raise TypeError("an artificial result is a mapping of seat to A-, A or A+")


@dataclass(frozen=True)
class AssignedAdjustment(_RowContent):
    """An assigned result in place of the deal (rules §11.2): ``vists`` per seat, as written (``5,5``, ``-11/2``)."""

    kind: ClassVar[str] = "assigned"
    vists: Mapping[str, Any]

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.vists, Mapping):
            raise TypeError("an assigned result is a mapping of seat to vists")


RowContent = PlayedRow | ArtificialAdjustment | AssignedAdjustment


def row_content(
    *,
    row: Mapping[str, Any] | None = None,
    adjusted: Mapping[str, Any] | None = None,
    assigned: Mapping[str, Any] | None = None,
    version: str | None = None,
    annulled: Sequence[str] | None = None,
    percent: Mapping[str, Any] | None = None,
) -> RowContent:
    """A row's content from the shape a request or a planned change carries it in: exactly one of a played
    ``row``, ``adjusted`` grades or ``assigned`` vists (else :class:`ResultRejected`, ``row_kind``)."""
    extra: dict[str, Any] = {"version": version, "annulled": annulled, "percent": percent}
    if sum(x is not None for x in (row, adjusted, assigned)) != 1:
        raise ResultRejected.one(
            "row_kind", "row", "give either a played deal, an artificial or an assigned result"
        )
    if row is not None:
        return PlayedRow(row=row, **extra)
    if adjusted is not None:
        return ArtificialAdjustment(grades=adjusted, **extra)
    assert assigned is not None
    return AssignedAdjustment(vists=assigned, **extra)


@dataclass(frozen=True)
class RowWriting:
    """How the row is written.

    ``correction``: the row replaces the one stored at its place and says why (``reason``, into the audit
    trail); without it a second row at the place is refused (:class:`~scoring.errors.ResultConflict`). A new row
    may say why too. ``revision``: the revision of the stored row the correction's author read (a form, the
    API): a row changed or gone since is not overwritten (:class:`~scoring.revisions.RowChanged`).

    ``status``: the row's status (a player's row is ``entered``, a director's ``director``). ``arithmetic``: an
    obvious arithmetic error, which may be corrected even once the results are final (rules §1).
    ``board_outside_set``: the director's ruling on a wrong board (§11.6) lets a row on a board outside the
    table's set stand.

    ``idempotency_key``: a repeated key returns the row stored the first time, unchanged; ``key_checked``: the
    caller knows the key is new, which saves the lookup. ``confirmations``: (seat, actor) pairs of the players
    who agree with the row as it is sent (a table's device passed round the table); the row is confirmed once
    ``required`` is satisfied (:mod:`scoring.confirmation`), and each agreement is audited."""

    correction: bool = False
    reason: str = ""
    revision: int | None = None
    status: str = Result.Status.DIRECTOR
    arithmetic: bool = False
    board_outside_set: bool = False
    idempotency_key: str | None = None
    key_checked: bool = False
    confirmations: Sequence[tuple[str, str]] = ()
    required: Confirmers | Sequence[str] = ()

    def __post_init__(self) -> None:
        if self.status not in Result.Status.values:
            raise ValueError(f"no row status {self.status!r}")
        if self.correction and not self.reason.strip():
            raise UserError(
                _("Say why the result is changed (it goes into the audit trail)."), code="reason_missing"
            )
        if self.revision is not None and not self.correction:
            raise ValueError("a revision read belongs to a correction; a new row has none")
        if self.idempotency_key and self.correction:
            raise ValueError("an idempotency key is a new row's; a correction carries the revision it read")
        seats = [seat for seat, _actor in self.confirmations]
        if seats and self.status != Result.Status.ENTERED:
            raise ValueError("confirmations come with a row a player entered")
        if len(set(seats)) != len(seats):
            raise ValueError("a seat confirms a row once")


@dataclass(frozen=True)
class RowAuthor:
    """Who acts, for the audit trail: a signed-in ``user`` (a director, the committee) or a player named by the
    table's device (``actor``); neither: the system (a command, an import)."""

    user: Any = None
    actor: str = ""


@dataclass(frozen=True)
class RowCommand:
    """One row to store: where it goes, what it holds, how it is written and who acts."""

    place: RowPlace
    content: RowContent
    writing: RowWriting = field(default_factory=RowWriting)
    author: RowAuthor = field(default_factory=RowAuthor)

    def __post_init__(self) -> None:
        if not isinstance(self.content, PlayedRow | ArtificialAdjustment | AssignedAdjustment):
            raise TypeError("a row holds a played deal, an artificial or an assigned result")
