"""Forms of the rulings, appeals and corrections pages at an event played in pulkas: the round, the table and
the deal instead of the session and the board. They only read (bounded) input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from appeals.form_fields import APPEAL_NOTE_LABEL, TextsBounded, late_note_field
from appeals.models import Appeal, Correction, Irregularity
from appeals.services import PULKA_KINDS

MAX_ROUND = 50  # PulkaEvent.rounds is at most 50
MAX_TABLE = 999
MAX_DEAL = 500  # PulkaEvent.max_deals is at most 500
CLAIM_MAX = 4000
TEXT_MAX = 2000


def _number(label: Any, top: int, required: bool = True) -> forms.Field:
    return forms.IntegerField(
        label=label,
        min_value=1,
        max_value=top,
        required=required,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def ruling_label(r: Irregularity) -> str:
    """A pulka ruling in the page's language: its kind and where."""
    where = gettext("Round %(r)s, table %(t)s") % {"r": r.round_number, "t": r.table_number}
    if r.deal_number:
        where += ", " + gettext("deal %(d)s") % {"d": r.deal_number}
    return f"{r.get_kind_display()} · {where}"


def _round_field() -> forms.Field:
    return _number(_("Round"), MAX_ROUND)


def _table_field(required: bool = True) -> forms.Field:
    return _number(_("Table"), MAX_TABLE, required)


def _deal_field(required: bool = True) -> forms.Field:
    return _number(_("Deal"), MAX_DEAL, required)


def _text(label: Any, *, rows: int, max_length: int = TEXT_MAX, required: bool = False) -> forms.Field:
    return forms.CharField(
        label=label,
        required=required,
        max_length=max_length,
        widget=forms.Textarea(attrs={"rows": rows, "maxlength": max_length}),
    )


class PulkaDirectorAppealForm(TextsBounded):
    """The director files an appeal (or records a notice) for a player about a pulka deal."""

    participant = _number(_("Player filing the appeal (number)"), 99999)
    round = _round_field()
    table = _table_field(required=False)
    deal = _deal_field()
    ruling = forms.ModelChoiceField(
        label=_("Ruling appealed against"), queryset=Irregularity.objects.none(), required=False
    )
    claim = _text(_("Substance of the claim"), rows=3, max_length=CLAIM_MAX)
    bidding = _text(_("Bidding"), rows=2)
    play = _text(_("Play"), rows=2)
    late_note = late_note_field(APPEAL_NOTE_LABEL)

    def __init__(self, *args: Any, tournament: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruling"].queryset = Irregularity.objects.filter(tournament=tournament)
        self.fields["ruling"].label_from_instance = ruling_label
        self.fields["table"].help_text = _("Leave it empty: the table where the player sat in that round.")


class PulkaIrregularityForm(TextsBounded):
    """An irregularity at a pulka table: the deal (if it concerns one) and what happened."""

    kind = forms.ChoiceField(label=_("Irregularity"), choices=[(k.value, k.label) for k in PULKA_KINDS])
    round = _round_field()
    table = _table_field()
    deal = _deal_field(required=False)
    description = _text(_("What happened"), rows=3)


class PulkaCorrectionForm(TextsBounded):
    """The director records a request to correct a pulka deal."""

    kind = forms.ChoiceField(label=_("Kind"), choices=Correction.Kind.choices)
    round = _round_field()
    table = _table_field()
    deal = _deal_field()
    description = _text(_("What is wrong"), rows=3, required=True)
    late_note = late_note_field()


class _PlayerPulkaForm(TextsBounded):
    """A player's form about a deal at one of his tables: the table chosen as ``"round-table"``, the deal typed."""

    table = forms.ChoiceField(label=_("Round and table"))
    deal = _deal_field()

    def __init__(self, *args: Any, tables: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = tables

    def where(self) -> tuple[int, int, int]:
        """(round, table, deal)."""
        r, t = (int(x) for x in self.cleaned_data["table"].split("-"))
        return r, t, int(self.cleaned_data["deal"])


class PlayerPulkaAppealForm(_PlayerPulkaForm):
    claim = _text(_("Substance of the claim"), rows=4, max_length=CLAIM_MAX, required=True)
    bidding = _text(_("Bidding"), rows=2)
    play = _text(_("Play"), rows=2)


class PlayerPulkaCorrectionForm(_PlayerPulkaForm):
    description = _text(_("What is wrong"), rows=3, required=True)


class PulkaDecideForm(TextsBounded):
    """The committee's decision on a pulka deal; an adjustment is the deal's corrected row (the row form beside
    it), a pulka having no artificial or assigned results."""

    outcome = forms.ChoiceField(label=_("Outcome"), choices=Appeal.Outcome.choices, widget=forms.RadioSelect)
    decision = _text(_("Decision of the appeals committee"), rows=4, max_length=CLAIM_MAX, required=True)
