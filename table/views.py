"""The table entry page: a player's phone at the table (reached by the table code or its QR code).

Views only read, bind forms and call ``table.services``. The page works without JavaScript: «Check»
posts the row and shows the vists the core computed, «Save» stores it. With JavaScript the vists appear while
the row is filled in (``preview``), from the same form and the same core.

Who is acting: the player at N types his PIN once per round; a signed cookie then remembers him on that
device for this table and round only (``remember``). Confirmations and disputes always ask for the
confirming player's number and PIN, because the phone is usually passed round the table.

Who may read the rows (rules §12.2.4): the table code is printed on the table card, so it proves nothing.
The contents of the rows (contract, tricks, calls, vists, the dispute) are shown only on a device that
remembers a participant seated at this table in this round: the player at N after saving a row, a player
after confirming or disputing one, or anybody seated here who typed his number and PIN in «Show the rows».
Any other device sees the boards and their status only.
"""

from __future__ import annotations

import io
import json
import uuid
from typing import Any

import segno
from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from preferans.game.seats import active_seats, defenders, hands_in_order
from scoring.errors import ResultConflict, ResultLocked, ResultRejected
from scoring.labels import contract_label
from scoring.models import Result
from scoring.rows import compute_vists
from scoring.templatetags.scores import display_number
from table import services
from table.forms import (
    CALLS,
    ConfirmForm,
    PhoneRowForm,
    contract_grid,
    initial_from_row,
    progression_steps,
    raspasy_three_inputs,
)
from table.ratelimit import client_ip
from table.services import TableRefused, TableState
from tournaments.errors import UserError
from tournaments.models import Participant, Session

COOKIE_SALT = "scoring.table.player"
COOKIE_AGE = 6 * 3600


def cookie_name(state: TableState) -> str:
    return f"table-player-{state.table.pk}"


def viewer(request: HttpRequest, state: TableState) -> Participant | None:
    """The participant this device remembers for this table and round, if seated here in it (any seat)."""
    if state.round is None:
        return None
    try:
        value = request.get_signed_cookie(cookie_name(state), salt=COOKIE_SALT, max_age=COOKIE_AGE)
        participant_pk, round_pk = (int(x) for x in str(value).split(":"))
    except (KeyError, signing.BadSignature, ValueError):
        return None
    if round_pk != state.round.pk:
        return None
    return next((p for p in state.seats.values() if p.pk == participant_pk), None)


def remembered(request: HttpRequest, state: TableState) -> Participant | None:
    """The player at N this device remembers for this table and round, if still seated at N."""
    participant = viewer(request, state)
    if participant is None or state.seat_of(participant) != services.ENTRY_SEAT:
        return None
    return participant


def remember(
    request: HttpRequest, response: HttpResponse, state: TableState, participant: Participant
) -> None:
    assert state.round is not None
    response.set_signed_cookie(
        cookie_name(state), f"{participant.pk}:{state.round.pk}", salt=COOKIE_SALT, max_age=COOKIE_AGE,
        httponly=True, samesite="Lax", secure=request.is_secure(),
    )  # fmt: skip


def _refused_page(request: HttpRequest, exc: TableRefused) -> HttpResponse:
    return render(
        request, "table/lookup.html", {"error": exc.message, "code": exc.code}, status=exc.status
    )


# -- the pages ------------------------------------------------------------------------------------------
@never_cache
@require_GET
def lookup(request: HttpRequest) -> HttpResponse:
    """Type the code from the table card."""
    code = request.GET.get("code", "")
    if not code:
        return render(request, "table/lookup.html", {})
    try:
        table = services.find_table(code, ip=client_ip(request))
    except TableRefused as exc:
        return render(
            request, "table/lookup.html", {"error": exc.message, "typed": code}, status=exc.status
        )
    return redirect("table:entry", code=table.code)


