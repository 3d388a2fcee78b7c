"""Entering and correcting results as a director: a table's round, one board's row or adjustment,
the boards of a session and a fouled board."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals.services.fouled_boards import VERSION_LABELS, board_clear_fouled, board_mark_fouled
from boards.analysis import board_makeable
from boards.models import Board
from director.dashboard import dispute_lines
from duplicate.late_boards import late_boards
from scoring.confirmation import result_confirm
from scoring.errors import ResultConflict
from scoring.models import Result
from scoring.revisions import RowChanged
from scoring.row_checks import seating_at
from scoring.row_command import (
    ArtificialAdjustment,
    AssignedAdjustment,
    PlayedRow,
    RowAuthor,
    RowCommand,
    RowContent,
    RowPlace,
    RowWriting,
)
from scoring.rows import result_delete, result_save
from tournaments.errors import UserError
from tournaments.models import Seating, Session, Tournament
from tournaments.numbers import whole_number
from ui.director_pages import directs, fail, nav, safe_url
from ui.display import describe
from ui.row_form import ArtificialForm, AssignedForm, ProtocolRowForm, show_refusals

from .forms import FouledForm, ReasonForm
from .views_layout import board_diagram


def seating_of(session: Session, *, round: int, table: int, room: int = 1) -> Seating:
    seating = seating_at(session, round=round, table=table, room=room)
    if seating is None:
        raise UserError(_("Table %(t)s does not play in round %(r)s.") % {"t": table, "r": round})
    return seating


def boards_of_seating(session: Session, seating: Seating) -> list[Board]:
    return list(seating.set_boards())


def _room(request: HttpRequest) -> int:
    value = request.GET.get("room") or request.POST.get("room") or "1"
    return whole_number(value, digits=3) or 1


def at_table(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view of one table in one round: the room (``?room=``) and the table's seating are passed in; a table
    that does not play that round goes back to the session's dashboard with the reason."""

    @functools.wraps(view)
    def wrapper(
        request: HttpRequest, tournament: Tournament, session: Session, round: int, table: int, **kwargs: Any
    ) -> HttpResponse:
        room = _room(request)
        try:
            seating = seating_of(session, round=round, table=table, room=room)
        except UserError as exc:
            fail(request, exc)
            return redirect("director:session_dashboard", slug=tournament.slug, session=session.number)
        return view(request, tournament, session, round, table, room=room, seating=seating, **kwargs)

    return wrapper


@directs
@at_table
def table_round(
    request: HttpRequest,
    tournament: Tournament,
    session: Session,
    round: int,
    table: int,
    *,
    room: int,
    seating: Seating,
) -> HttpResponse:
    boards = boards_of_seating(session, seating)
    results = {
        r.board_number: r
        for r in Result.objects.filter(
            session=session, round_number=round, table_number=table, room=room
        ).select_related("seat_n", "seat_e", "seat_s", "seat_w")
    }
    if request.method == "POST" and (accept := whole_number(request.POST.get("accept", ""))) is not None:
        return _accept(request, results.get(accept))
    rows = [
        {
            "board": b,
            "result": results.get(b.number),
            "text": describe(results[b.number]) if b.number in results else "",
            "disputes": dispute_lines(results[b.number]) if b.number in results else (),
        }
        for b in boards
    ]
    context = nav(tournament, session, active="dashboard") | {
        "seating": seating,
        "round": round,
        "table": table,
        "room": room,
        "rows": rows,
        "late": {
            s.late.board_number: s.played
            for s in late_boards(session)
            if (s.late.round_number, s.late.room, s.late.table_number) == (round, room, table)
        },
    }
    return render(request, "director/table_round.html", context)


