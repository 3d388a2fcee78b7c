"""Forms of the director's pages of pulka events (Olympic, compensation, Swiss).

The forms only shape what the director typed and bound it; the services decide (``pulkas.services``). The row of
a deal is typed with the duplicate director's row form (``ui.row_form``), which builds the same
protocol row (formats §2.1) that a pulka's sheet stores.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from preferans.pulka import TIEBREAKS
from pulkas.models import PulkaEvent, RatingChoice
from tournaments.models import Tournament, Variant
from tournaments.numbers import whole_number
from ui.fields import JSONObjectField, help_with_code

TIEBREAK_LABELS = {
    "raspasy_won": _("most raspasy won"),
    "raspasy_tricks": _("fewest tricks on raspasy"),
    "remizes": _("fewest remizes"),
    "misere_tricks": _("fewest tricks on misère"),
}
TIEBREAK_FIELDS = tuple(f"tiebreak_{i}" for i in range(1, len(TIEBREAKS) + 1))
MAX_SEED = 2**62 - 1


def settings_state(tournament: Tournament, event: PulkaEvent) -> str:
    """A fingerprint of the settings a form was made from: a form sent after somebody else saved is refused."""
    values = {k: getattr(event, k) for k in (*EVENT_FIELDS, "advance_by_round")}
    values |= {
        "variant": tournament.variant,
        "players_per_table": tournament.players_per_table,
        "rules": tournament.rule_overrides,
    }
    return hashlib.sha256(json.dumps(values, sort_keys=True, default=str).encode()).hexdigest()[:16]


def parse_exit(text: str) -> list[int]:
    """«6» or «7, 8, 9, 10» → [7, 8, 9, 10]; empty → [] (the rules' default: 6)."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    levels = []
    for part in parts:
        if whole_number(part, digits=2, low=6, high=10) is None:
            raise forms.ValidationError(
                _("Contract levels from 6 to 10, separated by commas: 6 or 7, 8, 9, 10."), code="raspasy_exit"
            )
        levels.append(int(part))
    if len(levels) > 10:
        raise forms.ValidationError(_("At most 10 levels."), code="raspasy_exit")
    return levels


class PulkaSettingsForm(forms.Form):
    """The settings of a pulka event (pulka-spec §2.2, §10) and the game's rules (variant, players, overrides).

    Olympic events have the advance and no rounds to set; the cut is for Swiss events. What decides how a pulka
    is scored (``pulkas.services.event.SCORING`` and ``RATING``, the variant, rules and players per table) is
    disabled once a round has been drawn."""

    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices)
    players_per_table = forms.TypedChoiceField(
        label=_("Players per table"),
        choices=[(4, "4"), (3, "3")],
        coerce=int,
        help_text=_("Tables of the other size are made only when the players do not divide evenly."),
    )
    rules = JSONObjectField(
        label=_("Rule overrides (JSON)"),
        help_text=help_with_code(
            _(
                "Leave empty for the variant's rules. Keys are listed in the rules reference. Raspasy progression "
                "is an option the organisers agree on (Code 3.7.4), in Rostov too, where the step multiplies the "
                "whists of a trick (the software's reading). It is written so:"
            ),
            '{"progression": "arithmetic"} / {"progression": "geometric"}',
        ),
    )
    pool = forms.IntegerField(
        label=_("Pool target"),
        min_value=1,
        max_value=1000,
        help_text=_("The game at a table ends when the pool reaches it (Code 4.2.2)."),
    )
    max_deals = forms.IntegerField(
        label=_("Deal limit"),
        min_value=1,
        max_value=500,
        required=False,
        help_text=_("Optional: the game ends after this many deals at the latest."),
    )
    round_minutes = forms.IntegerField(
        label=_("Time limit of a round, minutes"),
        min_value=1,
        max_value=24 * 60,
        help_text=_("When time is up, the director stops every table still playing; its sheet is closed."),
    )
    raspasy_exit = forms.CharField(
        label=_("Exit from raspasy"),
        max_length=40,
        required=False,
        help_text=_(
            "The lowest contract after raspasy: 6, or a level for each raspasy in a row such as "
            "7, 8, 9, 10. Empty: 6."
        ),
    )
    advance = forms.TypedChoiceField(
        label=_("Players going on from a table"),
        choices=[(1, "1"), (2, "2")],
        coerce=int,
        help_text=_("The winner of each table, or the first two by the regulation."),
    )
    olympic_refill = forms.BooleanField(
        label=_("Lucky losers and byes (not from the book)"),
        required=False,
        help_text=_(
            "Off by the book: only the table winners go on, the others are out. On: when too few go on, the "
            "best losers fill a table (equal ones by lot), and a field of 5 gives a bye."
        ),
    )
    compensation_x = forms.IntegerField(
        label=_("Extra column: vists for a won deal (x)"),
        min_value=-1000,
        max_value=1000,
        required=False,
    )
    compensation_y = forms.IntegerField(
        label=_("Extra column: vists for any other deal (y)"),
        min_value=-1000,
        max_value=1000,
        required=False,
        help_text=_(
            "Optional, both or neither: each player writes himself x vists for a deal with a positive "
            "result, else y; they are added to his vists."
        ),
    )
    rating_base = forms.ChoiceField(label=_("Round rating"), choices=RatingChoice.choices)
    compression_threshold = forms.IntegerField(
        label=_("Compression threshold T"),
        min_value=1,
        max_value=100_000,
        required=False,
    )
    compression_divisor = forms.IntegerField(
        label=_("Compression divisor k"),
        min_value=1,
        max_value=100,
        required=False,
        help_text=_(
            "Beyond ±T only 1/k of the excess counts: a round result R above T counts as "
            "T + (R − T)/k. Without k the result stops at ±T. Empty T: no compression."
        ),
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=50)
    cut_after = forms.IntegerField(label=_("Cut after round"), min_value=1, max_value=49, required=False)
    cut_to = forms.IntegerField(
        label=_("Players kept at the cut"),
        min_value=3,
        max_value=10_000,
        required=False,
        help_text=_("Optional: after that round only the top players by rating play on."),
    )
    state = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(
        self,
        *args: Any,
        tournament: Tournament,
        event: PulkaEvent,
        fixed: bool,
        olympic_rounds: int = 0,
        drawn: int = 0,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("initial", self.initial_of(tournament, event))
        super().__init__(*args, **kwargs)
        self.event = event
        self.round_fields = olympic_round_fields(self, event, olympic_rounds, drawn)
        for i, name in enumerate(TIEBREAK_FIELDS, start=1):
            self.fields[name] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i},
                required=False,
                choices=[("", "—"), *((k, TIEBREAK_LABELS[k]) for k in TIEBREAKS)],
            )
        self.fields[TIEBREAK_FIELDS[-1]].help_text = _(
            "Only between players with equal vists, in this order (Code 4.1.3)."
        )
        form = tournament.form
        if form != "olympic":
            del self.fields["advance"], self.fields["olympic_refill"]
        else:
            del self.fields["rounds"]
        if form != "swiss":
            del self.fields["cut_after"], self.fields["cut_to"]
        self.order_fields(
            [
                "variant",
                "players_per_table",
                "pool",
                "max_deals",
                "round_minutes",
                "raspasy_exit",
                *TIEBREAK_FIELDS,
                "advance",
                *self.round_fields,
                "olympic_refill",
                "compensation_x",
                "compensation_y",
                "rating_base",
                "compression_threshold",
                "compression_divisor",
                "rounds",
                "cut_after",
                "cut_to",
                "rules",
            ]
        )
        self.fixed_names = [n for n in self.fields if n in FIXED_ONCE_DRAWN]
        if fixed:
            for name in self.fixed_names:
                self.fields[name].disabled = True

    @staticmethod
    def initial_of(tournament: Tournament, event: PulkaEvent) -> dict[str, Any]:
        initial: dict[str, Any] = {k: getattr(event, k) for k in EVENT_FIELDS}
        initial["raspasy_exit"] = ", ".join(str(x) for x in event.raspasy_exit or [])
        for name, value in zip(TIEBREAK_FIELDS, event.tiebreaks or [], strict=False):
            initial[name] = value
        initial |= {
            "variant": tournament.variant,
            "players_per_table": tournament.players_per_table,
            "rules": json.dumps(tournament.rule_overrides, ensure_ascii=False)
            if tournament.rule_overrides
            else "",
            "state": settings_state(tournament, event),
        }
        return initial

    def clean_raspasy_exit(self) -> list[int]:
        return parse_exit(self.cleaned_data.get("raspasy_exit") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data.get(name) or "" for name in TIEBREAK_FIELDS]
        while chosen and not chosen[-1]:
            chosen.pop()
        if "" in chosen:
            self.add_error(
                TIEBREAK_FIELDS[chosen.index("")], _("Fill the tie-breaks in order, without gaps.")
            )
        elif len(set(chosen)) != len(chosen):
            self.add_error(TIEBREAK_FIELDS[len(chosen) - 1], _("Each tie-break once."))
        data["tiebreaks"] = chosen
        if (data.get("compensation_x") is None) != (data.get("compensation_y") is None):
            self.add_error("compensation_y", _("Give both x and y, or neither."))
        if data.get("compression_divisor") is not None and data.get("compression_threshold") is None:
            self.add_error("compression_threshold", _("The divisor needs a threshold."))
        if "cut_after" in self.fields and (data.get("cut_after") is None) != (data.get("cut_to") is None):
            self.add_error("cut_to", _("Give the round and the number of players, or neither."))
        after, rounds = data.get("cut_after"), data.get("rounds")
        if "cut_after" in self.fields and after and rounds and after >= rounds:
            self.add_error("cut_after", _("The cut comes after one of the rounds before the last."))
        return data

    def event_changes(self) -> dict[str, Any]:
        """What ``pulka_settings_update`` receives: every event setting this form holds."""
        d = self.cleaned_data
        out = {k: d[k] for k in EVENT_FIELDS if k in self.fields} | {"tiebreaks": d["tiebreaks"]}
        if self.round_fields:
            by_round = dict(self.event.advance_by_round or {})
            for name in self.round_fields:
                key = name.rsplit("_", 1)[1]
                by_round.pop(key, None)
                if d.get(name):
                    by_round[key] = int(d[name])
            out["advance_by_round"] = by_round
        return out

    def tournament_changes(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "variant": d["variant"],
            "players_per_table": d["players_per_table"],
            "rule_overrides": d["rules"],
        }


