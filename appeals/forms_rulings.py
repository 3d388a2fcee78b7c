"""Forms of the director's rulings: recording an irregularity with its facts (rules §10–§12), revising the
remedy, and the ruling as announced. They only read input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from appeals.form_fields import (
    PENALTY_HELP,
    SEATS,
    SeatFieldsForm,
    TextsBounded,
    fault_field,
    percent_field,
    played_row_field,
    room_field,
    vists_field,
)
from appeals.models import Irregularity

OFFENCES = [
    ("", "—"),
    ("12.2.1", _("12.2.1 Lateness")),
    ("12.2.2", _("12.2.2 Slow play")),
    ("12.2.3", _("12.2.3 Loud discussion")),
    ("12.2.4", _("12.2.4 Comparing results")),
    ("12.2.5", _("12.2.5 Touching other players' cards")),
    ("12.2.6", _("12.2.6 Moving cards in the duplicate box")),
    ("12.2.7", _("12.2.7 Procedural error")),
    ("12.2.8", _("12.2.8 Non-compliance")),
]


class IrregularityForm(SeatFieldsForm):
    session = forms.IntegerField(label=_("Session"), min_value=1, initial=1)
    kind = forms.ChoiceField(label=_("Irregularity"), choices=Irregularity.Kind.choices)
    round = forms.IntegerField(label=_("Round"), min_value=1)
    room = room_field()
    table = forms.IntegerField(label=_("Table"), min_value=1)
    board = forms.IntegerField(label=_("Board"), min_value=1, required=False)
    description = forms.CharField(
        label=_("What happened"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )
    # §11.3
    call_made = forms.BooleanField(
        label=_("The player with the wrong number of cards made a call"), required=False
    )
    seen = forms.BooleanField(label=_("A player saw other players' cards"), required=False)
    insignificant = forms.BooleanField(label=_("The information seen is insignificant"), required=False)
    consent = forms.BooleanField(label=_("All players consent to normal play"), required=False)
    play_completed = forms.BooleanField(label=_("Found only after play was completed"), required=False)
    keep_non_offenders = forms.BooleanField(
        label=_("The non-offenders' result did not depend on the opponents' play (keep it)"), required=False
    )
    # §11.4
    found = forms.ChoiceField(
        label=_("The missing card was"),
        required=False,
        choices=[
            ("", "—"),
            ("hand", _("found elsewhere and returned to the hand")),
            ("played", _("found among the played cards (fouled, §10)")),
            ("not_found", _("not found: layout reconstructed")),
        ],
    )
    # §11.6
    intended_board = forms.IntegerField(
        label=_("Board the table should have played"), required=False, min_value=1
    )
    play_later = forms.BooleanField(label=_("The correct board is to be played later"), required=False)
    row = played_row_field()
    # §12
    offence = forms.ChoiceField(label=_("Procedural offence"), choices=OFFENCES, required=False)
    penalty_participant = forms.IntegerField(label=_("Penalty: participant"), required=False, min_value=1)
    penalty_matchpoints = forms.CharField(
        label=_("Penalty: matchpoints"),
        required=False,
        max_length=16,
        help_text=PENALTY_HELP,
    )
    # §10: the layout the table played
    played_n = forms.CharField(label=_("Played hand N"), required=False)
    played_e = forms.CharField(label=_("Played hand E"), required=False)
    played_s = forms.CharField(label=_("Played hand S"), required=False)
    played_w = forms.CharField(label=_("Played hand W"), required=False)
    played_top = forms.CharField(label=_("Played prikup: top card"), required=False, max_length=8)
    played_bottom = forms.CharField(label=_("Played prikup: bottom card"), required=False, max_length=8)

    FACT_FIELDS = (
        "call_made",
        "seen",
        "insignificant",
        "consent",
        "play_completed",
        "keep_non_offenders",
        "found",
        "intended_board",
        "play_later",
        "row",
        "offence",
        "penalty_participant",
        "penalty_matchpoints",
    )

    seat_fields = (("fault", fault_field),)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, seats=SEATS, **kwargs)

    def facts(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {k: d[k] for k in self.FACT_FIELDS if d.get(k) not in (None, "", False)}

    def fault(self) -> dict[str, str]:
        return self.per_seat_text("fault")

    def played_fields(self) -> dict[str, str]:
        d = self.cleaned_data
        return {
            "hand_n": d.get("played_n") or "",
            "hand_e": d.get("played_e") or "",
            "hand_s": d.get("played_s") or "",
            "hand_w": d.get("played_w") or "",
            "prikup_top": d.get("played_top") or "",
            "prikup_bottom": d.get("played_bottom") or "",
        }


class ReviseForm(SeatFieldsForm):
    remedy = forms.ChoiceField(
        label=_("Remedy"),
        choices=[
            ("", _("as the rules prescribe (proposal)")),
            ("artificial", _("artificial result by fault")),
            ("assigned", _("assigned result (vists per seat)")),
            ("none", _("the result stands")),
        ],
        required=False,
    )

    row = played_row_field()
    percent_reason = forms.CharField(
        label=_("Why a non-offender gets more than A+"),
        required=False,
        max_length=300,
        help_text=_("Rules §11.2 B1: «at least 60 %», e.g. his session percentage when it is higher."),
    )

    seat_fields = (("fault", fault_field), ("vists", vists_field), ("percent", percent_field))

    def facts(self) -> dict[str, Any]:
        d = self.cleaned_data
        remedy = d.get("remedy") or ""
        out: dict[str, Any] = {"remedy": remedy}
        if remedy == "assigned":
            out["assigned"] = self.per_seat_text("vists")
        out["percent"] = {
            s: format(v.normalize(), "f") for s, v in self.per_seat("percent").items() if v is not None
        }
        out["percent_reason"] = (d.get("percent_reason") or "").strip()
        if d.get("row"):
            out["row"] = d["row"]
        return out

    def fault(self) -> dict[str, str]:
        return self.per_seat_text("fault")


class RulingForm(TextsBounded):
    ruling = forms.CharField(
        label=_("Director's ruling (as announced)"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
