"""Across events: master points by the organisers' schemes and the players' rating (docs/players/)."""

from preferans.ratings.master_points import (
    DEFAULT_SCHEME,
    MasterPointError,
    Placed,
    Scheme,
    award,
    parse_scheme,
)
from preferans.ratings.rating import START, DuplicateEvent, PulkaEvent, expected, rate_day

__all__ = [
    "DEFAULT_SCHEME",
    "START",
    "DuplicateEvent",
    "MasterPointError",
    "Placed",
    "PulkaEvent",
    "Scheme",
    "award",
    "expected",
    "parse_scheme",
    "rate_day",
]
