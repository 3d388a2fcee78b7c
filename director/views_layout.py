"""A board's layout typed by the director (duplicate-rules §2) and the fouled-board comparison (§10): the
layout one table actually played, the cards that moved, the version its result belongs to, applied with one
button. The full ruling (fault, penalties, Appendix B) stays in the appeals app; this page links to it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from appeals.services.fouled_boards import VERSION_LABELS
from appeals.services.layouts import (
    board_fouled_apply,
    board_layout_record,
    dealt_board,
    played_to_dict,
    played_version,
)
from boards.forms import HAND_HELP, LayoutEntryForm
from boards.models import Board
from preferans.cards.board_form import board_to_dict
from preferans.cards.deal import PRIKUP, BoardError, Seat
from preferans.cards.deck import Suit, parse_card, parse_hand, sort_cards
from preferans.cards.fouled import FouledComparison, PlayedLayout, compare_layouts
from scoring.models import Result
from tournaments.errors import UserError
from tournaments.models import Session, Tournament
from tournaments.numbers import whole_number
from ui.director_pages import directs, nav, safe_url

from .dd_fouled import fouled_help

SEATS = ("N", "E", "S", "W")


# --- the diagram (the appeals app's partial: templates/appeals/_layout.html) ---------------------------------


def layout_context(hands: Mapping[str, str], prikup: Sequence[str]) -> dict[str, Any]:
    """What ``appeals/_layout.html`` shows: hands as (seat, [(suit symbol, ranks), …]), the prikup (top card
    first) and the pocket it sits in (the one without a hand)."""
    rows = []
    for seat in ("N", "W", "E", "S"):
        text = hands.get(seat)
        if text is None:
            continue
        cards = sort_cards(parse_hand(text)) if text else ()
        rows.append(
            (seat, [(s.symbol, " ".join(c.rank.text for c in cards if c.suit is s) or "—") for s in Suit])
        )
    return {
        "layout": rows,
        "prikup": [parse_card(c).symbol_text for c in prikup],
        "prikup_seat": next((s for s in SEATS if s not in hands), "W"),
    }


def board_diagram(board: Board) -> dict[str, Any]:
    if not board.has_layout:
        return {"layout": [], "prikup": [], "prikup_seat": "W"}
    try:
        return layout_context(board.hands, board.prikup)
    except ValueError:  # a stored layout that no longer reads: show the text rather than fail
        return {"layout": [], "prikup": [], "prikup_seat": "W", "raw": board.hands}


def _layout_initial(board: Board) -> dict[str, str]:
    if not board.has_layout:
        return {}
    initial = {LayoutEntryForm.FIELD_OF_SEAT[Seat(seat)]: text for seat, text in board.hands.items()}
    prikup = list(board.prikup) + ["", ""]
    initial.update(prikup_top=prikup[0], prikup_bottom=prikup[1])
    return initial


def _board_url(tournament: Tournament, session: Session, board: int) -> Any:
    return redirect("director:board_detail", slug=tournament.slug, session=session.number, board=board)


def _one_help(form: LayoutEntryForm) -> None:
    """The notation is explained once above the fields (``hand_help``), not under each of them."""
    for name, field in form.fields.items():
        if name.startswith(("hand_", "prikup_")):
            field.help_text = ""


# --- §2: the layout typed in ---------------------------------------------------------------------------------


class LayoutForm(LayoutEntryForm):
    """The three hands and the prikup; a reason when a stored layout is replaced."""

    reason = forms.CharField(
        label=gettext_lazy("Why the layout is replaced"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Goes into the audit trail with the old layout."),
    )

    def __init__(self, *args: Any, replacing: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.replacing = replacing
        if not replacing:
            del self.fields["reason"]
        _one_help(self)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.replacing and "board" in cleaned and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", _("This board already has a layout: say why it is replaced."))
        return cleaned


@directs
def board_layout(request: HttpRequest, tournament: Tournament, session: Session, board: int) -> HttpResponse:
    """Type the layout of a board that was not pre-dealt (§2), or correct a stored one."""
    board_obj = get_object_or_404(Board, session=session, number=board)
    form = LayoutForm(
        request.POST if request.method == "POST" else None,
        initial=_layout_initial(board_obj),
        replacing=board_obj.has_layout,
        dealer=Seat(board_obj.dealer),
        players=tournament.players_per_table,
        number=board_obj.number,
        set_number=board_obj.set_number,
    )
    if request.method == "POST" and form.is_valid():
        data = board_to_dict(form.cleaned_data["board"])
        try:
            board_layout_record(
                board=board_obj,
                hands=data["hands"],
                prikup=data["prikup"],
                user=request.user,
                reason=form.cleaned_data.get("reason", ""),
                now=timezone.now(),
            )
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The layout of board %(b)s is saved.") % {"b": board})
            return _board_url(tournament, session, board)
    context = nav(tournament, session, active="boards") | {
        "board": board_obj,
        "form": form,
        "diagram": board_diagram(board_obj),
        "hand_help": HAND_HELP,
    }
    return render(request, "director/board_layout.html", context)


# --- §10: the layout one table played ------------------------------------------------------------------------


def _result_label(r: Result) -> str:
    seats = ", ".join(f"{seat} {n}" for seat, n in r.seats().items())
    text = _("Round %(r)s, table %(t)s") % {"r": r.round_number, "t": r.table_number}
    if r.room > 1:
        text += " · " + _("room %(n)s") % {"n": r.room}
    return f"{text} ({seats}) · " + _("version %(v)s") % {"v": r.version}


class PlayedForm(LayoutEntryForm):
    """Which result, and the layout its table played (any number of cards per pocket, each card once)."""

    result = forms.TypedChoiceField(label=gettext_lazy("The table's result"), coerce=int)
    version = forms.ChoiceField(
        label=gettext_lazy("Version of this result"), required=False, choices=[(v, v) for v in VERSION_LABELS]
    )
    note = forms.CharField(
        label=gettext_lazy("What happened"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Shown on the board page; goes into the audit trail."),
    )
    checked = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, results: Sequence[Result], **kwargs: Any) -> None:
        super().__init__(*args, exact_counts=False, **kwargs)
        self.fields["result"].choices = [(r.pk, _result_label(r)) for r in results]
        self.order_fields(["result"])
        _one_help(self)


def _fingerprint(played: PlayedLayout, result: int) -> str:
    return json.dumps({"result": result, **played_to_dict(played)}, sort_keys=True, ensure_ascii=False)


def _place(place: str) -> str:
    return _("prikup") if place == PRIKUP else place


def comparison_context(comparison: FouledComparison) -> dict[str, Any]:
    moves = [
        {
            "symbol": m.card.suit.symbol,
            "rank": m.card.rank.text,
            "red": m.card.suit.is_red,
            "source": _place(m.source),
            "target": _place(m.target),
        }
        for m in comparison.moves
    ]
    prikup = None
    if comparison.prikup_dealt != comparison.prikup_played:
        prikup = {
            "dealt": ", ".join(c.symbol_text for c in comparison.prikup_dealt) or "—",
            "played": ", ".join(c.symbol_text for c in comparison.prikup_played) or "—",
            "swapped": comparison.prikup_order_changed,
        }
    counts = [{"place": _place(place), "count": n} for place, n in comparison.counts.items()]
    return {"moves": moves, "prikup": prikup, "counts": counts, "fouled": comparison.is_fouled}


def _default_note(result: Result, comparison: FouledComparison) -> str:
    where = _("Round %(r)s, table %(t)s") % {"r": result.round_number, "t": result.table_number}
    if result.room > 1:
        where += " · " + _("room %(n)s") % {"n": result.room}
    return f"{where}: " + "; ".join(m.text for m in comparison.moves) if comparison.moves else where


@directs
def board_fouled(request: HttpRequest, tournament: Tournament, session: Session, board: int) -> HttpResponse:
    """Compare the layout a table played with the board's deal, then mark the board fouled with that table's
    result in its version."""
    board_obj = get_object_or_404(Board, session=session, number=board)
    if not board_obj.has_layout:
        messages.error(request, _("Board %(b)s has no layout yet: enter it first.") % {"b": board})
        return redirect("director:board_layout", slug=tournament.slug, session=session.number, board=board)
    results = list(
        Result.objects.filter(session=session, board_number=board)
        .select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .order_by("round_number", "table_number")
    )
    by_pk = {r.pk: r for r in results}
    initial: dict[str, Any] = _layout_initial(board_obj)
    wanted = request.GET.get("result", "")
    if whole_number(wanted) in by_pk:
        initial["result"] = whole_number(wanted)
    posted = request.method == "POST"
    form = PlayedForm(
        request.POST if posted else None,
        initial=initial,
        results=results,
        dealer=Seat(board_obj.dealer),
        players=tournament.players_per_table,
        number=board_obj.number,
        set_number=board_obj.set_number,
    )
    shown: dict[str, Any] = {}
    if posted and form.is_valid():
        result = by_pk[form.cleaned_data["result"]]
        played: PlayedLayout = form.cleaned_data["played"]
        try:
            comparison = compare_layouts(dealt_board(board_obj), played)
            label = played_version(board=board_obj, result=result, played=played)
        except (BoardError, UserError) as exc:
            form.add_error(None, str(exc))
        else:
            fingerprint = _fingerprint(played, result.pk)
            if request.POST.get("action") == "apply":
                version = form.cleaned_data.get("version") or label
                note = (form.cleaned_data.get("note") or "").strip()
                if form.cleaned_data.get("checked") != fingerprint:
                    form.add_error(
                        None, _("The layout or the table changed since the comparison: check it again.")
                    )
                elif not comparison.is_fouled:
                    form.add_error(
                        None, _("This table played the board as dealt: there is nothing to apply.")
                    )
                elif not note:
                    form.add_error(
                        "note", _("Describe what happened to the board (it is shown on the board page).")
                    )
                else:
                    try:
                        board_fouled_apply(
                            board=board_obj,
                            result=result,
                            played=played,
                            version=version,
                            note=note,
                            user=request.user,
                            now=timezone.now(),
                        )
                    except UserError as exc:
                        form.add_error(None, str(exc))
                    else:
                        messages.success(
                            request,
                            _("Board %(b)s is marked fouled; the result of table %(t)s is in version %(v)s.")
                            % {"b": board, "t": result.table_number, "v": version},
                        )
                        return _board_url(tournament, session, board)
            # A fresh comparison: the apply step starts from it (a new label, the moves as the note).
            data = form.data.copy()
            data["checked"] = fingerprint
            if request.POST.get("action") != "apply":
                data["version"] = label
                if not (data.get("note") or "").strip():
                    data["note"] = board_obj.fouled_note or _default_note(result, comparison)
            form.data = data
            shown = {
                "comparison": comparison_context(comparison),
                "label": label,
                "result": result,
                "played_diagram": layout_context(
                    played_to_dict(played)["hands"], played_to_dict(played)["prikup"]
                ),
            }
            if (
                comparison.is_fouled
            ):  # what the difference changes, analysed on request (docs/double-dummy.md)
                shown["dd_help"] = fouled_help(board_obj, played, run=request.POST.get("action") == "dd")
    ruling_url = safe_url("appeals:ruling-new", tournament.slug)
    ruling_query = {"kind": "fouled", "session": session.number, "board": board}
    if shown:
        ruling_query |= {
            "round": shown["result"].round_number,
            "table": shown["result"].table_number,
            "room": shown["result"].room,
        }
    context = nav(tournament, session, active="boards") | {
        "board": board_obj,
        "form": form,
        "diagram": board_diagram(board_obj),
        "results": results,
        **shown,
        "hand_help": HAND_HELP,
        "ruling_url": f"{ruling_url}?{urlencode(ruling_query)}" if ruling_url else None,
    }
    return render(request, "director/board_fouled.html", context)
