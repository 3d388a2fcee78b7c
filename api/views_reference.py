"""Reference data: tournaments (and their standings), sessions, rounds, tables, seatings and boards."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

import visibility
from api.common import (
    READ_ERRORS,
    ApiView,
    _int_param,
    _param,
    is_director,
    viewer,
)
from api.serializers import (
    BoardSerializer,
    RoundSerializer,
    SeatingSerializer,
    SessionSerializer,
    StandingSerializer,
    TableSerializer,
    TournamentSerializer,
)
from boards.models import Board
from tournaments.models import Round, Seating, Session, Table, Tournament


# -- reference data -------------------------------------------------------------------------------------
@extend_schema_view(list=extend_schema(responses={200: TournamentSerializer(many=True), **READ_ERRORS}))
@extend_schema(description=gettext_lazy("Tournaments (public facts)."))
class TournamentViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"

    @extend_schema(
        responses={200: StandingSerializer(many=True), **READ_ERRORS},
        description=gettext_lazy(
            "The standings (all sessions so far): once published, while no round is being played (rules "
            "§12.2.4), as on the standings page and the projector; always to directors."
        ),
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str | None = None) -> Response:
        tournament = self.get_object()
        hidden = visibility.standings_hidden(viewer(request.user), tournament)
        if hidden:
            raise exceptions.NotFound(hidden)
        rows = tournament.standings.select_related("participant").order_by("position")
        context = {"disqualified": tournament.disqualified_numbers()}
        return Response(StandingSerializer(rows, many=True, context=context).data)


@extend_schema_view(
    list=extend_schema(parameters=[_param("tournament", gettext_lazy("Tournament slug."), OpenApiTypes.STR)])
)
class SessionViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    serializer_class = SessionSerializer

    def get_queryset(self) -> QuerySet[Session]:
        qs = Session.objects.select_related("tournament").order_by("tournament_id", "number")
        slug = self.request.query_params.get("tournament")
        return qs.filter(tournament__slug=slug) if slug else qs


@extend_schema_view(list=extend_schema(parameters=[_param("session", gettext_lazy("Session id."))]))
class RoundViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    serializer_class = RoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        qs = Round.objects.order_by("session_id", "number")
        session = _int_param(self.request, "session")
        return qs.filter(session_id=session) if session else qs


@extend_schema_view(list=extend_schema(parameters=[_param("session", gettext_lazy("Session id."))]))
@extend_schema(description=gettext_lazy("Tables; their codes only to directors (codes let players in)."))
class TableViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
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
    list=extend_schema(
        parameters=[
            _param("session", gettext_lazy("Session id.")),
            _param("round", gettext_lazy("Round number.")),
        ]
    )
)
@extend_schema(description=gettext_lazy("Who sits where in each round (as posted in the room)."))
class SeatingViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    serializer_class = SeatingSerializer

    def get_queryset(self) -> QuerySet[Seating]:
        qs = Seating.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w").order_by(
            "session_id", "round_number", "room", "table_number"
        )
        session, rnd = _int_param(self.request, "session"), _int_param(self.request, "round")
        if session:
            qs = qs.filter(session_id=session)
        return qs.filter(round_number=rnd) if rnd else qs


@extend_schema_view(list=extend_schema(parameters=[_param("session", gettext_lazy("Session id."))]))
@extend_schema(
    description=gettext_lazy(
        "Boards; the deals (hands, prikup) once the results are published and the session is over, as on the "
        "board pages; always to directors."
    )
)
class BoardViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    serializer_class = BoardSerializer

    def get_queryset(self) -> QuerySet[Board]:
        qs = Board.objects.select_related("session__tournament").order_by("session_id", "number")
        session = _int_param(self.request, "session")
        return qs.filter(session_id=session) if session else qs

    def get_serializer_context(self) -> dict[str, Any]:
        asking = viewer(self.request.user)

        def show(board: Board) -> bool:
            return visibility.can_see_board(asking, board)

        return {**super().get_serializer_context(), "show_deals": show}
