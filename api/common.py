"""The REST API: thin views over the services of the other apps (scoring, table, tournaments).

Who may do what (tested in tests/api/test_permissions.py):

* anyone: tournaments, sessions, rounds, tables (without codes), seatings, boards; the rows, the deals and the
  standings as :mod:`visibility` says — the one rule of the pages, the phone pages and the projector
  (rows and deals once published and the session is over; standings once published while no round is played);
* a player at a table of either form (``Authorization: Player code:number:PIN``, ``api.auth``): besides, at a
  duplicate table the rows he sits on — the player at N creates and corrects (until someone confirms), the
  others confirm or dispute; at a pulka table his table's sheet (``api.views_pulka_table``);
* a director of the tournament (token or session login): everything, every change audited.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request

from api.auth import PlayerAuthentication, TablePlayer
from api.parsers import BoundedJSONParser
from api.serializers import (
    ErrorSerializer,
)
from api.throttles import AnonThrottle, PlayerThrottle, UserThrottle
from tournaments.models import Tournament
from tournaments.numbers import whole_number
from tournaments.permissions import can_direct
from visibility import Viewer, directed_q

ERRORS = {
    400: OpenApiResponse(
        ErrorSerializer, description=gettext_lazy("Invalid request or row (row_invalid, invalid).")
    ),
    401: OpenApiResponse(ErrorSerializer, description=gettext_lazy("Not authenticated, or a wrong PIN.")),
    403: OpenApiResponse(ErrorSerializer, description=gettext_lazy("Not allowed.")),
    404: OpenApiResponse(ErrorSerializer, description=gettext_lazy("Not found (or not visible to you).")),
    409: OpenApiResponse(ErrorSerializer, description=gettext_lazy("Conflict: already entered, or locked.")),
    429: OpenApiResponse(ErrorSerializer, description=gettext_lazy("Too many requests.")),
}
READ_ERRORS = {k: v for k, v in ERRORS.items() if k in (400, 404, 429)}
IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=gettext_lazy(
        "Any unique string per intended write (a UUID): a retry with the same key returns the first "
        "answer and never stores a second row."
    ),
)


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    value = whole_number(raw, low=1)  # ASCII digits only: «٣» or «¹» is no number here
    if value is None:
        raise exceptions.ValidationError({name: [_("A whole number is required.")]})
    return value


def _param(name: str, description: str, kind: Any = OpenApiTypes.INT) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=description, required=False)


def is_director(user: Any, tournament: Tournament) -> bool:
    """A director of the tournament (``tournaments.permissions.can_direct``); a player's table token never is."""
    return not isinstance(user, TablePlayer) and can_direct(user, tournament)


def require_director(user: Any, tournament: Tournament) -> None:
    """403 unless the user directs this tournament."""
    if not is_director(user, tournament):
        raise exceptions.PermissionDenied(_("Only a director of this tournament may do this."))


def directed(user: Any) -> Q:
    """Rows of tournaments the user directs (``Q(pk__in=[])`` for nobody)."""
    if isinstance(user, TablePlayer):
        return Q(pk__in=[])
    return directed_q(user, "session__tournament")


def viewer(user: Any) -> Viewer:
    """Who asks, as :mod:`visibility` knows him: a player identified by the ``Player`` header (a duplicate
    or a pulka table's), else the user (a director, or the public)."""
    participant = getattr(user, "participant", None)
    if participant is not None and not hasattr(user, "directed_tournaments"):
        return Viewer.at_table(participant)
    return Viewer.of(user)


class ApiView:
    # Token first: an anonymous write is answered 401 with «WWW-Authenticate: Token».
    authentication_classes = [TokenAuthentication, PlayerAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]  # every view decides itself (see the module's docstring)
    throttle_classes = [AnonThrottle, UserThrottle, PlayerThrottle]
    # JSON bounded in size, depth and digits before it is decoded (formats.md §2's bounds).
    parser_classes = [BoundedJSONParser, FormParser, MultiPartParser]


def require_auth(request: Request) -> None:
    if not getattr(request.user, "is_authenticated", False):
        raise exceptions.NotAuthenticated()