def _accept(request: HttpRequest, result: Result | None) -> HttpResponse:
    """The director accepts a disputed row as entered: the one confirmation service confirms it, and its audit
    entry names the dispute it settles. Back to the row on the table's page."""
    if result is None:
        messages.error(request, _("There is no result to accept."))
        return redirect(request.path)
    page = f"{request.path}?room={result.room}#board-{result.board_number}"
    if result.status != Result.Status.DISPUTED:
        messages.error(
            request,
            _("Board %(b)s is not disputed (now: %(status)s).")
            % {"b": result.board_number, "status": result.get_status_display()},
        )
        return redirect(page)
    reason = _("Accepted as entered; the dispute: %(d)s") % {"d": "; ".join(dispute_lines(result))}
    try:
        result_confirm(result=result, seat=None, user=request.user, now=timezone.now(), reason=reason)
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(
            request,
            _("Board %(b)s at table %(t)s is accepted as entered.")
            % {"b": result.board_number, "t": result.table_number},
        )
    return redirect(page)


def _next_board_url(session: Session, seating: Any, round: int, table: int, room: int, after: int) -> str:
    done = set(
        Result.objects.filter(session=session, round_number=round, table_number=table, room=room).values_list(
            "board_number", flat=True
        )
    )
    args = {"slug": session.tournament.slug, "session": session.number, "round": round, "table": table}
    for b in boards_of_seating(session, seating):
        if b.number > after and b.number not in done:
            return reverse("director:board_entry", kwargs=args | {"board": b.number}) + f"?room={room}"
    return reverse("director:table_round", kwargs=args) + f"?room={room}"


@directs
@at_table
def board_entry(
    request: HttpRequest,
    tournament: Tournament,
    session: Session,
    round: int,
    table: int,
    board: int,
    *,
    room: int,
    seating: Seating,
) -> HttpResponse:
    """One board at one table: the row (or an artificial/assigned result), entered or corrected."""
    board_obj = get_object_or_404(Board, session=session, number=board)
    existing = Result.objects.filter(
        session=session, round_number=round, table_number=table, room=room, board_number=board
    ).first()
    players, dealer = tournament.players_per_table, board_obj.dealer
    kind = request.POST.get("kind", "row") if request.method == "POST" else ""
    # Each form carries the revision of the stored row it shows: a row changed meanwhile is not overwritten.
    read = existing.revision if existing is not None else None
    row_form = ProtocolRowForm(
        request.POST if kind == "row" else None,
        players=players,
        dealer=dealer,
        rules=tournament.rules,
        bidding=tournament.bidding_record,
        initial=ProtocolRowForm.initial_of(existing) if existing else None,
        revision=read,
    )
    art_form = ArtificialForm(
        request.POST if kind == "artificial" else None,
        players=players,
        initial=ArtificialForm.initial_of(existing),
        revision=read,
    )
    asg_form = AssignedForm(
        request.POST if kind == "assigned" else None,
        players=players,
        revision=read,
        initial={k.lower(): v for k, v in (existing.assigned or {}).items()} if existing else None,
    )
    delete_form = ReasonForm(request.POST if kind == "delete" else None)
    now = timezone.now()
    form: Any = {"row": row_form, "artificial": art_form, "assigned": asg_form, "delete": delete_form}.get(
        kind
    )
    if form is not None and form.is_valid():
        try:
            if kind == "delete":
                if existing is None:
                    raise UserError(_("There is no result to delete."))
                result_delete(result=existing, user=request.user, reason=form.cleaned_data["reason"], now=now)
                messages.success(request, _("Result of board %(b)s deleted.") % {"b": board})
                return redirect(_next_board_url(session, seating, round, table, room, board - 1))
            reason = form.cleaned_data.get("reason", "")
            replace, revision = form.read_revision()
            if kind == "row":
                content: RowContent = PlayedRow(row=form.row(), bidding=form.bidding_text())
            elif kind == "artificial":
                content = ArtificialAdjustment(grades=form.adjusted(), percent=form.percent())
            else:
                content = AssignedAdjustment(vists=form.assigned())
            place = RowPlace(
                session=session, board=board, round=round, table=table, room=room, seating=seating
            )
            writing = RowWriting(correction=replace, reason=reason, revision=revision)
            result_save(RowCommand(place, content, writing, RowAuthor(user=request.user)), now=now)
        except (ResultConflict, RowChanged) as exc:
            # Someone else entered or changed the row meanwhile: nothing was overwritten; the page shows the row
            # as it now is, the forms carry its revision, and saving again corrects that row.
            form.add_error(
                None,
                exc.message
                if isinstance(exc, RowChanged)
                else _("Meanwhile someone else entered this board: check the stored row below."),
            )
            existing = Result.objects.filter(
                session=session, round_number=round, table_number=table, room=room, board_number=board
            ).first()
            for shown in (row_form, art_form, asg_form):
                shown.show_current(existing)
        except UserError as exc:
            show_refusals(form, exc)
        else:
            messages.success(request, _("Board %(b)s at table %(t)s saved.") % {"b": board, "t": table})
            return redirect(_next_board_url(session, seating, round, table, room, board))
    context = nav(tournament, session, active="dashboard") | {
        "seating": seating,
        "round": round,
        "table": table,
        "room": room,
        "board": board_obj,
        "existing": existing,
        "existing_text": describe(existing) if existing else "",
        "disputes": dispute_lines(existing) if existing else (),
        "row_form": row_form,
        "art_form": art_form,
        "asg_form": asg_form,
        "delete_form": delete_form,
        "kind": kind,
        "seats": seating.seats(),
    }
    return render(request, "director/board_entry.html", context)


