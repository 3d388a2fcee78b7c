"""The players' pulka sheet at the table, on a phone: /pulka/<code>/ (the code of a ``PulkaTable``).

Views only read, bind forms and call ``pulkas.services.sheet`` (the one write path). Any player of the table
writes the next deal (Code 4.2.4: «каждый игрок сам ведёт запись») with his number and PIN; the others confirm it
on the same device (their PINs in the same form) or later, each on his own phone. The last deal may be corrected
until the next one is written (Code 4.2.7–4.2.9; the software's approximation of 4.2.9's «до момента заказа
следующей игры»). A form carries a key (a double tap writes once) and the sheet's
version (a stale form is refused). Without JavaScript «Check» posts the row and shows the deal's result the core
computed; with it the result appears while the row is filled in (``preview``, driven by table.js as on the
duplicate table page). Who sees the sheet: ``table_page``.
"""

from __future__ import annotations

import uuid
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from duplicate.table_rows import scoped_key
from preferans.pulka import PulkaGame
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaTable
from pulkas.services.sheet import confirm_deal, correct_deal, enter_deal
from table.device import forget, remember, viewer
from table.lookup import open_table, refused
from table.pulka_forms import (
    ConfirmDealForm,
    DealForm,
    PinRefused,
    confirmations,
    identify,
    writer_of,
)
from table.pulka_page import (
    PulkaPage,
    answering,
    load_page,
    may_see,
    names,
    penalty_text,
    render_page,
    sheet_labels,
    vists_lines,
)
from tournaments.errors import UserError
from tournaments.models import Participant
from tournaments.numbers import whole_number
from tournaments.refusals import Refusal, ResultRejected
from ui.pulka_sheet_pdf import sheet_pdf as draw_pdf


# -- opening the table ----------------------------------------------------------------------------------
def _open(request: HttpRequest, code: str) -> PulkaPage | HttpResponse:
    """The pulka table with this code and its sheet (``table.lookup.open_table``: a duplicate table's code goes
    to its page, an unknown code is counted and refused as on the duplicate page)."""
    table = open_table(request, code, PulkaTable)
    if isinstance(table, HttpResponse):
        return table
    try:
        return load_page(table)
    except UserError as exc:
        return refused(request, exc)


def _int(raw: object) -> int | None:
    """A board or deal number from the request: ASCII digits (``tournaments.numbers``), else None."""
    return whole_number(raw, digits=6)


def _back(page: PulkaPage, anchor: str = "") -> HttpResponseRedirect:
    url = reverse("table:pulka", kwargs={"code": page.table.code})
    return HttpResponseRedirect(f"{url}#{anchor}" if anchor else url)


# -- the page -------------------------------------------------------------------------------------------
@never_cache
@require_http_methods(["GET", "POST"])
def sheet_page(request: HttpRequest, code: str) -> HttpResponse:
    page = _open(request, code)
    if isinstance(page, HttpResponse):
        return page
    if request.method == "POST":
        return _post(request, page)
    return render_page(request, page, correcting=_int(request.GET.get("correct")), new_key=uuid.uuid4().hex)


def _post(request: HttpRequest, page: PulkaPage) -> HttpResponse:
    action = request.POST.get("action", "")
    if action == "forget":
        response = _back(page)
        forget(response, page.device)
        return response
    if action == "show":
        return _show(request, page)
    if action == "confirm":
        return _confirm(request, page)
    if action in ("check", "save"):
        return _deal(request, page, action)
    return render_page(request, page, status=400, page_error=_("Unknown action."))


def _show(request: HttpRequest, page: PulkaPage) -> HttpResponse:
    """«Show the sheet»: a player of this table identifies himself on this device."""
    try:
        participant = identify(
            request,
            page.tournament,
            page.seats,
            number=request.POST.get("number"),
            pin=request.POST.get("pin"),
        )
    except PinRefused as exc:
        return render_page(request, page, status=exc.status, errors={"unlock": exc.message})
    response = _back(page)
    remember(request, response, page.device, participant)
    return response


def deal_result(page: PulkaPage, number: int, row: dict[str, Any]) -> dict[str, Fraction]:
    """What deal ``number`` written as ``row`` gives each player after the deals before it (or ResultRejected
    with the core's reasons in the player's words). Stores nothing."""
    game = PulkaGame(page.sheet.setup)
    for earlier in page.deals[: number - 1]:
        game.add(earlier.row)
    problems = game.add(row)
    if problems:
        raise ResultRejected(Refusal(p.code, p.field, p.message, p.params) for p in problems)
    return dict(game.deals[-1].result)


def _bind(page: PulkaPage, data: Any) -> tuple[DealForm | None, int | None]:
    """The posted row's form for the deal it names: the next deal, or (``correct``) the last one."""
    correcting = _int(data.get("correct"))
    number = _int(data.get("board"))
    if correcting is not None:
        if number != correcting or not page.can_correct(correcting):
            return None, correcting
    elif number != page.next_number and not _sent_before(page, data.get("key")):
        return None, None  # a form for a deal written since (from another phone)
    assert number is not None
    return DealForm(
        data, players=page.players, rules=page.sheet.setup.rules, dealer=page.label(number)
    ), correcting


