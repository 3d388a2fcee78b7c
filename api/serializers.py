"""Shapes of the API's requests and answers. No rules here: rows are checked by the write path (scoring.rows)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from boards.models import Board
from preferans.bundle.bounds import (
    BOARDS_MAX,
    PARTICIPANT_NUMBER_MAX,
    REASON_MAX,
    ROOMS_MAX,
    ROUNDS_MAX,
    TABLES_MAX,
)
from preferans.game import ROW_CONTRACT_CODES, ROW_FIELDS
from scoring.confirmation import confirmer_seats
from scoring.models import BIDDING_MAX, Penalty, Result, Standing
from tournaments.models import Round, Seating, Session, Table, Tournament
from tournaments.numbers import MAX_PARTICIPANT, participant_number

SEATS = ("N", "E", "S", "W")
ID_MAX = 2**31 - 1  # the largest id a database row has
ROW_KEYS = ROW_FIELDS  # the protocol row fields of the core, vists included


# -- errors (documentation of the one error shape) ------------------------------------------------------
class ErrorDetailSerializer(serializers.Serializer):
    field = serializers.CharField(help_text=_("The request field at fault (empty: the request as a whole)."))
    code = serializers.CharField(help_text=_("Stable machine code, e.g. tricks_total."))
    message = serializers.CharField(help_text=_("For people, in the request's language."))


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text=_(
            "row_invalid, invalid, conflict, locked, not_authenticated, authentication_failed, "
            "permission_denied, not_found, throttled, …"
        )
    )
    message = serializers.CharField()
    details = ErrorDetailSerializer(many=True)


class ErrorSerializer(serializers.Serializer):
    error = ErrorBodySerializer()


# -- fields ---------------------------------------------------------------------------------------------
@extend_schema_field(
    {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": {
            "oneOf": [
                {"type": "string", "enum": list(SEATS)},
                {"type": "integer", "minimum": 0, "maximum": 10},
            ]
        },
        "description": _("[seat, tricks]"),
        "example": ["E", 6],
    }
)
class PositionField(serializers.Field):
    default_error_messages = {"invalid": _('Write [seat, tricks], for example ["E", 6].')}

    def to_internal_value(self, data: Any) -> list[Any]:
        if (
            not isinstance(data, list)
            or len(data) != 2
            or data[0] not in SEATS
            or isinstance(data[1], bool)
            or not isinstance(data[1], int)
        ):
            self.fail("invalid")
        return [data[0], data[1]]

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(
    {
        "type": "object",
        "properties": {s: {"type": "integer", "minimum": 1} for s in SEATS},
        "description": _("Participant numbers by seat (3-player tables have no W)."),
        "example": {"N": 1, "E": 6, "S": 11, "W": 16},
    }
)
class SeatsField(serializers.Field):
    default_error_messages = {
        "invalid": _('Give participant numbers by seat, e.g. {{"N": 1, "E": 6, "S": 11}}.'),
        "out_of_range": _("Participant numbers are whole numbers from 1 to %(max)s."),
    }

    def to_internal_value(self, data: Any) -> dict[str, int]:
        if not isinstance(data, dict) or not data:
            self.fail("invalid")
        out = {}
        for seat, number in data.items():
            if seat not in SEATS or isinstance(number, bool) or not isinstance(number, int):
                self.fail("invalid")
            if participant_number(number) is None:  # 10**20 would overflow the database's integer
                raise serializers.ValidationError(
                    self.error_messages["out_of_range"] % {"max": MAX_PARTICIPANT}, code="out_of_range"
                )
            out[seat] = number
        return out

    def to_representation(self, value: Any) -> Any:
        return value


class RowFieldsMixin(serializers.Serializer):
    """The row's facts (formats.md §2.1, scoring spec §11): checked by the core, not here."""

    contract = serializers.ChoiceField(
        choices=list(ROW_CONTRACT_CODES), help_text=_("6S … 10NT, MIS or - (raspasy)")
    )
    declarer = PositionField(help_text=_("Declarer (raspasy: first hand) as [seat, tricks]."))
    w1 = PositionField(help_text=_("First defender (raspasy: second hand)."))
    w2 = PositionField(help_text=_("Second defender (raspasy: third hand)."))
    calls = serializers.DictField(
        child=serializers.ChoiceField(choices=["whist", "pass", "half", "half_returned"]),
        required=False,
        allow_null=True,
        help_text=_("Each defender's call by seat: whist, pass, half, half_returned."),
    )
    play = serializers.ChoiceField(choices=["closed", "open", "none"], required=False, allow_null=True)
    dealer_whist = serializers.BooleanField(required=False, allow_null=True)
    penalty_tricks = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=10)
    wrong_cards = serializers.ListField(
        child=serializers.CharField(max_length=2),
        required=False,
        allow_null=True,
        max_length=4,
        help_text=_(
            'Directors only: the seats found with a wrong number of cards (Code 3.9.18), e.g. ["N"].'
        ),
    )
    misere_shared = serializers.BooleanField(required=False, allow_null=True)
    raspasy_step = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10)
    extra_entries = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        allow_null=True,
        help_text=_("Directors only (spec §9)."),
    )
    vists = serializers.DictField(
        child=serializers.CharField(allow_null=True),
        required=False,
        allow_null=True,
        help_text=_("Optional: the vists as written; refused unless they equal the computed ones."),
    )
    bidding = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=BIDDING_MAX * 2,  # the service trims spaces and refuses more than BIDDING_MAX in words
        trim_whitespace=False,
        help_text=_(
            "Optional (rules §13.1, written bidding): the bidding as written, one line; only where the organisers "
            "set written bidding. Omitted on a correction: the stored bidding stays."
        ),
    )

    def row(self) -> dict[str, Any]:
        data = self.validated_data
        return {k: data[k] for k in ROW_KEYS if data.get(k) is not None}


class ConfirmationSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, max_value=PARTICIPANT_NUMBER_MAX, help_text=_("The participant's number.")
    )
    pin = serializers.CharField(max_length=32, help_text=_("The participant's PIN."))


class ResultWriteSerializer(RowFieldsMixin):
    """Create a row. Players give only ``board`` and the row (their table and round are known)."""

    confirmations = ConfirmationSerializer(
        many=True,
        required=False,
        max_length=3,
        help_text=_(
            "Players: the other players of the table who agree with the row, each with his own PIN, "
            "typed on the same device before it is sent. With all of them the row is stored confirmed in one "
            "request; without, each confirms it later with POST …/confirm/."
        ),
    )

    session = serializers.IntegerField(
        required=False, min_value=1, max_value=ID_MAX, help_text=_("Directors: the session's id.")
    )
    board = serializers.IntegerField(min_value=1, max_value=BOARDS_MAX)
    round = serializers.IntegerField(required=False, min_value=1, max_value=ROUNDS_MAX)
    table = serializers.IntegerField(required=False, min_value=1, max_value=TABLES_MAX)
    room = serializers.IntegerField(required=False, min_value=1, max_value=ROOMS_MAX, default=1)
    seats = SeatsField(
        required=False, help_text=_("Directors: defaults to the seating of that round and table.")
    )
    version = serializers.CharField(required=False, max_length=8, default="A")
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=REASON_MAX, help_text=_("Directors: why.")
    )


class ResultUpdateSerializer(RowFieldsMixin):
    """Replace the row's facts (players: the player at N before anybody confirmed; directors: any time)."""

    reason = serializers.CharField(required=False, allow_blank=True, max_length=REASON_MAX)
    revision = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=10**9,
        help_text=_(
            "The row's revision as you read it (or the If-Match header): a row changed since is refused "
            "with 409 row_changed, nothing overwritten."
        ),
    )


