"""Request rates: anonymous clients per address, directors per account, players per participant.

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` and are read on every request, so tests and
deployments can change them in settings.
"""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from api.auth import TablePlayer


class _Rate(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # type: ignore[no-any-return]

    def __init__(self) -> None:  # the rate is looked up per request, not at import
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)


class AnonThrottle(_Rate):
    scope = "anon"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if getattr(request.user, "is_authenticated", False):
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserThrottle(_Rate):
    scope = "user"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = request.user
        if not getattr(user, "is_authenticated", False) or isinstance(user, TablePlayer):
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class PlayerThrottle(_Rate):
    scope = "player"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = request.user
        if not isinstance(user, TablePlayer):
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.participant.pk}
