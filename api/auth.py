"""Who is calling: a director (token or session login) or a player at a table (table code, number, PIN).

Players have no accounts. They authenticate per request with

    Authorization: Player <table code>:<participant number>:<PIN>

The PIN is checked (wrong PINs are counted and limited, like on the table page); whether the participant
sits at that table in the running round is a question of permission, answered by the views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from duplicate import at_table
from tournaments.models import Participant, Table
from tournaments.pins import client_ip

KEYWORD = "Player"


@dataclass(frozen=True)
class TablePlayer:
    """A participant acting at a table (``request.user`` for player requests); not a Django user."""

    table: Table
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


class PlayerAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[TablePlayer, None] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Use: Authorization: Player <table code>:<number>:<PIN>"))
        try:
            code, number, pin = header[1].decode().split(":")
        except (UnicodeDecodeError, ValueError) as exc:
            raise exceptions.AuthenticationFailed(
                _("Use: Authorization: Player <table code>:<number>:<PIN>")
            ) from exc
        ip = client_ip(request._request)
        try:
            table = at_table.find_table(code, ip=ip)
            state = at_table.TableState(
                table=table,
                session=table.session,
                tournament=table.session.tournament,
                round=None,
                next_round=None,
                last_round=None,
                seating=None,
            )
            participant = at_table.identify(state=state, number=number, pin=pin, ip=ip)
        except at_table.TableRefused as exc:
            if exc.status == 429:
                raise exceptions.Throttled(detail=exc.message) from exc
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
            "description": "Players at a table: `Player <table code>:<participant number>:<PIN>`.",
        }
