"""The appeal form of Appendix B: the board's diagram, the printable page and its PDF.

``layout_rows`` and the prikup helpers turn a stored board into the hand diagram the appeal pages show;
``appeal_form`` renders the filled form to print, or its PDF (``appeals.pdf``, filled by ``_appeal_pdf``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from appeals.models import Appeal
from appeals.pdf import AppealFormData, appeal_form_pdf
from appeals.views._common import _guard_director_or_committee, _names, _tournament
from boards.models import Board
from preferans.cards.deck import Suit, parse_hand, sort_cards


def layout_rows(board: Board | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """A board's hands as (seat, [(suit symbol, ranks), …]) for Appendix B's diagram, prikup last."""
    if board is None or not board.hands:
        return []
    out = []
    for seat in ("N", "W", "E", "S"):
        text = board.hands.get(seat)
        if not text:
            continue
        cards = sort_cards(parse_hand(text))
        out.append(
            (
                seat,
                [
                    (suit.symbol, " ".join(c.rank.text for c in cards if c.suit is suit) or "—")
                    for suit in Suit
                ],
            )
        )
    return out


def _prikup_symbols(board: Board | None) -> list[str]:
    from preferans.cards.deck import parse_card

    return [parse_card(c).symbol_text for c in (board.prikup if board else [])]


def _prikup_seat(board: Board | None) -> str:
    """The pocket that holds the prikup: the one without a hand (the dealer's at a 4-player table, W at 3)."""
    if board is None:
        return "W"
    return next((s for s in ("N", "E", "S", "W") if s not in board.hands), "W")


def _appeal_board(appeal: Appeal) -> Board | None:
    """The stored board the appeal is about (none for a pulka deal: a pulka's layouts are not recorded)."""
    if appeal.is_pulka:
        return None
    return Board.objects.filter(session=appeal.session, number=appeal.board_number).first()


def appeal_form(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Appendix B filled in, to print (HTML), or as a PDF (``?format=pdf``)."""
    t = _tournament(slug)
    if (deny := _guard_director_or_committee(request, t)) is not None:
        return deny  # type: ignore[return-value]
    appeal = get_object_or_404(Appeal.objects.select_related("appellant"), tournament=t, number=number)
    if request.GET.get("format") == "pdf":
        response = HttpResponse(
            _appeal_pdf(appeal, lang=request.LANGUAGE_CODE), content_type="application/pdf"
        )
        response["Content-Disposition"] = f'inline; filename="appeal-{appeal.number}.pdf"'
        return response
    board = _appeal_board(appeal)
    return render(
        request,
        "appeals/appeal_form.html",
        {
            "tournament": t,
            "appeal": appeal,
            "layout": layout_rows(board),
            "prikup": _prikup_symbols(board),
            "people": _names(t, appeal.seats),
            "panel": appeal.panel.select_related("member__election", "member__tournament"),
        },
    )


def _appeal_pdf(appeal: Appeal, *, lang: str) -> bytes:
    """Appendix B as a PDF (``appeals.pdf``), filled with the appeal's facts."""
    board = _appeal_board(appeal)
    panel = list(appeal.panel.select_related("member__election", "member__tournament"))
    people = {seat: f"№ {n} {name}".strip() for seat, n, name in _names(appeal.tournament, appeal.seats)}
    layout = (
        {
            "number": board.number,
            "set": board.set_number,
            "dealer": board.dealer,
            "hands": board.hands,
            "prikup": board.prikup,
        }
        if board is not None and board.hands
        else None
    )
    data = AppealFormData(
        tournament=appeal.tournament.name,
        appellant=str(appeal.appellant),
        round=appeal.round_number,
        board=appeal.deal_or_board,  # Appendix B item 3, «Сдача №»: a board, or a pulka's deal
        layout=layout,
        participants=people,
        # Bidding is kept as free text: one line per round of calls, calls in the order W, N, E, S.
        bidding=[line.split()[:4] for line in appeal.bidding.splitlines() if line.strip()],
        play=appeal.play,
        claim=appeal.claim,
        director_comment=appeal.director_comment,
        committee_decision=(f"{appeal.get_outcome_display()}. " if appeal.outcome else "") + appeal.decision,
        # Item 11 and the book's «выбранном голосованием»: each member with the vote that elected him.
        committee_members=[f"{m.member.name} — {m.member.votes_words()}" for m in panel],
        signed_by=[m.member.name for m in panel if m.signed_at],
        date=timezone.localtime(appeal.decided_at or appeal.filed_at or timezone.now()).date(),
    )
    return appeal_form_pdf(data, lang=lang)
