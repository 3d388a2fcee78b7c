"""The protocol row as a director types it from the paper protocol (spec §11, rules §6), and adjustments.

The form only shapes the row; the core decides whether it is legal (``result_save`` → ``ResultRejected``),
and :func:`show_refusals` puts the core's reasons next to the fields they concern.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from preferans.game import ROW_CONTRACT_CODES
from preferans.game.seats import active_seats, table_seats
from preferans.game.variants import Rules
from preferans.numbers import format_fraction
from scoring.models import BIDDING_MAX, Result
from tournaments.errors import UserError
from ui.fields import JSONObjectField
from ui.labels import contract_label
from ui.typed_row import TypedRow, three_raspasy_hands, typed_row

EXTRA_KEYS = ("penalty_tricks", "wrong_cards", "misere_shared", "raspasy_step", "extra_entries")
CALLS = [
    ("", "—"),
    ("whist", _("whist")),
    ("pass", _("pass")),
    ("half", _("half-whist")),
    ("half_returned", _("half-whist, whist returned")),
]
PLAYS = [("", _("as the calls imply")), ("closed", _("closed")), ("open", _("open")), ("none", _("no play"))]
TRICKS = [("", "—")] + [(str(n), str(n)) for n in range(11)]


class RevisionForm(forms.Form):
    """The revision of the stored row the director read (empty: no row yet), sent back with the change: a row
    changed meanwhile by someone else is not overwritten (:mod:`scoring.revisions`)."""

    revision = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=10**9)

    def __init__(self, *args: Any, revision: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["revision"].initial = revision

    def read_revision(self) -> tuple[bool, int | None]:
        """(``replace``, ``revision``) for the write path: the row the director read, or a new row.

        A post without the field at all (a page from before revisions) corrects whatever is stored."""
        if "revision" not in self.data:
            return self.fields["revision"].initial is not None, None
        revision = self.cleaned_data.get("revision")
        return revision is not None, revision

    def show_current(self, current: Result | None) -> None:
        """After a refusal: the form keeps what was typed and now carries the current row's revision."""
        value = current.revision if current is not None else None
        self.fields["revision"].initial = value
        if self.is_bound:
            self.data = self.data.copy()
            self.data["revision"] = "" if value is None else str(value)


