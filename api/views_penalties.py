"""Adjustments (artificial and assigned results) and procedural penalties: directors only, audited."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from api.common import (
    ERRORS,
    ApiView,
    _int_param,
    _param,
    directed,
    require_auth,
    require_director,
)
from api.serializers import (
    AdjustmentSerializer,
    PenaltySerializer,
    ResultSerializer,
)
from scoring.models import Penalty, Result
from scoring.penalties import penalty_delete, penalty_save
from scoring.row_command import RowAuthor, RowCommand, RowPlace, RowWriting, row_content
from scoring.rows import result_save
from tournaments.models import Participant, Publication, Session


# -- adjustments and penalties (directors) --------------------------------------------------------------
@extend_schema(
    description=gettext_lazy(
        "Artificial or assigned results in place of a played row (rules §11.2); directors only, audited."
    )
)
class AdjustmentViewSet(ApiView, viewsets.GenericViewSet):
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
        require_director(request.user, session.tournament)
        place = RowPlace(
            session=session,
            board=data["board"],
            round=data["round"],
            table=data["table"],
            room=data.get("room", 1),
            seats=data.get("seats"),
        )
        content = row_content(
            adjusted=data.get("adjusted"),
            assigned=data.get("assigned"),
            percent=data.get("percent"),
            version=data.get("version"),
        )
        writing = RowWriting(correction=True, reason=data["reason"], status=Result.Status.DIRECTOR)
        result = result_save(
            RowCommand(place, content, writing, RowAuthor(user=request.user)), now=timezone.now()
        )
        result = Result.objects.select_related(
            "session__tournament", "seat_n", "seat_e", "seat_s", "seat_w"
        ).get(pk=result.pk)
        context = {"show_scores": lambda r: True}
        return Response(ResultSerializer(result, context=context).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(
        parameters=[_param("session", gettext_lazy("Session id."))],
        responses={200: PenaltySerializer(many=True), **ERRORS},
    ),
    create=extend_schema(responses={201: PenaltySerializer, **ERRORS}),
    update=extend_schema(responses={200: PenaltySerializer, **ERRORS}),
    partial_update=extend_schema(responses={200: PenaltySerializer, **ERRORS}),
    destroy=extend_schema(responses={204: None, **ERRORS}),
)
@extend_schema(
    description=gettext_lazy(
        "Procedural penalties (rules §12) in matchpoints: public with the results, written by directors."
    )
)
class PenaltyViewSet(ApiView, viewsets.ModelViewSet):
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
        require_director(self.request.user, session.tournament)
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
            session=session,
            participant=participant,
            matchpoints=serializer.validated_data["matchpoints"],
            reason=serializer.validated_data["reason"],
            user=request.user,
            now=timezone.now(),
        )
        return Response(self.get_serializer(penalty).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        require_auth(request)
        penalty = self.get_object()
        require_director(request.user, penalty.session.tournament)
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
            session=session,
            participant=participant,
            matchpoints=data["matchpoints"],
            reason=data["reason"],
            penalty=penalty,
            user=request.user,
            now=timezone.now(),
        )
        return Response(self.get_serializer(penalty).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        require_auth(request)
        penalty = self.get_object()
        require_director(request.user, penalty.session.tournament)
        penalty_delete(
            penalty=penalty,
            user=request.user,
            reason=request.query_params.get("reason", ""),
            now=timezone.now(),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
