"""What the rulings, appeals and corrections forms are built of: the bounded texts every form has, a field per
seat, a row written as JSON (bounded before it is decoded), and the fields and labels several forms share.
They only read input; the services decide."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from django import forms
from django.core import validators
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from preferans.bundle.bounds import (
    DEPTH_MAX,
    LONG_TEXT_MAX,
    PARTICIPANT_NUMBER_MAX,
    JsonRefused,
    bounded_json,
    strip_controls,
)
from preferans.duplicate.rulings import Fault
from ui.fields import help_with_code

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


def fault_field(seat: str) -> forms.Field:
    """Whether the player at ``seat`` is at fault (the artificial result follows from it)."""
    return forms.ChoiceField(label=_("Seat %(seat)s") % {"seat": seat}, choices=FAULT_CHOICES, required=False)


def grade_field(seat: str) -> forms.Field:
    """The artificial result (A+, A, A-) the committee gives ``seat``."""
    return forms.ChoiceField(
        label=_("Artificial, %(seat)s") % {"seat": seat}, choices=GRADE_CHOICES, required=False
    )


def vists_field(seat: str) -> forms.Field:
    """The vists assigned to ``seat``, as typed (the service reads the number)."""
    return forms.CharField(
        label=_("Assigned vists, %(seat)s") % {"seat": seat}, required=False, max_length=16
    )


def percent_field(seat: str) -> forms.Field:
    """A non-offender's result above A+, in % of the top (rules §11.2 B1)."""
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


class RowField(forms.JSONField):
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
                    ngettext(
                        "The row is too large or nested too deep: at most %(n)s character, nesting depth at most "
                        "%(depth)s.",
                        "The row is too large or nested too deep: at most %(n)s characters, nesting depth at most "
                        "%(depth)s.",
                        LONG_TEXT_MAX,
                    ),
                    params={"n": LONG_TEXT_MAX, "depth": DEPTH_MAX},
                ) from exc
            except ValueError:
                pass  # not JSON: Django's own message says so
        return super().to_python(value)


def played_row_field() -> forms.Field:
    """The row as played, when the table could not enter it (JSON, bounded)."""
    return RowField(
        label=_("The row as played"),
        required=False,
        help_text=help_with_code(
            _("Only when the table could not enter it: the row's facts as in the bundle. Example:"),
            '{"contract": "6S", "declarer": ["N", 6], "w1": ["E", 2], "w2": ["S", 2], '
            '"calls": {"E": "whist", "S": "whist"}, "play": "closed"}',
        ),
        widget=forms.Textarea(attrs={"rows": 3, "class": "mono"}),
    )


def participant_field(seat: str) -> forms.Field:
    """The participant number at ``seat``."""
    return forms.IntegerField(
        label=_("Participant at %(seat)s") % {"seat": seat},
        min_value=1,
        max_value=PARTICIPANT_NUMBER_MAX,
        required=False,
    )


APPEAL_NOTE_LABEL = _(
    "If late, or the director was not warned before the next deal: why the director admits it"
)


def late_note_field(label: Any = None) -> forms.Field:
    """Why the director admits a late appeal or correction."""
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


# §12 gives no values for the offences: the amount is the organisers' choice (docs/director-guide.md §7).
PENALTY_HELP = _(
    "Negative, e.g. -1 or -1/2 (rules §12). The rules give no values: the amount is the organisers' choice."
)


def room_field() -> forms.IntegerField:
    """The room of the table, when the event is split into rooms that play the same boards (rules §2)."""
    return forms.IntegerField(
        label=_("Room"),
        min_value=1,
        max_value=99,
        initial=1,
        required=False,
        help_text=_("1 unless the event is played in several rooms."),
    )
