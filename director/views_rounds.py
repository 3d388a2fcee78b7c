"""The dashboard of the current round, the movement, the seating, starting and ending rounds, hand-over."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from director.dashboard import overview
from duplicate.gaps import round_gaps
from duplicate.movement_errors import movement_refusal
from duplicate.movement_preview import movement_preview
from duplicate.rests import session_rests
from duplicate.rounds import (
    handover,
    movement_choose,
    movement_offer,
    registered_count,
    round_end,
    round_start,
    session_movement,
)
from preferans.movements import MovementError, director_rows, nobody_moves
from scoring.dd_flags import session_flags
from tournaments.errors import UserError
from tournaments.models import Round, Seating, Session, Table, Tournament
from tournaments.numbers import whole_number
from tournaments.services.event import current_session
from ui.director_pages import directs, fail, nav, safe_url

from .forms import MovementForm


@directs
def dashboard(request: HttpRequest, tournament: Tournament, session: Session | None = None) -> HttpResponse:
    if tournament.plays_pulkas:  # an Olympic, compensation or Swiss event: its rounds page is its dashboard
        return redirect("director:pulka_rounds", slug=tournament.slug)
    session = session or current_session(tournament)
    if session is None:
        return redirect("director:settings", slug=tournament.slug)
    number = request.GET.get("round")
    ov = overview(
        tournament,
        session,
        round_number=whole_number(number, digits=4),
        now=timezone.now(),
    )
    end_gaps = round_gaps(ov.round) if ov.next_action == "end" and ov.round is not None else None
    if end_gaps and ov.round is not None and ov.expected and ov.entered >= ov.expected:
        # One rule, one message: every row is in, but the gaps below (disputed, unconfirmed) still stand.
        ov.next_step = _(
            "All results of round %(n)s are in, but not all are settled (below): settle them, or end the "
            "round saying you know."
        ) % {"n": ov.round.number}
    context: dict[str, Any] = nav(tournament, session, active="dashboard") | {
        "ov": ov,
        "now": timezone.now(),
        "correction_ends": tournament.correction_ends_at,
        "table_entry_urls": {t.table: safe_url("table:entry", t.code) for t in ov.tables},
        "end_gaps": end_gaps,
    }
    if request.GET.get("partial"):
        return render(request, "director/_dashboard_live.html", context)
    context["dd_flags"] = session_flags(session)  # docs/double-dummy.md: the director's eyes only
    return render(request, "director/dashboard.html", context)


def scheme_label(scheme: str) -> str:
    """A movement's scheme named in the request's language."""
    labels = {
        "basic": _("Basic movement"),
        "book": _("The book's scheme"),
        "explicit": _("A movement of its own"),
    }
    return labels.get(scheme, scheme)


@directs
def movement(request: HttpRequest, tournament: Tournament, session: Session) -> HttpResponse:
    form = MovementForm(request.POST or None)
    rounds = None
    if request.method == "POST" and form.is_valid():
        rounds = form.cleaned_data.get("rounds")
        scheme = form.cleaned_data["scheme"]
        try:
            if scheme == "auto":
                offer = movement_offer(tournament, rounds=rounds)
                if offer.plan is None:
                    raise UserError(offer.problem, code=offer.code or None)
                movement_choose(
                    session=session,
                    user=request.user,
                    spec=offer.spec,
                    movement=None if offer.spec else offer.plan.movement,
                    now=timezone.now(),
                )
            elif scheme == "basic":
                tables = form.cleaned_data.get("tables")
                rooms = form.cleaned_data.get("rooms") or 1
                if not tables:
                    n = registered_count(tournament)
                    tables = n // (tournament.players_per_table * rooms)
                spec: dict[str, Any] = {"scheme": "basic", "tables": tables}
                if rooms > 1:
                    spec["rooms"] = rooms  # §5 procedure 2: the rooms play the same boards
                if rounds:
                    spec["rounds"] = rounds
                movement_choose(session=session, user=request.user, spec=spec, now=timezone.now())
            else:
                spec = {"scheme": "book", "participants": registered_count(tournament)}
                if rounds:
                    spec["rounds"] = rounds
                movement_choose(session=session, user=request.user, spec=spec, now=timezone.now())
        except UserError as exc:
            form.add_error(None, exc.message)
        except MovementError as exc:  # the services translate these; a stray one is still translated here
            form.add_error(None, movement_refusal(exc).message)
        else:
            messages.success(
                request, _("The movement is set: everyone is seated and the boards are assigned.")
            )
            chosen = session_movement(session)
            if chosen is not None and nobody_moves(chosen):
                messages.warning(
                    request,
                    _(
                        "In this movement every table keeps the same players in every round: only the sets "
                        "move, and nobody meets a new opponent. With more tables in a room, or the suggested "
                        "movement, the players change tables."
                    ),
                )
            return redirect("director:seating", slug=tournament.slug, session=session.number)
    offer = movement_offer(tournament)
    current = session_movement(session)
    names = dict(tournament.participants.values_list("number", "name"))
    context = nav(tournament, session, active="movement") | {
        "form": form,
        "offer": offer,
        # The suggestion as a director decides by it, round by round, before he accepts it.
        "preview": movement_preview(offer.plan.movement, names) if offer.plan is not None else None,
        "current": current,
        "current_scheme": scheme_label(current.scheme) if current else "",
        "started": session.rounds.exclude(status=Round.Status.PENDING).exists(),
    }
    return render(request, "director/movement.html", context)


@directs
def seating(request: HttpRequest, tournament: Tournament, session: Session) -> HttpResponse:
    """Who sits where in every round, the table codes, and the director's row of sets (printable)."""
    seatings = list(
        Seating.objects.filter(session=session).select_related("seat_n", "seat_e", "seat_s", "seat_w")
    )
    by_round: dict[int, list[Seating]] = {}
    for s in seatings:
        by_round.setdefault(s.round_number, []).append(s)
    m = session_movement(session)
    rows = director_rows(m) if m is not None else []
    resting = session_rests(session)
    context = nav(tournament, session, active="seating") | {
        "by_round": [(n, seats, resting.get(n, [])) for n, seats in sorted(by_round.items())],
        "tables": Table.objects.filter(session=session).order_by("room", "number"),
        "rooms": max((s.room for s in seatings), default=1),
        "movement_obj": m,
        "rows": rows,
        # the PDFs of this page and the cards for the tables (made on the exports page, results.exporters)
        "pdfs": [
            ("seating", _("Seating, PDF")),
            ("table_cards", _("Table cards, PDF")),
            ("row_of_sets", _("Row of sets, PDF")),
        ],
    }
    return render(request, "director/seating.html", context)