def _sent_before(page: PulkaPage, key: object) -> bool:
    """The form of a deal already written from it (a double tap, a retry): ``enter_deal`` answers with that deal."""
    scoped = page_key(page, key)
    return bool(scoped) and PulkaDeal.objects.filter(table=page.table, idempotency_key=scoped).exists()


def page_key(page: PulkaPage, key: object) -> str | None:
    """The form's key scoped to its table, as the API scopes its keys (``duplicate.table_rows.scoped_key``): the
    same key sent at two tables writes at both, never an IntegrityError."""
    return scoped_key(f"pulka-page:{page.table.pk}", str(key)[:64] if key else None)


def _row(page: PulkaPage, form: DealForm, correcting: int | None) -> dict[str, Any]:
    """The deal as the form gives it (a penalty already on a corrected deal stays: ``correct_deal`` keeps it)."""
    return dict(form.row)


def _deal(request: HttpRequest, page: PulkaPage, action: str) -> HttpResponse:
    """«Check» and «Save» of the next deal or of the correction of the last one."""
    form, correcting = _bind(page, request.POST)
    if form is None:
        return render_page(
            request,
            page,
            status=409,
            page_error=page.why_not_correct(correcting)
            or _("The sheet has changed since you opened it. Check it and write again."),
        )
    ctx: dict[str, Any] = {"form": form, "correcting": correcting}
    if (
        not form.is_valid()
    ):  # the core's refusals the form already knows (impossible tricks) are shown as the core's
        return render_page(request, page, status=400, refusals=form.refusals or None, **ctx)
    number = form.cleaned_data["board"]
    row = _row(page, form, correcting)
    try:
        ctx["preview"] = vists_lines(page, deal_result(page, number, row))
    except ResultRejected as exc:
        return render_page(request, page, status=400, refusals=[d.message for d in exc.details], **ctx)
    if action == "check":
        return render_page(request, page, **ctx)
    remembered = viewer(request, page.device)
    try:
        writer = writer_of(
            request, page.tournament, page.seats, number=form.cleaned_data["writer"], remembered=remembered
        )
        if correcting is None:
            others = confirmations(request, page.tournament, page.seats, writer)
            deal, created = enter_deal(
                table=page.table,
                row=row,
                now=timezone.now(),
                participant=writer,
                confirmations=others,
                key=page_key(page, form.cleaned_data.get("key")),
                version=form.cleaned_data["version"],
            )
            _saved(request, page, deal, created)
            awaiting = deal.status == PulkaDeal.Status.ENTERED
        else:
            correction = correct_deal(
                table=page.table,
                number=number,
                row=row,
                now=timezone.now(),
                participant=writer,
                reason=form.cleaned_data.get("reason") or "",
                version=form.cleaned_data["version"],
            )
            messages.success(request, _corrected_message(page, correction, number))
            awaiting = True
    except PinRefused as exc:
        return render_page(request, page, status=exc.status, errors={exc.field: exc.message}, **ctx)
    except ResultRejected as exc:
        return render_page(request, page, status=400, refusals=[d.message for d in exc.details], **ctx)
    except UserError as exc:
        if exc.code == "sheet_changed":
            return _stale(request, page, exc, correcting)
        return render_page(request, page, status=exc.status, page_error=exc.message, **ctx)
    # the phone goes round for the confirmations, or the message and the next deal are at the top
    response = _back(page, "confirm" if awaiting else "")
    remember(request, response, page.device, writer)  # he proved who he is: this phone shows him the sheet
    return response


def _saved(request: HttpRequest, page: PulkaPage, deal: PulkaDeal, created: bool) -> None:
    if not created:
        messages.info(
            request, _("Deal %(n)s was already written (the same form sent twice).") % {"n": deal.number}
        )
    elif deal.status == PulkaDeal.Status.CONFIRMED:
        messages.success(request, _("Deal %(n)s is written and confirmed.") % {"n": deal.number})
    else:
        page = load_page(page.table)
        waiting = ", ".join(page.seat_label(s) for s in page.awaiting_seats(deal))
        messages.success(
            request,
            _("Deal %(n)s is written. Now %(players)s confirm it.") % {"n": deal.number, "players": waiting},
        )


def _corrected_message(page: PulkaPage, correction: PulkaCorrection, number: int) -> str:
    """What the correction did (Code 4.2.7): whose penalty, whose warning, what waits, or why there is none."""
    pending = correction.pending
    if pending:
        text = _(
            "Deal %(n)s is corrected. If the others confirm the correction, the writer of the entry gets %(what)s "
            "(Code 4.2.7); if he disputes it, call the director."
        ) % {
            "n": number,
            "what": _("a penalty: %(entries)s") % {"entries": penalty_text(page, list(pending["penalty"]))}
            if pending.get("penalty")
            else _("a warning"),
        }
        return f"{text} {_('The others confirm it again.')}"
    warned, _penalised = answering(page, correction)
    parts = [_("Deal %(n)s is corrected.") % {"n": number}]
    if correction.penalty:
        parts.append(
            _("Penalty (Code 4.2.7): %(entries)s.") % {"entries": penalty_text(page, correction.penalty)}
        )
    if warned:
        parts.append(_("%(players)s: a first correction, a warning, no penalty.") % {"players": warned})
    if not correction.penalty and not warned:
        parts.append(
            _("No penalty: nobody had confirmed it, or nothing was written in anyone's favour (Code 4.2.10).")
        )
    parts.append(_("The others confirm it again."))
    return " ".join(parts)


