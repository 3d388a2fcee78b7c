"""What a table owes in a round, settled by the director: the proposed assigned result of a missing row (general
provisions), a board to play later (§11.6 А.2), a table that only duplicates its boards (§2). Each a POST from the
dashboard or a table's page, through its one service (``duplicate.missing_rows``, ``duplicate.late_boards``,
``duplicate.duplication``), audited there."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from duplicate.duplication import set_duplicating
from duplicate.late_boards import late_board_record
from duplicate.missing_rows import missing_row_assign
from tournaments.errors import UserError
from tournaments.models import Session, Tournament
from tournaments.numbers import whole_number
from ui.director_pages import directs, fail


def _room(request: HttpRequest) -> int:
    value = request.POST.get("room") or "1"
    return whole_number(value, digits=3) or 1


def _dashboard(tournament: Tournament, session: Session, round: int) -> str:
    page = reverse("director:session_dashboard", kwargs={"slug": tournament.slug, "session": session.number})
    return f"{page}?round={round}"


@require_POST
@directs
def missing_row(
    request: HttpRequest, tournament: Tournament, session: Session, round: int, table: int, board: int
) -> HttpResponse:
    """The director accepts the proposed assigned result of a missing row, with the fault he chose per seat."""
    fault = {seat: request.POST[f"fault_{seat}"][:16] for seat in "NESW" if request.POST.get(f"fault_{seat}")}
    try:
        missing_row_assign(
            session=session,
            round=round,
            table=table,
            board=board,
            room=_room(request),
            fault=fault,
            user=request.user,
            now=timezone.now(),
        )
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(
            request,
            _("Board %(b)s at table %(t)s: the assigned result is recorded.") % {"b": board, "t": table},
        )
    return redirect(_dashboard(tournament, session, round) + "#proposals")


@require_POST
@directs
def late_board(
    request: HttpRequest, tournament: Tournament, session: Session, round: int, table: int
) -> HttpResponse:
    """§11.6 А.2: the director records a board the table is to play later."""
    room = _room(request)
    page = reverse(
        "director:table_round",
        kwargs={"slug": tournament.slug, "session": session.number, "round": round, "table": table},
    ) + (f"?room={room}" if room > 1 else "")
    number = (request.POST.get("board") or "").strip()
    try:
        if whole_number(number, digits=4) is None:
            raise UserError(_("Give the number of the board to play later."), code="board_missing")
        late_board_record(
            session=session,
            round=round,
            table=table,
            board=int(number),
            room=room,
            reason=request.POST.get("reason", "")[:1000],
            user=request.user,
            now=timezone.now(),
        )
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(
            request,
            _("Board %(b)s is to be played later at table %(t)s; enter its row here when it is played.")
            % {"b": number, "t": table},
        )
    return redirect(page)


@require_POST
@directs
def duplication(
    request: HttpRequest, tournament: Tournament, session: Session, round: int, table: int
) -> HttpResponse:
    """§2: the table only duplicates its boards in this round (or plays them again)."""
    on = request.POST.get("on") == "1"
    try:
        set_duplicating(
            session=session,
            round=round,
            table=table,
            room=_room(request),
            on=on,
            user=request.user,
            now=timezone.now(),
        )
    except UserError as exc:
        fail(request, exc)
    else:
        text = (
            _("Table %(t)s only duplicates the boards in round %(r)s.")
            if on
            else _("Table %(t)s plays its boards in round %(r)s.")
        )
        messages.success(request, text % {"t": table, "r": round})
    return redirect(_dashboard(tournament, session, round))
