"""The entry page as the template receives it: a card a board of the running round, with its row and form.

Who may read the rows is :func:`visibility.can_see_row` (rules §12.2.4), as on every channel: the table
code is printed on the table card, so it proves nothing. The contents of the rows (contract, tricks, calls,
vists, the dispute) are shown only on a device that remembers a participant seated at this table in this round
(``table.device.viewer``) — the player at N after saving a row, a player after confirming or disputing one, or
anybody seated here who typed his number and PIN in «Show the rows» — for the rows he sits on. Any other device
sees the boards and their status only.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from boards.models import Board
from duplicate import at_table, table_rows
from duplicate.at_table import TableState
from duplicate.late_boards import late_boards
from duplicate.rests import next_seats
from preferans.game.seats import active_seats, defenders, hands_in_order
from scoring.models import Result
from table.device import DeviceTable, remembered, viewer
from table.forms import (
    PhoneRowForm,
    contract_grid,
    initial_from_row,
    progression_steps,
    raspasy_three_inputs,
)
from tournaments.models import Participant, Session
from ui.display import describe_row
from ui.labels import CALL_WORDS
from ui.templatetags.scores import display_number
from visibility import Viewer, can_see_row


def vists_rows(state: TableState, vists: dict[str, str] | None) -> list[dict[str, Any]]:
    """The vists of a row, a line a seat: who sits there and the signed value as the page shows it."""
    out = []
    for seat, value in (vists or {}).items():
        p = state.seats.get(seat)
        shown = display_number(value)
        if value and not str(value).startswith("-") and str(value) != "0":
            shown = "+" + shown
        out.append(
            {
                "seat": seat,
                "name": p.name if p else "",
                "number": p.number if p else "",
                "value": value,
                "display": shown.replace("-", "−"),
                "negative": str(value).startswith("-"),
            }
        )
    return out


def seat_label(state: TableState, seat: str) -> str:
    p = state.seats.get(seat)
    return f"{seat} · {p.number} {p.name}" if p else seat


def _card(
    state: TableState, board: Board, result: Result | None, *, viewer: Viewer, confirm_error: str | None
) -> dict[str, Any]:
    """What the page shows of one board, without its form; ``shown``: whether its row's contents are."""
    players = state.players
    if result is not None:
        result.session = state.session  # the state's own session and tournament: no query per row
    can_see = result is not None and can_see_row(viewer, result)
    card: dict[str, Any] = {
        "shown": can_see,
        "board": board,
        "dealer_label": seat_label(state, board.dealer) if players == 4 else board.dealer,
        "result": result,
        "row_text": describe_row(result.row, players, board.dealer)
        if can_see and result and result.row
        else "",
        "vists": vists_rows(state, result.vists) if can_see and result else [],
        "awaiting": [seat_label(state, s) for s in state.awaiting(result)] if result else [],
        "awaiting_seats": [(s, state.seats[s]) for s in state.awaiting(result) if s in state.seats]
        if result
        else [],
        "confirmed": [seat_label(state, s) for s in (result.confirmed_by or [])] if result else [],
        # one opponent's confirmation closes the row: the page says «one of», not all of those named
        "one_of": bool(result and state.confirmers().one and len(state.awaiting(result)) > 1),
        "can_correct": bool(
            can_see
            and result
            and result.status == Result.Status.ENTERED
            and not result.confirmed_by
            and state.can_enter
        ),
        "confirm_error": confirm_error,
        "active": [(s, state.seats.get(s)) for s in active_seats(players, board.dealer)],
        "hands": hands_in_order(players, board.dealer),
    }
    card["meta_json"] = json.dumps(
        {
            "board": board.number,
            "players": players,
            "dealer": board.dealer,
            "three": raspasy_three_inputs(state.tournament),
            "after": {s: defenders(players, board.dealer, s) for s in active_seats(players, board.dealer)},
            "hands": hands_in_order(players, board.dealer),
            "names": {s: seat_label(state, s) for s in state.seats},
        },
        ensure_ascii=False,
    )
    return card


def saved_flash(state: TableState, board: int | None) -> str:
    """«Board 1 saved. Now … confirm it.» after the player at N saved a row (shown above the next board)."""
    result = state.results.get(board) if board else None
    if result is None:
        return ""
    seats = state.seats
    names = [f"{s} {seats[s].name or seats[s].number}" for s in state.awaiting(result) if s in seats]
    said = {"board": board, "players": ", ".join(names)}
    if not names:
        return _("Board %(board)s saved.") % said
    if state.confirmers().one and len(names) > 1:
        return _("Board %(board)s saved. Now one of %(players)s confirms it.") % said
    return _("Board %(board)s saved. Now %(players)s confirm it.") % said


