"""Forms of the rulings, appeals and corrections pages. They only read input; the services decide."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from django import forms
from django.core import validators
from django.utils.translation import gettext_lazy as _

from appeals.models import Appeal, CommitteeMember, Correction, Irregularity
from preferans.bundle.bounds import (
    DEPTH_MAX,
    LONG_TEXT_MAX,
    PARTICIPANT_NUMBER_MAX,
    JsonRefused,
    bounded_json,
    strip_controls,
)
from preferans.duplicate.rulings import Fault

SEATS = ("N", "E", "S", "W")
FAULT_CHOICES = [
    ("", _("not at fault (A+)")),
    (Fault.PARTLY.value, _("partly at fault (A)")),
    (Fault.OFFENDING.value, _("at fault (A-)")),
]
GRADE_CHOICES = [
    ("A+", _("A+ (average plus)")),
    ("A", _("A (average)")),
    ("A-", _("A- (average minus)")),
]
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


def _fault_field(seat: str) -> forms.Field:
    return forms.ChoiceField(label=_("Seat %(seat)s") % {"seat": seat}, choices=FAULT_CHOICES, required=False)


def _grade_field(seat: str) -> forms.Field:
    return forms.ChoiceField(
        label=_("Artificial, %(seat)s") % {"seat": seat}, choices=GRADE_CHOICES, required=False
    )


def _vists_field(seat: str) -> forms.Field:
    return forms.CharField(
        label=_("Assigned vists, %(seat)s") % {"seat": seat}, required=False, max_length=16
    )


def _percent_field(seat: str) -> forms.Field:
    return forms.DecimalField(
        label=_("Non-offender above A+, %(seat)s, %% of the top") % {"seat": seat},
        required=False,
        min_value=0,
        max_value=100,
        decimal_places=2,
    )


class TextsBounded(forms.Form):
    """Every text of the appeals' forms: at most :data:`LONG_TEXT_MAX` characters (the message says the bound),
    control characters stripped (line breaks kept) by the one helper every input uses."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.CharField) and field.max_length is None:
                field.max_length = LONG_TEXT_MAX
                field.validators.append(validators.MaxLengthValidator(LONG_TEXT_MAX))
                field.widget.attrs.setdefault("maxlength", str(LONG_TEXT_MAX))

    def _post_clean(self) -> None:
        super()._post_clean()
        for name, value in list(self.cleaned_data.items()):
            if isinstance(value, str):
                self.cleaned_data[name] = strip_controls(value, lines=True)


class _RowField(forms.JSONField):
    """A row as JSON; an empty field stays empty (not ``null``). Size, nesting and digits are bounded before
    the JSON is decoded (formats.md §2)."""

    def prepare_value(self, value: Any) -> Any:
        return "" if value is None else super().prepare_value(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value.strip():
            try:
                bounded_json(value, max_chars=LONG_TEXT_MAX)
            except JsonRefused as exc:
                raise forms.ValidationError(
                    _("The row is too large or nested too deep: at most %(n)s characters, %(depth)s levels."),
                    params={"n": LONG_TEXT_MAX, "depth": DEPTH_MAX},
                ) from exc
            except ValueError:
                pass  # not JSON: Django's own message says so
        return super().to_python(value)


def _played_row_field() -> forms.Field:
    return _RowField(
        label=_("The row as played"),
        required=False,
        help_text=_(
            "Only when the table could not enter it: the row's facts as in the bundle — contract, declarer, w1, "
            'w2, calls, play. Example: {"contract": "6S", "declarer": ["N", 6], "w1": ["E", 2], "w2": ["S", 2], '
            '"calls": {"E": "whist", "S": "whist"}, "play": "closed"}'
        ),
        widget=forms.Textarea(attrs={"rows": 3, "class": "mono"}),
    )


def _participant_field(seat: str) -> forms.Field:
    return forms.IntegerField(
        label=_("Participant at %(seat)s") % {"seat": seat},
        min_value=1,
        max_value=PARTICIPANT_NUMBER_MAX,
        required=False,
    )


APPEAL_NOTE_LABEL = _(
    "If late, or the director was not warned before the next deal: why the director admits it"
)


def _late_note_field(label: Any = None) -> forms.Field:
    return forms.CharField(
        label=label or _("If late: why the director admits it"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class SeatFieldsForm(TextsBounded):
    """A form with one field per seat for each ``(prefix, make_field)`` of ``seat_fields``: ``<prefix>_<seat>``."""

    seat_fields: ClassVar[tuple[tuple[str, Callable[[str], forms.Field]], ...]] = ()

    def __init__(self, *args: Any, seats: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        for seat in self.seats:
            for prefix, make_field in self.seat_fields:
                self.fields[f"{prefix}_{seat}"] = make_field(seat)

    def per_seat(self, prefix: str) -> dict[str, Any]:
        """Each seat's cleaned ``<prefix>_<seat>`` value (None when absent)."""
        return {s: self.cleaned_data.get(f"{prefix}_{s}") for s in self.seats}

    def per_seat_text(self, prefix: str) -> dict[str, str]:
        """Each seat's ``<prefix>_<seat>`` value, blank as ``""``."""
        return {s: v or "" for s, v in self.per_seat(prefix).items()}


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
    late_note = _late_note_field(APPEAL_NOTE_LABEL)

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


# §12 gives no values for the offences: the amount is the organisers' choice (docs/director-guide.md §7).
PENALTY_HELP = _(
    "Negative, e.g. -1 or -1/2 (rules §12). The rules give no values: the amount is the organisers' choice."
)


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

    seat_fields = (("grade", _grade_field), ("vists", _vists_field), ("percent", _percent_field))

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


def _room_field() -> forms.IntegerField:
    """The room of the table, when the event is split into rooms that play the same boards (rules §2)."""
    return forms.IntegerField(
        label=_("Room"),
        min_value=1,
        max_value=99,
        initial=1,
        required=False,
        help_text=_("1 unless the event is played in several rooms."),
    )


class IrregularityForm(SeatFieldsForm):
    session = forms.IntegerField(label=_("Session"), min_value=1, initial=1)
    kind = forms.ChoiceField(label=_("Irregularity"), choices=Irregularity.Kind.choices)
    round = forms.IntegerField(label=_("Round"), min_value=1)
    room = _room_field()
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
    row = _played_row_field()
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

    seat_fields = (("fault", _fault_field),)

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

    row = _played_row_field()
    percent_reason = forms.CharField(
        label=_("Why a non-offender gets more than A+"),
        required=False,
        max_length=300,
        help_text=_("Rules §11.2 B1: «at least 60 %», e.g. his session percentage when it is higher."),
    )

    seat_fields = (("fault", _fault_field), ("vists", _vists_field), ("percent", _percent_field))

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


class CorrectionForm(TextsBounded):
    session = forms.IntegerField(label=_("Session"), min_value=1, initial=1)
    kind = forms.ChoiceField(label=_("Kind"), choices=Correction.Kind.choices)
    round = forms.IntegerField(label=_("Round"), min_value=1)
    room = _room_field()
    table = forms.IntegerField(label=_("Table"), min_value=1)
    board = forms.IntegerField(label=_("Board"), min_value=1)
    description = forms.CharField(label=_("What is wrong"), widget=forms.Textarea(attrs={"rows": 3}))
    late_note = _late_note_field()


class CorrectionApplyForm(SeatFieldsForm):
    row = forms.JSONField(
        label=_("Corrected protocol row"),
        required=False,
        help_text=_("The row's facts as in the bundle: contract, declarer, w1, w2, calls, play …"),
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono"}),
    )

    seat_fields = (("seat", _participant_field),)

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