@directs
def boards(request: HttpRequest, tournament: Tournament, session: Session) -> HttpResponse:
    counts: dict[int, int] = {}
    for number in Result.objects.filter(session=session).values_list("board_number", flat=True):
        counts[number] = counts.get(number, 0) + 1
    items = [{"board": b, "results": counts.get(b.number, 0)} for b in Board.objects.filter(session=session)]
    context = nav(tournament, session, active="boards") | {"items": items}
    return render(request, "director/boards.html", context)


@directs
def board_detail(request: HttpRequest, tournament: Tournament, session: Session, board: int) -> HttpResponse:
    """Every result of one board, and the fouled-board ruling (rules §10): a version per result."""
    board_obj = get_object_or_404(Board, session=session, number=board)
    results = list(
        Result.objects.filter(session=session, board_number=board)
        .select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .order_by("round_number", "room", "table_number")
    )
    fouled_form = FouledForm(
        request.POST if request.method == "POST" and "foul" in request.POST else None,
        initial={"note": board_obj.fouled_note},
    )
    clear_form = ReasonForm(request.POST if request.method == "POST" and "clear" in request.POST else None)
    if request.method == "POST":
        try:
            if "foul" in request.POST and fouled_form.is_valid():
                versions = {r.pk: request.POST.get(f"version-{r.pk}", r.version) for r in results}
                board_mark_fouled(
                    board=board_obj,
                    user=request.user,
                    note=fouled_form.cleaned_data["note"],
                    versions=versions,
                    now=timezone.now(),
                )
                messages.success(
                    request,
                    _("Board %(b)s is marked fouled; the versions are scored separately.") % {"b": board},
                )
                return redirect(
                    "director:board_detail", slug=tournament.slug, session=session.number, board=board
                )
            if "clear" in request.POST and clear_form.is_valid():
                board_clear_fouled(
                    board=board_obj,
                    user=request.user,
                    reason=clear_form.cleaned_data["reason"],
                    now=timezone.now(),
                )
                messages.success(request, _("Board %(b)s is no longer fouled.") % {"b": board})
                return redirect(
                    "director:board_detail", slug=tournament.slug, session=session.number, board=board
                )
        except UserError as exc:
            fail(request, exc)
    rows = [
        {"result": r, "text": describe(r), "seats": r.seats(), "disputes": dispute_lines(r)} for r in results
    ]
    ruling_url = safe_url("appeals:ruling-new", tournament.slug)
    context = nav(tournament, session, active="boards") | {
        "board": board_obj,
        "rows": rows,
        "fouled_form": fouled_form,
        "clear_form": clear_form,
        "labels": VERSION_LABELS,
        "seat_names": ("N", "E", "S", "W")[: tournament.players_per_table],
        "diagram": board_diagram(board_obj),
        "makeable": board_makeable(board_obj),
        "ruling_url": f"{ruling_url}?{urlencode({'kind': 'fouled', 'session': session.number, 'board': board})}"
        if ruling_url
        else None,
    }
    return render(request, "director/board_detail.html", context)
