"""Who is calling: a director (token or session login) or a player at a table of either form (table code, number,
PIN).

Players have no accounts. They authenticate per request with

    Authorization: Player <table code>:<participant number>:<PIN>

one header and one OpenAPI security scheme (``playerAuth``) for a duplicate table and a pulka table alike: the
code is looked up by the one lookup of both forms (``events.tables.find_table``: unknown codes counted) and the
PIN by the one PIN check (``events.tables.player_at``: wrong PINs counted; while somebody plays at the table, only
its players answer). What the player may do there is a question of permission, answered by the views: a
duplicate table's views ask :meth:`TablePlayer.duplicate_table`, a pulka table's :meth:`TablePlayer.pulka_table`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from api.errors import ApiError
from events.tables import AnyTable, find_table, player_at
from tournaments.errors import TooManyAttempts, UserError
from tournaments.models import Participant, Table
from tournaments.pins import client_ip

KEYWORD = "Player"


@dataclass(frozen=True)
class TablePlayer:
    """A participant acting at a table of either form (``request.user`` for player requests); not a Django user."""

    table: AnyTable
    participant: Participant

    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False
    pk = None
    id = None

    def get_username(self) -> str:
        return f"participant {self.participant.number}"

    def __str__(self) -> str:
        return self.get_username()

    def plays_at(self, table: AnyTable) -> bool:
        """Whether ``table`` is his table (the same form and the same table)."""
        return type(table) is type(self.table) and table.pk == self.table.pk

    def duplicate_table(self) -> Table:
        """His table, for a duplicate table's request (a pulka table's player is refused: his sheet is elsewhere)."""
        if not isinstance(self.table, Table):
            raise ApiError(
                "not_this_table",
                _("This code is a pulka table's: its deals are written at /api/pulka/tables/<code>/."),
                403,
            )
        return self.table


class PlayerAuthentication(authentication.BaseAuthentication):
    """``Authorization: Player <table code>:<number>:<PIN>``, for a table of either form."""

    def authenticate(self, request: Request) -> tuple[TablePlayer, None] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD.lower().encode():
            return None
        usage = _("Use: Authorization: Player <table code>:<number>:<PIN>")
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(usage)
        try:
            code, number, pin = header[1].decode().split(":")
        except (UnicodeDecodeError, ValueError) as exc:
            raise exceptions.AuthenticationFailed(usage) from exc
        client = client_ip(request._request)
        try:
            table = find_table(code, client=client)
            participant = player_at(table, number=number, pin=pin, client=client)
        except TooManyAttempts as exc:
            raise exceptions.Throttled(wait=exc.retry_after, detail=exc.message) from exc
        except UserError as exc:
            raise exceptions.AuthenticationFailed(exc.message) from exc
        return TablePlayer(table=table, participant=participant), None

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


class PlayerAuthenticationScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    target_class = "api.auth.PlayerAuthentication"
    name = "playerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Players at a table of either form (a duplicate table or a pulka table): "
            "`Player <table code>:<participant number>:<PIN>`. A pulka table's writes also take `number` and `pin` "
            "in the body.",
        }