@require_POST
@directs
def start_round(request: HttpRequest, tournament: Tournament, session: Session, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, session=session, number=number)
    try:
        round_start(rnd=rnd, user=request.user, now=timezone.now())
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Round %(n)s has started.") % {"n": number})
    return redirect("director:session_dashboard", slug=tournament.slug, session=session.number)


@require_POST
@directs
def end_round(request: HttpRequest, tournament: Tournament, session: Session, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, session=session, number=number)
    try:
        round_end(
            rnd=rnd, user=request.user, now=timezone.now(), acknowledged=request.POST.get("acknowledged", "")
        )
    except UserError as exc:
        fail(request, exc)
        return redirect("director:session_dashboard", slug=tournament.slug, session=session.number)
    messages.success(request, _("Round %(n)s has ended.") % {"n": number})
    if session.rounds.filter(number=number + 1).exists():
        return redirect("director:handover", slug=tournament.slug, session=session.number, number=number)
    return redirect("director:session_dashboard", slug=tournament.slug, session=session.number)


def move_words(move: str) -> str:
    """A table card's move in the request's language: «1N stays» -> «1N остаётся», «3S–P» -> «3S–P (отдых)»."""
    if move.endswith(" stays"):
        return _("%(seat)s stays") % {"seat": move[: -len(" stays")]}
    if move.endswith("–P"):
        return _("%(move)s (rests)") % {"move": move}
    return move


@directs
def handover_page(
    request: HttpRequest, tournament: Tournament, session: Session, number: int
) -> HttpResponse:
    """What to announce at «конец тура»: where each set goes, and where each player moves (rules §4, §5)."""
    rnd = get_object_or_404(Round, session=session, number=number)
    nxt = session.rounds.filter(number=number + 1).first()
    resting = session_rests(session)
    items = [replace(h, moves=tuple(move_words(m) for m in h.moves)) for h in handover(session, number)]
    context = nav(tournament, session, active="dashboard") | {
        "round": rnd,
        "next_round": nxt,
        "items": items,
        # with two rooms or more each row names its room (table 1 is in every room), as the seating does
        "rooms": max((h.room for h in items), default=1),
        # who rested this round and sits down again, and who leaves his seat to rest next round
        "back_from_rest": [r for r in resting.get(number, []) if r.back_round == number + 1],
        "to_rest": resting.get(number + 1, []) if nxt is not None else [],
    }
    return render(request, "director/handover.html", context)