class ResultSerializer(serializers.Serializer):
    """A stored row: where it was played, the row's facts, the core's vists and its confirmation state."""

    id = serializers.IntegerField(read_only=True)
    session = serializers.IntegerField(read_only=True)
    board = serializers.IntegerField(read_only=True)
    round = serializers.IntegerField(read_only=True)
    table = serializers.IntegerField(read_only=True)
    room = serializers.IntegerField(read_only=True)
    seats = SeatsField(read_only=True)
    dealer = serializers.CharField(read_only=True)
    contract = serializers.CharField(read_only=True, allow_null=True)
    declarer = PositionField(read_only=True, allow_null=True)
    w1 = PositionField(read_only=True, allow_null=True)
    w2 = PositionField(read_only=True, allow_null=True)
    calls = serializers.DictField(child=serializers.CharField(), read_only=True, allow_null=True)
    play = serializers.CharField(read_only=True, allow_null=True)
    dealer_whist = serializers.BooleanField(read_only=True, allow_null=True)
    penalty_tricks = serializers.IntegerField(read_only=True, allow_null=True)
    wrong_cards = serializers.ListField(child=serializers.CharField(), read_only=True, allow_null=True)
    misere_shared = serializers.BooleanField(read_only=True, allow_null=True)
    raspasy_step = serializers.IntegerField(read_only=True, allow_null=True)
    bidding = serializers.CharField(
        read_only=True, help_text=_("The bidding as written (rules §13.1), or empty.")
    )
    adjusted = serializers.DictField(child=serializers.CharField(), read_only=True, allow_null=True)
    assigned = serializers.DictField(child=serializers.CharField(), read_only=True, allow_null=True)
    annulled = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text=_(
            "Seats whose result on this row a ruling annulled (rules §11.6 B: a player's second result)."
        ),
    )
    percent = serializers.DictField(
        child=serializers.CharField(),
        read_only=True,
        allow_null=True,
        help_text=_("Per-seat percentages of the top set by a ruling (rules §11.2 B1 above A+, §11.3 C)."),
    )
    version = serializers.CharField(read_only=True)
    revision = serializers.IntegerField(
        read_only=True,
        help_text=_("1 when entered, one more on every change; send it back with a correction."),
    )
    vists = serializers.DictField(
        child=serializers.CharField(), read_only=True, allow_null=True, help_text=_('Exact numbers: "16/3".')
    )
    matchpoints = serializers.DictField(
        child=serializers.CharField(),
        read_only=True,
        allow_null=True,
        help_text=_("Only once results are public (or to directors)."),
    )
    top = serializers.CharField(read_only=True, allow_null=True)
    status = serializers.ChoiceField(choices=Result.Status.choices, read_only=True)
    confirmed_by = serializers.ListField(child=serializers.CharField(), read_only=True)
    awaiting = serializers.ListField(child=serializers.CharField(), read_only=True)
    dispute = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    updated_at = serializers.DateTimeField(read_only=True)

    def to_representation(self, instance: Result) -> dict[str, Any]:
        show_scores = self.context.get("show_scores", lambda r: False)(instance)
        row = instance.row or {}
        players = 4 if instance.seat_w_id else 3
        confirmers = confirmer_seats(players)
        top = instance.top
        return {
            "id": instance.pk,
            "session": instance.session_id,
            "board": instance.board_number,
            "round": instance.round_number,
            "table": instance.table_number,
            "room": instance.room,
            "seats": instance.seats(),
            "dealer": instance.dealer,
            **{k: row.get(k) for k in ROW_KEYS if k not in ("vists", "extra_entries")},
            "adjusted": instance.adjusted,
            "assigned": instance.assigned,
            "annulled": list(instance.annulled or []),
            "percent": instance.percent,
            "version": instance.version,
            "revision": instance.revision,
            "vists": instance.vists,
            "bidding": instance.bidding,
            "matchpoints": instance.matchpoints if show_scores else None,
            "top": (str(top) if top is not None else None) if show_scores else None,
            "status": instance.status,
            "confirmed_by": list(instance.confirmed_by or []),
            "awaiting": [s for s in confirmers if s not in (instance.confirmed_by or [])]
            if instance.status == Result.Status.ENTERED
            else [],
            "dispute": instance.dispute,
            "created_at": serializers.DateTimeField().to_representation(instance.created_at),
            "updated_at": serializers.DateTimeField().to_representation(instance.updated_at),
        }


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, help_text=_("What is wrong with the row."))


