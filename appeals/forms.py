"""Forms of the appeals and corrections pages: the player's login, appeal and correction; the director's appeal,
comment and correction; the committee's hearing, decision and signatures; the appeals' settings and committee
members. The director's rulings have theirs in :mod:`appeals.forms_rulings`, an event played in pulkas in
:mod:`appeals.forms_pulka`. They only read input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from appeals.form_fields import (
    APPEAL_NOTE_LABEL,
    PENALTY_HELP,
    SeatFieldsForm,
    TextsBounded,
    grade_field,
    late_note_field,
    participant_field,
    percent_field,
    room_field,
    vists_field,
)
from appeals.models import Appeal, CommitteeMember, Correction, Irregularity
from ui.fields import help_with_code


class DealChoiceForm(TextsBounded):
    """A player's form about one of the deals he played, chosen as ``"session-round-board-table"``."""

    deal = forms.ChoiceField(label=_("Deal"))

    def __init__(self, *args: Any, deals: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["deal"].choices = deals

    def deal_key(self) -> tuple[int, int, int, int]:
        """(session, round, board, table) of the chosen deal."""
        s, r, b, t = (int(x) for x in self.cleaned_data["deal"].split("-"))
        return s, r, b, t


class PlayerLoginForm(TextsBounded):
    number = forms.IntegerField(label=_("Your participant number"), min_value=1)
    pin = forms.CharField(
        label=_("PIN"), max_length=8, widget=forms.PasswordInput(attrs={"autocomplete": "off"})
    )


class PlayerAppealForm(DealChoiceForm):
    deal = forms.ChoiceField(label=_("Deal"), help_text=_("Round, board and table where it happened."))
    claim = forms.CharField(label=_("Substance of the claim"), widget=forms.Textarea(attrs={"rows": 4}))
    bidding = forms.CharField(label=_("Bidding"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    play = forms.CharField(label=_("Play"), required=False, widget=forms.Textarea(attrs={"rows": 2}))


class PlayerCorrectionForm(DealChoiceForm):
    description = forms.CharField(label=_("What is wrong"), widget=forms.Textarea(attrs={"rows": 3}))


class DirectorAppealForm(TextsBounded):
    session = forms.IntegerField(label=_("Session"), min_value=1, initial=1)
    participant = forms.IntegerField(label=_("Player filing the appeal (number)"), min_value=1)
    round = forms.IntegerField(label=_("Round"), min_value=1)
    board = forms.IntegerField(label=_("Board"), min_value=1)
    ruling = forms.ModelChoiceField(
        label=_("Ruling appealed against"), queryset=Irregularity.objects.none(), required=False
    )
    claim = forms.CharField(
        label=_("Substance of the claim"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )
    bidding = forms.CharField(label=_("Bidding"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    play = forms.CharField(label=_("Play"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    late_note = late_note_field(APPEAL_NOTE_LABEL)

    def __init__(self, *args: Any, tournament: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruling"].queryset = Irregularity.objects.filter(tournament=tournament)


class CommentForm(TextsBounded):
    comment = forms.CharField(label=_("Director's comment"), widget=forms.Textarea(attrs={"rows": 4}))
    notice_at = forms.DateTimeField(
        label=_("The director was warned at (if not recorded)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )


class HearForm(TextsBounded):
    members = forms.ModelMultipleChoiceField(
        label=_("Committee members hearing the appeal"),
        queryset=CommitteeMember.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    notes = forms.CharField(
        label=_("Hearing notes"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, tournament: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].queryset = CommitteeMember.objects.filter(tournament=tournament)


class DecideForm(SeatFieldsForm):
    outcome = forms.ChoiceField(label=_("Outcome"), choices=Appeal.Outcome.choices, widget=forms.RadioSelect)
    decision = forms.CharField(
        label=_("Decision of the appeals committee"), widget=forms.Textarea(attrs={"rows": 4})
    )
    kind = forms.ChoiceField(
        label=_("Adjusted result"),
        required=False,
        choices=[
            ("", "—"),
            ("artificial", _("artificial (by fault)")),
            ("assigned", _("assigned (vists per seat)")),
        ],
    )
    penalty_participant = forms.IntegerField(label=_("Penalty: participant"), required=False, min_value=1)
    penalty_matchpoints = forms.CharField(
        label=_("Penalty: matchpoints"), required=False, max_length=16, help_text=PENALTY_HELP
    )

    seat_fields = (("grade", grade_field), ("vists", vists_field), ("percent", percent_field))

    def adjustment(self) -> dict[str, Any]:
        d = self.cleaned_data
        kind = d.get("kind") or ""
        out: dict[str, Any] = {"kind": kind}
        if kind == "artificial":
            out["values"] = self.per_seat("grade")
            percent = {
                s: format(v.normalize(), "f") for s, v in self.per_seat("percent").items() if v is not None
            }
            if percent:  # a non-offender above A+ (§11.2 B1): the decision is the reason
                out["percent"] = percent
        elif kind == "assigned":
            out["values"] = self.per_seat("vists")
        if d.get("penalty_participant") and d.get("penalty_matchpoints"):
            out["penalty"] = {
                "participant": d["penalty_participant"],
                "matchpoints": d["penalty_matchpoints"],
            }
        return out


class SignForm(TextsBounded):
    member = forms.ModelChoiceField(
        label=_("Member"), queryset=CommitteeMember.objects.none(), empty_label=None
    )

    def __init__(self, *args: Any, appeal: Appeal, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = CommitteeMember.objects.filter(
            pk__in=appeal.panel.filter(signed_at__isnull=True).values("member")
        )


class NoteForm(TextsBounded):
    note = forms.CharField(label=_("Note"), widget=forms.Textarea(attrs={"rows": 2}))


class CorrectionForm(TextsBounded):
    session = forms.IntegerField(label=_("Session"), min_value=1, initial=1)
    kind = forms.ChoiceField(label=_("Kind"), choices=Correction.Kind.choices)
    round = forms.IntegerField(label=_("Round"), min_value=1)
    room = room_field()
    table = forms.IntegerField(label=_("Table"), min_value=1)
    board = forms.IntegerField(label=_("Board"), min_value=1)
    description = forms.CharField(label=_("What is wrong"), widget=forms.Textarea(attrs={"rows": 3}))
    late_note = late_note_field()


class CorrectionApplyForm(SeatFieldsForm):
    row = forms.JSONField(
        label=_("Corrected protocol row"),
        required=False,
        help_text=help_with_code(
            _("The row's facts as in the bundle:"), "contract, declarer, w1, w2, calls, play …"
        ),
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono"}),
    )

    seat_fields = (("seat", participant_field),)

    def seat_numbers(self) -> dict[str, int] | None:
        values = self.per_seat("seat")
        if all(v is None for v in values.values()):
            return None
        return {s: int(v) for s, v in values.items() if v is not None}


class SettingsForm(TextsBounded):
    filing_minutes = forms.IntegerField(
        label=_("Appeals close, minutes after the end of the session"), min_value=0, max_value=24 * 60
    )
    correction_minutes = forms.IntegerField(
        label=_("Correction period, minutes after the official results"), min_value=0, max_value=7 * 24 * 60
    )
    notice_required = forms.BooleanField(
        label=_("Notice to the director before the next deal is required"), required=False
    )
    online_filing = forms.BooleanField(label=_("Players may file appeals on the web"), required=False)


class MemberForm(TextsBounded):
    name = forms.CharField(label=_("Name"), max_length=200)
    participant = forms.IntegerField(label=_("Participant number (if playing)"), required=False, min_value=1)
    username = forms.CharField(
        label=_("Login (optional, to sign on the web)"), required=False, max_length=150
    )
    is_chair = forms.BooleanField(label=_("Chair"), required=False)


ELECTED_ROWS = 5
"""Rows of the election form: members the vote elected (a committee is a handful of players)."""


def _row_name(column: Any, row: int) -> dict[str, str]:
    """A table cell's field named for screen readers: its column and its row («Имя, строка 2»)."""
    return {"aria-label": _("%(column)s, row %(row)s") % {"column": column, "row": row}}


class ElectionForm(TextsBounded):
    """The vote that elected the appeals committee (rules §1 «выбранном голосованием»): when, how many votes were
    cast, how, and each member elected with his votes. Read in the event's time zone (the view sets it)."""

    held_at = forms.DateTimeField(
        label=_("Vote held at"),
        input_formats=["%d.%m.%Y %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(
            attrs={"placeholder": _("DD.MM.YYYY HH:MM"), "inputmode": "numeric"}, format="%d.%m.%Y %H:%M"
        ),
        help_text=_("In the event's time zone, for example 14.03.2026 10:30."),
    )
    voters = forms.IntegerField(label=_("Votes cast"), min_value=1, max_value=10_000)
    note = forms.CharField(
        label=_("How the vote was held (optional)"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    chair = forms.TypedChoiceField(
        label=_("Chair"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "—"), *[(i, str(i)) for i in range(1, ELECTED_ROWS + 1)]],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, ELECTED_ROWS + 1):
            # A row of the table has no label of its own: each field is named with its column and row.
            self.fields[f"name_{i}"] = forms.CharField(
                label=_("Name"),
                required=False,
                max_length=200,
                widget=forms.TextInput(_row_name(_("Name"), i)),
            )
            self.fields[f"participant_{i}"] = forms.IntegerField(
                label=_("Participant number"),
                required=False,
                min_value=1,
                max_value=100_000,
                widget=forms.NumberInput(_row_name(_("Participant number"), i)),
            )
            self.fields[f"votes_{i}"] = forms.IntegerField(
                label=_("Votes for"),
                required=False,
                min_value=0,
                max_value=10_000,
                widget=forms.NumberInput(_row_name(_("Votes for"), i)),
            )

    def rows(self) -> list[tuple[int, Any, Any, Any]]:
        """(row number, name field, participant field, votes field) for the template."""
        return [
            (i, self[f"name_{i}"], self[f"participant_{i}"], self[f"votes_{i}"])
            for i in range(1, ELECTED_ROWS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        d = super().clean() or {}
        for i in range(1, ELECTED_ROWS + 1):
            name = (d.get(f"name_{i}") or "").strip()
            if name and d.get(f"votes_{i}") is None:
                self.add_error(f"votes_{i}", _("Say how many votes %(name)s received.") % {"name": name})
            if not name and (d.get(f"votes_{i}") is not None or d.get(f"participant_{i}")):
                self.add_error(f"name_{i}", _("Write the name of the member elected."))
        chair = d.get("chair")
        if chair and not (d.get(f"name_{chair}") or "").strip():
            self.add_error("chair", _("The chair must be one of the members elected."))
        return d

    def elected(self) -> list[Any]:
        """The members elected, as the service takes them."""
        from appeals.services import Elected

        d = self.cleaned_data
        return [
            Elected(
                name=d[f"name_{i}"].strip(),
                votes=d[f"votes_{i}"],
                participant=d.get(f"participant_{i}"),
                is_chair=d.get("chair") == i,
            )
            for i in range(1, ELECTED_ROWS + 1)
            if (d.get(f"name_{i}") or "").strip()
        ]
