"""A participant's own link, either form: ``/p/<token>/`` (the QR code on his PIN slip) opens his table of the
moment — a pulka table's sheet (``/pulka/<code>/``) or a duplicate table's page (``/table/<code>/``) — as
``events.current_table`` finds it. Without a table now (nothing drawn yet, a bye, no table in this round) a page in
the player's language says when to come back and links his event's page. A malformed or forged token is a 404
with a page that says so.

The link identifies nobody: the table's page still asks for the number and PIN before anything is written, and
this view remembers nothing on the device.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from events.current_table import current_table
from tournaments.personal_links import participant_of


@never_cache
@require_GET
def personal(request: HttpRequest, token: str) -> HttpResponse:
    participant = participant_of(token)
    if participant is None:
        return render(request, "table/personal.html", {"invalid": True}, status=404)
    now = current_table(participant)
    if now.why == "table":
        return redirect("table:pulka" if now.pulka else "table:entry", code=now.code)
    context = {"participant": participant, "tournament": participant.tournament, "now": now}
    return render(request, "table/personal.html", context)