EVENT_FIELDS = (
    "pool",
    "max_deals",
    "round_minutes",
    "raspasy_exit",
    "advance",
    "olympic_refill",
    "compensation_x",
    "compensation_y",
    "rating_base",
    "compression_threshold",
    "compression_divisor",
    "rounds",
    "cut_after",
    "cut_to",
    "tiebreaks",
)
FIXED_ONCE_DRAWN = (
    "variant",
    "players_per_table",
    "rules",
    "pool",
    "max_deals",
    "raspasy_exit",
    "advance",
    "olympic_refill",
    "compensation_x",
    "compensation_y",
    "rating_base",
    "compression_threshold",
    "compression_divisor",
    "cut_after",
    "cut_to",
    *TIEBREAK_FIELDS,
)


class DrawForm(forms.Form):
    """Draw the next round; ``number`` is the round the page offered (a second click draws nothing more)."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=1000)
    seed = forms.IntegerField(
        label=_("Seed of the draw (optional)"),
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text=_("Empty: a random seed, recorded with the round. The same seed repeats the same draw."),
    )
    # Offered for the first round of a compensation or Swiss event only (the view drops it otherwise).
    by_rating = forms.BooleanField(
        label=_("Seat the first round by rating"),
        required=False,
        help_text=_(
            "Table 1 gets the highest-rated players. A player's rating: the federation or club rating of the "
            "participants list, else the one of his person in the register, else his rating computed by the "
            "register, else 1500 (equal ratings by lot)."
        ),
    )


def olympic_round_fields(form: forms.Form, event: PulkaEvent, rounds: int, drawn: int) -> list[str]:
    """Olympic: «или еще и второй игрок, по регламенту» — one choice per round before the final (1 or 2 going on,
    or as set for every round); a drawn round's is fixed."""
    names = []
    for n in range(1, rounds + 1):
        name = f"advance_round_{n}"
        form.fields[name] = forms.TypedChoiceField(
            label=_("Round %(n)s: going on from a table") % {"n": n},
            choices=[("", _("as above")), (1, "1"), (2, "2")],
            coerce=int,
            empty_value=None,
            required=False,
            disabled=n <= drawn,
        )
        form.initial.setdefault(name, (event.advance_by_round or {}).get(str(n), ""))
        names.append(name)
    return names