def _stale(request: HttpRequest, page: PulkaPage, exc: UserError, correcting: int | None) -> HttpResponse:
    """The sheet changed under the form: the fresh sheet, with what was typed only if it is still the same deal."""
    fresh = load_page(page.table)
    data = request.POST.copy()
    number = _int(data.get("board"))
    same = (number == fresh.next_number) if correcting is None else fresh.can_correct(correcting)
    if not same:
        return render_page(request, fresh, status=409, page_error=exc.message, new_key=uuid.uuid4().hex)
    data["version"] = str(fresh.table.version)
    form, correcting = _bind(fresh, data)
    return render_page(request, fresh, status=409, page_error=exc.message, form=form, correcting=correcting)


def _confirm(request: HttpRequest, page: PulkaPage) -> HttpResponse:
    """A player confirms the last deal (on the writer's phone, or later on his own)."""
    form = ConfirmDealForm(request.POST)
    if not form.is_valid():
        return render_page(
            request, page, status=400, errors={"confirm": _("Choose who you are and type your PIN.")}
        )
    try:
        participant: Participant = identify(
            request,
            page.tournament,
            page.seats,
            number=form.cleaned_data["number"],
            pin=form.cleaned_data["pin"],
        )
        deal = confirm_deal(
            table=page.table, number=form.cleaned_data["deal"], participant=participant, now=timezone.now()
        )
    except UserError as exc:
        # the page shows no confirmation form now (table stopped, round over): the refusal goes on top
        if page.awaiting is None:
            return render_page(request, page, status=exc.status, page_error=exc.message)
        return render_page(request, page, status=exc.status, errors={"confirm": exc.message})
    if deal.status == PulkaDeal.Status.CONFIRMED:
        messages.success(request, _("Deal %(n)s is confirmed.") % {"n": deal.number})
    else:
        messages.success(
            request,
            _("Thank you, %(name)s: your confirmation is recorded.")
            % {"name": participant.name or participant.number},
        )
    response = _back(page, "confirm" if deal.status == PulkaDeal.Status.ENTERED else "")
    if viewer(request, page.device) is None:
        remember(request, response, page.device, participant)
    return response


# -- small endpoints ------------------------------------------------------------------------------------
def _may_see(request: HttpRequest, page: PulkaPage) -> bool:
    return may_see(request, page)  # visibility.can_see_sheet, as the page itself


@never_cache
@require_GET
def preview(request: HttpRequest, code: str) -> JsonResponse:
    """The result the core computes for the deal being filled in (the page's live preview); stores nothing."""
    page = _open(request, code)
    if isinstance(page, HttpResponse):
        return JsonResponse(
            {"ok": False, "errors": [_("There is no table with this code.")]}, status=page.status_code
        )
    if not _may_see(request, page):
        return JsonResponse(
            {"ok": False, "errors": [_("Show the sheet first: your number and PIN.")]}, status=403
        )
    form, correcting = _bind(page, request.GET)
    if form is None:
        return JsonResponse(
            {"ok": False, "errors": [_("The sheet has changed since you opened it. Reload it.")]}
        )
    form.fields["writer"].required = False
    if not form.is_valid():
        errors = {f: [str(m) for m in msgs] for f, msgs in form.errors.items()}
        return JsonResponse(
            {"ok": False, "incomplete": not form.refusals, "fields": errors, "errors": form.refusals}
        )
    try:
        result = deal_result(page, form.cleaned_data["board"], _row(page, form, correcting))
    except ResultRejected as exc:
        return JsonResponse({"ok": False, "errors": [d.message for d in exc.details]})
    return JsonResponse({"ok": True, "row": form.row, "vists": vists_lines(page, result)})


@never_cache
@require_GET
def sheet_pdf(request: HttpRequest, code: str) -> HttpResponse:
    """The drawn sheet as a PDF for the table's record: for the players of the table (after their PIN on this
    device), the directors, and anybody once the results are published."""
    page = _open(request, code)
    if isinstance(page, HttpResponse):
        return page
    if not _may_see(request, page):
        return render_page(
            request, page, status=403, page_error=_("Show the sheet first: your number and PIN.")
        )
    title = _("%(tournament)s — round %(round)s, table %(table)s") % {
        "tournament": page.tournament.name,
        "round": page.round.number,
        "table": page.table.number,
    }
    data = draw_pdf(page.score, names=names(page), labels=sheet_labels(), title=title)
    response = HttpResponse(data, content_type="application/pdf")
    name = f"pulka-r{page.round.number}-t{page.table.number}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
