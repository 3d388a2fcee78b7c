"""Shapes of the pulka API's requests and answers (docs/api.md «Pulka events»). No rules here: settings are
checked by ``pulkas.services.event``, deals by the pure core through ``pulkas.services.sheet``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.serializers import ConfirmationSerializer, RowFieldsMixin
from preferans.pulka import TIEBREAKS
from pulkas.models import RatingChoice

EXACT = _('An exact number as a string: "12", "-16/3" (formats.md §1).')
MAX_INT = 2**31 - 1


def exact(help_text: Any = "", **kwargs: Any) -> serializers.CharField:
    return serializers.CharField(
        help_text=format_lazy("{} {}", help_text, EXACT) if help_text else EXACT, **kwargs
    )


# -- the event ------------------------------------------------------------------------------------------
class PulkaSettingsSerializer(serializers.Serializer):
    """The event's settings (pulka-spec §10): what decides the score is fixed once a round has been drawn."""

    pool = serializers.IntegerField(min_value=1, max_value=1000, help_text=_("The pool target."))
    max_deals = serializers.IntegerField(
        min_value=1, max_value=500, allow_null=True, help_text=_("The deal limit.")
    )
    round_minutes = serializers.IntegerField(
        min_value=1, max_value=1440, help_text=_("A round's time limit.")
    )
    raspasy_exit = serializers.ListField(
        child=serializers.IntegerField(min_value=6, max_value=10),
        max_length=5,
        help_text=_("Contract levels that end a chain of raspasy (default [6])."),
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAKS)),
        max_length=len(TIEBREAKS),
        help_text=_("Secondary criteria in order (pulka §9)."),
    )
    advance = serializers.ChoiceField(choices=[1, 2], help_text=_("Olympic: players going on from a table."))
    advance_by_round = serializers.DictField(
        child=serializers.ChoiceField(choices=[1, 2]),
        help_text=_('Olympic: players going on from a table in particular rounds, e.g. {"2": 2}.'),
    )
    olympic_refill = serializers.BooleanField(
        help_text=_("Olympic, not from the book: lucky losers and byes (off by default).")
    )
    compensation_x = serializers.IntegerField(min_value=-1000, max_value=1000, allow_null=True)
    compensation_y = serializers.IntegerField(min_value=-1000, max_value=1000, allow_null=True)
    rating_base = serializers.ChoiceField(choices=RatingChoice.choices)
    compression_threshold = serializers.IntegerField(min_value=1, max_value=1_000_000, allow_null=True)
    compression_divisor = serializers.IntegerField(min_value=1, max_value=1000, allow_null=True)
    rounds = serializers.IntegerField(min_value=1, max_value=50)
    cut_after = serializers.IntegerField(min_value=1, max_value=50, allow_null=True)
    cut_to = serializers.IntegerField(min_value=1, max_value=9999, allow_null=True)


class PulkaEventSerializer(serializers.Serializer):
    tournament = serializers.CharField(help_text=_("The tournament's slug."))
    name = serializers.CharField()
    form = serializers.CharField(help_text=_("olympic, compensation or swiss."))
    variant = serializers.CharField()
    players_per_table = serializers.IntegerField()
    publication = serializers.CharField()
    settings = PulkaSettingsSerializer()
    fixed = serializers.ListField(
        child=serializers.CharField(),
        help_text=_("Settings that can no longer change (a round has been drawn)."),
    )
    rounds_drawn = serializers.IntegerField()


# -- rounds and tables ----------------------------------------------------------------------------------
class PersonSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=_("The participant's number."))
    name = serializers.CharField()


class SeatedSerializer(PersonSerializer):
    seat = serializers.CharField(help_text=_("N, E, S or W."))


class PlayerResultSerializer(SeatedSerializer):
    vists = exact(help_text=_("Exact final vists of the pulka."))
    integer_vists = serializers.IntegerField()
    rating = exact(help_text=_("The round rating (after compression)."))
    rank = serializers.CharField(help_text=_('"1", or shared "2-3".'))


class AdvanceSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.CharField(), help_text=_("Seats that go on."))
    tied = serializers.ListField(child=serializers.CharField(), help_text=_("Seats tied across the cut."))


class PulkaTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    code = serializers.CharField(allow_null=True, help_text=_("Directors only (the table card's code)."))
    players = serializers.IntegerField()
    first_dealer = serializers.CharField()
    seats = SeatedSerializer(many=True, help_text=_("N, E, S (and W)."))
    state = serializers.CharField(
        help_text=_(
            "pending (the round has not started), playing, ended (by the pool or the deal limit) or stopped "
            "(by the director: time limit)."
        )
    )
    reason = serializers.CharField(help_text=_("pool, deal_limit, stopped or in_progress."))
    deals_count = serializers.IntegerField()
    stopped_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text=_("The sheet's version (changes with every write)."))
    advance = AdvanceSerializer(
        allow_null=True, help_text=_("Olympic, once results are public (or to directors).")
    )
    tie_decision = serializers.ListField(child=serializers.CharField(), allow_null=True)
    results = PlayerResultSerializer(
        many=True,
        allow_null=True,
        help_text=_(
            "Per player; only once the round has ended and the results are published (or to directors)."
        ),
    )


class PulkaRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text=_("pending (drawn), running or ended."))
    seed = serializers.CharField(
        help_text=_("The draw's seed (a whole number as a string: it may exceed 2^53).")
    )
    drawn_by = serializers.CharField(help_text=_("lot, rating or swiss."))
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text=_("The time limit."))
    ended_at = serializers.DateTimeField(allow_null=True)
    tables = PulkaTableSerializer(many=True)
    byes = PersonSerializer(many=True)


class StandingLineSerializer(PersonSerializer):
    place = serializers.CharField(help_text=_('"1", or shared "2-3".'))
    ratings = serializers.ListField(
        child=exact(allow_null=True), help_text=_("Per round; null: did not play.")
    )
    byes = serializers.ListField(child=serializers.IntegerField(), help_text=_("Rounds with a bye."))
    total = exact()
    vists = exact()
    cut = serializers.BooleanField(help_text=_("Swiss: missed the cut."))
    out_in_round = serializers.IntegerField(
        allow_null=True, help_text=_("Olympic: the round he went out in.")
    )
    tables = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), help_text=_("Table per round.")
    )


class PulkaStandingsSerializer(serializers.Serializer):
    form = serializers.CharField()
    rounds = serializers.ListField(child=serializers.IntegerField())
    lines = StandingLineSerializer(many=True)


# -- directors' requests --------------------------------------------------------------------------------
class DrawSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_("Repeat a draw with its seed (default: random)."),
    )


class RoundStopSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500,
        help_text=_(
            "Why every table still playing stops now (audited on each table), e.g. «Время тура вышло»."
        ),
    )


class TieSerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=serializers.CharField(max_length=1),
        min_length=1,
        max_length=4,
        help_text=_("The tied seats the director sends on (N, E, S, W)."),
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        default="",
        help_text=_("By the regulation, or by lot."),
    )


