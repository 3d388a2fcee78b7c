"""The protocol row as a player fills it on a phone, and its translation into the row of spec §11.3.

The player picks the contract, the declarer and the calls; the defenders (w1, w2) follow from the declarer
(clockwise, spec §11.4.5), the raspasy hands from the dealer, the third trick count from the other two, and
the nominal tricks of a deal nobody whisted from the calls (D-W7). The core then checks everything else.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from boards.models import Board
from preferans.game import ROW_CONTRACT_CODES
from preferans.game.seats import table_seats
from preferans.game.variants import Progression, Rules
from scoring.models import BIDDING_MAX
from tournaments.models import Tournament
from ui.labels import CALL_WORDS, PLAY_WORDS, RED_SUITS, contract_label
from ui.typed_row import TypedRow, three_raspasy_hands, typed_row


def contract_grid() -> list[list[tuple[str, str, bool]]]:
    """The picker's rows: one per level (♠ ♣ ♦ ♥ NT), then misère and raspasy. (code, label, red suit)"""
    rows: list[list[tuple[str, str, bool]]] = []
    for level in ("6", "7", "8", "9", "10"):
        rows.append(
            [
                (f"{level}{s}", contract_label(f"{level}{s}"), s in RED_SUITS)
                for s in ("S", "C", "D", "H", "NT")
            ]
        )
    rows.append([("MIS", str(_("misère")), False), ("-", "— " + str(_("raspasy")), False)])
    return rows


def raspasy_steps(rules: Rules) -> list[int]:
    """The raspasy steps a row may name (none without a progression)."""
    if rules.progression is Progression.NONE:
        return []
    return list(range(1, rules.progression_cap + 1))


def raspasy_three_inputs(tournament: Tournament) -> bool:
    return three_raspasy_hands(int(tournament.players_per_table), tournament.rules)


def progression_steps(tournament: Tournament) -> list[int]:
    return raspasy_steps(tournament.rules)


class PhoneRowForm(forms.Form):
    """The row of one deal. It needs the number of players, the rules and the dealer label (at 3 players the
    label names the first hand, ``preferans.game.seats``); ``tournament`` and ``board`` give all three for a
    board of a duplicate event. ``steps=False``: no raspasy-step field (a pulka's sheet computes the step).
    ``board`` is the number the form is for (a board, or a pulka's deal)."""

    board = forms.IntegerField(widget=forms.HiddenInput)
    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=200)
    replace = forms.BooleanField(widget=forms.HiddenInput, required=False)
    # The revision of the row being corrected, as read (scoring.revisions): a row changed since is not overwritten.
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=10**9)
    contract = forms.ChoiceField(
        label=_("Contract"),
        choices=[(c, c) for c in ROW_CONTRACT_CODES],
        error_messages={"required": _("Choose the contract.")},
    )
    declarer = forms.ChoiceField(label=_("Declarer"), required=False, choices=())
    t1 = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=10)
    t2 = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=10)
    t3 = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=10)
    call1 = forms.ChoiceField(label=_("First defender"), required=False, choices=CALL_WORDS)
    call2 = forms.ChoiceField(label=_("Second defender"), required=False, choices=CALL_WORDS)
    dealer_whist = forms.BooleanField(label=_("The dealer whisted"), required=False)
    play = forms.ChoiceField(label=_("Play"), required=False, choices=PLAY_WORDS, initial="closed")
    misere_shared = forms.BooleanField(label=_("Misère shared with the dealer"), required=False)
    raspasy_step = forms.TypedChoiceField(label=_("Raspasy step"), required=False, coerce=int, choices=())
    # §13.1 «запись торговли»: only where the organisers set written bidding.
    bidding = forms.CharField(label=_("Bidding"), required=False, max_length=BIDDING_MAX)

    def __init__(
        self,
        *args: Any,
        tournament: Tournament | None = None,
        board: Board | None = None,
        players: int | None = None,
        rules: Rules | None = None,
        dealer: str | None = None,
        steps: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.refusals: list[str] = []  # the core's refusals the form already knows (shown as the core's are)
        if tournament is not None:
            players = players or int(tournament.players_per_table)
            rules = rules or tournament.rules
        if board is not None:
            dealer = dealer or board.dealer
        if players is None or rules is None:
            raise TypeError("PhoneRowForm needs a tournament, or the players and the rules")
        self.players = players
        self.rules = rules
        self.dealer = dealer  # None: the fields are checked, no row is built
        self.three_hands = three_raspasy_hands(players, rules)
        self.fields["declarer"].choices = [(s, s) for s in table_seats(players)]
        self.steps = raspasy_steps(rules) if steps else []
        if steps:
            self.fields["raspasy_step"].choices = [("", "1")] + [(s, str(s)) for s in self.steps]
        else:
            del self.fields["raspasy_step"]
        if tournament is None or not tournament.bidding_record:
            del self.fields["bidding"]

    def bidding_text(self) -> str | None:
        """The written bidding (§13.1), or None where the event does not record it."""
        return self.cleaned_data.get("bidding", "") if "bidding" in self.fields else None

    # -- the row ----------------------------------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        self.refusals = []
        data = super().clean()
        if self.errors or self.dealer is None:
            return data
        self.row = self._row(data)
        return data

    def _row(self, data: dict[str, Any]) -> dict[str, Any]:
        """The row by the rule every channel shares (``ui.typed_row``); what is missing goes next to its field."""
        assert self.dealer is not None
        contract = data["contract"]
        typed = TypedRow(
            contract,
            seats=("" if contract == "-" else data.get("declarer") or "", "", ""),
            tricks=(data.get("t1"), data.get("t2"), data.get("t3")),
            calls=(data.get("call1") or "", data.get("call2") or ""),
            dealer_whist=bool(data.get("dealer_whist")),
            play=data.get("play") or "",
            misere_shared=bool(data.get("misere_shared")),
            raspasy_step=data.get("raspasy_step"),
        )
        entry = typed_row(typed, players=self.players, dealer=self.dealer, three_hands=self.three_hands)
        for problem in entry.problems:
            if problem.refused:
                self.refusals.append(str(problem.message))
                self.add_error(problem.slot, problem.message)
            else:
                self.add_error(problem.slot, forms.ValidationError(problem.message, code="required"))
        return entry.row


def initial_from_row(row: dict[str, Any], *, players: int, dealer: str) -> dict[str, Any]:
    """Fill the form back from a stored row (the player at N corrects it)."""
    out: dict[str, Any] = {"contract": row.get("contract")}
    cols = [row.get(k) or [None, None] for k in ("declarer", "w1", "w2")]
    out.update(t1=cols[0][1], t2=cols[1][1], t3=cols[2][1])
    if row.get("contract") != "-":
        out["declarer"] = cols[0][0]
        calls = row.get("calls") or {}
        out.update(call1=calls.get(cols[1][0]), call2=calls.get(cols[2][0]))
    for name in ("dealer_whist", "misere_shared", "raspasy_step"):
        if row.get(name):
            out[name] = row[name]
    out["play"] = row.get("play") if row.get("play") in ("open", "closed") else "closed"
    return out


class ConfirmForm(forms.Form):
    board = forms.IntegerField(widget=forms.HiddenInput)
    number = forms.IntegerField(label=_("Participant number"), min_value=1)
    pin = forms.CharField(label=_("PIN"), max_length=8)
    reason = forms.CharField(label=_("What is wrong?"), required=False, max_length=500, widget=forms.Textarea)
