"""The pulka table's device: read the sheet, write the next deal, confirm it, correct it.

The table is found by its code (the table card's) through the one lookup of both forms
(``events.tables.find_table``: unknown codes counted per client, as on every channel). A player shows who he is
either in the body (``number`` and ``pin``) or with the one player header of the API, ``Authorization: Player
<table code>:<number>:<PIN>`` (``api.auth.PlayerAuthentication``, for a table of either form); wrong PINs are
counted by the one PIN check (``events.tables.player_at`` → ``tournaments.pins.pin_holder``). A director acts with
his token or session login. Every write goes through ``pulkas.services.sheet``: the core checks the deal, the
``version`` guard refuses a write on a sheet that changed since it was read (409 ``sheet_changed``), and a retry
with the same idempotency key returns the deal stored the first time (200, ``Idempotent-Replayed: true``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.auth import TablePlayer
from api.common import ERRORS, IDEMPOTENCY, READ_ERRORS, ApiView, is_director, require_director, viewer
from api.errors import ApiError
from api.pulka_data import deal_answer, sheet_data
from api.serializers_pulka import (
    DealAnswerSerializer,
    PulkaConfirmSerializer,
    PulkaCorrectSerializer,
    PulkaDealWriteSerializer,
    PulkaSheetSerializer,
)
from duplicate.table_rows import check_key, scoped_key
from events.tables import find_table, player_at
from pulkas.models import PulkaDeal, PulkaTable
from pulkas.services.sheet import confirm_deal, correct_deal, enter_deal, load_sheet
from tournaments.errors import Conflict, UserError
from tournaments.models import Participant
from tournaments.pins import WrongPin, client_ip
from tournaments.table_codes import normalise_code
from visibility import can_see_sheet

TAG = ["pulka table"]


def find_pulka_table(code: object, *, client: str) -> PulkaTable:
    """The pulka table with this code (``events.tables.find_table``); a duplicate table's code is refused."""
    table = find_table(code, client=client)
    if not isinstance(table, PulkaTable):
        raise UserError(
            _("This code is a duplicate table's: its rows are entered at /api/results/."),
            code="not_pulka_table",
            status=404,
        )
    return table


class PulkaTableView(ApiView, APIView):
    """A pulka table's view: the API's one authentication and throttles (``api.common.ApiView``)."""

    def table(self, code: str) -> PulkaTable:
        user = self.request.user
        mine = user.table if isinstance(user, TablePlayer) else None
        if isinstance(mine, PulkaTable) and mine.code == normalise_code(code):
            return mine  # found (and counted) by the authentication
        return find_pulka_table(code, client=client_ip(self.request._request))

    def director(self, table: PulkaTable) -> bool:
        return is_director(self.request.user, table.round.tournament)

    def identify(self, table: PulkaTable, number: object, pin: object, field: str) -> Participant:
        try:
            return player_at(table, number=number, pin=pin, client=client_ip(self.request._request))
        except WrongPin as exc:
            message = _("Wrong participant number or PIN.")
            raise ApiError(
                "wrong_pin", message, 403, [{"field": field, "code": "wrong_pin", "message": message}]
            ) from exc

    def actor(self, table: PulkaTable, data: dict[str, Any]) -> tuple[Participant | None, Any]:
        """Who acts: (the player, None) or (None, the director); refused otherwise."""
        user = self.request.user
        if "number" in data:
            return self.identify(table, data["number"], data["pin"], "pin"), None
        if isinstance(user, TablePlayer):
            if not user.plays_at(table):
                raise ApiError("not_this_table", _("Players write only on their own table's sheet."), 403)
            return user.participant, None
        if not getattr(user, "is_authenticated", False):
            raise exceptions.NotAuthenticated()
        require_director(user, table.round.tournament)
        return None, user

    def answer(self, table: PulkaTable, number: int, status: int = 200, **extra: Any) -> Response:
        sheet = load_sheet(PulkaTable.objects.select_related("round__tournament").get(pk=table.pk))
        response = Response(deal_answer(sheet, number, (lambda: extra) if extra else None), status=status)
        return response


def _bare(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "raspasy_step"}


class PulkaSheetView(PulkaTableView):
    @extend_schema(
        tags=TAG,
        responses={200: PulkaSheetSerializer, **READ_ERRORS},
        summary=gettext_lazy("A pulka table's sheet"),
        description=gettext_lazy(
            "Anyone with the table's code sees who sits where, the state and the version. The deals (the "
            "rows as written, each deal's result and the sheet after it), the score now and the next deal are shown "
            "to the table's players (`Authorization: Player <code>:<number>:<PIN>`), to directors, and to anyone "
            "once the round has ended and the results are published."
        ),
    )
    def get(self, request: Request, code: str) -> Response:
        table = self.table(code)
        show = can_see_sheet(viewer(request.user), table)  # the one rule of every channel
        return Response(sheet_data(load_sheet(table), show_rows=show))


