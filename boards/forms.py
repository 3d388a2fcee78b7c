"""Entering a board's layout by hand (duplicate-rules §2), and the layout a table actually played
(fouled board, §10).

A plain ``forms.Form``: the checking is done by :mod:`preferans.cards.layout_entry` (pure Python); this form only
calls it and shows its issues, translated by their stable codes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from preferans.cards.deal import PRIKUP, BoardError, Seat, build_board, hand_seats
from preferans.cards.deck import Issue
from preferans.cards.fouled import PlayedLayout
from preferans.cards.layout_entry import GENERAL, PRIKUP_BOTTOM, PRIKUP_TOP, read_layout

__all__ = ["LayoutEntryForm", "issue_text"]

HAND_HELP = _("Suit letter, then ranks: SAKQ C7 DJ98 H10 (S spades, C clubs, D diamonds, H hearts; 10 or T).")
CARD_HELP = _("One card, e.g. H7.")

# Translatable templates, by issue code. Params are filled in by issue_text().
MESSAGES: dict[str, Promise] = {
    "unknown_suit": _("“%(char)s” is not a suit letter (use S, C, D, H): %(text)s"),
    "unknown_rank": _("“%(char)s” is not a card rank (use A K Q J 10 9 8 7): %(text)s"),
    "cyrillic_letter": _(
        "“%(char)s” is a Cyrillic letter: write cards with Latin letters (suits S C D H, ranks A K Q J 10 9 8 7): %(text)s"
    ),
    "rank_without_suit": _("A rank comes before any suit letter: %(text)s (write the suit first, e.g. SAKQ)"),
    "misplaced_void": _("A dash (void suit) must follow a suit letter directly: %(text)s"),
    "empty_card": _("No card written."),
    "not_one_card": _("“%(text)s” is not one card (write a suit letter and a rank, e.g. H7)."),
    "prikup_card_missing_top": _("The top card of the prikup is not written."),
    "prikup_card_missing_bottom": _("The bottom card of the prikup is not written."),
    "wrong_count_hand": ngettext_lazy(
        "%(place)s has %(count)s card — a hand must have 10.",
        "%(place)s has %(count)s cards — a hand must have 10.",
        "count",
    ),
    "wrong_count_prikup": ngettext_lazy(
        "The prikup has %(count)s card — it must have 2.",
        "The prikup has %(count)s cards — it must have 2.",
        "count",
    ),
    "duplicate": ngettext_lazy(
        "%(card)s is written %(count)s time: %(places)s.",
        "%(card)s is written %(count)s times: %(places)s.",
        "count",
    ),
    "duplicate_twice": _("%(card)s is written twice: %(places)s."),
    "missing": _("Missing: %(cards)s."),
}


def _place_phrase(place: str) -> str:
    if place == PRIKUP:
        return str(_("in the prikup"))
    return str(_("in %(seat)s") % {"seat": place})


def issue_text(issue: Issue) -> str:
    """The issue in the active language (falls back to the core's English message for unknown codes)."""
    p = issue.params
    key = issue.code
    values: dict[str, Any] = {
        k: v if isinstance(v, str | int) else str(v) for k, v in p.items() if not isinstance(v, tuple)
    }
    if key == "prikup_card_missing":
        key = f"prikup_card_missing_{p.get('position', 'top')}"
    elif key == "wrong_count":
        key = "wrong_count_prikup" if p.get("place") == PRIKUP else "wrong_count_hand"
    elif key == "duplicate":
        places = p.get("places", ())
        if isinstance(places, tuple):
            values["places"] = ", ".join(dict.fromkeys(_place_phrase(place) for place in places))
        if p.get("count") == 2:
            key = "duplicate_twice"
    elif key == "missing":
        cards = p.get("cards", ())
        values["cards"] = ", ".join(cards) if isinstance(cards, tuple) else str(cards)
    template = MESSAGES.get(key)
    if template is None:
        return issue.message
    try:
        return str(template % values)  # a plural message takes its form from values["count"]
    except (KeyError, ValueError, TypeError):
        return issue.message


class LayoutEntryForm(forms.Form):
    """Three typed hands and the prikup (top card, bottom card) of one board.

    ``dealer`` and ``players`` say which pockets hold hands: the seats other than the dealer at a 4-player
    table, N, E, S at a 3-player one (the fourth pocket's field is removed). When valid,
    ``cleaned_data["board"]`` holds the :class:`preferans.cards.deal.DealtBoard`.

    With ``exact_counts=False`` the form takes the layout a table actually played on a fouled board: the
    cards must still be the 32 once each, but a pocket may hold a wrong number of them; then
    ``cleaned_data["played"]`` holds a :class:`preferans.cards.fouled.PlayedLayout` to pass to
    :func:`preferans.cards.fouled.compare_layouts`.
    """

    hand_n = forms.CharField(label=format_lazy("{} N", _("Hand")), required=False, help_text=HAND_HELP)
    hand_e = forms.CharField(label=format_lazy("{} E", _("Hand")), required=False, help_text=HAND_HELP)
    hand_s = forms.CharField(label=format_lazy("{} S", _("Hand")), required=False, help_text=HAND_HELP)
    hand_w = forms.CharField(label=format_lazy("{} W", _("Hand")), required=False, help_text=HAND_HELP)
    prikup_top = forms.CharField(
        label=_("Prikup: top card"), required=False, max_length=8, help_text=CARD_HELP
    )
    prikup_bottom = forms.CharField(
        label=_("Prikup: bottom card"), required=False, max_length=8, help_text=CARD_HELP
    )

    FIELD_OF_SEAT = {Seat.N: "hand_n", Seat.E: "hand_e", Seat.S: "hand_s", Seat.W: "hand_w"}

    def __init__(
        self,
        *args: Any,
        dealer: Seat,
        players: int,
        number: int = 1,
        set_number: int = 1,
        exact_counts: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.dealer = dealer
        self.players = players
        self.number = number
        self.set_number = set_number
        self.exact_counts = exact_counts
        self.seats = hand_seats(dealer, players)
        for seat, name in self.FIELD_OF_SEAT.items():
            if seat not in self.seats:
                del self.fields[name]

    def _field_for(self, key: str) -> str | None:
        if key == GENERAL:
            return None
        if key in (PRIKUP_TOP, PRIKUP_BOTTOM):
            return key
        return self.FIELD_OF_SEAT[Seat(key)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        hands = {seat: cleaned.get(self.FIELD_OF_SEAT[seat]) or "" for seat in self.seats}
        check = read_layout(
            hands,
            cleaned.get("prikup_top") or "",
            cleaned.get("prikup_bottom") or "",
            exact_counts=self.exact_counts,
        )
        if not check.ok:
            for key, issues in check.issues.items():
                for issue in issues:
                    self.add_error(self._field_for(key), ValidationError(issue_text(issue), code=issue.code))
            return cleaned
        if self.exact_counts:
            try:
                cleaned["board"] = build_board(
                    number=self.number,
                    set_number=self.set_number,
                    dealer=self.dealer,
                    hands=check.hands,
                    prikup=check.prikup,
                )
            except BoardError as exc:
                for issue in exc.issues:
                    self.add_error(None, ValidationError(issue_text(issue), code=issue.code))
        else:
            cleaned["played"] = PlayedLayout(hands=check.hands, prikup=check.prikup)
        return cleaned
