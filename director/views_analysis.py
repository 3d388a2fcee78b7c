"""The double-dummy analysis of a session's boards, for its directors: how many boards are analysed, which are
missing or stale, a button that queues one background task per board, and the session's hand records with the
makeable contracts and the par beneath each diagram (``?pdf=1``). A POST naming ``board`` analyses that board
only (the button on the director's board page)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from boards.analysis import board_makeable, session_analysis, stored_analysis
from boards.models import Board
from boards.pdf.hand_records import hand_records_pdf
from boards.runs import Outcome, analyse_now, in_flight, run_not_taken, start_analysis
from boards.tasks import queue_boards
from tournaments.models import Session, Tournament
from tournaments.numbers import whole_number
from ui.director_pages import directs, nav


@directs
def analysis(request: HttpRequest, tournament: Tournament, session: Session) -> HttpResponse:
    if request.method == "POST":
        one = request.POST.get("board", "")
        number = whole_number(one, digits=5)
        if number is not None:  # one board (from its page): analysed now unless current
            again = request.POST.get("action") == "again"
            board = get_object_or_404(Board, session=session, number=number)
            count = queue_boards([board], again=again) if again or stored_analysis(board) is None else 0
            if not count:
                messages.info(request, _("Every board with a layout is already analysed."))
            return redirect(
                "director:board_detail", slug=tournament.slug, session=session.number, board=number
            )
        now = timezone.now()
        if request.POST.get("action") == "run_now":
            outcome = analyse_now(session, user=request.user, now=now)
        else:
            outcome = start_analysis(session, again=request.POST.get("action") == "again", now=now)
        _say(request, outcome)
        return redirect("director:analysis", slug=tournament.slug, session=session.number)
    if request.GET.get("pdf"):
        return _hand_records(tournament, session)
    state = session_analysis(session)
    now = timezone.now()
    context = nav(tournament, session, active="boards") | {
        "state": state,
        "running": in_flight(session, now=now),
        "not_taken": run_not_taken(session, now=now),
    }
    if request.headers.get("X-Requested-With") == "fetch":
        return render(request, "director/_analysis_progress.html", context)
    return render(request, "director/analysis.html", context)


def _say(request: HttpRequest, outcome: Outcome) -> None:
    """What a click did, in words."""
    if outcome.how == "busy":
        messages.info(request, _("The analysis is already running; wait for it to finish."))
    elif outcome.how == "nothing":
        messages.info(request, _("Every board with a layout is already analysed."))
    elif outcome.how == "queued":
        messages.success(
            request,
            ngettext(
                "%(n)s board is queued for the analysis.",
                "%(n)s boards are queued for the analysis.",
                outcome.count,
            )
            % {"n": outcome.count},
        )
    else:
        if outcome.count:
            messages.success(request, _("Boards analysed: %(n)s.") % {"n": outcome.count})
        if outcome.failed:
            messages.error(
                request,
                _("Boards that could not be analysed: %(n)s; the error is in the server log.")
                % {"n": outcome.failed},
            )
        if outcome.left:
            messages.info(
                request,
                _(
                    "Without a background worker a click analyses a few boards at a time: %(n)s remain. "
                    "Press the button again to go on."
                )
                % {"n": outcome.left},
            )


def _hand_records(tournament: Tournament, session: Session) -> HttpResponse:
    """The session's hand records: every board with a layout, the makeable table under each analysed one."""
    boards = list(Board.objects.filter(session=session).select_related("analysis", "session__tournament"))
    deals = [(b, b.deal()) for b in boards]
    dealt = [d for _b, d in deals if d is not None]
    tables = {b.number: t for b, d in deals if d is not None and (t := board_makeable(b)) is not None}
    lang = "en" if (get_language() or "ru").startswith("en") else "ru"
    pdf = hand_records_pdf(dealt, lang=lang, makeable=tables)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = f"{tournament.slug}-s{session.number}-hand-records.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