@never_cache
@require_http_methods(["GET", "POST"])
def entry(request: HttpRequest, code: str) -> HttpResponse:
    try:
        table = services.find_table(code, ip=client_ip(request))
    except TableRefused as exc:
        return _refused_page(request, exc)
    if table.code != code:
        return redirect("table:entry", code=table.code)
    state = services.table_state(table)
    if request.method == "POST":
        return _post(request, state)
    edit = _int(request.GET.get("edit"))
    return _render(request, state, open_board=_int(request.GET.get("board")), edit=edit)


def _int(raw: object) -> int | None:
    try:
        return int(str(raw))
    except (TypeError, ValueError):
        return None


def _post(request: HttpRequest, state: TableState) -> HttpResponse:
    action = request.POST.get("action", "")
    board_number = _int(request.POST.get("board"))
    if action == "forget":
        response = redirect("table:entry", code=state.table.code)
        response.delete_cookie(cookie_name(state))
        return response
    if action == "show":
        return _show_rows(request, state)
    if action in ("confirm", "dispute"):
        return _confirm_or_dispute(request, state, action, board_number)
    if action in ("check", "save"):
        return _check_or_save(request, state, action, board_number)
    return _render(request, state, status=400, page_error=_("Unknown action."))


def _show_rows(request: HttpRequest, state: TableState) -> HttpResponse:
    """«Show the rows»: a participant seated here in this round identifies himself on this device."""
    try:
        participant = services.identify(
            state=state, number=request.POST.get("number"), pin=request.POST.get("pin"), ip=client_ip(request)
        )
        services.seated(state, participant)
    except TableRefused as exc:
        return _render(request, state, status=exc.status, unlock_error=exc.message)
    response = _back(state, None)
    remember(request, response, state, participant)
    return response


def _check_or_save(
    request: HttpRequest, state: TableState, action: str, board_number: int | None
) -> HttpResponse:
    board = state.board(board_number) if board_number else None
    form = PhoneRowForm(request.POST, tournament=state.tournament, board=board)
    ctx: dict[str, Any] = {"bound": form, "bound_board": board_number}
    if board is None:
        return _render(
            request, state, status=400, page_error=_("This board is not played at this table now.")
        )
    if not form.is_valid():
        return _render(request, state, status=400, **ctx)
    try:
        vists = compute_vists(tournament=state.tournament, row=form.row, dealer=board.dealer)
    except ResultRejected as exc:
        ctx["refusals"] = [d.message for d in exc.details]
        return _render(request, state, status=400, **ctx)
    ctx["preview"] = _vists_rows(state, {s: str(v) for s, v in vists.items()})
    if action == "check":
        return _render(request, state, **ctx)
    # Save: the player at N (remembered on this device, or by number and PIN).
    participant = remembered(request, state)
    try:
        if participant is None:
            participant = services.identify(
                state=state,
                number=request.POST.get("number"),
                pin=request.POST.get("pin"),
                ip=client_ip(request),
            )
        result, created = services.table_submit(
            state=state,
            participant=participant,
            board_number=board.number,
            row=form.row,
            idempotency_key=form.cleaned_data.get("key") or None,
            replace=bool(form.cleaned_data.get("replace")),
            now=timezone.now(),
        )
    except TableRefused as exc:
        ctx["identity_error"] = exc.message
        return _render(request, state, status=exc.status, **ctx)
    except ResultRejected as exc:
        ctx["refusals"] = [d.message for d in exc.details]
        return _render(request, state, status=400, **ctx)
    except ResultConflict:
        messages.error(
            request,
            _("Board %(board)s was already entered from another device: check the row below.")
            % {"board": board.number},
        )
        return _back(state, board.number)
    except ResultLocked:
        messages.error(request, _("This row has been confirmed: only the director can change it now."))
        return _back(state, board.number)
    except UserError as exc:
        ctx["refusals"] = [exc.message]
        return _render(request, state, status=exc.status, **ctx)
    waiting = ", ".join(f"{s} {state.seats[s].name or state.seats[s].number}" for s in state.awaiting(result))
    messages.success(
        request,
        _("Board %(board)s saved. Now %(players)s confirm it.") % {"board": board.number, "players": waiting}
        if waiting
        else _("Board %(board)s saved.") % {"board": board.number},
    )
    response = _back(state, board.number, open_it=True)  # the phone now goes round for the confirmations
    # Always remembered: the confirmers read the row on this phone (a device without him sees no rows).
    remember(request, response, state, participant)
    return response