def pending_rows(state: TableState, *, can_see: bool, seen_by: Participant | None) -> dict[str, Any] | None:
    """«Confirm all»: the rows of the round waiting for confirmations, and who may confirm them here at once.

    The player this device remembers (not N) confirms the rows waiting for him without his PIN again; on a
    phone passed round the table each player chooses himself and types his PIN once for all the rows.
    """
    if not can_see or not state.can_enter:
        return None
    rows = table_rows.pending_for(state)
    if not rows:
        return None
    me = state.seat_of(seen_by) if seen_by is not None else None
    mine = table_rows.pending_for(state, me) if me and me != at_table.ENTRY_SEAT else []
    shown = mine or rows
    return {
        "rows": [
            {
                "board": r.board_number,
                "text": describe_row(r.row, state.players, r.dealer) if r.row else _("Artificial result"),
                "stamp": table_rows.row_stamp(r),
                "awaiting": ", ".join(state.awaiting(r)),
            }
            for r in shown
        ],
        "me": seen_by if mine else None,
        "who": [(s, p, n) for s, p in state.seats.items() if (n := len(table_rows.pending_for(state, s)))],
        "one": state.confirmers().one,
    }


def _blank_form(state: TableState, board: Board, result: Result | None, *, editing: bool) -> PhoneRowForm:
    """A new row's form, or the form of the row being corrected, filled in from it."""
    initial: dict[str, Any] = {"board": board.number, "key": uuid.uuid4().hex, "play": "closed"}
    if editing and result is not None:
        initial.update(
            initial_from_row(result.row, players=state.players, dealer=board.dealer),
            replace=True,
            revision=result.revision,
            bidding=result.bidding,
        )
    return PhoneRowForm(initial=initial, tournament=state.tournament, board=board)


def render_entry(
    request: HttpRequest,
    state: TableState,
    *,
    status: int = 200,
    open_board: int | None = None,
    edit: int | None = None,
    bound: PhoneRowForm | None = None,
    bound_board: int | None = None,
    preview: list[dict[str, Any]] | None = None,
    refusals: list[str] | None = None,
    identity_error: str | None = None,
    confirm_errors: dict[int | None, str] | None = None,
    page_error: str | None = None,
    unlock_error: str | None = None,
    confirm_all_error: str | None = None,
    saved: int | None = None,
) -> HttpResponse:
    """The page; ``bound`` (for ``bound_board``) is a posted form shown again with what was wrong with it."""
    device = DeviceTable.duplicate(state)
    me = remembered(request, device, at_table.ENTRY_SEAT)
    seen_by = viewer(request, device)
    can_see = (
        seen_by is not None
    )  # a participant seated here: he confirms, corrects, sees the rows (module doc)
    asking = Viewer.at_table(seen_by)
    cards = []
    first_open = None
    for board in state.boards:
        result = state.results.get(board.number)
        editing = (
            can_see
            and result is not None
            and edit == board.number
            and result.status == Result.Status.ENTERED
            and not result.confirmed_by
        )
        card = _card(
            state, board, result, viewer=asking, confirm_error=(confirm_errors or {}).get(board.number)
        )
        if state.can_enter and (result is None or editing):
            if bound is not None and bound_board == board.number:
                card["form"] = bound
                card.update(preview=preview, refusals=refusals, identity_error=identity_error)
            else:
                card["form"] = _blank_form(state, board, result, editing=editing)
            card["editing"] = editing
            if first_open is None:
                first_open = board.number
        cards.append(card)
    opened = bound_board or open_board or edit or first_open
    for card in cards:
        card["open"] = card["board"].number == opened
    ctx = {
        "state": state,
        "table": state.table,
        "tournament": state.tournament,
        "session": state.session,
        "round": state.round,
        "seats": [(s, state.seats.get(s)) for s in ("N", "E", "S", "W") if s in state.seats],
        "cards": cards,
        "me": me,
        "viewer": seen_by,
        "viewer_seat": state.seat_of(seen_by) if seen_by else None,
        "can_see": can_see,
        "unlock_error": unlock_error,
        "entry_player": state.seats.get(at_table.ENTRY_SEAT),
        "grid": contract_grid(),
        "calls": CALL_WORDS,
        "three_inputs": raspasy_three_inputs(state.tournament),
        "steps": progression_steps(state.tournament),
        "players": state.players,
        "session_finished": state.session.status == Session.Status.FINISHED,
        "page_error": page_error,
        # §11.6 А.2: the boards this table is to play later (the director writes their rows)
        "late_boards": [
            s.late
            for s in late_boards(state.session)
            if not s.played and (s.late.room, s.late.table_number) == (state.table.room, state.table.number)
        ],
        "preview_url": reverse("table:preview", kwargs={"code": state.table.code}),
        "qr_url": reverse("table:qr", kwargs={"code": state.table.code}),
        # «saved», the rows waiting for confirmations and «Confirm all» sit just above the next board to enter
        "now_before": first_open,
        "saved_flash": saved_flash(state, saved),
        "pending": pending_rows(state, can_see=can_see, seen_by=seen_by),
        "confirm_all_error": confirm_all_error,
        # where each player of the table sits next round, the resting one included (issue: nobody was told)
        "next_seats": next_seats(
            state.session, room=state.table.room, table=state.table.number, round_number=state.round.number
        )
        if state.round and state.seating
        else [],
    }
    return render(request, "table/entry.html", ctx, status=status)
