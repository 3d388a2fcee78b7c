"""The REST API: thin views over the services of scoring.results and table.

Who may do what (tested in tests/api/test_permissions.py):

* anyone: tournaments, sessions, rounds, tables (without codes), seatings, boards (deals only after the
  session, once results are public), standings and results once public;
* a player at a table (``Authorization: Player code:number:PIN``): his own table's rows — the player at N
  creates and corrects (until someone confirms), the others confirm or dispute;
* a director of the tournament (token or session login): everything, every change audited.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.auth import PlayerAuthentication, TablePlayer
from api.errors import ApiError
from api.serializers import (
    AdjustmentSerializer,
    BoardSerializer,
    DisputeSerializer,
    ErrorSerializer,
    PenaltySerializer,
    ResultSerializer,
    ResultUpdateSerializer,
    ResultWriteSerializer,
    RoundSerializer,
    SeatingSerializer,
    SessionSerializer,
    StandingSerializer,
    TableSerializer,
    TournamentSerializer,
)
from api.throttles import AnonThrottle, PlayerThrottle, UserThrottle
from boards.models import Board
from scoring.models import Penalty, Result
from scoring.results import (
    ResultConflict,
    penalty_delete,
    penalty_save,
    result_confirm,
    result_delete,
    result_save,
)
from table import services
from table.ratelimit import client_ip
from tournaments.models import Participant, Publication, Round, Seating, Session, Table, Tournament
from tournaments.permissions import can_direct, can_see_results

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid request or row (row_invalid, invalid)."),
    401: OpenApiResponse(ErrorSerializer, description="Not authenticated, or a wrong PIN."),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed."),
    404: OpenApiResponse(ErrorSerializer, description="Not found (or not visible to you)."),
    409: OpenApiResponse(ErrorSerializer, description="Conflict: already entered, or locked."),
    429: OpenApiResponse(ErrorSerializer, description="Too many requests."),
}
READ_ERRORS = {k: v for k, v in ERRORS.items() if k in (400, 404, 429)}
IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any unique string per intended write (a UUID): a retry with the same key returns the first "
    "answer and never stores a second row.",
)


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise exceptions.ValidationError({name: [_("A whole number is required.")]}) from None
    if not 0 < value < 2**31:
        raise exceptions.ValidationError({name: [_("A whole number is required.")]})
    return value


def _param(name: str, description: str, kind: Any = OpenApiTypes.INT) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=description, required=False)


def is_director(user: Any, tournament: Tournament) -> bool:
    return not isinstance(user, TablePlayer) and can_direct(user, tournament)


def directed(user: Any) -> Q:
    """Rows of tournaments the user directs (``Q(pk__in=[])`` for nobody)."""
    if isinstance(user, TablePlayer) or not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    if user.is_superuser:
        return Q()
    return Q(session__tournament__in=user.directed_tournaments.all())


def results_public(tournament: Tournament, session: Session) -> bool:
    """After the session, and once the tournament's results are published (rules §12.2.4, §13)."""
    return session.status == Session.Status.FINISHED and tournament.publication != Publication.DRAFT


class ApiView:
    # Token first: an anonymous write is answered 401 with «WWW-Authenticate: Token».
    authentication_classes = [TokenAuthentication, PlayerAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]  # every view decides itself (see the module's docstring)
    throttle_classes = [AnonThrottle, UserThrottle, PlayerThrottle]


def require_auth(request: Request) -> None:
    if not getattr(request.user, "is_authenticated", False):
        raise exceptions.NotAuthenticated()