def _confirm_or_dispute(
    request: HttpRequest, state: TableState, action: str, board_number: int | None
) -> HttpResponse:
    form = ConfirmForm(request.POST)
    result = state.results.get(board_number) if board_number else None
    if result is None or not form.is_valid():
        return _render(
            request, state, status=400, open_board=board_number,
            confirm_errors={board_number: _("Choose who you are and type your PIN.")},
        )  # fmt: skip
    try:
        participant = services.identify(
            state=state,
            number=form.cleaned_data["number"],
            pin=form.cleaned_data["pin"],
            ip=client_ip(request),
        )
        if action == "confirm":
            result = services.table_confirm(state=state, result=result, participant=participant, now=timezone.now())
        else:
            result = services.table_dispute(
                state=state,
                result=result,
                participant=participant,
                reason=form.cleaned_data.get("reason") or "",
                now=timezone.now(),
            )
    except ResultLocked:
        messages.error(request, _("This row can no longer be confirmed: it is locked or disputed."))
        return _back(state, board_number, open_it=True)
    except UserError as exc:
        return _render(
            request,
            state,
            status=exc.status,
            open_board=board_number,
            confirm_errors={board_number: exc.message},
        )
    if action == "dispute":
        messages.warning(
            request, _("Board %(board)s is disputed: the director has been told.") % {"board": board_number}
        )
    elif result.status == Result.Status.CONFIRMED:
        messages.success(request, _("Board %(board)s is confirmed and locked.") % {"board": board_number})
    else:
        messages.success(
            request,
            _("Thank you, %(name)s: your confirmation is recorded.")
            % {"name": participant.name or participant.number},
        )
    response = _back(state, board_number, open_it=True)
    if viewer(request, state) is None:  # never replaces the player at N remembered on a passed-round phone
        remember(request, response, state, participant)
    return response


def _back(state: TableState, board_number: int | None, *, open_it: bool = False) -> HttpResponseRedirect:
    """Back to the page (POST/redirect/GET): the board just acted on, or after a save the next one."""
    url = reverse("table:entry", kwargs={"code": state.table.code})
    if board_number and open_it:
        return HttpResponseRedirect(f"{url}?board={board_number}#board-{board_number}")
    return HttpResponseRedirect(f"{url}#board-{board_number}" if board_number else url)


# -- rendering ------------------------------------------------------------------------------------------
def _vists_rows(state: TableState, vists: dict[str, str] | None) -> list[dict[str, Any]]:
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


def describe_row(row: dict[str, Any], players: int, dealer: str) -> str:
    """One line a player recognises: «6♠ — E 6, S 2 (whist), W 2 (whist), closed»."""
    if not row:
        return ""
    contract = contract_label(str(row.get("contract", "")))
    cols = [row.get(k) or ["?", "?"] for k in ("declarer", "w1", "w2")]
    calls = row.get("calls") or {}
    names = dict(CALLS)
    parts = []
    for i, (seat, tricks) in enumerate(cols):
        text = f"{seat} {tricks}"
        if i and seat in calls:
            text += f" ({names.get(calls[seat], calls[seat])})"
        parts.append(text)
    extra = []
    if row.get("dealer_whist"):
        extra.append(str(_("the dealer whisted")))
    if row.get("play") in ("open", "closed"):
        extra.append(str(dict(PhoneRowForm.base_fields["play"].choices).get(row["play"], row["play"])))
    if row.get("misere_shared"):
        extra.append(str(_("shared with the dealer")))
    return f"{contract}: " + ", ".join(parts) + (f"; {', '.join(extra)}" if extra else "")


def _seat_label(state: TableState, seat: str) -> str:
    p = state.seats.get(seat)
    return f"{seat} · {p.number} {p.name}" if p else seat


