"""Results pages: live standings, board protocols, personal score cards, frequencies, pictures, exports.

Views only read (``load_report``) and call services. The public sees results once they are published
(``can_see_results``); while a session runs, a board's rows, contracts and layout stay hidden from the public
until every table that plays the board has entered its row, so that nobody learns a deal before playing it.
The layout is shown once the session is over. Directors see everything, always.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from boards.analysis import board_makeable
from boards.models import Board
from duplicate.rests import session_rests
from preferans.numbers import format_fraction
from results import charts
from results import projector as hall
from results.data import Report, SessionInfo, load_report
from results.dd_card import card_lines
from results.derived import frequencies, protocols, running_percentages, score_cards, session_totals
from results.labels import contract_text
from results.models import ExportJob
from results.services import EXPORTERS, ExportError, start_export
from tournaments.models import Sanction, Tournament
from tournaments.permissions import can_direct, can_see_results
from ui.director_pages import nav as nav_context

REFRESH_SECONDS = 30


def _tournament(request: HttpRequest, slug: str) -> tuple[Tournament, bool]:
    tournament = get_object_or_404(Tournament, slug=slug)
    return tournament, can_direct(request.user, tournament)


def _unpublished(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "results/unpublished.html", {"tournament": tournament}, status=403)


def _session_param(request: HttpRequest, report: Report) -> SessionInfo | None:
    raw = request.GET.get("session")
    if raw and raw.isdigit():
        found = report.session(int(raw))
        if found is None:
            raise Http404("no such session")
        return found
    with_results = [s for s in report.sessions if s.results]
    if with_results:
        return with_results[-1]
    return report.sessions[-1] if report.sessions else None


def _base(
    request: HttpRequest, tournament: Tournament, report: Report, is_director: bool, **extra: Any
) -> dict[str, Any]:
    correction_until = None
    if tournament.publication == "official" and tournament.official_at is not None:
        correction_until = tournament.official_at + dt.timedelta(minutes=tournament.correction_minutes)
    return {
        "tournament": tournament,
        "correction_until": correction_until,
        "report": report,
        "is_director": is_director,
        "live": report.any_running,
        "refresh_seconds": REFRESH_SECONDS,
        "sessions": report.sessions,
        **extra,
    }


# -- standings -------------------------------------------------------------------------------------------
@never_cache
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, is_director = _tournament(request, slug)
    if not can_see_results(request.user, tournament):
        return _unpublished(request, tournament)
    report = load_report(tournament.pk, now=timezone.localtime())
    scored_sessions = [s.number for s in report.sessions if s.results]
    many = len(scored_sessions) > 1
    totals = session_totals(report) if many else {}
    rows = []
    for st in report.standings:
        person = report.person(st.participant)
        per_session = [totals.get((st.participant, n)) for n in scored_sessions] if many else []
        rows.append(
            {
                "st": st,
                "person": person,
                "per_session": per_session,
                "carried": report.carried.get(st.participant),
            }
        )
    context = _base(
        request,
        tournament,
        report,
        is_director,
        nav="standings",
        rows=rows,
        scored_sessions=scored_sessions,
        many=many,
        share=format_fraction(report.carry_share),
        penalties=[p for s in report.sessions for p in s.penalties],
        sanctions=Sanction.objects.filter(tournament=tournament).select_related("participant", "session"),
    )
    return render(request, "results/standings.html", context)


# -- boards ----------------------------------------------------------------------------------------------
def _visible(session: SessionInfo, board: int, is_director: bool) -> bool:
    return is_director or session.board_complete(board)


@never_cache
def board_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, is_director = _tournament(request, slug)
    if not can_see_results(request.user, tournament):
        return _unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = _session_param(request, report)
    items = []
    if session is not None:
        for p in protocols(report, session=session.number):
            items.append(
                {"protocol": p, "visible": _visible(session, p.number, is_director), "rows": len(p.rows)}
            )
    context = _base(request, tournament, report, is_director, nav="boards", session=session, items=items)
    return render(request, "results/board_list.html", context)


def _protocol_rows(protocol: Any, report: Report, lang: str) -> list[dict[str, Any]]:
    out = []
    for r in protocol.rows:
        seats = []
        for seat in report.seats:
            seats.append(r.seats.get(seat))
        out.append({"r": r, "contract": contract_text(r.contract, lang), "seats": seats})
    return out


@never_cache
def board_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament, is_director = _tournament(request, slug)
    if not can_see_results(request.user, tournament):
        return _unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = _session_param(request, report)
    if session is None:
        raise Http404("no session")
    found = [p for p in protocols(report, session=session.number) if p.number == number]
    if not found:
        raise Http404("no such board")
    protocol = found[0]
    visible = _visible(session, number, is_director)
    show_layout = protocol.board.has_layout and (session.finished or is_director)
    lang = request.LANGUAGE_CODE if hasattr(request, "LANGUAGE_CODE") else "ru"
    freq = frequencies(protocol) if visible else None
    numbers = sorted(session.boards) or sorted({r.board for r in session.results})
    index = numbers.index(number) if number in numbers else -1
    context = _base(
        request,
        tournament,
        report,
        is_director,
        nav="boards",
        session=session,
        protocol=protocol,
        visible=visible,
        rows=_protocol_rows(protocol, report, lang) if visible else [],
        seats=report.seats,
        show_layout=show_layout,
        layout=_layout(protocol.board) if show_layout else None,
        layout_hidden_for_public=show_layout and not session.finished,
        makeable=_makeable(tournament, session.number, number) if show_layout else None,
        freq=freq,
        contracts=_contract_rows(freq, lang) if freq else [],
        top=next((sr.top for r in protocol.rows for sr in r.seats.values() if r.scored), None),
        previous=numbers[index - 1] if index > 0 else None,
        next=numbers[index + 1] if 0 <= index < len(numbers) - 1 else None,
        chart=charts.board_spread_svg(freq, title=_("Spread of results, board %(n)s") % {"n": number})
        if freq and freq.lines
        else "",
    )
    return render(request, "results/board.html", context)


def _makeable(tournament: Any, session: int, number: int) -> Any:
    """The board's makeable contracts and par (``boards.analysis``), or None while it is not analysed."""
    board = (
        Board.objects.filter(session__tournament=tournament, session__number=session, number=number)
        .select_related("analysis", "session__tournament")
        .first()
    )
    return board_makeable(board) if board is not None else None