class AdjustmentSerializer(serializers.Serializer):
    """An artificial (A-/A/A+) or assigned (vists) result in place of a played row; directors only."""

    session = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    board = serializers.IntegerField(min_value=1, max_value=BOARDS_MAX)
    round = serializers.IntegerField(min_value=1, max_value=ROUNDS_MAX)
    table = serializers.IntegerField(min_value=1, max_value=TABLES_MAX)
    room = serializers.IntegerField(required=False, min_value=1, max_value=ROOMS_MAX, default=1)
    seats = SeatsField(required=False)
    adjusted = serializers.DictField(
        child=serializers.ChoiceField(choices=["A-", "A", "A+"]),
        required=False,
        help_text=_('{"N": "A+", …}'),
    )
    assigned = serializers.DictField(child=serializers.CharField(max_length=32), required=False)
    percent = serializers.DictField(
        child=serializers.CharField(max_length=8),
        required=False,
        help_text=_(
            '§11.2 B1: a non-offender (A+) above the tournament\'s A+, e.g. {"N": "71"}; '
            "§11.3 C on an assigned row: a seat's percentage of the top."
        ),
    )
    version = serializers.CharField(required=False, max_length=8, default="A")
    reason = serializers.CharField(max_length=REASON_MAX)

    def validate_percent(self, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(k for k in value if k not in ("N", "E", "S", "W"))
        if unknown:
            raise serializers.ValidationError(_("Seats are N, E, S and W."), code="percent_seat")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("adjusted" in attrs) == ("assigned" in attrs):
            raise serializers.ValidationError(_("Give either adjusted or assigned."), code="adjustment_kind")
        return attrs


# -- reference data -------------------------------------------------------------------------------------
class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "variant",
            "players_per_table",
            "deals_per_set",
            "unequal_results",
            "starts_on",
            "venue",
            "zone",
            "publication",
            "confirmation",
        ]


class SessionSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Session
        fields = ["id", "tournament", "number", "status", "ended_at", "scored_at"]


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["id", "session", "number", "status", "started_at", "ended_at"]


class TableSerializer(serializers.ModelSerializer):
    code = serializers.SerializerMethodField(help_text=_("Directors only (the table card's code)."))

    class Meta:
        model = Table
        fields = ["id", "session", "room", "number", "code"]

    def get_code(self, obj: Table) -> str | None:
        return obj.code if self.context.get("show_codes", lambda t: False)(obj) else None


class SeatingSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_number")
    table = serializers.IntegerField(source="table_number")
    set = serializers.IntegerField(source="set_number")
    seats = serializers.SerializerMethodField()

    class Meta:
        model = Seating
        fields = ["id", "session", "room", "round", "table", "set", "seats"]

    @extend_schema_field(SeatsField)
    def get_seats(self, obj: Seating) -> dict[str, int]:
        return {seat: p.number for seat, p in obj.seats().items()}


class BoardSerializer(serializers.ModelSerializer):
    set = serializers.IntegerField(source="set_number")
    hands = serializers.SerializerMethodField(help_text=_("Only after the session, once results are public."))
    prikup = serializers.SerializerMethodField()

    class Meta:
        model = Board
        fields = ["id", "session", "number", "set", "dealer", "hands", "prikup"]

    def _show(self, obj: Board) -> bool:
        return bool(self.context.get("show_deals", lambda b: False)(obj))

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "string"}, "nullable": True})
    def get_hands(self, obj: Board) -> dict[str, str] | None:
        return obj.hands if self._show(obj) else None

    @extend_schema_field({"type": "array", "items": {"type": "string"}, "nullable": True})
    def get_prikup(self, obj: Board) -> list[str] | None:
        return obj.prikup if self._show(obj) else None


class StandingSerializer(serializers.ModelSerializer):
    participant = serializers.IntegerField(source="participant.number")
    name = serializers.CharField(source="participant.name")
    disqualified = serializers.SerializerMethodField(
        help_text=_("Disqualified (rules §13.2.4): no rank, listed last; the results played stand.")
    )

    class Meta:
        model = Standing
        fields = ["position", "rank", "participant", "name", "matchpoints", "max", "percent", "disqualified"]

    def get_disqualified(self, obj: Standing) -> bool:
        return obj.participant.number in self.context.get("disqualified", frozenset())


class PenaltySerializer(serializers.ModelSerializer):
    participant = serializers.IntegerField(source="participant.number", min_value=1)
    session = serializers.IntegerField(source="session_id", min_value=1)
    matchpoints = serializers.CharField(max_length=32, help_text=_('Matchpoints, exact: "-2", "-1/2".'))
    reason = serializers.CharField(max_length=300)

    class Meta:
        model = Penalty
        fields = ["id", "session", "participant", "matchpoints", "reason", "created_at"]
        read_only_fields = ["id", "created_at"]
