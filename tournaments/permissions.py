"""Who may see and do what. One place, used by pages and the API alike."""

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


def can_see_results(user: Any, tournament: Tournament) -> bool:
    """The public sees results only once they are published; directors always."""
    return tournament.is_published or can_direct(user, tournament)
