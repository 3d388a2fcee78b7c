"""Who may direct an event. One place, used by pages and the API alike; who may *see* what and when is
``visibility``."""

from __future__ import annotations

from typing import Any

from .models import Tournament


def can_direct(user: Any, tournament: Tournament) -> bool:
    """A director of this tournament (or a superuser) may set it up, enter and change results."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return tournament.directors.filter(pk=user.pk).exists()