class PulkaDealsView(PulkaTableView):
    @extend_schema(
        tags=TAG,
        request=PulkaDealWriteSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: DealAnswerSerializer, 200: DealAnswerSerializer, **ERRORS},
        summary=gettext_lazy("Write the next deal"),
        description=gettext_lazy(
            "A player of the table (`number` and `pin`, or the Player header) writes the next deal while "
            "the round runs; with every other player's `confirmations` it is stored confirmed, else each confirms it "
            "later. A director writes it as the director's. The row is checked by the core against every deal "
            "before it (400 row_invalid, the reasons per field in `details`); `version` must be the sheet's (409 "
            "sheet_changed); 409 previous_unconfirmed while the last deal waits for confirmation; after the time "
            "limit the deal in progress is written, then 409 time_limit until the director extends the time or "
            "stops the table (004 fn 32). A director may also write `dealt_by` and `not_written` (formats §7.1; "
            "403 director_only from a player). A retry with the same key returns the same deal: 200 with "
            "«Idempotent-Replayed: true»."
        ),
    )
    def post(self, request: Request, code: str) -> Response:
        table = self.table(code)
        serializer = PulkaDealWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        participant, director = self.actor(table, data)
        row = serializer.row()
        if director is not None and data.get("confirmations"):
            raise exceptions.ValidationError(
                {
                    "confirmations": [
                        _("Confirmations come from the players at the table; a director's row needs none.")
                    ]
                }
            )
        others = [
            self.identify(table, c["number"], c["pin"], f"confirmations.{i}.pin")
            for i, c in enumerate(data.get("confirmations") or ())
        ]
        writer = f"p{participant.pk}" if participant is not None else f"u{director.pk}"
        key = scoped_key(
            f"pulka:{table.pk}:{writer}", check_key(request.headers.get("Idempotency-Key") or data.get("key"))
        )
        if key:
            replay = self.replay(table, key, row)
            if replay is not None:
                return replay
        try:
            deal, created = enter_deal(
                table=table,
                row=row,
                now=timezone.now(),
                participant=participant,
                user=director,
                confirmations=others,
                key=key,
                version=data["version"],
            )
        except (Conflict, IntegrityError):
            replay = self.replay(table, key, row) if key else None  # the same request twice at once
            if replay is None:
                raise
            return replay
        if not created and key:  # stored by the same request an instant ago
            return self.replay(table, key, row) or self.answer(table, deal.number)
        return self.answer(table, deal.number, status=201)

    def replay(self, table: PulkaTable, key: str, row: dict[str, Any]) -> Response | None:
        deal = PulkaDeal.objects.filter(table=table, idempotency_key=key).first()
        if deal is None:
            return None
        if _bare(deal.row) != _bare(row):
            raise ApiError(
                "idempotency_key_reused",
                _("This idempotency key was already used for another row; send a new key."),
                409,
            )
        response = self.answer(table, deal.number)
        response["Idempotent-Replayed"] = "true"
        return response


class PulkaConfirmView(PulkaTableView):
    @extend_schema(
        tags=TAG,
        request=PulkaConfirmSerializer,
        responses={200: DealAnswerSerializer, **ERRORS},
        summary=gettext_lazy("Confirm a deal"),
        description=gettext_lazy(
            "Another player of the table agrees with the deal as written (the writer does not: 400 "
            "own_deal); once all have, it is confirmed. Confirming twice is harmless."
        ),
    )
    def post(self, request: Request, code: str, number: int) -> Response:
        table = self.table(code)
        serializer = PulkaConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        participant, _director = self.actor(table, serializer.validated_data)
        if participant is None:
            raise ApiError(
                "permission_denied",
                _("Confirmations come from the players at the table; a director's row needs none."),
                403,
            )
        confirm_deal(table=table, number=number, participant=participant, now=timezone.now())
        return self.answer(table, number)


class PulkaCorrectView(PulkaTableView):
    @extend_schema(
        tags=TAG,
        request=PulkaCorrectSerializer,
        responses={200: DealAnswerSerializer, **ERRORS},
        summary=gettext_lazy("Correct a deal"),
        description=gettext_lazy(
            "Players: only the last deal, before the next is written (Code 4.2.9, whose «until the next game is "
            "bid» the software approximates so; 409 correction_too_late); never a deal the director wrote or "
            "corrected (403 director_entry_final) nor the confirmed final deal of a finished pulka (409 "
            "pulka_finished). Once it was confirmed, each player who gains from the wrong row answers for it, "
            "whoever typed it (Code 4.2.4): his first time a warning (`warned` lists the seats), each later one the "
            "penalty of what he added in his own favour (Code 4.2.7; `penalty`); a forgotten entry is written late "
            "without either (Code 4.2.10). A correction that makes another player answer brings them only when the "
            "others confirm it (`pending` until then). Directors: any deal, with a `reason`. The corrected deal "
            "waits for the others' confirmation again. `version` as for a new deal."
        ),
    )
    def post(self, request: Request, code: str, number: int) -> Response:
        table = self.table(code)
        serializer = PulkaCorrectSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        participant, director = self.actor(table, data)
        row = serializer.row()
        correction = correct_deal(
            table=table,
            number=number,
            row=row,
            now=timezone.now(),
            participant=participant,
            user=director,
            reason=data.get("reason", ""),
            version=data["version"],
        )
        return self.answer(
            table,
            number,
            warning=correction.warning,
            warned=list(correction.warned),
            penalty=list(correction.penalty),
            pending=correction.pending,
        )
