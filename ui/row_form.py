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
from preferans.game.seats import active_seats, clockwise_after, first_hand, table_seats
from preferans.numbers import format_fraction
from scoring.models import Result
from tournaments.errors import UserError
from ui.fields import JSONObjectField
from ui.labels import contract_label

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
    declarer_tricks = forms.TypedChoiceField(label=_("tricks"), choices=TRICKS, coerce=int, empty_value=None)
    w1_seat = forms.ChoiceField(label=_("First whister (raspasy: second hand)"), required=False)
    w1_tricks = forms.TypedChoiceField(label=_("tricks"), choices=TRICKS, coerce=int, empty_value=None)
    w2_seat = forms.ChoiceField(label=_("Second whister (raspasy: third hand)"), required=False)
    w2_tricks = forms.TypedChoiceField(label=_("tricks"), choices=TRICKS, coerce=int, empty_value=None)
    call1 = forms.ChoiceField(label=_("First whister's call"), choices=CALLS, required=False)
    call2 = forms.ChoiceField(label=_("Second whister's call"), choices=CALLS, required=False)
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
    reason = forms.CharField(label=_("Reason for the change"), required=False, max_length=500)

    def __init__(self, *args: Any, players: int, dealer: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players, self.dealer = players, dealer
        self.fields["contract"].choices = [("", "—")] + [(c, contract_label(c)) for c in ROW_CONTRACT_CODES]
        seats = [("", _("auto"))] + [(s, s) for s in active_seats(players, dealer)]
        for name in ("declarer_seat", "w1_seat", "w2_seat"):
            self.fields[name].choices = seats
        self.fields["declarer_seat"].choices = seats[1:] if players == 3 else seats
        if players == 3:
            del self.fields["dealer_whist"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        contract = data.get("contract")
        if not contract:
            return data
        active = active_seats(self.players, self.dealer)
        if contract == "-":
            first = data.get("declarer_seat") or first_hand(self.players, self.dealer)
        else:
            first = data.get("declarer_seat")
            if not first:
                self.add_error("declarer_seat", _("Who declared?"))
                return data
        if first not in active:
            self.add_error("declarer_seat", _("The dealer does not play at a table of four."))
            return data
        after = clockwise_after(active, first)
        data["w1_seat"] = data.get("w1_seat") or after[0]
        data["w2_seat"] = data.get("w2_seat") or after[1]
        data["declarer_seat"] = first
        for name in ("declarer_tricks", "w1_tricks", "w2_tricks"):
            if data.get(name) is None:
                self.add_error(name, _("How many tricks?"))
        return data

    def row(self) -> dict[str, Any]:
        """The row in the bundle's form (formats.md §2.1)."""
        d = self.cleaned_data
        row: dict[str, Any] = {
            "contract": d["contract"],
            "declarer": [d["declarer_seat"], d["declarer_tricks"]],
            "w1": [d["w1_seat"], d["w1_tricks"]],
            "w2": [d["w2_seat"], d["w2_tricks"]],
        }
        if d["contract"] not in ("-", "MIS"):
            calls = {
                seat: call for seat, call in ((d["w1_seat"], d["call1"]), (d["w2_seat"], d["call2"])) if call
            }
            if calls:
                row["calls"] = calls
            if d.get("dealer_whist"):
                row["dealer_whist"] = True
            play = d.get("play") or ""
            if not play:
                whists = sum(1 for c in calls.values() if c == "whist") + bool(d.get("dealer_whist"))
                # One whister and nothing said: closed, the phone form's default (the whister opens only by
                # saying so); two whisters play closed; nobody whisting, no play.
                play = "none" if whists == 0 else "closed"
            if play:
                row["play"] = play
        row.update(d.get("extra") or {})
        return row

    @classmethod
    def initial_of(cls, result: Result) -> dict[str, Any]:
        return cls.initial_of_row(result.row or {})

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