def _contract_rows(freq: Any, lang: str) -> list[dict[str, Any]]:
    rows = []
    for contract, declarer, tricks, count in freq.contracts:
        if contract == "adjusted":
            text = _("artificial")
        elif contract == "assigned":
            text = _("assigned")
        elif contract == "-":
            text = _("raspasy")
        else:
            text = contract_text(contract, lang)
        rows.append(
            {
                "contract": text,
                "declarer": declarer,
                "tricks": tricks if tricks >= 0 else None,
                "count": count,
                "share": 100 * count // max(freq.rows, 1),
            }
        )
    return rows


def _layout(board: Any) -> dict[str, Any] | None:
    """The layout for the page's compass: each seat's hand by suit (♦ ♥ marked red), and the prikup."""
    deal = board.deal()
    if deal is None:
        return None
    from preferans.cards.deck import Suit, sort_cards

    hands = {}
    for seat, cards in deal.hands.items():
        suits = []
        for suit in Suit:
            ranks = [c.rank.text for c in sort_cards(cards) if c.suit is suit]
            suits.append({"symbol": suit.symbol, "red": suit.is_red, "ranks": " ".join(ranks) or "—"})
        hands[seat.value] = suits
    prikup = [{"symbol": c.suit.symbol, "red": c.suit.is_red, "rank": c.rank.text} for c in deal.prikup]
    pocket = deal.prikup_pocket.value
    # Each position of the compass holds a hand, or the prikup in its pocket (the dealer's, or W at 3 players).
    positions = {
        seat: {"seat": seat, "suits": hands.get(seat), "prikup": prikup if seat == pocket else None}
        for seat in ("N", "E", "S", "W")
    }
    return {"positions": positions, "pocket": pocket, "dealer": deal.dealer.value}


