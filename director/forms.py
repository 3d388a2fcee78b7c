"""Forms of the director's pages (the result row's form is in ``row_form``)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from preferans.bundle.bounds import PARTICIPANT_NUMBER_MAX, TEXT_MAX
from preferans.duplicate.artificial import artificial_bounds
from preferans.duplicate.penalties import DEFAULT_DEDUCTION
from preferans.numbers import format_fraction
from preferans.series import carry_share
from scoring.penalties import PENALTY_RULES
from tournaments import zones
from tournaments.models import Confirmation, Form, Tournament, UnequalResults, Variant
from tournaments.refusals import adjustment_message
from ui.fields import JSONObjectField

PENALTY_LABELS = {
    "12.2.1": _("12.2.1 Lateness"),
    "12.2.2": _("12.2.2 Slow play"),
    "12.2.3": _("12.2.3 Loud discussion"),
    "12.2.4": _("12.2.4 Comparing results"),
    "12.2.5": _("12.2.5 Touching other players' cards"),
    "12.2.6": _("12.2.6 Moving cards in the duplicate box"),
    "12.2.7": _("12.2.7 Procedural error"),
    "12.2.8": _("12.2.8 Not following instructions"),
}


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    starts_on = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    zone = forms.ChoiceField(
        label=_("Time zone"),
        required=False,
        choices=zones.choices,
        help_text=_("Deadlines, the round clock, messages and printed results show times in this zone."),
    )
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices, initial=Variant.SOCHI)
    players_per_table = forms.TypedChoiceField(
        label=_("Players per table"), choices=[(4, "4"), (3, "3")], coerce=int, initial=4
    )
    deals_per_set = forms.IntegerField(
        label=_("Deals per set"),
        min_value=1,
        max_value=12,
        initial=4,
        help_text=_(
            "Usually as many as players at the table, so that everyone is first hand once (rules §4)."
        ),
    )
    minutes_per_deal = forms.IntegerField(
        label=_("Minutes per deal"),
        min_value=1,
        max_value=60,
        initial=5,
        help_text=_("Rules §4: five minutes."),
    )
    correction_minutes = forms.IntegerField(
        label=_("Correction period, minutes"),
        min_value=0,
        max_value=24 * 60,
        initial=30,
        help_text=_("After the official results (rules §1: 30 minutes)."),
    )
    confirmation = forms.ChoiceField(
        label=_("Confirmation of a result"),
        choices=Confirmation.choices,
        initial=Confirmation.ALL,
        required=False,
        help_text=_(
            "Who confirms the row the player at N entered: every opponent, or one of them is enough."
        ),
    )
    bidding_record = forms.BooleanField(
        label=_("Written bidding"),
        required=False,
        help_text=_(
            "Rules §13.1: a special condition of the organisers (written bidding): each protocol row may carry "
            "the bidding, shown on the protocol."
        ),
    )
    unequal_results = forms.ChoiceField(
        label=_("Boards with fewer results"), choices=UnequalResults.choices, initial=UnequalResults.NEUBERG
    )
    artificial_minus = forms.IntegerField(
        label=_("Artificial A-, per cent"),
        min_value=0,
        max_value=100,
        initial=40,
        help_text=_("Rules §11.2 B1: 40 % of the top for the side at fault, fixed by the book."),
    )
    artificial_average = forms.IntegerField(
        label=_("Artificial A, per cent"),
        min_value=0,
        max_value=100,
        initial=50,
        help_text=_("Rules §11.2 B1: 50 % for a side partly at fault, fixed by the book."),
    )
    artificial_plus = forms.IntegerField(
        label=_("Artificial A+, per cent"),
        min_value=0,
        max_value=100,
        initial=60,
        help_text=_(
            "Rules §11.2 B1: at least 60 % for the non-offending side, the organisers' setting; a ruling may "
            "give one seat more."
        ),
    )
    # Several sessions, and a final after its qualification (docs/players/series.md).
    session_totals = forms.ChoiceField(
        label=_("Totals over sessions"),
        initial="matchpoints",
        required=False,
        choices=Tournament._meta.get_field("session_totals").choices,
        help_text=_(
            "Matchpoints summed over the sessions (the rules' one field), or each session's percentage "
            "averaged over the sessions a participant played."
        ),
    )
    qualification = forms.ModelChoiceField(
        label=_("Qualification (its short name)"),
        queryset=Tournament.objects.all(),
        to_field_name="slug",
        required=False,
        widget=forms.TextInput,
        help_text=_("For a final: the event whose results its finalists bring."),
    )
    carry_over = forms.CharField(
        label=_("Share carried over"),
        max_length=16,
        required=False,
        initial="0",
        help_text=_(
            "From 0 to 1, exact (1/2, 0.25): the qualification weighs this share of the final; "
            "0 carries nothing."
        ),
    )
    rules = JSONObjectField(
        label=_("Rule overrides (JSON)"),
        help_text=_("Leave empty for the variant's rules. Keys are listed in the rules reference."),
    )

    # What a pulka event's settings page keeps: its game settings are on the pulka settings page.
    PULKA_FIELDS = ("name", "starts_on", "venue", "zone", "correction_minutes")

    def __init__(self, *args: Any, pulka: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if pulka:
            for name in [n for n in self.fields if n not in self.PULKA_FIELDS]:
                del self.fields[name]

    def clean(self) -> dict[str, Any]:
        """The book's bounds of the artificial results (§11.2 B1), by the one rule of the pure core."""
        d = super().clean() or {}
        names = {"A-": "artificial_minus", "A": "artificial_average", "A+": "artificial_plus"}
        values = {grade: d.get(name) for grade, name in names.items()}
        if all(v is not None for v in values.values()):
            for problem in artificial_bounds({g: v for g, v in values.items() if v is not None}):
                self.add_error(names.get(problem.field, "artificial_average"), adjustment_message(problem))
        return d

    def clean_carry_over(self) -> str:
        try:
            return format_fraction(carry_share(self.cleaned_data.get("carry_over") or "0"))
        except (ValueError, ZeroDivisionError):
            raise forms.ValidationError(_("Write a share from 0 to 1, such as 1/2 or 0.25.")) from None

    def values(self) -> dict[str, Any]:
        d = dict(self.cleaned_data)
        if "qualification" in d:
            q = d.pop("qualification")
            d["qualification_id"] = q.pk if q else None
        if not d.get("session_totals", True):
            d["session_totals"] = "matchpoints"
        if "artificial_minus" in d:
            d["artificial"] = {
                "A-": d.pop("artificial_minus"),
                "A": d.pop("artificial_average"),
                "A+": d.pop("artificial_plus"),
            }
        if "rules" in d:
            d["rule_overrides"] = d.pop("rules")
        if not d.get("confirmation"):  # not sent: the event keeps its rule (a new one: every opponent)
            d.pop("confirmation", None)
        return d

    @classmethod
    def initial_of(cls, t: Tournament) -> dict[str, Any]:
        art = t.artificial or {}
        return {
            "name": t.name,
            "starts_on": t.starts_on,
            "venue": t.venue,
            "zone": t.zone,
            "variant": t.variant,
            "players_per_table": t.players_per_table,
            "deals_per_set": t.deals_per_set,
            "minutes_per_deal": t.minutes_per_deal,
            "correction_minutes": t.correction_minutes,
            "confirmation": t.confirmation,
            "bidding_record": t.bidding_record,
            "unequal_results": t.unequal_results,
            "artificial_minus": art.get("A-", 40),
            "artificial_average": art.get("A", 50),
            "artificial_plus": art.get("A+", 60),
            "session_totals": t.session_totals,
            "carry_over": t.carry_over or "0",
            "qualification": t.qualification.slug if t.qualification else "",
            "rules": json.dumps(t.rule_overrides, ensure_ascii=False) if t.rule_overrides else "",
        }


