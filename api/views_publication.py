"""An event's publication, either form: where its results are (draft, provisional, official, final; locked), what
is still open, and the director's step forward — the same service as the director's publication page and
``manage.py publish`` (``events.publication``), refusing in the same words.

Who may do what (tests/api/test_publication.py): a director of the tournament reads the state with what is open
and takes a step; nobody else (the public reads the results themselves once published).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.common import ERRORS, ApiView, require_auth, require_director
from events.publication import final_blockers, play_finished, publication_gaps, publish
from tournaments.models import Tournament

TAG = ["publication"]


class GapsSerializer(serializers.Serializer):
    token = serializers.CharField(help_text=gettext_lazy("Send it back as `acknowledged` to publish anyway."))
    summary = serializers.CharField()
    lines = serializers.ListField(child=serializers.CharField())
    counts = serializers.DictField(child=serializers.IntegerField())


class PublicationSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    form = serializers.CharField()
    publication = serializers.ChoiceField(choices=["draft", "provisional", "official", "final"])
    locked = serializers.BooleanField()
    published_at = serializers.DateTimeField(allow_null=True)
    official_at = serializers.DateTimeField(allow_null=True)
    final_at = serializers.DateTimeField(allow_null=True)
    correction_ends_at = serializers.DateTimeField(allow_null=True)
    play_finished = serializers.BooleanField()
    final_blockers = serializers.ListField(child=serializers.CharField())
    gaps = GapsSerializer(allow_null=True)


class PublishSerializer(serializers.Serializer):
    to = serializers.ChoiceField(
        choices=["provisional", "official", "final"],
        help_text=gettext_lazy("The next step: provisional, then official, then final."),
    )
    acknowledged = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        default="",
        help_text=gettext_lazy(
            "The `gaps.token` the director saw: publish although something is still open."
        ),
    )


def publication_data(tournament: Tournament) -> dict[str, Any]:
    now = timezone.now()
    gaps = publication_gaps(tournament)
    return {
        "tournament": tournament.slug,
        "form": tournament.form,
        "publication": tournament.publication,
        "locked": tournament.is_locked,
        "published_at": tournament.published_at,
        "official_at": tournament.official_at,
        "final_at": tournament.final_at,
        "correction_ends_at": tournament.correction_ends_at,
        "play_finished": play_finished(tournament),
        "final_blockers": final_blockers(tournament, now) if tournament.publication == "official" else [],
        "gaps": {
            "token": gaps.token,
            "summary": gaps.summary(),
            "lines": gaps.lines(),
            "counts": gaps.counts(),
        }
        if gaps
        else None,
    }


class PublicationView(ApiView, APIView):
    # Directors only: a token or a logged-in session (a player's table login never directs).
    authentication_classes = [TokenAuthentication, SessionAuthentication]

    def _tournament(self, request: Request, slug: str) -> Tournament:
        require_auth(request)
        tournament = get_object_or_404(Tournament, slug=slug)
        require_director(request.user, tournament)
        return tournament

    @extend_schema(
        tags=TAG,
        responses={200: PublicationSerializer, **ERRORS},
        summary=gettext_lazy("Where an event's results are"),
        description=gettext_lazy(
            "Directors. The publication (draft, provisional, official, final), whether the event is locked, "
            "whether play is over (official results may come), why the results cannot become final yet, and "
            "what is still open (rows missing, unconfirmed or disputed; pulka deals not confirmed, tables "
            "still playing, ties at a cut undecided) with the token that acknowledges it."
        ),
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(publication_data(self._tournament(request, slug)))

    @extend_schema(
        tags=TAG,
        request=PublishSerializer,
        responses={200: PublicationSerializer, **ERRORS},
        summary=gettext_lazy("Publish the results one step further"),
        description=gettext_lazy(
            "Directors. Provisional → official → final, as the director's publication page and "
            "`manage.py publish` do, refusing in the same words: 409 `publication_order` (not the next "
            "step), `play_not_over`, `gaps_not_acknowledged` (send `acknowledged` with the token of "
            "`gaps`), `correction_period`, `open_matters`, `tournament_locked`."
        ),
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(request, slug)
        serializer = PublishSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        publish(
            tournament=tournament,
            to=serializer.validated_data["to"],
            user=request.user,
            now=timezone.now(),
            acknowledged=serializer.validated_data["acknowledged"],
        )
        return Response(publication_data(tournament))
