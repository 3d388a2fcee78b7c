"""A board's layout typed by the director (duplicate-rules §2), and the layout a table actually played on a
fouled board (§10).

``board_layout_record`` stores the three hands and the prikup in the bundle's notation (formats.md §2), with
an audit entry that keeps the old layout. ``played_version`` and ``board_fouled_apply`` serve the director's
quick comparison page: which version a table's result belongs to, then the board marked fouled with that
result in its version (through :func:`appeals.services.fouled_boards.board_mark_fouled`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from appeals.models import Irregularity  # the §10 rulings keep the layout they compared in their facts
from appeals.services.fouled_boards import VERSION_LABELS, board_mark_fouled
from boards.models import Board
from preferans.cards.board_form import board_from_dict, board_to_dict
from preferans.cards.deal import BoardError, DealtBoard, Seat
from preferans.cards.deck import format_hand, parse_card, parse_hand
from preferans.cards.fouled import PlayedLayout, compare_layouts, version_labels
from scoring.models import Result
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import AuditEntry

__all__ = [
    "PLAYED_ACTION",
    "KnownLayout",
    "board_fouled_apply",
    "board_layout_record",
    "dealt_board",
    "known_played_layouts",
    "played_from_dict",
    "played_to_dict",
    "played_version",
]

PLAYED_ACTION = "board.played_layout"
"""The audit action that keeps the layout a table played on a fouled board (read back for version labels)."""


def dealt_board(board: Board) -> DealtBoard:
    """The stored board as :class:`preferans.cards.deal.DealtBoard`; raises :class:`UserError` when it has no layout."""
    if not board.has_layout:
        raise UserError(_("Board %(b)s has no layout yet: enter it first.") % {"b": board.number})
    try:
        dealt = board.deal()
    except BoardError as exc:
        raise UserError(
            _("The stored layout of board %(b)s is not valid: %(why)s") % {"b": board.number, "why": exc}
        ) from exc
    assert dealt is not None
    return dealt


@transaction.atomic
def board_layout_record(
    *,
    board: Board,
    hands: Mapping[str, str],
    prikup: Sequence[str],
    user: Any,
    now: dt.datetime,
    reason: str = "",
) -> Board:
    """Store the board's layout: ``hands`` ``{"N": "SAKQ C7 DJ98 H10", …}``, ``prikup`` ``["H7", "D8"]`` (top
    card first), as :func:`preferans.cards.board_form.board_to_dict` writes them.

    The layout is checked again (32 cards once each, the hand pockets of the board's dealer). Replacing a
    stored layout needs a ``reason``; the audit entry keeps the old one. Storing the same layout again changes
    nothing.
    """
    board.session.tournament.ensure_not_locked()
    try:
        checked = board_from_dict(
            {
                "number": board.number,
                "set": board.set_number,
                "dealer": board.dealer,
                "hands": dict(hands),
                "prikup": list(prikup),
            }
        )
    except BoardError as exc:
        raise UserError(_("The layout is not valid: %(why)s") % {"why": exc}) from exc
    players = board.session.tournament.players_per_table
    if checked.players != players:
        raise UserError(
            _("At a %(n)s-player table the hands of board %(b)s are in other pockets.")
            % {"n": players, "b": board.number}
        )
    data = board_to_dict(checked)
    board = Board.objects.select_for_update().get(pk=board.pk)
    before = {"hands": dict(board.hands or {}), "prikup": list(board.prikup or [])}
    if before == {"hands": data["hands"], "prikup": data["prikup"]}:
        return board
    if board.has_layout and not reason.strip():
        raise UserError(_("Board %(b)s already has a layout: say why it is replaced.") % {"b": board.number})
    board.hands, board.prikup = data["hands"], data["prikup"]
    board.save(update_fields=["hands", "prikup"])
    log_action(
        tournament=board.session.tournament,
        action="board.layout",
        user=user,
        obj=board,
        reason=reason.strip(),
        at=now,
        data={
            "session": board.session.number,
            "board": board.number,
            "before": before,
            "after": {"hands": data["hands"], "prikup": data["prikup"]},
        },
    )
    return board


# --- the layout a table played (§10) ------------------------------------------------------------------------


def played_to_dict(played: PlayedLayout) -> dict[str, Any]:
    return {
        "hands": {seat.value: format_hand(cards) for seat, cards in played.hands.items()},
        "prikup": [c.notation for c in played.prikup],
    }


def played_from_dict(data: Mapping[str, Any]) -> PlayedLayout:
    hands = {Seat(seat): parse_hand(text) for seat, text in data["hands"].items()}
    return PlayedLayout(hands=hands, prikup=tuple(parse_card(c) for c in data["prikup"]))


@dataclass(frozen=True)
class KnownLayout:
    """A layout recorded earlier as played at one table (this page's audit entries, or a §10 ruling)."""

    round: int
    table: int
    room: int
    played: PlayedLayout


def known_played_layouts(board: Board) -> list[KnownLayout]:
    """The layouts recorded as played on this board, oldest first; the latest one per table wins."""
    session = board.session
    found: list[tuple[Any, KnownLayout]] = []
    for entry in AuditEntry.objects.filter(tournament=session.tournament, action=PLAYED_ACTION):
        d = entry.data or {}
        if d.get("session") != session.number or d.get("board") != board.number or not d.get("played"):
            continue
        try:
            layout = played_from_dict(d["played"])
        except (KeyError, ValueError, TypeError):
            continue
        found.append((entry.at, KnownLayout(int(d["round"]), int(d["table"]), int(d.get("room", 1)), layout)))
    for irr in Irregularity.objects.filter(
        session=session, board_number=board.number, kind__in=["fouled", "missing_card"]
    ):
        if not (irr.facts or {}).get("played"):
            continue
        try:
            layout = played_from_dict(irr.facts["played"])
        except (KeyError, ValueError, TypeError):
            continue
        found.append((irr.recorded_at, KnownLayout(irr.round_number, irr.table_number, irr.room, layout)))
    latest: dict[tuple[int, int, int], KnownLayout] = {}
    for _at, known in sorted(found, key=lambda item: item[0]):
        key = (known.round, known.table, known.room)
        latest.pop(key, None)
        latest[key] = known
    return list(latest.values())


def played_version(*, board: Board, result: Result, played: PlayedLayout) -> str:
    """The version label ``result`` belongs to when its table played ``played``.

    ``"A"`` when it is the board as dealt. Otherwise the label of another table's result recorded with the
    same layout (grouped by :func:`preferans.cards.fouled.version_labels`), else the first label no other result of
    the board uses yet. Raises :class:`UserError` when the layout does not fit the board or every label is
    taken.
    """
    dealt = dealt_board(board)
    here = (result.round_number, result.table_number, result.room)
    others = [k for k in known_played_layouts(board) if (k.round, k.table, k.room) != here]
    try:
        labels = version_labels(dealt, [k.played for k in others] + [played])
    except BoardError as exc:
        raise UserError(str(exc)) from exc
    if labels[-1] == "A":
        return "A"
    results = Result.objects.filter(session=board.session, board_number=board.number).exclude(pk=result.pk)
    version_at = {(r.round_number, r.table_number, r.room): r.version for r in results}
    for known, label in zip(others, labels[:-1], strict=True):
        if label == labels[-1]:
            version = version_at.get((known.round, known.table, known.room))
            if version and version != "A":
                return version
    taken = {r.version for r in results}
    for label in VERSION_LABELS[1:]:
        if label not in taken:
            return label
    raise UserError(
        _("Every version label (%(labels)s) is already used on this board.")
        % {"labels": ", ".join(VERSION_LABELS)}
    )


@transaction.atomic
def board_fouled_apply(
    *,
    board: Board,
    result: Result,
    played: PlayedLayout,
    version: str,
    note: str,
    user: Any,
    now: dt.datetime,
) -> Board:
    """Mark the board fouled (rules §10) and put ``result`` in ``version``; keep the played layout in the audit
    trail, so that the next table's comparison finds it."""
    board.session.tournament.ensure_scores_open()
    if result.session_id != board.session_id or result.board_number != board.number:
        raise UserError(_("That result is not of board %(b)s.") % {"b": board.number})
    try:
        comparison = compare_layouts(dealt_board(board), played)
    except BoardError as exc:
        raise UserError(str(exc)) from exc
    if version == "A" and comparison.is_fouled:
        raise UserError(_("This table did not play the board as dealt: its result cannot be version A."))
    board_mark_fouled(board=board, user=user, note=note, versions={result.pk: version}, now=now)
    log_action(
        tournament=board.session.tournament,
        action=PLAYED_ACTION,
        user=user,
        obj=board,
        reason=note.strip(),
        at=now,
        data={
            "session": board.session.number,
            "board": board.number,
            "result": result.pk,
            "round": result.round_number,
            "table": result.table_number,
            "room": result.room,
            "version": version,
            "played": played_to_dict(played),
            "moves": list(comparison.lines),
        },
    )
    board.refresh_from_db()
    return board
