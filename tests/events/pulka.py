"""Helpers of the whole event's tests over the one pulka-event factory (``tests/pulkas/factory.py``)."""

from __future__ import annotations

from pulkas.models import PulkaRound
from pulkas.services import rounds
from tests.pulkas.factory import pulka_event

__all__ = ["finish_round", "pulka_event"]


def finish_round(pulka_round: PulkaRound, director, now) -> None:
    """Time is up: the tables still playing are stopped, the round ends."""
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now, reason="время вышло")
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)
