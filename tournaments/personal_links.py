"""A participant's own link, either form: one address for the whole event (``/p/<token>/``, printed with its QR
code on his PIN slip) that opens his table of the moment in every round.

The token names the tournament and the participant (their primary keys in base 36, no secret) and carries a
signature: Django's signing with the site's key, salted for this one use and cut to 22 characters (132 bits), so
nobody can make a token for a participant he has not been given. The token identifies nobody to a table: writing
and confirming there still need the participant's number and PIN. A token is at most ``MAX_TOKEN`` characters;
anything longer, malformed or forged names nobody.
"""

from __future__ import annotations

import re
from typing import Any, Final

from django.core import signing

from .models import Participant

__all__ = ["MAX_TOKEN", "participant_of", "personal_token"]

SALT: Final = "tournaments.personal_links"
SEP: Final = "."
SIGNATURE_LENGTH: Final = 22
# Two base-36 keys (13 digits hold any 64-bit key), «-», «.» and the signature.
MAX_TOKEN: Final = 13 + 1 + 13 + 1 + SIGNATURE_LENGTH
TOKEN: Final = re.compile(r"[0-9a-z]{1,13}-[0-9a-z]{1,13}\.[A-Za-z0-9_-]{22}")
DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


class _ShortSigner(signing.Signer):
    """Django's signer with its HMAC-SHA256 signature cut to ``SIGNATURE_LENGTH`` characters (a short QR code);
    ``unsign`` compares in constant time against the same cut signature, for the key and its fallbacks."""

    def signature(self, value: Any, key: Any = None) -> str:
        return str(super().signature(value, key))[:SIGNATURE_LENGTH]


def _signer() -> _ShortSigner:
    return _ShortSigner(salt=SALT, sep=SEP, algorithm="sha256")


def _base36(n: int) -> str:
    out = ""
    while True:
        n, digit = divmod(n, 36)
        out = DIGITS[digit] + out
        if n == 0:
            return out


def personal_token(participant: Participant) -> str:
    """The participant's token: the same for the whole event, whatever round or form."""
    value = f"{_base36(participant.tournament_id)}-{_base36(participant.pk)}"
    return str(_signer().sign(value))


def participant_of(token: object) -> Participant | None:
    """The participant a token names, or None for a token that is too long, malformed, forged, or names a
    participant who is no longer registered."""
    text = str(token or "")
    if len(text) > MAX_TOKEN:
        return None
    shape = TOKEN.fullmatch(text)
    if shape is None:
        return None
    try:
        value = _signer().unsign(text)
    except signing.BadSignature:
        return None
    tournament, participant = (int(part, 36) for part in value.split("-"))
    return (
        Participant.objects.select_related("tournament")
        .filter(pk=participant, tournament_id=tournament)
        .first()
    )
