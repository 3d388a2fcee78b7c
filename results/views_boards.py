"""A duplicate event's boards on the public pages: the list of a session's boards, a board's protocol (Appendix
A) with its frequencies, spread picture, layout and double-dummy table, and the frequencies of every board.

What shows is :mod:`visibility`'s: a session's rows once the results are published and the session is
over (rules §12.2.4: results are not compared during the session), the layout and its analysis likewise;
directors see everything, always.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

import visibility
from boards.analysis import board_makeable
from boards.models import Board
from results import charts
from results.data import Report, load_report
from results.derived import frequencies, protocols
from results.labels import contract_text
from results.views_common import base_context, event_of, session_param, unpublished
from scoring.models import Result


@never_cache
def board_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, viewer = event_of(request, slug)
    if not visibility.can_see_results(viewer, tournament):
        return unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = session_param(request, report)
    items = []
    if session is not None:
        visible = visibility.can_see_session_rows(viewer, tournament, session)
        for p in protocols(report, session=session.number):
            items.append({"protocol": p, "visible": visible, "rows": len(p.rows)})
    context = base_context(
        tournament, report, viewer.directs(tournament), nav="boards", session=session, items=items
    )
    return render(request, "results/board_list.html", context)


def _protocol_rows(
    protocol: Any, report: Report, lang: str, biddings: dict[tuple[int, int, int], str] | None = None
) -> list[dict[str, Any]]:
    out = []
    for r in protocol.rows:
        seats = []
        for seat in report.seats:
            seats.append(r.seats.get(seat))
        bidding = (biddings or {}).get((r.round, r.room, r.table), "")
        out.append({"r": r, "contract": contract_text(r.contract, lang), "seats": seats, "bidding": bidding})
    return out


def _biddings(tournament: Any, session: int, number: int) -> dict[tuple[int, int, int], str]:
    """§13.1 «запись торговли»: each row's written bidding, where the organisers set written bidding."""
    if not tournament.bidding_record:
        return {}
    rows = Result.objects.filter(
        session__tournament=tournament, session__number=session, board_number=number
    ).exclude(bidding="")
    return {
        (rnd, room, table): bidding
        for rnd, room, table, bidding in rows.values_list("round_number", "room", "table_number", "bidding")
    }


@never_cache
def board_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament, viewer = event_of(request, slug)
    if not visibility.can_see_results(viewer, tournament):
        return unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = session_param(request, report)
    if session is None:
        raise Http404("no session")
    found = [p for p in protocols(report, session=session.number) if p.number == number]
    if not found:
        raise Http404("no such board")
    protocol = found[0]
    visible = visibility.can_see_session_rows(viewer, tournament, session)
    show_layout = protocol.board.has_layout and visibility.can_see_layouts(viewer, tournament, session)
    public_layout = visibility.session_rows_public(tournament, session)
    lang = request.LANGUAGE_CODE if hasattr(request, "LANGUAGE_CODE") else "ru"
    freq = frequencies(protocol) if visible else None
    numbers = sorted(session.boards) or sorted({r.board for r in session.results})
    index = numbers.index(number) if number in numbers else -1
    context = base_context(
        tournament,
        report,
        viewer.directs(tournament),
        nav="boards",
        session=session,
        protocol=protocol,
        visible=visible,
        rows=_protocol_rows(protocol, report, lang, _biddings(tournament, session.number, number))
        if visible
        else [],
        seats=report.seats,
        show_layout=show_layout,
        layout=_layout(protocol.board) if show_layout else None,
        layout_hidden_for_public=show_layout and not public_layout,
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
    tournament, viewer = event_of(request, slug)
    if not visibility.can_see_results(viewer, tournament):
        return unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = session_param(request, report)
    found = [p for p in protocols(report, session=session.number)] if session else []
    protocol = next((p for p in found if p.number == number), None)
    if (
        protocol is None
        or session is None
        or not visibility.can_see_session_rows(viewer, tournament, session)
    ):
        raise Http404("no such board")
    svg = charts.board_spread_svg(
        frequencies(protocol), title=_("Spread of results, board %(n)s") % {"n": number}
    )
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


# -- frequencies -----------------------------------------------------------------------------------------
@never_cache
def frequency_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, viewer = event_of(request, slug)
    if not visibility.can_see_results(viewer, tournament):
        return unpublished(request, tournament)
    report = load_report(tournament.pk)
    session = session_param(request, report)
    lang = getattr(request, "LANGUAGE_CODE", "ru")
    boards = []
    if session is not None:
        visible = visibility.can_see_session_rows(viewer, tournament, session)
        for p in protocols(report, session=session.number):
            if not p.rows:
                continue
            freq = frequencies(p) if visible else None
            boards.append(
                {
                    "protocol": p,
                    "visible": visible,
                    "freq": freq,
                    "contracts": _contract_rows(freq, lang) if freq else [],
                }
            )
    context = base_context(
        tournament,
        report,
        viewer.directs(tournament),
        nav="frequencies",
        session=session,
        boards=boards,
        seats=report.seats,
    )
    return render(request, "results/frequencies.html", context)
