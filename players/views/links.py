"""The register staff's page of proposed links (``/players/register/links/``): every participant a director's
federation number or choice proposed for a person who already exists, with confirm and refuse
(``players.services.links``). Only those who edit the register open it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from players.services import links
from players.views.register import _context, edits
from tournaments.errors import UserError
from tournaments.numbers import whole_number


@edits
def proposed_links(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        raw = str(request.POST.get("participant", ""))
        try:
            participant_id = whole_number(raw, digits=12)
            if participant_id is None:
                raise UserError(_("This proposal was settled meanwhile."), code="link_settled")
            act = links.confirm if "confirm" in request.POST else links.refuse
            participant = act(participant_id=participant_id, user=request.user, now=timezone.now())
            messages.success(
                request,
                (_("Confirmed: %(p)s.") if act is links.confirm else _("Refused: %(p)s."))
                % {"p": participant},
            )
        except UserError as exc:
            messages.error(request, exc.message)
        return redirect("players:register_links")
    waiting = links.pending()
    context = _context(request, rows=waiting[: links.PENDING_MAX], count=waiting.count())
    return render(request, "players/register_links.html", context)
