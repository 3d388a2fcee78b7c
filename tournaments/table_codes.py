"""A table's code, either form: what is printed on the table card and typed on a phone to open the table's page
(a duplicate table at ``/table/<code>/``, a pulka table at ``/pulka/<code>/``)."""

from __future__ import annotations

import random
import secrets

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_table_code(rng: random.Random | None = None) -> str:
    rng = rng or secrets.SystemRandom()
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: object) -> str:
    """Codes are read aloud and typed on phones: ignore case, spaces and dashes."""
    return "".join(ch for ch in str(raw or "").upper() if ch.isalnum())[:12]