def _render(
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
) -> HttpResponse:
    me = remembered(request, state)
    seen_by = viewer(request, state)
    can_see = seen_by is not None  # rules §12.2.4: the rows only to a participant seated here (module doc)
    players = state.players
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
        wants_form = state.can_enter and (result is None or editing)
        card: dict[str, Any] = {
            "board": board,
            "dealer_label": _seat_label(state, board.dealer) if players == 4 else board.dealer,
            "result": result,
            "row_text": describe_row(result.row, players, board.dealer)
            if can_see and result and result.row
            else "",
            "vists": _vists_rows(state, result.vists) if can_see and result else [],
            "awaiting": [_seat_label(state, s) for s in state.awaiting(result)] if result else [],
            "awaiting_seats": [(s, state.seats[s]) for s in state.awaiting(result) if s in state.seats]
            if result
            else [],
            "confirmed": [_seat_label(state, s) for s in (result.confirmed_by or [])] if result else [],
            "can_correct": bool(
                can_see
                and result
                and result.status == Result.Status.ENTERED
                and not result.confirmed_by
                and state.can_enter
            ),
            "confirm_error": (confirm_errors or {}).get(board.number),
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
                "names": {s: _seat_label(state, s) for s in state.seats},
            },
            ensure_ascii=False,
        )
        if wants_form:
            if bound is not None and bound_board == board.number:
                form = bound
                card.update(preview=preview, refusals=refusals, identity_error=identity_error)
            else:
                initial: dict[str, Any] = {"board": board.number, "key": uuid.uuid4().hex, "play": "closed"}
                if editing and result is not None:
                    initial.update(
                        initial_from_row(result.row, players=players, dealer=board.dealer), replace=True
                    )
                form = PhoneRowForm(initial=initial, tournament=state.tournament, board=board)
            card["form"] = form
            card["editing"] = editing
            if first_open is None and (result is None or editing):
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
        "entry_player": state.seats.get(services.ENTRY_SEAT),
        "grid": contract_grid(),
        "calls": CALLS,
        "three_inputs": raspasy_three_inputs(state.tournament),
        "steps": progression_steps(state.tournament),
        "players": players,
        "session_finished": state.session.status == Session.Status.FINISHED,
        "page_error": page_error,
        "preview_url": reverse("table:preview", kwargs={"code": state.table.code}),
        "qr_url": reverse("table:qr", kwargs={"code": state.table.code}),
    }
    return render(request, "table/entry.html", ctx, status=status)


# -- small endpoints ------------------------------------------------------------------------------------
@never_cache
@require_GET
def preview(request: HttpRequest, code: str) -> JsonResponse:
    """The vists the core computes for the row being filled in (the page's live preview); stores nothing."""
    try:
        table = services.find_table(code, ip=client_ip(request))
    except TableRefused as exc:
        return JsonResponse({"ok": False, "errors": [exc.message]}, status=exc.status)
    state = services.table_state(table)
    board = state.board(_int(request.GET.get("board")) or 0)
    if board is None:
        return JsonResponse(
            {"ok": False, "errors": [_("This board is not played at this table now.")]}, status=400
        )
    form = PhoneRowForm(request.GET, tournament=state.tournament, board=board)
    if not form.is_valid():
        errors = {f: [str(m) for m in msgs] for f, msgs in form.errors.items()}
        return JsonResponse(
            {"ok": False, "incomplete": True, "fields": errors, "row": getattr(form, "row", None)}
        )
    try:
        vists = compute_vists(tournament=state.tournament, row=form.row, dealer=board.dealer)
    except ResultRejected as exc:
        return JsonResponse(
            {"ok": False, "errors": [d.message for d in exc.details], "row": form.row}
        )
    return JsonResponse(
        {"ok": True, "row": form.row, "vists": _vists_rows(state, {s: str(v) for s, v in vists.items()})}
    )


@require_GET
def qr(request: HttpRequest, code: str) -> HttpResponse:
    """The QR code of the table card: it opens this table's entry page."""
    try:
        table = services.find_table(code, ip=client_ip(request))
    except TableRefused as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
    url = request.build_absolute_uri(reverse("table:entry", kwargs={"code": table.code}))
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, title=f"{table.code}")
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response
