"""A whole game of preferans at one table — the pulka — and the two tournament forms built from it.

The rules: ``docs/rules/pulka-spec.md`` (cited as "pulka §n"); the file format: ``docs/formats.md`` §7.

* :mod:`.setup` — the game's parameters (:class:`PulkaSetup`): variant and rules with the pulka's limits,
  players, pool target, deal limit, first dealer, compensation column, tie-breaks, Olympic advance;
* :mod:`.sheet` — the sheet (pool, mountain, whists, column) and how one deal is written on it: the pool cap,
  help, write-offs (pulka §3–§5);
* :mod:`.engine` — the game deal by deal: dealer rotation, raspasy chain and exit, the end, the closing
  entries, the settlement both ways and the whole-vist rounding (pulka §4–§8): :func:`play_pulka`;
* :mod:`.ranking` — the result of a pulka: ranks and tie-breaks (pulka §9), Olympic advance (§10.1);
* :mod:`.document` — the ``preferans-pulka`` JSON in and the ``preferans-pulka-result`` JSON out;
* :mod:`.forms` — the tournament forms over many pulkas: Olympic rounds, compensation and Swiss ratings,
  re-seating (pulka §10).

Pure Python: no Django import.
"""

from __future__ import annotations

from .engine import (
    DealScore,
    NextDeal,
    PulkaGame,
    PulkaInvalid,
    PulkaProblem,
    PulkaScore,
    Rounding,
    play_pulka,
)
from .setup import TIEBREAKS, Compensation, PulkaSetup, SetupError, make_pulka_rules

__all__ = [
    "TIEBREAKS",
    "Compensation",
    "DealScore",
    "NextDeal",
    "PulkaGame",
    "PulkaInvalid",
    "PulkaProblem",
    "PulkaScore",
    "PulkaSetup",
    "Rounding",
    "SetupError",
    "make_pulka_rules",
    "play_pulka",
]
