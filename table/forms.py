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
from preferans.game.contracts import half_obligation
from preferans.game.seats import active_seats, defenders, hands_in_order, table_seats
from preferans.game.variants import Progression, RaspasyMode, Rules
from tournaments.models import Tournament
from tournaments.refusals import Refusal, refusal_message
from ui.labels import CALL_WORDS, PLAY_WORDS, RED_SUITS, contract_label


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


def three_raspasy_hands(players: int, rules: Rules) -> bool:
    """4-player Sochi/Leningrad raspasy: the three hands take 8 to 10 tricks, so all three are written."""
    return players == 4 and rules.raspasy_mode is RaspasyMode.MOUNTAIN


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

    # -- the row ----------------------------------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        self.refusals = []
        data = super().clean()
        if self.errors or self.dealer is None:
            return data
        self.row = self._row(data)
        return data

    def _third(self, t1: int, t2: int) -> int:
        """The third column follows from the two typed (10 in all). Two that already make more than 10 are refused in
        the core's words about what was typed: «8 + 5 = 13 tricks, more than 10» (``tournaments.refusals``)."""
        if t1 + t2 > 10:
            typed = {"total": t1 + t2, "tricks": [t1, t2]}
            message = refusal_message(Refusal("tricks_total", "declarer", "", typed))
            self.refusals.append(message)
            self.add_error("t2", message)
        return 10 - t1 - t2

    def _need(self, field: str, message: Any) -> None:
        self.add_error(field, forms.ValidationError(message, code="required"))

    def _row(self, data: dict[str, Any]) -> dict[str, Any]:
        assert self.dealer is not None
        dealer = self.dealer
        contract = data["contract"]
        t1, t2, t3 = data.get("t1"), data.get("t2"), data.get("t3")
        row: dict[str, Any] = {"contract": contract}
        if contract == "-":
            hands = hands_in_order(self.players, dealer)
            if self.three_hands:
                for name, value in (("t1", t1), ("t2", t2), ("t3", t3)):
                    if value is None:
                        self._need(name, _("Write the tricks of each hand."))
            else:
                if t1 is None or t2 is None:
                    self._need("t1" if t1 is None else "t2", _("Write the tricks of two hands."))
                elif t3 is None:
                    t3 = self._third(t1, t2)
            row.update(declarer=[hands[0], t1], w1=[hands[1], t2], w2=[hands[2], t3])
            step = data.get("raspasy_step")
            if step:
                row["raspasy_step"] = step
            return row
        declarer = data.get("declarer")
        active = active_seats(self.players, dealer)
        if not declarer:
            self._need("declarer", _("Choose the declarer."))
            return row
        if declarer not in active:
            self.add_error("declarer", _("The dealer sits out this deal; choose one of the three players."))
            return row
        d1, d2 = defenders(self.players, dealer, declarer)
        whisted = False
        if contract == "MIS":
            if self.players == 4 and data.get("misere_shared"):
                row["misere_shared"] = True
            whisted = True
        else:
            c1, c2 = data.get("call1"), data.get("call2")
            if not c1:
                self._need("call1", _("Choose the first defender's call."))
            if not c2:
                self._need("call2", _("Choose the second defender's call."))
            if not (c1 and c2):
                return row
            row["calls"] = {d1: c1, d2: c2}
            if self.players == 4 and data.get("dealer_whist"):
                row["dealer_whist"] = True
            whisted = "whist" in (c1, c2) or bool(row.get("dealer_whist"))
            if whisted:
                row["play"] = data.get("play") or "closed"
            else:
                # Nobody whisted: the deal is deemed made with the nominal tricks (D-W7).
                level = int(contract[:-2] if contract.endswith("NT") else contract[:-1])
                t1, t2, t3 = 10, 0, 0
                for seat, call in ((d1, c1), (d2, c2)):
                    if call == "half":
                        half = int(half_obligation(level))
                        t1 = level
                        t2, t3 = (half, 10 - level - half) if seat == d1 else (10 - level - half, half)
        if whisted:
            if t1 is None or t2 is None:
                self._need(
                    "t1" if t1 is None else "t2", _("Write the declarer's and the first defender's tricks.")
                )
                return row
            if t3 is None:
                t3 = self._third(t1, t2)
        row.update(declarer=[declarer, t1], w1=[d1, t2], w2=[d2, t3])
        return row


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