class RoundActionForm(forms.Form):
    """Start, stop, end or draw again: the round's status the page showed comes back with the button."""

    ACTIONS = ("start", "stop", "end", "undraw")
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    status = forms.CharField(max_length=16)
    # Stopping every table is confirmed with a reason (audited); the other actions take none.
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class TieForm(forms.Form):
    """Olympic: who goes on among the players tied at the cut (pulka P-21)."""

    seats = forms.MultipleChoiceField(label=_("Goes on"), widget=forms.CheckboxSelectMultiple)
    reason = forms.CharField(
        label=_("How it was decided"),
        max_length=500,
        initial="",
        help_text=_("By the regulation, or by lot."),
    )
    decided = forms.CharField(widget=forms.HiddenInput, required=False, max_length=32)

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seats"].choices = choices


class SheetForm(forms.Form):
    """What every form of a table's sheet carries: the sheet's version it was made from."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class JsonRowForm(forms.Form):
    """A deal as its JSON row (formats §7.1), for what the fields do not cover."""

    row = JSONObjectField(label=_("The row (JSON)"), rows=3, max_length=4000, required=True)
    reason = forms.CharField(label=_("Why the director corrects the deal"), max_length=500, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    key = forms.CharField(widget=forms.HiddenInput, max_length=40, required=False)

    def __init__(self, *args: Any, correcting: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if correcting:
            self.fields["reason"].required = True
        else:
            del self.fields["reason"]


class TableStopForm(SheetForm):
    """Stop a table (time limit) or reopen one stopped in error: with a reason."""

    reason = forms.CharField(label=_("Reason"), max_length=500)


class TableExtendForm(SheetForm):
    """Give a table more time after its time limit (004 fn 32): minutes from now, with a reason."""

    minutes = forms.IntegerField(label=_("Minutes from now"), min_value=1, max_value=600, initial=15)
    reason = forms.CharField(label=_("Reason"), max_length=500)


class PassedDealForm(SheetForm):
    """A deal not written: the deal passes (Code 3.2.17, 4.2.10), with the director's penalty on the mountain if
    any («условленный ремиз (например, пять в гору)»)."""

    seat = forms.ChoiceField(label=_("Penalty to (seat)"), required=False)
    mountain = forms.IntegerField(
        label=_("Penalty: points on the mountain"), min_value=1, max_value=100, required=False
    )
    reason = forms.CharField(label=_("Reason"), max_length=500)
    key = forms.CharField(widget=forms.HiddenInput, max_length=40, required=False)

    def __init__(self, *args: Any, seats: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", "—"), *((s, s) for s in seats)]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("seat")) != bool(data.get("mountain")):
            raise forms.ValidationError(_("Give both the seat and the points of the penalty, or neither."))
        return data

    def row(self) -> dict[str, Any]:
        data = self.cleaned_data
        row: dict[str, Any] = {"not_written": True}
        if data.get("seat"):
            row["extra_entries"] = [{"type": "mountain", "seat": data["seat"], "amount": data["mountain"]}]
        return row