# -- the table device -----------------------------------------------------------------------------------
class IdentitySerializer(serializers.Serializer):
    """Who acts: a player of the table by number and PIN (or the ``Player`` header); a director by login."""

    number = serializers.IntegerField(
        required=False, min_value=1, max_value=100000, help_text=_("The acting player's participant number.")
    )
    pin = serializers.CharField(required=False, max_length=32, help_text=_("His PIN."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("number" in attrs) != ("pin" in attrs):
            missing = "pin" if "number" in attrs else "number"
            raise serializers.ValidationError({missing: [_("Give both the number and the PIN.")]})
        return attrs


class PulkaRowFieldsMixin(RowFieldsMixin):
    """A pulka row (formats §7.1): the protocol row's fields, and the director's breaks in the dealing order."""

    dealt_by = serializers.ChoiceField(
        choices=["N", "E", "S", "W"],
        required=False,
        allow_null=True,
        help_text=_("Directors only: the seat who dealt this deal out of turn; it stands (Code 3.2.14)."),
    )
    not_written = serializers.BooleanField(
        required=False,
        allow_null=True,
        help_text=_(
            "Directors only: the deal passes without a written game, only extra entries (Code 3.2.17, 4.2.10)."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        data = kwargs.get("data")
        if isinstance(data, Mapping) and data.get("not_written") is True:  # a deal not written has no game
            for name in ("contract", "declarer", "w1", "w2"):
                self.fields[name].required = False

    def row(self) -> dict[str, Any]:
        data = self.validated_data
        out = super().row()
        out.update({k: data[k] for k in ("dealt_by", "not_written") if data.get(k) is not None})
        return out


class PulkaDealWriteSerializer(PulkaRowFieldsMixin, IdentitySerializer):
    """The next deal: the row of formats.md §7.1, the writer, the others' confirmations, the sheet's version."""

    confirmations = ConfirmationSerializer(
        many=True,
        required=False,
        max_length=3,
        help_text=_(
            "The other players of the table who agree with the deal, each with his own PIN, typed on the "
            "same device: with all of them the deal is stored confirmed."
        ),
    )
    version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_INT,
        help_text=_("The sheet's version you saw; 409 sheet_changed if it moved."),
    )
    key = serializers.CharField(
        required=False, max_length=200, help_text=_("Idempotency key (or the Idempotency-Key header).")
    )


class PulkaCorrectSerializer(PulkaRowFieldsMixin, IdentitySerializer):
    version = serializers.IntegerField(min_value=0, max_value=MAX_INT)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


class PulkaConfirmSerializer(IdentitySerializer):
    pass


class NextDealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    first_hand = serializers.CharField()
    raspasy_step = serializers.IntegerField(help_text=_("The step a raspasy would have."))
    chain = serializers.IntegerField(help_text=_("Raspasy in a row just before it."))
    exit_minimum = serializers.IntegerField(
        allow_null=True, help_text=_("The lowest contract level allowed.")
    )


class DealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    raspasy_step = serializers.IntegerField(required=False, help_text=_("Raspasy only."))
    row = serializers.DictField(help_text=_("The row as written (formats.md §7.1)."))
    result = serializers.DictField(child=exact(), help_text=_("The deal's result in vists per seat."))
    sheet = serializers.DictField(
        help_text=_("Every player's pool, mountain and whists after the deal (§7.2).")
    )
    status = serializers.CharField(help_text=_("entered (awaiting confirmation), confirmed or director."))
    entered_by = serializers.IntegerField(allow_null=True, help_text=_("The writer's participant number."))
    confirmed_by = serializers.ListField(child=serializers.CharField())
    awaiting = serializers.ListField(child=serializers.CharField(), help_text=_("Seats yet to confirm."))


class SheetResultSerializer(serializers.Serializer):
    """The scored pulka (formats.md §7.2 without its deals): final if ended, else as if stopped now."""

    ended = serializers.BooleanField()
    reason = serializers.CharField()
    closing = serializers.DictField(child=exact())
    rounding = serializers.DictField(allow_null=True)
    players = serializers.ListField(child=serializers.DictField())
    advance = AdvanceSerializer(required=False)


class PulkaSheetSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    round = serializers.IntegerField()
    round_status = serializers.CharField(help_text=_("pending, running or ended."))
    ends_at = serializers.DateTimeField(allow_null=True)
    table = serializers.IntegerField()
    players = serializers.IntegerField()
    first_dealer = serializers.CharField()
    seats = SeatedSerializer(many=True)
    state = serializers.CharField()
    reason = serializers.CharField()
    stopped_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    deals = DealSerializer(
        many=True,
        allow_null=True,
        help_text=_(
            "To the table's players (Player header), directors, or anyone once the round has ended and "
            "the results are published."
        ),
    )
    result = SheetResultSerializer(allow_null=True)
    next_deal = NextDealSerializer(allow_null=True)


class DealAnswerSerializer(serializers.Serializer):
    deal = DealSerializer()
    version = serializers.IntegerField(help_text=_("The sheet's version now."))
    state = serializers.CharField()
    next_deal = NextDealSerializer(allow_null=True)
    warning = serializers.BooleanField(required=False, help_text=_("Corrections: a warning (Code 4.2.7)."))
    warned = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text=_(
            "Corrections: the seats warned (each player who gained from the wrong row, Code 4.2.4, 4.2.7)."
        ),
    )
    penalty = serializers.ListField(
        child=serializers.DictField(), required=False, help_text=_("Corrections.")
    )
    pending = serializers.DictField(
        required=False,
        allow_null=True,
        help_text=_(
            "Corrections of another player's entry: the warning or penalty that waits for the others' "
            "confirmation (Code 4.2.7)."
        ),
    )
