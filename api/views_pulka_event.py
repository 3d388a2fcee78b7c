"""Pulka events (Olympic, compensation, Swiss): the settings, rounds, tables and the event table; the director's
draw, start, stop (time limit), end and tie decisions. Thin views over ``pulkas.services``; the table device's
endpoints are in :mod:`api.views_pulka_table`.

Who may do what (tests/api/test_pulkas.py): anyone reads the settings, the rounds and their tables (codes only to
directors); a table's results and the event table as :mod:`visibility` says, the rule of every channel (a
table's results once its round has ended and the results are published; the event table once published while no
round is being played); a director of the tournament reads everything and makes every change (each audited by
the service).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import visibility
from api.common import ERRORS, READ_ERRORS, ApiView, require_auth, require_director, viewer
from api.errors import ApiError
from api.pulka_data import event_data, round_data, rounds_with_tables, standings_data, table_data
from api.serializers_pulka import (
    DrawSerializer,
    PulkaEventSerializer,
    PulkaRoundSerializer,
    PulkaSettingsSerializer,
    PulkaStandingsSerializer,
    PulkaTableSerializer,
    RoundStopSerializer,
    TieSerializer,
)
from pulkas.models import PulkaEvent, PulkaRound, PulkaTable
from pulkas.services import rounds as round_services
from pulkas.services.event import pulka_settings_update
from pulkas.services.standings import event_table
from tournaments.models import Tournament
from visibility import Viewer

TAG = ["pulka events"]


def pulka_event(slug: str) -> PulkaEvent:
    """The event of the tournament ``slug``; 404 for an unknown tournament or one not played in pulkas."""
    tournament = get_object_or_404(Tournament, slug=slug)
    event = PulkaEvent.objects.select_related("tournament").filter(tournament=tournament).first()
    if event is None:
        raise ApiError("not_pulka_event", _("This tournament is not played in pulkas."), 404)
    return event


def _round(tournament: Tournament, number: int) -> PulkaRound:
    found = rounds_with_tables(tournament).filter(number=number).first()
    if found is None:
        raise exceptions.NotFound(_("There is no round %(n)s.") % {"n": number})
    return found


def _director_event(request: Request, slug: str) -> PulkaEvent:
    require_auth(request)
    event = pulka_event(slug)
    require_director(request.user, event.tournament)
    return event


class PulkaEventView(ApiView, APIView):
    @extend_schema(
        tags=TAG,
        responses={200: PulkaEventSerializer, **READ_ERRORS},
        summary=gettext_lazy("A pulka event's settings"),
        description=gettext_lazy(
            "The form, the variant and the settings (pulka-spec §10); `fixed` lists the settings that "
            "can no longer change because a round has been drawn (Code 5.4.4)."
        ),
    )
    def get(self, request: Request, slug: str) -> Response:
        event = pulka_event(slug)
        drawn = PulkaRound.objects.filter(tournament=event.tournament).count()
        return Response(event_data(event, drawn))

    @extend_schema(
        tags=TAG,
        request=PulkaSettingsSerializer,
        responses={200: PulkaEventSerializer, **ERRORS},
        summary=gettext_lazy("Change a pulka event's settings"),
        description=gettext_lazy(
            "Directors. Send only the settings to change. Scoring and rating settings are fixed once a "
            "round has been drawn (400 settings_fixed); every setting is checked by the core for tables of 3 "
            "and of 4. Unknown settings are refused."
        ),
    )
    def patch(self, request: Request, slug: str) -> Response:
        event = _director_event(request, slug)
        data = request.data
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(PulkaSettingsSerializer().fields))
            if unknown:
                raise exceptions.ValidationError({k: [_("This setting is unknown.")] for k in unknown})
        serializer = PulkaSettingsSerializer(data=data, partial=True)
        serializer.is_valid(raise_exception=True)
        pulka_settings_update(
            event=event, changes=dict(serializer.validated_data), user=request.user, now=timezone.now()
        )
        drawn = PulkaRound.objects.filter(tournament=event.tournament).count()
        return Response(event_data(event, drawn))


class PulkaRoundsView(ApiView, APIView):
    @extend_schema(
        tags=TAG,
        responses={200: PulkaRoundSerializer(many=True), **READ_ERRORS},
        summary=gettext_lazy("The rounds"),
        description=gettext_lazy(
            "Every round with its tables (seats with participant numbers and names, state, deals) and "
            "byes. Table codes only to directors; a table's results once its round has ended and the results are "
            "published, as on the round page and the table's sheet; always to directors."
        ),
    )
    def get(self, request: Request, slug: str) -> Response:
        event = pulka_event(slug)
        asking = viewer(request.user)
        return Response([round_data(r, viewer=asking) for r in rounds_with_tables(event.tournament)])

    @extend_schema(
        tags=TAG,
        request=DrawSerializer,
        responses={201: PulkaRoundSerializer, **ERRORS},
        summary=gettext_lazy("Draw the next round"),
        description=gettext_lazy(
            "Directors. Round 1 by lot; then by the form (Olympic: who goes on; compensation and Swiss: by "
            "rating). `seed` repeats a draw. 409 round_open while the last round has not ended, event_over after "
            "the last round, tie_undecided while a tie at an Olympic cut waits for the director."
        ),
    )
    def post(self, request: Request, slug: str) -> Response:
        event = _director_event(request, slug)
        serializer = DrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        drawn = round_services.draw_round(
            tournament=event.tournament,
            user=request.user,
            now=timezone.now(),
            seed=serializer.validated_data.get("seed"),
        )
        return Response(
            round_data(_round(event.tournament, drawn.number), viewer=Viewer.of(request.user)), status=201
        )


class PulkaRoundView(ApiView, APIView):
    @extend_schema(
        tags=TAG, responses={200: PulkaRoundSerializer, **READ_ERRORS}, summary=gettext_lazy("One round")
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = pulka_event(slug)
        return Response(round_data(_round(event.tournament, number), viewer=viewer(request.user)))

    @extend_schema(
        tags=TAG,
        responses={204: None, **ERRORS},
        summary=gettext_lazy("Take back a drawn round"),
        description=gettext_lazy(
            "Directors: a round that has not started, to draw it again (409 round_started otherwise)."
        ),
    )
    def delete(self, request: Request, slug: str, number: int) -> Response:
        event = _director_event(request, slug)
        pulka_round = _round(event.tournament, number)
        round_services.undraw_round(pulka_round=pulka_round, user=request.user, now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


def _round_action(name: str, summary: Any, description: Any, body: Any = None) -> type[APIView]:
    """A round's start, stop or end; ``body``: the request's serializer, whose fields go to the service (stop:
    the reason it needs)."""
    service = getattr(round_services, f"{name}_round")

    class View(ApiView, APIView):
        @extend_schema(
            tags=TAG,
            request=body,
            responses={200: PulkaRoundSerializer, **ERRORS},
            summary=summary,
            description=description,
            operation_id=f"pulka_round_{name}",
        )
        def post(self, request: Request, slug: str, number: int) -> Response:
            event = _director_event(request, slug)
            fields: dict[str, Any] = {}
            if body is not None:
                serializer = body(data=request.data)
                serializer.is_valid(raise_exception=True)
                fields = dict(serializer.validated_data)
            service(
                pulka_round=_round(event.tournament, number), user=request.user, now=timezone.now(), **fields
            )
            return Response(round_data(_round(event.tournament, number), viewer=Viewer.of(request.user)))

    View.__name__ = View.__qualname__ = f"PulkaRound{name.title()}View"
    return View


PulkaRoundStartView = _round_action(
    "start",
    gettext_lazy("Start a round"),
    gettext_lazy(
        "Directors: «Start!» — the clock runs to the round's time limit (`ends_at`). "
        "409 round_started if it already has."
    ),
)
PulkaRoundStopView = _round_action(
    "stop",
    gettext_lazy("Time is up: stop the tables still playing"),
    gettext_lazy(
        "Directors: every table still playing is stopped and its sheet closed by Code 4.2.3, with the `reason` "
        "audited on each table (400 without it: it cannot be undone). Repeating it is harmless."
    ),
    body=RoundStopSerializer,
)
PulkaRoundEndView = _round_action(
    "end",
    gettext_lazy("End a round"),
    gettext_lazy("Directors: once every table has finished (409 tables_playing lists those still playing)."),
)


class PulkaTieView(ApiView, APIView):
    @extend_schema(
        tags=TAG,
        request=TieSerializer,
        responses={200: PulkaTableSerializer, **ERRORS},
        summary=gettext_lazy("Decide a tie at an Olympic cut"),
        description=gettext_lazy(
            "Directors: among the seats tied across the cut (`advance.tied`), the ones the regulation (or "
            "a lot) sends on; 400 tie_choice names how many to choose."
        ),
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        event = _director_event(request, slug)
        serializer = TieSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        found = PulkaTable.objects.filter(
            round__tournament=event.tournament, round__number=number, number=table
        ).first()
        if found is None:
            raise exceptions.NotFound(_("There is no such table in this round."))
        data: dict[str, Any] = serializer.validated_data
        decided = round_services.decide_tie(
            table=found,
            seats=data["seats"],
            user=request.user,
            now=timezone.now(),
            reason=data.get("reason", ""),
        )
        fresh = _round(event.tournament, number).tables.get(pk=decided.pk)
        return Response(table_data(fresh, director=True, show=True))


class PulkaStandingsView(ApiView, APIView):
    @extend_schema(
        tags=TAG,
        responses={
            200: PulkaStandingsSerializer,
            404: OpenApiResponse(description=gettext_lazy("Not published yet.")),
            **READ_ERRORS,
        },
        summary=gettext_lazy("The event table"),
        description=gettext_lazy(
            "The rating table by round (compensation, Swiss) or the standings by elimination (Olympic): "
            "exact numbers as strings. Once the results are published, while no round is being played (rules "
            "§12.2.4), as on the standings page and the projector; always to directors."
        ),
    )
    def get(self, request: Request, slug: str) -> Response:
        event = pulka_event(slug)
        tournament = event.tournament
        hidden = visibility.standings_hidden(viewer(request.user), tournament)
        if hidden:
            raise exceptions.NotFound(hidden)
        return Response(standings_data(tournament, event_table(tournament)))
