"""The pure scoring core of duplicate preferans: one deal → ledger → vists per seat.

The rules: docs/rules.md (one deal). Modules:

* :mod:`.contracts` — contract codes (``6S`` … ``10NT``, ``MIS``, ``-``), the ladder, obligations;
* :mod:`.variants` — :class:`Rules` profiles (Sochi, Leningrad, Rostov) and their overrides;
* :mod:`.ledger` — a :class:`Deal` → :class:`Ledger` (pool, mountain, whists);
* :mod:`.vists` — ledger → vists (spec §3.2);
* :mod:`.rows` — the protocol row: validation (§11.4) and :func:`score_row`; its checks: :mod:`.row_fields`
  (the errors, the table, the columns), :mod:`.contract_checks` (a trick contract) and
  :mod:`.misere_raspasy_checks` (deals without whist);
* :mod:`.costs` — the organisers' cost tables (§10).

No Django import anywhere in this package.
"""

from __future__ import annotations

from .contracts import (
    CONTRACT_CODES,
    ROW_CONTRACT_CODES,
    Contract,
    ContractError,
    ContractKind,
    obligation,
    parse_contract,
)
from .costs import CostLine, CostTable, cost_table, format_cost_table_csv, format_cost_table_text
from .ledger import SEATS, Call, Deal, DealKind, ExtraEntry, Ledger, Play, TableSeats, compute_ledger
from .rows import ROW_FIELDS, RowError, RowInvalid, parse_row, score_row, validate_row
from .variants import (
    OVERRIDE_KEYS,
    VARIANTS,
    ConsolationBasis,
    Progression,
    RaspasyMode,
    Responsibility,
    Rules,
    RulesError,
    WhistMode,
    describe_rules,
    make_rules,
    rules_to_overrides,
)
from .vists import ledger_to_vists

__all__ = [
    "CONTRACT_CODES",
    "OVERRIDE_KEYS",
    "ROW_CONTRACT_CODES",
    "ROW_FIELDS",
    "SEATS",
    "VARIANTS",
    "Call",
    "ConsolationBasis",
    "Contract",
    "ContractError",
    "ContractKind",
    "CostLine",
    "CostTable",
    "Deal",
    "DealKind",
    "ExtraEntry",
    "Ledger",
    "Play",
    "Progression",
    "RaspasyMode",
    "Responsibility",
    "RowError",
    "RowInvalid",
    "Rules",
    "RulesError",
    "TableSeats",
    "WhistMode",
    "compute_ledger",
    "cost_table",
    "describe_rules",
    "format_cost_table_csv",
    "format_cost_table_text",
    "ledger_to_vists",
    "make_rules",
    "obligation",
    "parse_contract",
    "parse_row",
    "rules_to_overrides",
    "score_row",
    "validate_row",
]