# -- reference data -------------------------------------------------------------------------------------
@extend_schema_view(list=extend_schema(responses={200: TournamentSerializer(many=True), **READ_ERRORS}))
class TournamentViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Tournaments (public facts)."""

    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"

    @extend_schema(responses={200: StandingSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str | None = None) -> Response:
        """The standings (all sessions so far): public once published, always to directors."""
        tournament = self.get_object()
        if not can_see_results(
            request.user if not isinstance(request.user, TablePlayer) else None, tournament
        ):
            raise exceptions.NotFound(_("The standings are not published yet."))
        rows = tournament.standings.select_related("participant").order_by("position")
        return Response(StandingSerializer(rows, many=True).data)


@extend_schema_view(
    list=extend_schema(parameters=[_param("tournament", "Tournament slug.", OpenApiTypes.STR)])
)
class SessionViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    serializer_class = SessionSerializer

    def get_queryset(self) -> QuerySet[Session]:
        qs = Session.objects.select_related("tournament").order_by("tournament_id", "number")
        slug = self.request.query_params.get("tournament")
        return qs.filter(tournament__slug=slug) if slug else qs


@extend_schema_view(list=extend_schema(parameters=[_param("session", "Session id.")]))
class RoundViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    serializer_class = RoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        qs = Round.objects.order_by("session_id", "number")
        session = _int_param(self.request, "session")
        return qs.filter(session_id=session) if session else qs


@extend_schema_view(list=extend_schema(parameters=[_param("session", "Session id.")]))
class TableViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Tables; their codes only to directors (codes let players in)."""

    serializer_class = TableSerializer

    def get_queryset(self) -> QuerySet[Table]:
        qs = Table.objects.select_related("session__tournament").order_by("session_id", "room", "number")
        session = _int_param(self.request, "session")
        return qs.filter(session_id=session) if session else qs

    def get_serializer_context(self) -> dict[str, Any]:
        user = self.request.user
        return {
            **super().get_serializer_context(),
            "show_codes": lambda t: is_director(user, t.session.tournament),
        }


@extend_schema_view(
    list=extend_schema(parameters=[_param("session", "Session id."), _param("round", "Round number.")])
)
class SeatingViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Who sits where in each round (as posted in the room)."""

    serializer_class = SeatingSerializer

    def get_queryset(self) -> QuerySet[Seating]:
        qs = Seating.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w").order_by(
            "session_id", "round_number", "room", "table_number"
        )
        session, rnd = _int_param(self.request, "session"), _int_param(self.request, "round")
        if session:
            qs = qs.filter(session_id=session)
        return qs.filter(round_number=rnd) if rnd else qs


@extend_schema_view(list=extend_schema(parameters=[_param("session", "Session id.")]))
class BoardViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Boards; the deals (hands, prikup) only after the session once results are public, or to directors."""

    serializer_class = BoardSerializer

    def get_queryset(self) -> QuerySet[Board]:
        qs = Board.objects.select_related("session__tournament").order_by("session_id", "number")
        session = _int_param(self.request, "session")
        return qs.filter(session_id=session) if session else qs

    def get_serializer_context(self) -> dict[str, Any]:
        user = self.request.user

        def show(board: Board) -> bool:
            t = board.session.tournament
            return is_director(user, t) or results_public(t, board.session)

        return {**super().get_serializer_context(), "show_deals": show}


