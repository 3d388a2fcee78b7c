"""Opening a table by the code on its card, either form: the «Your table» page (``/table/``) and the one way every
phone page opens its table.

The code is looked up by ``events.tables.find_table`` (one lookup for both forms: the same normalisation, one
count of unknown codes per client, the same refusal words); a duplicate table's code opens ``/table/<code>/``, a
pulka table's ``/pulka/<code>/``, whichever of the two addresses (or the «Your table» form) it was typed into.
"""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from events.tables import AnyTable, find_table
from pulkas.models import PulkaTable
from tournaments.errors import UserError
from tournaments.models import Table
from tournaments.pins import client_ip
from tournaments.table_codes import MAX_CODE_LENGTH

Form = TypeVar("Form", Table, PulkaTable)


def page_of(table: AnyTable) -> str:
    """The phone page of the table: a duplicate table's rows or a pulka table's sheet."""
    name = "table:pulka" if isinstance(table, PulkaTable) else "table:entry"
    return reverse(name, kwargs={"code": table.code})


def refused(request: HttpRequest, exc: UserError, typed: str = "") -> HttpResponse:
    """The «Your table» page with why the code did not open a table (and the code typed, to correct it)."""
    context = {"error": exc.message, "code": exc.code, "typed": typed[:MAX_CODE_LENGTH]}
    return render(request, "table/lookup.html", context, status=exc.status)


@never_cache
@require_GET
def lookup(request: HttpRequest) -> HttpResponse:
    """Type the code from the table card: the table's page, of either form."""
    code = request.GET.get("code", "")
    if not code:
        return render(request, "table/lookup.html", {})
    try:
        table = find_table(code, client=client_ip(request))
    except UserError as exc:
        return refused(request, exc, typed=code)
    return redirect(page_of(table))


def open_table(request: HttpRequest, code: str, form: type[Form]) -> Form | HttpResponse:
    """The table of ``form`` with this code, for its page. Otherwise the answer to send: the table's own page
    (a code of the other form's table, or the code typed in another way: «tab1-tt» → ``TAB1TT``), or the
    refusal (an unknown code, counted; too many of them)."""
    try:
        table = find_table(code, client=client_ip(request))
    except UserError as exc:
        return refused(request, exc, typed=code)
    if not isinstance(table, form) or table.code != code:
        return redirect(page_of(table))
    return table
