"""A table's code, either form: what is printed on the table card and typed on a phone to open the table's page
(a duplicate table at ``/table/<code>/``, a pulka table at ``/pulka/<code>/``).

A code is unique across both forms, so a code alone says which table it opens (``events.tables.find_table``).
The ground knows only its own tables (``tournaments.models.Table``); each form's app says, when Django starts,
how to tell whether one of its tables holds a code (``holds_table_codes`` in ``tournaments.apps`` and
``pulkas.apps``), and every new code is drawn by ``unused_table_code``, which asks them all.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_CODE_LENGTH = 12  # the models' field; a longer text is no code
DRAWS = 50  # codes drawn before giving up: 31⁶ ≈ 9·10⁸ codes, so a second draw is already rare

CodeTaken = Callable[[str], bool]
_holders: list[CodeTaken] = []


def new_table_code(rng: random.Random | None = None) -> str:
    """A code drawn at random (``unused_table_code`` draws one no table has)."""
    rng = rng or secrets.SystemRandom()
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: object) -> str:
    """Codes are read aloud and typed on phones: ignore case, spaces and dashes."""
    return "".join(ch for ch in str(raw or "").upper() if ch.isalnum())[:MAX_CODE_LENGTH]


def holds_table_codes(taken: CodeTaken) -> None:
    """A form's tables hold codes: ``taken(code)`` says whether one of them has ``code`` (registered once)."""
    if taken not in _holders:
        _holders.append(taken)


def code_in_use(code: str) -> bool:
    """Whether a table of either form already has ``code``."""
    return any(taken(code) for taken in _holders)


def unused_table_code(rng: random.Random | None = None) -> str:
    """A new code that no table of either form has."""
    rng = rng or secrets.SystemRandom()
    for _ in range(DRAWS):
        code = new_table_code(rng)
        if not code_in_use(code):
            return code
    raise RuntimeError(f"no unused table code in {DRAWS} draws")  # pragma: no cover - 50 hits in a row
