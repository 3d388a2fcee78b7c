"""Protocol rows: entry by the player at N or a director, correction, confirmation and dispute."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

import visibility
from api.auth import TablePlayer
from api.common import (
    ERRORS,
    IDEMPOTENCY,
    READ_ERRORS,
    ApiView,
    _int_param,
    _param,
    require_auth,
    require_director,
    viewer,
)
from api.errors import ApiError
from api.serializers import (
    DisputeSerializer,
    ResultSerializer,
    ResultUpdateSerializer,
    ResultWriteSerializer,
)
from duplicate import at_table, table_rows
from scoring.confirmation import result_confirm
from scoring.errors import ResultConflict
from scoring.models import Result
from scoring.revisions import parse_revision
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace, RowWriting
from scoring.rows import result_delete, result_save
from tournaments.models import Session
from tournaments.pins import client_ip


# -- results --------------------------------------------------------------------------------------------
@extend_schema_view(
    list=extend_schema(
        parameters=[
            _param("session", gettext_lazy("Session id.")),
            _param("board", gettext_lazy("Board number.")),
            _param("round", gettext_lazy("Round number.")),
            _param("table", gettext_lazy("Table number.")),
            _param("status", gettext_lazy("entered, confirmed, disputed or director."), OpenApiTypes.STR),
        ],
        responses={200: ResultSerializer(many=True), **READ_ERRORS},
    ),
    retrieve=extend_schema(responses={200: ResultSerializer, **READ_ERRORS}),
    destroy=extend_schema(
        responses={204: None, **ERRORS}, description=gettext_lazy("Delete a row (directors only; audited).")
    ),
)
@extend_schema(
    description=gettext_lazy(
        "Protocol rows: a player's own rows at once, everybody's once the results are published and the "
        "session is over (rules §12.2.4); matchpoints likewise. Directors see every row."
    )
)
class ResultViewSet(
    ApiView,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = ResultSerializer

    def get_queryset(self) -> QuerySet[Result]:
        qs = visibility.visible_rows(  # the one rule of every channel (visibility.can_see_row)
            Result.objects.select_related("session__tournament", "seat_n", "seat_e", "seat_s", "seat_w"),
            viewer(self.request.user),
        ).order_by("session_id", "position", "id")
        if self.action == "list":
            for name, field in (
                ("session", "session_id"),
                ("board", "board_number"),
                ("round", "round_number"),
                ("table", "table_number"),
                ("room", "room"),
            ):
                value = _int_param(self.request, name)
                if value:
                    qs = qs.filter(**{field: value})
            wanted = self.request.query_params.get("status")
            if wanted:
                qs = qs.filter(status=wanted)
        return qs

    def get_serializer_context(self) -> dict[str, Any]:
        asking = viewer(self.request.user)

        def show_scores(result: Result) -> bool:
            return visibility.can_see_scores(asking, result)

        return {**super().get_serializer_context(), "show_scores": show_scores}

    def _answer(self, result: Result, code: int, replayed: bool = False) -> Response:
        if not _relations_loaded(result):
            result = Result.objects.select_related(
                "session__tournament", "seat_n", "seat_e", "seat_s", "seat_w"
            ).get(pk=result.pk)
        response = Response(self.get_serializer(result).data, status=code)
        response["ETag"] = f'"{result.revision}"'  # a correction sends it back (If-Match) or as «revision»
        if replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        return self._answer(self.get_object(), status.HTTP_200_OK)  # with its ETag, for If-Match

    # -- create -----------------------------------------------------------------------------------------
    @extend_schema(
        request=ResultWriteSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: ResultSerializer, **ERRORS},
        summary=gettext_lazy("Enter a protocol row"),
        description=gettext_lazy(
            "Players: the player at N of the table (rules §6), for a board of the running round; the "
            "row then waits for the other players' confirmation. Directors: any session, round and table "
            "(seats default to the seating); the row is the director's at once. A retried request with the same "
            "Idempotency-Key returns the first answer (with «Idempotent-Replayed: true»)."
        ),
    )
    def create(self, request: Request) -> Response:
        require_auth(request)
        serializer = ResultWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        key = request.headers.get("Idempotency-Key") or None
        user = request.user
        if isinstance(user, TablePlayer):
            return self._player_create(user, data, serializer.row(), key)
        return self._director_create(user, data, serializer.row(), key)

    def _player_create(
        self, player: TablePlayer, data: dict[str, Any], row: dict[str, Any], key: str | None
    ) -> Response:
        state = at_table.table_state(player.duplicate_table(), lean=True)
        at_table.require_round(state)
        expected = {"session": state.session.pk, "round": state.round.number, "table": state.table.number}  # type: ignore[union-attr]
        if any(name in data and data[name] != value for name, value in expected.items()) or (
            "room" in self.request.data and data.get("room") != state.table.room
        ):
            raise ApiError(
                "not_this_table", _("Players enter rows only for their own table's running round."), 403
            )
        if "extra_entries" in row or "penalty_tricks" in row or "wrong_cards" in row or "seats" in data:
            raise ApiError(
                "permission_denied", _("Seats, extra entries and penalty tricks are for the director."), 403
            )
        ip = client_ip(self.request._request)
        others = []
        for i, c in enumerate(data.get("confirmations") or ()):
            try:
                others.append(at_table.identify(state=state, number=c["number"], pin=c["pin"], ip=ip))
            except at_table.TableRefused as exc:
                if exc.code != "wrong_pin":
                    raise
                message = _(
                    "Wrong number or PIN for participant %(number)s among the confirmations: "
                    "nothing was stored."
                ) % {"number": c["number"]}
                raise ApiError(
                    "wrong_pin",
                    message,
                    403,
                    details=[{"field": f"confirmations.{i}.pin", "code": "wrong_pin", "message": message}],
                ) from exc
        result, created = table_rows.table_submit(
            state=state,
            participant=player.participant,
            board_number=data["board"],
            row=row,
            idempotency_key=key,
            confirmed_by=others,
            now=timezone.now(),
            bidding=data.get("bidding"),
        )
        return self._answer(result, status.HTTP_201_CREATED, replayed=not created)

    def _director_create(
        self, user: Any, data: dict[str, Any], row: dict[str, Any], key: str | None
    ) -> Response:
        for name in ("session", "round", "table"):
            if name not in data:
                raise exceptions.ValidationError({name: [_("This field is required.")]})
        if data.get("confirmations"):
            raise exceptions.ValidationError(
                {
                    "confirmations": [
                        _("Confirmations come from the players at the table; a director's row needs none.")
                    ]
                }
            )
        session = Session.objects.select_related("tournament").filter(pk=data["session"]).first()
        if session is None:
            raise exceptions.ValidationError({"session": [_("No such session.")]})
        require_director(user, session.tournament)
        scoped = table_rows.scoped_key(f"user:{user.pk}", table_rows.check_key(key))
        if scoped:
            again = Result.objects.filter(idempotency_key=scoped).first()
            if again is not None:
                return self._answer(_same_slot(again, session, data), status.HTTP_201_CREATED, replayed=True)
        try:
            place = RowPlace(
                session=session,
                board=data["board"],
                round=data["round"],
                table=data["table"],
                room=data.get("room", 1),
                seats=data.get("seats"),
            )
            content = PlayedRow(row=row, version=data.get("version"), bidding=data.get("bidding"))
            writing = RowWriting(
                status=Result.Status.DIRECTOR, reason=data.get("reason", ""), idempotency_key=scoped
            )
            result = result_save(
                RowCommand(place, content, writing, RowAuthor(user=user)), now=timezone.now()
            )
        except ResultConflict as exc:
            if scoped and exc.existing.idempotency_key == scoped:
                return self._answer(exc.existing, status.HTTP_201_CREATED, replayed=True)
            raise
        return self._answer(result, status.HTTP_201_CREATED)

    # -- update -----------------------------------------------------------------------------------------
    @extend_schema(
        request=ResultUpdateSerializer,
        responses={200: ResultSerializer, **ERRORS},
        summary=gettext_lazy("Correct a protocol row"),
        description=gettext_lazy(
            "Players: the player at N, until anybody confirmed (else 409 locked). Directors: any "
            "time, audited with the reason; the row becomes the director's. Send the row's revision as you read "
            "it («revision», or the If-Match header with its ETag): if the row changed since, nothing is stored "
            "and the answer is 409 row_changed, saying who changed it and when; without it, 428."
        ),
    )
    def update(self, request: Request, pk: str | None = None) -> Response:
        return self._update(request, partial=False)

    @extend_schema(request=ResultUpdateSerializer, responses={200: ResultSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        return self._update(request, partial=True)

    def _update(self, request: Request, *, partial: bool) -> Response:
        require_auth(request)
        result = self.get_object()
        serializer = ResultUpdateSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        row = {**(result.row if partial else {}), **serializer.row()}
        revision = serializer.validated_data.get("revision") or parse_revision(
            request.headers.get("If-Match")
        )
        if revision is None:
            raise ApiError(
                "revision_missing",
                _(
                    "Send the row's revision as you read it («revision», or the If-Match header): a row changed "
                    "meanwhile is never overwritten."
                ),
                428,
                details=[{"field": "revision", "code": "required", "message": _("This field is required.")}],
            )
        user = request.user
        if isinstance(user, TablePlayer):
            state = self._player_state(user, result)
            if "extra_entries" in row or "penalty_tricks" in row or "wrong_cards" in row:
                raise ApiError(
                    "permission_denied", _("Extra entries and penalty tricks are for the director."), 403
                )
            updated, _created = table_rows.table_submit(
                state=state,
                participant=user.participant,
                board_number=result.board_number,
                row=row,
                replace=True,
                revision=revision,
                now=timezone.now(),
                bidding=serializer.validated_data.get("bidding"),
            )
            return self._answer(updated, status.HTTP_200_OK)
        tournament = result.session.tournament
        require_director(user, tournament)
        place = RowPlace(
            session=result.session,
            board=result.board_number,
            round=result.round_number,
            table=result.table_number,
            room=result.room,
            seats=result.seats(),
        )
        writing = RowWriting(
            correction=True,
            reason=serializer.validated_data.get("reason", ""),
            revision=revision,
            status=Result.Status.DIRECTOR,
        )
        updated = result_save(
            RowCommand(
                place,
                PlayedRow(row=row, bidding=serializer.validated_data.get("bidding")),
                writing,
                RowAuthor(user=user),
            ),
            now=timezone.now(),
        )
        return self._answer(updated, status.HTTP_200_OK)

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        require_auth(request)
        result = self.get_object()
        require_director(request.user, result.session.tournament)
        result_delete(
            result=result,
            user=request.user,
            reason=request.query_params.get("reason", ""),
            now=timezone.now(),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    # -- confirmation -----------------------------------------------------------------------------------
    def _player_state(self, player: TablePlayer, result: Result) -> at_table.TableState:
        """The player's table, where he sits, and the row one of its running round (else refused)."""
        state = at_table.table_state(player.duplicate_table(), lean=True)
        at_table.seated(state, player.participant)
        at_table.check_row_of_table(state, result)
        return state

    @extend_schema(
        request=None,
        responses={200: ResultSerializer, **ERRORS},
        summary=gettext_lazy("Confirm a row"),
        description=gettext_lazy(
            "A player of the table other than N agrees; once all have, the row is confirmed and "
            "locked. A director's confirmation locks it at once. Confirming twice is harmless."
        ),
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        require_auth(request)
        result = self.get_object()
        user = request.user
        if isinstance(user, TablePlayer):
            state = self._player_state(user, result)
            return self._answer(
                table_rows.table_confirm(
                    state=state, result=result, participant=user.participant, now=timezone.now()
                ),
                200,
            )
        require_director(user, result.session.tournament)
        return self._answer(result_confirm(result=result, seat=None, user=user, now=timezone.now()), 200)

    @extend_schema(
        request=DisputeSerializer,
        responses={200: ResultSerializer, **ERRORS},
        summary=gettext_lazy("Dispute a row"),
        description=gettext_lazy(
            "A player of the table other than N does not agree: the row is marked disputed and "
            "appears on the director's dashboard."
        ),
    )
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, pk: str | None = None) -> Response:
        require_auth(request)
        result = self.get_object()
        user = request.user
        if not isinstance(user, TablePlayer):
            raise exceptions.PermissionDenied(_("Disputes come from the players at the table."))
        state = self._player_state(user, result)
        serializer = DisputeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        updated = table_rows.table_dispute(
            state=state,
            result=result,
            participant=user.participant,
            reason=serializer.validated_data["reason"],
            now=timezone.now(),
        )
        return self._answer(updated, 200)


def _relations_loaded(result: Result) -> bool:
    """Whether the row already holds what its answer shows (session, tournament, seats): no refetch then."""
    meta = Result._meta
    if not all(meta.get_field(name).is_cached(result) for name in ("session", "seat_n", "seat_e", "seat_s")):  # type: ignore[union-attr]
        return False
    if result.seat_w_id is not None and not meta.get_field("seat_w").is_cached(result):  # type: ignore[union-attr]
        return False
    return Session.tournament.is_cached(result.session)  # type: ignore[attr-defined]


def _same_slot(result: Result, session: Session, data: dict[str, Any]) -> Result:
    if (result.session_id, result.room, result.board_number, result.round_number, result.table_number) != (
        session.pk,
        data.get("room", 1),
        data["board"],
        data["round"],
        data["table"],
    ):
        raise ApiError(
            "idempotency_key_reused",
            _("This idempotency key was already used for another row; send a new key."),
            409,
        )
    return result