@never_cache
def board_chart(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament, is_director = _tournament(request, slug)
    if not can_see_results(request.user, tournament):
        return _unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = _session_param(request, report)
    found = [p for p in protocols(report, session=session.number)] if session else []
    protocol = next((p for p in found if p.number == number), None)
    if protocol is None or session is None or not _visible(session, number, is_director):
        raise Http404("no such board")
    svg = charts.board_spread_svg(
        frequencies(protocol), title=_("Spread of results, board %(n)s") % {"n": number}
    )
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


# -- frequencies -----------------------------------------------------------------------------------------
@never_cache
def frequency_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, is_director = _tournament(request, slug)
    if not can_see_results(request.user, tournament):
        return _unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = _session_param(request, report)
    lang = getattr(request, "LANGUAGE_CODE", "ru")
    boards = []
    if session is not None:
        for p in protocols(report, session=session.number):
            if not p.rows:
                continue
            visible = _visible(session, p.number, is_director)
            freq = frequencies(p) if visible else None
            boards.append(
                {
                    "protocol": p,
                    "visible": visible,
                    "freq": freq,
                    "contracts": _contract_rows(freq, lang) if freq else [],
                }
            )
    context = _base(
        request,
        tournament,
        report,
        is_director,
        nav="frequencies",
        session=session,
        boards=boards,
        seats=report.seats,
    )
    return render(request, "results/frequencies.html", context)


# -- personal cards --------------------------------------------------------------------------------------
def _card_of(request: HttpRequest, slug: str, number: int) -> HttpResponse | tuple[Any, bool, Any, Any]:
    """The participant's score card, or the page that says results are not published yet (404: no such player)."""
    tournament, is_director = _tournament(request, slug)
    if not can_see_results(request.user, tournament):
        return _unpublished(request, tournament)
    report = load_report(tournament.pk)
    if number not in report.participants:
        raise Http404("no such participant")
    (card,) = score_cards(report, [number])
    return tournament, is_director, report, card


def _rest_rounds(tournament: Tournament, number: int) -> set[tuple[int, int]]:
    """(session, round) the participant sits out by the movement (``duplicate.rests``)."""
    return {
        (session.number, rnd)
        for session in tournament.sessions.all()
        for rnd, resting in session_rests(session).items()
        if any(r.number == number for r in resting)
    }


def _running_charts(
    tournament: Tournament, report: Report, card: Any, title: str, *, phone: bool = False
) -> list[str]:
    """The running-percentage chart with the participant's rests marked; with ``phone``, also drawn narrow."""
    points, rests = running_percentages(card), _rest_rounds(tournament, card.person.number)
    sizes = [{}, {"width": 360, "height": 230, "css_class": "chart-running-phone"}] if phone else [{}]
    return [
        charts.running_chart_svg(
            points,
            title=title,
            round_label=_("Round"),
            many_sessions=len(report.sessions) > 1,
            rests=rests,
            rest_label=_("rest"),
            **size,
        )
        for size in sizes
    ]


@never_cache
def player_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    found = _card_of(request, slug, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, is_director, report, card = found
    lang = getattr(request, "LANGUAGE_CODE", "ru")
    sessions = []
    dd_lines = card_lines(tournament, card)  # tricks taken / possible (docs/double-dummy.md)
    for s in card.sessions:
        info = report.session(s.number)
        rows = []
        for c in s.rows:
            visible = is_director or (info is not None and info.board_complete(c.board))
            table = f"{c.room}/{c.table}" if c.room > 1 else c.table
            where = _("round %(r)s · table %(t)s · %(seat)s") % {"r": c.round, "t": table, "seat": c.seat}
            rows.append(
                {
                    "c": c,
                    "visible": visible,
                    "contract": contract_text(c.result.contract, lang),
                    "where": where,
                    "opponents": [(seat, report.person(n)) for seat, n in c.opponents],
                    "dd": dd_lines.get((c.session, c.board, c.round, c.table, c.room)) if visible else None,
                }
            )
        sessions.append({"s": s, "rows": rows})
    points = running_percentages(card)
    many = len(report.sessions) > 1
    # A phone gets the same chart drawn for its width, so that its labels stay readable.
    chart, phone_chart = (
        _running_charts(tournament, report, card, _("Percentage after each round"), phone=True)
        if len(points) > 1
        else ("", "")
    )
    context = _base(
        request,
        tournament,
        report,
        is_director,
        nav="standings",
        card=card,
        card_sessions=sessions,
        chart=chart,
        phone_chart=phone_chart,
        many=many,
        points=points,
    )
    return render(request, "results/player.html", context)


@never_cache
def player_chart(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    found = _card_of(request, slug, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, _is_director, report, card = found
    (svg,) = _running_charts(
        tournament, report, card, f"{card.person.label}: {_('Percentage after each round')}"
    )
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


# -- the projector in the playing hall (public, no login) -------------------------------------------------
@never_cache
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    state = hall.projection(tournament, now=timezone.localtime())
    context = {
        "tournament": tournament,
        "p": state,
        "refresh_seconds": hall.REFRESH_SECONDS,
        "version": state.as_json()["version"],
    }
    return render(request, "results/projector.html", context)


@never_cache
def projector_data(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return JsonResponse(hall.projection(tournament, now=timezone.localtime()).as_json())


# -- exports (directors) ---------------------------------------------------------------------------------
def _director_or_404(request: HttpRequest, slug: str) -> Tournament:
    tournament, is_director = _tournament(request, slug)
    if not is_director:
        if not request.user.is_authenticated:
            raise Http404("not found")  # do not reveal the page's existence to the public
        raise Http404("not a director of this tournament")
    return tournament


@never_cache
@require_http_methods(["GET", "POST"])
def exports(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, is_director = _tournament(request, slug)
    if not is_director:
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        raise Http404("not a director of this tournament")
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        fmt = request.POST.get("format", "")
        options: dict[str, Any] = {"base_url": request.build_absolute_uri("/")}
        if request.POST.get("session", "").isdigit():
            options["session"] = int(request.POST["session"])
        if request.POST.get("lang") in ("ru", "en"):
            options["lang"] = request.POST["lang"]
        try:
            job = start_export(tournament=tournament, kind=kind, fmt=fmt, options=options, user=request.user)
        except ExportError as exc:
            messages.error(request, str(exc))
            return redirect("results:exports", slug=slug)
        if request.headers.get("Accept", "").startswith("application/json"):
            return JsonResponse(_job_json(job, slug))
        return redirect(f"{reverse('results:exports', kwargs={'slug': slug})}#job-{job.pk}")
    jobs = list(ExportJob.objects.filter(tournament=tournament).select_related("created_by")[:50])
    for job in jobs:
        spec = EXPORTERS.get(job.kind)
        job.kind_label = spec.label if spec else job.kind  # type: ignore[attr-defined]
    sessions = list(tournament.sessions.order_by("number"))
    context = nav_context(tournament, active="exports") | {  # the director's tabs above the page
        "is_director": True,
        "nav": "exports",
        "live": False,
        "kinds": list(EXPORTERS.values()),
        "jobs": jobs,
        "sessions": sessions,
        "with_movement": [s for s in sessions if s.movement],
        "pending": any(j.status in (ExportJob.Status.PENDING, ExportJob.Status.RUNNING) for j in jobs),
    }
    return render(request, "results/exports.html", context)


def _job_json(job: ExportJob, slug: str) -> dict[str, Any]:
    return {
        "id": job.pk,
        "kind": job.kind,
        "format": job.format,
        "status": job.status,
        "status_display": job.get_status_display(),
        "progress": job.progress,
        "message": job.message,
        "download": reverse("results:export-download", kwargs={"slug": slug, "pk": job.pk})
        if job.status == ExportJob.Status.DONE and job.file
        else None,
    }


@never_cache
def export_status(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    tournament = _director_or_404(request, slug)
    job = get_object_or_404(ExportJob, pk=pk, tournament=tournament)
    return JsonResponse(_job_json(job, slug))


def export_download(request: HttpRequest, slug: str, pk: int) -> FileResponse:
    tournament = _director_or_404(request, slug)
    job = get_object_or_404(ExportJob, pk=pk, tournament=tournament, status=ExportJob.Status.DONE)
    if not job.file:
        raise Http404("no file")
    name = job.options.get("filename") or job.file.name.rsplit("/", 1)[-1]
    return FileResponse(job.file.open("rb"), as_attachment=True, filename=name)
