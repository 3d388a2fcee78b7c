"""The duplicate table's entry page: a player's phone at the table (reached by the table code or its QR code,
``table.lookup``).

Views only read, bind forms and call ``duplicate.at_table`` (who acts) and ``duplicate.table_rows`` (the rows). The page works without JavaScript: «Check»
posts the row and shows the vists the core computed, «Save» stores it. With JavaScript the vists appear while
the row is filled in (``preview``), from the same form and the same core.

Who is acting: the player at N types his PIN once per round; a signed cookie then remembers him on that
device for this table and round only (``table.device``). Confirmations and disputes always ask for the
confirming player's number and PIN, because the phone is usually passed round the table. What the page shows,
and to which device the contents of the rows (rules §12.2.4): ``table.page``.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from boards.models import Board
from duplicate import at_table, table_rows
from duplicate.at_table import TableRefused, TableState
from events.tables import find_table
from scoring.errors import ResultConflict, ResultLocked
from scoring.models import Result
from scoring.revisions import RowChanged
from scoring.row_checks import compute_vists
from table.device import DeviceTable, forget, remember, remembered, viewer
from table.forms import ConfirmForm, PhoneRowForm
from table.lookup import open_table, page_of
from table.page import render_entry, vists_rows
from tournaments.errors import UserError
from tournaments.models import Table
from tournaments.numbers import list_count, whole_number
from tournaments.pins import client_ip
from tournaments.refusals import ResultRejected


# -- the pages ------------------------------------------------------------------------------------------
@never_cache
@require_http_methods(["GET", "POST"])
def entry(request: HttpRequest, code: str) -> HttpResponse:
    table = open_table(request, code, Table)
    if isinstance(table, HttpResponse):
        return table
    state = at_table.table_state(table)
    if request.method == "POST":
        return _post(request, state)
    edit = _int(request.GET.get("edit"))
    return render_entry(
        request,
        state,
        open_board=_int(request.GET.get("board")),
        edit=edit,
        saved=_int(request.GET.get("saved")),
    )


def _int(raw: object) -> int | None:
    """A board or deal number from the request: ASCII digits (``tournaments.numbers``), else None."""
    return whole_number(raw, digits=6)


def _post(request: HttpRequest, state: TableState) -> HttpResponse:
    action = request.POST.get("action", "")
    board_number = _int(request.POST.get("board"))
    if action == "forget":
        response = redirect("table:entry", code=state.table.code)
        forget(response, DeviceTable.duplicate(state))
        return response
    if action == "show":
        return _show_rows(request, state)
    if action in ("confirm", "dispute"):
        return _confirm_or_dispute(request, state, action, board_number)
    if action == "confirm_all":
        return _confirm_all(request, state)
    if action in ("check", "save"):
        return _check_or_save(request, state, action, board_number)
    return render_entry(request, state, status=400, page_error=_("Unknown action."))


def _show_rows(request: HttpRequest, state: TableState) -> HttpResponse:
    """«Show the rows»: a participant seated here in this round identifies himself on this device."""
    try:
        at_table.require_round(state)  # before the PIN: between rounds the answer is the same for any PIN
        participant = at_table.identify(
            state=state, number=request.POST.get("number"), pin=request.POST.get("pin"), ip=client_ip(request)
        )
        at_table.seated(state, participant)
    except TableRefused as exc:
        return render_entry(request, state, status=exc.status, unlock_error=exc.message)
    response = _back(state, None)
    remember(request, response, DeviceTable.duplicate(state), participant)
    return response


def _check_or_save(
    request: HttpRequest, state: TableState, action: str, board_number: int | None
) -> HttpResponse:
    board = state.board(board_number) if board_number else None
    form = PhoneRowForm(request.POST, tournament=state.tournament, board=board)
    ctx: dict[str, Any] = {"bound": form, "bound_board": board_number}
    if board is None:
        return render_entry(
            request, state, status=400, page_error=_("This board is not played at this table now.")
        )
    if not form.is_valid():
        return render_entry(request, state, status=400, **ctx)
    try:
        ctx["preview"] = _vists(state, form, board)
    except ResultRejected as exc:
        ctx["refusals"] = [d.message for d in exc.details]
        return render_entry(request, state, status=400, **ctx)
    if action == "check":
        return render_entry(request, state, **ctx)
    # Save: the player at N (remembered on this device, or by number and PIN).
    participant = remembered(request, DeviceTable.duplicate(state), at_table.ENTRY_SEAT)
    try:
        if participant is None:
            participant = at_table.identify(
                state=state,
                number=request.POST.get("number"),
                pin=request.POST.get("pin"),
                ip=client_ip(request),
            )
        result, created = table_rows.table_submit(
            state=state,
            participant=participant,
            board_number=board.number,
            row=form.row,
            bidding=form.bidding_text(),
            idempotency_key=form.cleaned_data.get("key") or None,
            replace=bool(form.cleaned_data.get("replace")),
            revision=form.cleaned_data.get("revision"),
            now=timezone.now(),
        )
    except TableRefused as exc:
        ctx["identity_error"] = exc.message
        return render_entry(request, state, status=exc.status, **ctx)
    except ResultRejected as exc:
        ctx["refusals"] = [d.message for d in exc.details]
        return render_entry(request, state, status=400, **ctx)
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
    except RowChanged as exc:  # the row as it now is, on the page; correct it again from there
        messages.error(request, exc.message)
        return _back(state, board.number)
    except UserError as exc:
        ctx["refusals"] = [exc.message]
        return render_entry(request, state, status=exc.status, **ctx)
    # The next board without a row opens, with «saved» and the confirmations right above it (``saved_flash``).
    following = [b.number for b in state.boards if b.number != board.number and b.number not in state.results]
    later = [n for n in following if n > board.number] or following
    url = reverse("table:entry", kwargs={"code": state.table.code})
    response = HttpResponseRedirect(
        f"{url}?board={later[0] if later else board.number}&saved={board.number}#tb-now"
    )
    # Always remembered: the confirmers read the row on this phone (a device without him sees no rows).
    remember(request, response, DeviceTable.duplicate(state), participant)
    return response


def _confirm_or_dispute(
    request: HttpRequest, state: TableState, action: str, board_number: int | None
) -> HttpResponse:
    form = ConfirmForm(request.POST)
    result = state.results.get(board_number) if board_number else None
    if result is None or not form.is_valid():
        return render_entry(
            request,
            state,
            status=400,
            open_board=board_number,
            confirm_errors={board_number: _("Choose who you are and type your PIN.")},
        )
    try:
        participant = at_table.identify(
            state=state,
            number=form.cleaned_data["number"],
            pin=form.cleaned_data["pin"],
            ip=client_ip(request),
        )
        if action == "confirm":
            result = table_rows.table_confirm(
                state=state, result=result, participant=participant, now=timezone.now()
            )
        else:
            result = table_rows.table_dispute(
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
        return render_entry(
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
    device = DeviceTable.duplicate(state)
    if viewer(request, device) is None:  # never replaces the player at N remembered on a passed-round phone
        remember(request, response, device, participant)
    return response


def _confirm_all(request: HttpRequest, state: TableState) -> HttpResponse:
    """«Confirm all (N)»: one player, PIN typed once, confirms every row he read that waits for him.

    He is the player this device remembers (he typed his PIN here this round), or whoever is chosen with a PIN.
    """
    known = viewer(request, DeviceTable.duplicate(state))
    try:
        at_table.require_round(state)  # before the PIN, as for «Show the rows»
        number, pin = request.POST.get("number"), request.POST.get("pin")
        if not pin and known is not None and str(known.number) == str(number):
            participant = known  # his own phone: the PIN he typed here this round (``table.device``)
        else:
            participant = at_table.identify(state=state, number=number, pin=pin, ip=client_ip(request))
        done = table_rows.table_confirm_all(
            state=state, participant=participant, read=request.POST.getlist("read"), now=timezone.now()
        )
    except UserError as exc:
        return render_entry(request, state, status=exc.status, confirm_all_error=exc.message)
    if done.confirmed:
        messages.success(
            request,
            ngettext(
                "%(name)s: board %(boards)s confirmed.",
                "%(name)s: boards %(boards)s confirmed.",
                list_count(done.confirmed),
            )
            % {"name": participant.name or participant.number, "boards": ", ".join(map(str, done.confirmed))},
        )
    for board, why in done.skipped:
        messages.warning(
            request, _("Board %(board)s is not confirmed: %(why)s.") % {"board": board, "why": why}
        )
    response = _back(state, None)
    if known is None:
        remember(request, response, DeviceTable.duplicate(state), participant)
    return response


def _vists(state: TableState, form: PhoneRowForm, board: Board) -> list[dict[str, Any]]:
    """The vists the core computes for the form's valid row, as the page shows them (or ResultRejected)."""
    vists = compute_vists(tournament=state.tournament, row=form.row, dealer=board.dealer)
    return vists_rows(state, {s: str(v) for s, v in vists.items()})