# -- results --------------------------------------------------------------------------------------------
@extend_schema_view(
    list=extend_schema(
        parameters=[
            _param("session", "Session id."),
            _param("board", "Board number."),
            _param("round", "Round number."),
            _param("table", "Table number."),
            _param("status", "entered, confirmed, disputed or director.", OpenApiTypes.STR),
        ],
        responses={200: ResultSerializer(many=True), **READ_ERRORS},
    ),
    retrieve=extend_schema(responses={200: ResultSerializer, **READ_ERRORS}),
    destroy=extend_schema(responses={204: None, **ERRORS}),
)
class ResultViewSet(
    ApiView,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Protocol rows. Before the session ends a player sees only his own table's rows (rules §12.2.4)."""

    serializer_class = ResultSerializer

    def get_queryset(self) -> QuerySet[Result]:
        user = self.request.user
        visible = Q(session__status=Session.Status.FINISHED) & ~Q(
            session__tournament__publication=Publication.DRAFT
        )
        visible |= directed(user)
        if isinstance(user, TablePlayer):
            p = user.participant
            visible |= Q(session__tournament_id=p.tournament_id) & (
                Q(seat_n=p) | Q(seat_e=p) | Q(seat_s=p) | Q(seat_w=p)
            )
        qs = (
            Result.objects.filter(visible)
            .select_related("session__tournament", "seat_n", "seat_e", "seat_s", "seat_w")
            .order_by("session_id", "position", "id")
        )
        if self.action == "list":
            for name, field in (("session", "session_id"), ("board", "board_number"), ("round", "round_number"),
                                ("table", "table_number")):  # fmt: skip
                value = _int_param(self.request, name)
                if value:
                    qs = qs.filter(**{field: value})
            wanted = self.request.query_params.get("status")
            if wanted:
                qs = qs.filter(status=wanted)
        return qs

    def get_serializer_context(self) -> dict[str, Any]:
        user = self.request.user

        def show_scores(result: Result) -> bool:
            t = result.session.tournament
            return is_director(user, t) or results_public(t, result.session)

        return {**super().get_serializer_context(), "show_scores": show_scores}

    def _answer(self, result: Result, code: int, replayed: bool = False) -> Response:
        if not _relations_loaded(result):
            result = Result.objects.select_related(
                "session__tournament", "seat_n", "seat_e", "seat_s", "seat_w"
            ).get(pk=result.pk)
        response = Response(self.get_serializer(result).data, status=code)
        if replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    # -- create -----------------------------------------------------------------------------------------
    @extend_schema(
        request=ResultWriteSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: ResultSerializer, **ERRORS},
        summary="Enter a protocol row",
        description="Players: the player at N of the table (rules §6), for a board of the running round; the "
        "row then waits for the other players' confirmation. Directors: any session, round and table "
        "(seats default to the seating); the row is the director's at once. A retried request with the same "
        "Idempotency-Key returns the first answer (with «Idempotent-Replayed: true»).",
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
        state = services.table_state(player.table, lean=True)
        services.require_round(state)
        expected = {"session": state.session.pk, "round": state.round.number, "table": state.table.number}  # type: ignore[union-attr]
        if any(name in data and data[name] != value for name, value in expected.items()) or (
            "room" in self.request.data and data.get("room") != state.table.room
        ):
            raise ApiError(
                "not_this_table", _("Players enter rows only for their own table's running round."), 403
            )
        if "extra_entries" in row or "penalty_tricks" in row or "seats" in data:
            raise ApiError(
                "permission_denied", _("Seats, extra entries and penalty tricks are for the director."), 403
            )
        ip = client_ip(self.request._request)
        others = []
        for i, c in enumerate(data.get("confirmations") or ()):
            try:
                others.append(services.identify(state=state, number=c["number"], pin=c["pin"], ip=ip))
            except services.TableRefused as exc:
                if exc.code != "wrong_pin":
                    raise
                message = _("Wrong number or PIN for participant %(number)s among the confirmations: "
                            "nothing was stored.") % {"number": c["number"]}  # fmt: skip
                raise ApiError(
                    "wrong_pin", message, 403,
                    details=[{"field": f"confirmations.{i}.pin", "code": "wrong_pin", "message": message}],
                ) from exc  # fmt: skip
        result, created = services.table_submit(
            state=state,
            participant=player.participant,
            board_number=data["board"],
            row=row,
            idempotency_key=key,
            confirmed_by=others,
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
        if not can_direct(user, session.tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        if not services.results_editable(session.tournament):
            raise ApiError("results_final", _("The results are final: nothing can be changed any more."), 409)
        seats = data.get("seats") or _seating_seats(session, data)
        scoped = services.scoped_key(f"user:{user.pk}", services.check_key(key))
        if scoped:
            again = Result.objects.filter(idempotency_key=scoped).first()
            if again is not None:
                return self._answer(_same_slot(again, session, data), status.HTTP_201_CREATED, replayed=True)
        try:
            result = result_save(
                session=session, board=data["board"], round=data["round"], table=data["table"],
                room=data.get("room", 1), seats=seats, row=row, version=data.get("version") or "A",
                status=Result.Status.DIRECTOR, user=user, reason=data.get("reason", ""), idempotency_key=scoped,
            )  # fmt: skip
        except ResultConflict as exc:
            if scoped and exc.existing.idempotency_key == scoped:
                return self._answer(exc.existing, status.HTTP_201_CREATED, replayed=True)
            raise
        return self._answer(result, status.HTTP_201_CREATED)

    # -- update -----------------------------------------------------------------------------------------
    @extend_schema(
        request=ResultUpdateSerializer,
        responses={200: ResultSerializer, **ERRORS},
        summary="Correct a protocol row",
        description="Players: the player at N, until anybody confirmed (else 409 locked). Directors: any "
        "time, audited with the reason; the row becomes the director's.",
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
        user = request.user
        if isinstance(user, TablePlayer):
            state = self._player_state(user, result)
            if "extra_entries" in row or "penalty_tricks" in row:
                raise ApiError(
                    "permission_denied", _("Extra entries and penalty tricks are for the director."), 403
                )
            updated, _created = services.table_submit(
                state=state,
                participant=user.participant,
                board_number=result.board_number,
                row=row,
                replace=True,
            )
            return self._answer(updated, status.HTTP_200_OK)
        tournament = result.session.tournament
        if not can_direct(user, tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        if not services.results_editable(tournament):
            raise ApiError("results_final", _("The results are final: nothing can be changed any more."), 409)
        updated = result_save(
            session=result.session, board=result.board_number, round=result.round_number, table=result.table_number,
            room=result.room, seats=result.seats(), row=row, version=result.version, status=Result.Status.DIRECTOR,
            user=user, reason=serializer.validated_data.get("reason", ""), replace=True,
        )  # fmt: skip
        return self._answer(updated, status.HTTP_200_OK)

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Delete a row (directors only; audited)."""
        require_auth(request)
        result = self.get_object()
        if not is_director(request.user, result.session.tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        if not services.results_editable(result.session.tournament):
            raise ApiError("results_final", _("The results are final: nothing can be changed any more."), 409)
        result_delete(result=result, user=request.user, reason=request.query_params.get("reason", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)

    # -- confirmation -----------------------------------------------------------------------------------
    def _player_state(self, player: TablePlayer, result: Result) -> services.TableState:
        state = services.table_state(player.table, lean=True)
        services.seated(state, player.participant)
        if not state.is_current(result):
            raise ApiError("not_this_table", _("This row is not from your table's current round."), 403)
        return state

    @extend_schema(
        request=None,
        responses={200: ResultSerializer, **ERRORS},
        summary="Confirm a row",
        description="A player of the table other than N agrees; once all have, the row is confirmed and "
        "locked. A director's confirmation locks it at once. Confirming twice is harmless.",
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        require_auth(request)
        result = self.get_object()
        user = request.user
        if isinstance(user, TablePlayer):
            state = self._player_state(user, result)
            return self._answer(
                services.table_confirm(state=state, result=result, participant=user.participant), 200
            )
        if not can_direct(user, result.session.tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        return self._answer(result_confirm(result=result, seat=None, user=user), 200)

    @extend_schema(
        request=DisputeSerializer,
        responses={200: ResultSerializer, **ERRORS},
        summary="Dispute a row",
        description="A player of the table other than N does not agree: the row is marked disputed and "
        "appears on the director's dashboard.",
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
        updated = services.table_dispute(
            state=state,
            result=result,
            participant=user.participant,
            reason=serializer.validated_data["reason"],
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


def _seating_seats(session: Session, data: dict[str, Any]) -> dict[str, int]:
    seating = (
        Seating.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .filter(
            session=session, room=data.get("room", 1), round_number=data["round"], table_number=data["table"]
        )
        .first()
    )
    if seating is None:
        raise exceptions.ValidationError({"seats": [_("Nobody is seated there: give the seats.")]})
    return {seat: p.number for seat, p in seating.seats().items()}


def _same_slot(result: Result, session: Session, data: dict[str, Any]) -> Result:
    if (result.session_id, result.board_number, result.round_number, result.table_number) != (
        session.pk, data["board"], data["round"], data["table"],
    ):  # fmt: skip
        raise ApiError(
            "idempotency_key_reused",
            _("This idempotency key was already used for another row; send a new key."),
            409,
        )
    return result


# -- adjustments and penalties (directors) --------------------------------------------------------------
class AdjustmentViewSet(ApiView, viewsets.GenericViewSet):
    """Artificial or assigned results in place of a played row (rules §11.2); directors only, audited."""

    serializer_class = AdjustmentSerializer
    queryset = Result.objects.none()

    @extend_schema(request=AdjustmentSerializer, responses={201: ResultSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        require_auth(request)
        serializer = AdjustmentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        session = Session.objects.select_related("tournament").filter(pk=data["session"]).first()
        if session is None:
            raise exceptions.ValidationError({"session": [_("No such session.")]})
        if not is_director(request.user, session.tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        if not services.results_editable(session.tournament):
            raise ApiError("results_final", _("The results are final: nothing can be changed any more."), 409)
        result = result_save(
            session=session, board=data["board"], round=data["round"], table=data["table"], room=data.get("room", 1),
            seats=data.get("seats") or _seating_seats(session, data), adjusted=data.get("adjusted"),
            assigned=data.get("assigned"), version=data.get("version") or "A", status=Result.Status.DIRECTOR,
            user=request.user, reason=data["reason"], replace=True,
        )  # fmt: skip
        result = Result.objects.select_related(
            "session__tournament", "seat_n", "seat_e", "seat_s", "seat_w"
        ).get(pk=result.pk)
        context = {"show_scores": lambda r: True}
        return Response(ResultSerializer(result, context=context).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(
        parameters=[_param("session", "Session id.")], responses={200: PenaltySerializer(many=True), **ERRORS}
    ),
    create=extend_schema(responses={201: PenaltySerializer, **ERRORS}),
    update=extend_schema(responses={200: PenaltySerializer, **ERRORS}),
    partial_update=extend_schema(responses={200: PenaltySerializer, **ERRORS}),
    destroy=extend_schema(responses={204: None, **ERRORS}),
)
class PenaltyViewSet(ApiView, viewsets.ModelViewSet):
    """Procedural penalties (rules §12) in matchpoints: public with the results, written by directors."""

    serializer_class = PenaltySerializer

    def get_queryset(self) -> QuerySet[Penalty]:
        user = self.request.user
        visible = directed(user) | ~Q(session__tournament__publication=Publication.DRAFT)
        qs = (
            Penalty.objects.filter(visible)
            .select_related("participant", "session__tournament")
            .order_by("id")
        )
        session = _int_param(self.request, "session")
        return qs.filter(session_id=session) if session else qs

    def _target(self, data: dict[str, Any]) -> tuple[Session, Participant]:
        session = Session.objects.select_related("tournament").filter(pk=data["session_id"]).first()
        if session is None:
            raise exceptions.ValidationError({"session": [_("No such session.")]})
        if not is_director(self.request.user, session.tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        if not services.results_editable(session.tournament):
            raise ApiError("results_final", _("The results are final: nothing can be changed any more."), 409)
        participant = Participant.objects.filter(
            tournament=session.tournament, number=data["participant"]["number"]
        ).first()
        if participant is None:
            raise exceptions.ValidationError({"participant": [_("No such participant in this tournament.")]})
        return session, participant

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        require_auth(request)
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session, participant = self._target(serializer.validated_data)
        penalty = penalty_save(
            session=session, participant=participant, matchpoints=serializer.validated_data["matchpoints"],
            reason=serializer.validated_data["reason"], user=request.user,
        )  # fmt: skip
        return Response(self.get_serializer(penalty).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        require_auth(request)
        penalty = self.get_object()
        if not is_director(request.user, penalty.session.tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        partial = kwargs.get("partial", False)
        serializer = self.get_serializer(penalty, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = {
            "session_id": penalty.session_id,
            "participant": {"number": penalty.participant.number},
            "matchpoints": penalty.matchpoints,
            "reason": penalty.reason,
            **serializer.validated_data,
        }
        session, participant = self._target(data)
        penalty = penalty_save(
            session=session, participant=participant, matchpoints=data["matchpoints"], reason=data["reason"],
            penalty=penalty, user=request.user,
        )  # fmt: skip
        return Response(self.get_serializer(penalty).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        require_auth(request)
        penalty = self.get_object()
        if not is_director(request.user, penalty.session.tournament):
            raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))
        if not services.results_editable(penalty.session.tournament):
            raise ApiError("results_final", _("The results are final: nothing can be changed any more."), 409)
        penalty_delete(penalty=penalty, user=request.user, reason=request.query_params.get("reason", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)