class NewTournamentForm(TournamentForm):
    """The create page: the settings above, and the form of the event (duplicate, or played in pulkas)."""

    form = forms.ChoiceField(
        label=_("Form of the event"),
        choices=Form.choices,
        initial=Form.DUPLICATE,
        required=False,
        help_text=_(
            "Duplicate boards, or whole games (pulkas): Olympic, compensation or Swiss. The settings "
            "of a pulka event (pool, time limit, rounds) are set on its own settings page."
        ),
    )
    field_order = ["name", "form"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("session_totals", "qualification", "carry_over"):  # set on the settings page
            del self.fields[name]

    def values(self) -> dict[str, Any]:
        d = super().values()
        d["form"] = d.get("form") or Form.DUPLICATE
        return d


class ParticipantForm(forms.Form):
    number = forms.IntegerField(label=_("No."), min_value=1, max_value=PARTICIPANT_NUMBER_MAX)
    name = forms.CharField(label=_("Name"), max_length=TEXT_MAX)
    club = forms.CharField(label=_("Club"), max_length=TEXT_MAX, required=False)
    federation_id = forms.CharField(label=_("Federation id"), max_length=64, required=False)
    declared_rating = forms.DecimalField(
        label=_("Federation or club rating"),
        help_text=_("From 0 to 4000; it seeds a first round by rating. Empty: none."),
        min_value=0,
        max_value=4000,
        max_digits=6,
        decimal_places=2,
        required=False,
        localize=True,
    )


class ImportForm(forms.Form):
    file = forms.FileField(label=_("File (.xlsx or .csv)"))
    replace = forms.BooleanField(
        label=_("Replace the whole list (only before anyone is seated)"), required=False
    )


class DirectorAddForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)