def _back(state: TableState, board_number: int | None, *, open_it: bool = False) -> HttpResponseRedirect:
    """Back to the page (POST/redirect/GET): the board just acted on, or after a save the next one."""
    url = reverse("table:entry", kwargs={"code": state.table.code})
    if board_number and open_it:
        return HttpResponseRedirect(f"{url}?board={board_number}#board-{board_number}")
    return HttpResponseRedirect(f"{url}#board-{board_number}" if board_number else url)


# -- small endpoints ------------------------------------------------------------------------------------
@never_cache
@require_GET
def preview(request: HttpRequest, code: str) -> JsonResponse:
    """The vists the core computes for the row being filled in (the page's live preview); stores nothing."""
    try:
        table = find_table(code, client=client_ip(request))
    except UserError as exc:
        return JsonResponse({"ok": False, "errors": [exc.message]}, status=exc.status)
    if not isinstance(table, Table):  # a pulka table's preview is at /pulka/<code>/preview/
        return JsonResponse(
            {"ok": False, "errors": [_("This board is not played at this table now.")]}, status=400
        )
    state = at_table.table_state(table)
    board = state.board(_int(request.GET.get("board")) or 0)
    if board is None:
        return JsonResponse(
            {"ok": False, "errors": [_("This board is not played at this table now.")]}, status=400
        )
    form = PhoneRowForm(request.GET, tournament=state.tournament, board=board)
    if not form.is_valid():
        errors = {f: [str(m) for m in msgs] for f, msgs in form.errors.items()}
        return JsonResponse(
            {
                "ok": False,
                "incomplete": not form.refusals,
                "fields": errors,
                "errors": form.refusals,
                "row": getattr(form, "row", None),
            }
        )
    try:
        vists = _vists(state, form, board)
    except ResultRejected as exc:
        return JsonResponse({"ok": False, "errors": [d.message for d in exc.details], "row": form.row})
    return JsonResponse({"ok": True, "row": form.row, "vists": vists})


@require_GET
def qr(request: HttpRequest, code: str) -> HttpResponse:
    """The QR code of the table card: it opens the table's page (a duplicate table's rows, a pulka table's sheet)."""
    try:
        table = find_table(code, client=client_ip(request))
    except UserError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
    url = request.build_absolute_uri(page_of(table))
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, title=f"{table.code}")
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response
