"""The double-dummy analysis of a session's boards, for its directors: how many boards are analysed, which are
missing or stale, a button that queues one background task per board, and the session's hand records with the
makeable contracts and the par beneath each diagram (``?pdf=1``). A POST naming ``board`` analyses that board
only (the button on the director's board page)."""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from boards.analysis import board_makeable, session_analysis, stored_analysis
from boards.models import Board
from boards.pdf.hand_records import hand_records_pdf
from boards.tasks import queue_boards, queue_session
from tournaments.models import Session, Tournament
from tournaments.numbers import whole_number
from ui.director_pages import directs, nav

#: How long after a start the page keeps refreshing itself while boards are still missing (seconds).
QUEUED_FOR = 30 * 60


def _queued_key(session: Session) -> str:
    return f"dd-analysis-queued:{session.pk}"


@directs
def analysis(request: HttpRequest, tournament: Tournament, session: Session) -> HttpResponse:
    if request.method == "POST":
        again = request.POST.get("action") == "again"
        one = request.POST.get("board", "")
        try:
            if (
                whole_number(one, digits=5) is not None
            ):  # one board (from its page): analysed now unless current
                board = get_object_or_404(Board, session=session, number=whole_number(one, digits=5))
                count = queue_boards([board], again=again) if again or stored_analysis(board) is None else 0
            else:
                count = queue_session(session, again=again)
        except BrokerError:
            messages.error(request, _("The background workers cannot be reached; try again in a moment."))
        else:
            if count:
                cache.set(_queued_key(session), count, QUEUED_FOR)
                messages.success(request, _("%(n)s boards are queued for the analysis.") % {"n": count})
            else:
                messages.info(request, _("Every board with a layout is already analysed."))
        if whole_number(one, digits=5) is not None:
            return redirect(
                "director:board_detail", slug=tournament.slug, session=session.number, board=whole_number(one)
            )
        return redirect("director:analysis", slug=tournament.slug, session=session.number)
    if request.GET.get("pdf"):
        return _hand_records(tournament, session)
    state = session_analysis(session)
    running = bool(cache.get(_queued_key(session))) and not state.complete
    context = nav(tournament, session, active="boards") | {"state": state, "running": running}
    if request.headers.get("X-Requested-With") == "fetch":
        return render(request, "director/_analysis_progress.html", context)
    return render(request, "director/analysis.html", context)


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