class ProtocolRowForm(RevisionForm):
    """One played deal: contract, the three columns (seat, tricks), the defenders' calls, the play."""

    contract = forms.ChoiceField(label=_("Contract"))
    declarer_seat = forms.ChoiceField(label=_("Declarer (raspasy: first hand)"), required=False)
    # The tricks and calls sit beside their seat's select under one label: each is named for screen readers.
    declarer_tricks = forms.TypedChoiceField(
        label=_("tricks"),
        choices=TRICKS,
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.Select(attrs={"aria-label": _("Declarer's tricks")}),
    )
    w1_seat = forms.ChoiceField(label=_("First whister (raspasy: second hand)"), required=False)
    w1_tricks = forms.TypedChoiceField(
        label=_("tricks"),
        choices=TRICKS,
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.Select(attrs={"aria-label": _("First whister's tricks")}),
    )
    w2_seat = forms.ChoiceField(label=_("Second whister (raspasy: third hand)"), required=False)
    w2_tricks = forms.TypedChoiceField(
        label=_("tricks"),
        choices=TRICKS,
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.Select(attrs={"aria-label": _("Second whister's tricks")}),
    )
    call1 = forms.ChoiceField(
        label=_("First whister's call"),
        choices=CALLS,
        required=False,
        widget=forms.Select(attrs={"aria-label": _("First whister's call")}),
    )
    call2 = forms.ChoiceField(
        label=_("Second whister's call"),
        choices=CALLS,
        required=False,
        widget=forms.Select(attrs={"aria-label": _("Second whister's call")}),
    )
    dealer_whist = forms.BooleanField(label=_("The dealer whisted"), required=False)
    play = forms.ChoiceField(
        label=_("Play"),
        choices=PLAYS,
        required=False,
        help_text=_("One whister and nothing chosen: closed, as on the players' phones."),
    )
    extra = JSONObjectField(
        label=_("Other fields (JSON)"),
        keys=EXTRA_KEYS,
        rows=2,
        help_text=_(
            "Rarely needed: penalty_tricks (Code 3.4.9), wrong_cards (Code 3.9.18: the seats found with a wrong "
            'number of cards, e.g. ["N"]), misere_shared, raspasy_step, extra_entries.'
        ),
    )
    # §13.1 «запись торговли»: only where the organisers set written bidding.
    bidding = forms.CharField(label=_("Bidding"), required=False, max_length=BIDDING_MAX)
    reason = forms.CharField(label=_("Reason for the change"), required=False, max_length=500)

    def __init__(
        self, *args: Any, players: int, dealer: str, rules: Rules, bidding: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if not bidding:
            del self.fields["bidding"]
        self.players, self.dealer = players, dealer
        self.three_hands = three_raspasy_hands(players, rules)
        self.fields["contract"].choices = [("", "—")] + [(c, contract_label(c)) for c in ROW_CONTRACT_CODES]
        seats = [("", _("auto"))] + [(s, s) for s in active_seats(players, dealer)]
        for name in ("declarer_seat", "w1_seat", "w2_seat"):
            self.fields[name].choices = seats
        if players == 3:
            del self.fields["dealer_whist"]

    def clean(self) -> dict[str, Any]:
        """The row by the rule the players' phones follow (``ui.typed_row``): raspasy hands on «auto» follow from
        the dealer, the defenders from the declarer, the second whister's (third hand's) tricks from the other two,
        and a deal nobody whisted takes its nominal tricks from the calls. Seats chosen by hand are kept for the
        core to check."""
        data = super().clean() or {}
        self.typed: dict[str, Any] | None = None
        if not data.get("contract") or self.errors:
            return data
        typed = TypedRow(
            data["contract"],
            seats=(data.get("declarer_seat") or "", data.get("w1_seat") or "", data.get("w2_seat") or ""),
            tricks=(data.get("declarer_tricks"), data.get("w1_tricks"), data.get("w2_tricks")),
            calls=(data.get("call1") or "", data.get("call2") or ""),
            dealer_whist=bool(data.get("dealer_whist")),
            play=data.get("play") or "",
        )
        entry = typed_row(typed, players=self.players, dealer=self.dealer, three_hands=self.three_hands)
        for problem in entry.problems:
            self.add_error(FIELD_OF_SLOT[problem.slot], problem.message)
        for column in ("declarer", "w1", "w2"):  # the seats as they follow, for the core's refusals of calls
            if column in entry.row:
                data[f"{column}_seat"] = entry.row[column][0]
        self.typed = entry.row
        return data

    def row(self) -> dict[str, Any]:
        """The row in the bundle's form (formats.md §2.1): the typed row and the rarely needed fields."""
        assert self.typed is not None, "row() of a form that is not valid"
        row = dict(self.typed)
        row.update(self.cleaned_data.get("extra") or {})
        return row

    def named_errors(self) -> list[str]:
        """Every error with the field it concerns named in words («Первый вистующий (распасы: вторая рука): …»),
        for a page that tells them away from the fields; a trick count is named by its column."""
        out = []
        for name, errors in self.errors.items():
            field = self.fields.get(name.replace("_tricks", "_seat"))
            label = field.label if field is not None else None
            out += [f"{label}: {error}" if label else str(error) for error in errors]
        return out

    @classmethod
    def initial_of(cls, result: Result) -> dict[str, Any]:
        return cls.initial_of_row(result.row or {}) | ({"bidding": result.bidding} if result.bidding else {})

    def bidding_text(self) -> str | None:
        """The written bidding (§13.1), or None where the event does not record it."""
        return self.cleaned_data.get("bidding", "") if "bidding" in self.fields else None

    @staticmethod
    def initial_of_row(row: Mapping[str, Any], extra_keys: tuple[str, ...] = EXTRA_KEYS) -> dict[str, Any]:
        """The form's fields filled from a stored row (to correct it)."""
        if not row:
            return {}
        out: dict[str, Any] = {"contract": row.get("contract", "")}
        for col in ("declarer", "w1", "w2"):
            if isinstance(row.get(col), list) and len(row[col]) == 2:
                out[f"{col}_seat"], out[f"{col}_tricks"] = row[col][0], row[col][1]
        calls = row.get("calls") or {}
        out["call1"] = calls.get(out.get("w1_seat"), "")
        out["call2"] = calls.get(out.get("w2_seat"), "")
        out["dealer_whist"] = bool(row.get("dealer_whist"))
        out["play"] = row.get("play", "")
        extra = {k: row[k] for k in extra_keys if k in row}
        out["extra"] = json.dumps(extra, ensure_ascii=False) if extra else ""
        return out


# Where the problems of a typed row (``ui.typed_row.SLOTS``) are told on the director's row form.
FIELD_OF_SLOT = {
    "declarer": "declarer_seat",
    "t1": "declarer_tricks",
    "t2": "w1_tricks",
    "t3": "w2_tricks",
    "call1": "call1",
    "call2": "call2",
}

FIELD_OF = {
    "contract": "contract",
    "declarer": "declarer_tricks",
    "w1": "w1_tricks",
    "w2": "w2_tricks",
    "play": "play",
    "dealer_whist": "dealer_whist",
}


def show_refusals(form: forms.Form, error: UserError) -> None:
    """A refused row on the form: each reason next to the field it concerns (the rest, or the error's message
    when it names no field, above the form). The words are the service's, in the page's language."""
    if not error.details:
        form.add_error(None, error.message)
    for d in error.details:
        field = FIELD_OF.get(d.field.split(".")[0])
        if d.field.startswith("calls.") and isinstance(form, ProtocolRowForm):
            seat = d.field.split(".", 1)[1]
            field = "call1" if form.cleaned_data.get("w1_seat") == seat else "call2"
        if d.field.startswith(("adjusted.", "assigned.")):
            field = d.field.split(".", 1)[1].lower()
        if field not in form.fields:
            field = None
        form.add_error(field, d.message)


GRADES = [
    ("A-", _("A- — 40 per cent: at fault")),
    ("A", _("A — 50 per cent: partly at fault")),
    ("A+", _("A+ — 60 per cent: not at fault")),
]


class ArtificialForm(RevisionForm):
    """Rules §11.2 B1: an artificial adjusted result per seat, instead of the row."""

    reason = forms.CharField(label=_("Reason"), max_length=500)

    def __init__(self, *args: Any, players: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = table_seats(players)
        for seat in self.seats:
            self.fields[seat.lower()] = forms.ChoiceField(label=seat, choices=GRADES, initial="A")
        for seat in self.seats:  # «по меньшей мере 60 %»: a non-offender (A+) may get more, with the reason
            self.fields[f"percent_{seat.lower()}"] = forms.CharField(
                label=_("%(seat)s: more than A+, per cent") % {"seat": seat},
                required=False,
                max_length=8,
                help_text=_(
                    "Only for a non-offender (A+), at least the tournament's A+; say why in the reason."
                )
                if seat == self.seats[0]
                else "",
            )
        self.order_fields(
            [s.lower() for s in self.seats] + [f"percent_{s.lower()}" for s in self.seats] + ["reason"]
        )

    def adjusted(self) -> dict[str, str]:
        return {seat: self.cleaned_data[seat.lower()] for seat in self.seats}

    @staticmethod
    def initial_of(existing: Any) -> dict[str, str] | None:
        """The stored artificial result (grades and any percentage above A+) as the form's initial values."""
        if existing is None or not existing.adjusted:
            return None
        percent = {f"percent_{k.lower()}": str(v) for k, v in (existing.percent or {}).items()}
        return {k.lower(): v for k, v in existing.adjusted.items()} | percent

    def percent(self) -> dict[str, str]:
        """A non-offender's percentage above A+ by seat (§11.2 B1), checked by the write path's one rule."""
        return {
            seat: text
            for seat in self.seats
            if (text := self.cleaned_data[f"percent_{seat.lower()}"].strip())
        }


class AssignedForm(RevisionForm):
    """Rules §11.2 B2: an assigned result in vists per seat (the sides need not add up to zero)."""

    reason = forms.CharField(label=_("Reason"), max_length=500)

    def __init__(self, *args: Any, players: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = table_seats(players)
        for seat in self.seats:
            self.fields[seat.lower()] = forms.CharField(label=format_seat(seat), max_length=16)
        self.order_fields([s.lower() for s in self.seats] + ["reason"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for seat in self.seats:
            key = seat.lower()
            if key in data:
                value = exact_number(data[key])
                if value is None:
                    self.add_error(key, _("Write a number of vists: 12, -5, 5.5 or 16/3."))
                else:
                    data[key] = value
        return data

    def assigned(self) -> dict[str, str]:
        return {seat: self.cleaned_data[seat.lower()] for seat in self.seats}


def exact_number(text: str) -> str | None:
    """«5,5», «5.5», «11/2», «-3» → the exact form ("11/2", "-3"); None when it is not a number."""
    try:
        return format_fraction(Fraction(text.strip().replace(",", ".").replace("−", "-").replace(" ", "")))
    except (ValueError, ZeroDivisionError):
        return None


def format_seat(seat: str) -> str:
    return f"{seat}, {_('vists')}"


# -- a deal of a pulka, typed as the duplicate row (formats §7.1 stores the same row) ------------------------
PULKA_EXTRA_KEYS = ("penalty_tricks", "wrong_cards", "misere_shared", "extra_entries")


class PulkaRowForm(ProtocolRowForm):
    """A deal typed field by field, as the duplicate director types a row (the dealer's seat decides the
    choices); ``version`` and ``key`` keep a retried or stale form from writing twice."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    key = forms.CharField(widget=forms.HiddenInput, max_length=40, required=False)

    def __init__(self, *args: Any, correcting: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["extra"].help_text = _(
            "Rarely needed: penalty_tricks (Code 3.4.9), wrong_cards (Code 3.9.18: the seats found with a wrong "
            'number of cards, e.g. ["N"]), misere_shared, extra_entries.'
        )
        if correcting:
            self.fields["reason"].required = True
            self.fields["reason"].label = _("Why the director corrects the deal")
        else:
            del self.fields["reason"]

    @staticmethod
    def initial_of_row(
        row: Mapping[str, Any], extra_keys: tuple[str, ...] = PULKA_EXTRA_KEYS
    ) -> dict[str, Any]:
        """As the duplicate row form, without the raspasy step (the sheet counts it)."""
        return ProtocolRowForm.initial_of_row(row, extra_keys)