class MovementForm(forms.Form):
    SCHEMES = [
        ("auto", _("The suggested movement")),
        ("basic", _("Basic movement")),
        ("book", _("The book's scheme")),
    ]
    scheme = forms.ChoiceField(label=_("Movement"), choices=SCHEMES, widget=forms.RadioSelect, initial="auto")
    tables = forms.IntegerField(label=_("Tables (basic movement)"), min_value=2, max_value=99, required=False)
    rooms = forms.IntegerField(
        label=_("Rooms (basic movement)"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_(
            "Every room plays the same boards, and each board is compared across all the rooms as one field "
            "(§5, procedure 2). The tables are numbered from 1 in each room."
        ),
    )
    rounds = forms.IntegerField(
        label=_("Rounds (to shorten the session)"),
        min_value=2,
        max_value=99,
        required=False,
        help_text=_(
            "Leave empty for the full movement. A shortened session is announced before it starts (§5)."
        ),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))


class PenaltyForm(forms.Form):
    participant = forms.IntegerField(label=_("Participant No."), min_value=1)
    deduct = forms.CharField(
        label=_("Matchpoints to deduct"),
        max_length=16,
        initial=format_fraction(DEFAULT_DEDUCTION),
        help_text=_(
            "A positive number: 2 deducts two matchpoints; fractions like 1/2 work. The rules (§12) give no "
            "values for the offences: how much to deduct is the organisers' choice, not the book's."
        ),
    )
    kind = forms.ChoiceField(
        label=_("Infraction (rules §12.2)"), choices=[(k, PENALTY_LABELS[k]) for k in PENALTY_RULES]
    )
    note = forms.CharField(label=_("Details"), max_length=200, required=False)

    def reason_text(self) -> str:
        note = (self.cleaned_data.get("note") or "").strip()
        label = str(PENALTY_LABELS[self.cleaned_data["kind"]])
        return f"{label}: {note}" if note else label


class FouledForm(forms.Form):
    note = forms.CharField(
        label=_("What happened"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Which cards were displaced, and from which round or table on."),
    )
