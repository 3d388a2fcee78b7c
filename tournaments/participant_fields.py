"""A participant's number and texts as every channel bounds them: a number from 1 to 9999 (formats.md §2), a name
and a club of at most :data:`NAME_MAX` characters, a federation id of at most :data:`FEDERATION_ID_MAX`; a text
as typed is cleaned of control characters and extra spaces. The problems are in the director's words."""

from __future__ import annotations

import re
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from preferans.bundle.bounds import PARTICIPANT_NUMBER_MAX, TEXT_MAX, strip_controls

__all__ = [
    "FEDERATION_ID_MAX",
    "NAME_MAX",
    "RATING_MAX",
    "clean_text",
    "number_problem",
    "parse_rating",
    "rating_problem",
    "rating_text",
    "text_problems",
]

NAME_MAX = TEXT_MAX  # Participant.name and .club
FEDERATION_ID_MAX = 64  # Participant.federation_id
# A declared rating (a federation's or a club's, typed or imported; not the product's computed one): a number
# from 0 to RATING_MAX with at most two decimals (the software's bound: Elo-like lists stay well under 4000).
RATING_MAX = 4000
_RATING = re.compile(r"^[0-9]{1,4}(?:[.,][0-9]{1,2})?\Z")


def number_problem(number: int) -> str | None:
    """What is wrong with a participant number (formats.md §2: 1 to 9999), in the director's words."""
    if not 1 <= number <= PARTICIPANT_NUMBER_MAX:
        return _("Participant numbers are whole numbers from 1 to %(max)s.") % {"max": PARTICIPANT_NUMBER_MAX}
    return None


def text_problems(*, name: str, club: str = "", federation_id: str = "") -> list[str]:
    """Texts longer than the list keeps (control characters are already stripped by :func:`clean_texts`)."""
    problems = []
    for label, value, bound in (
        (_("the name"), name, NAME_MAX),
        (_("the club"), club, NAME_MAX),
        (_("the federation id"), federation_id, FEDERATION_ID_MAX),
    ):
        if len(value) > bound:
            problems.append(
                ngettext(
                    "%(what)s is longer than %(n)s character",
                    "%(what)s is longer than %(n)s characters",
                    bound,
                )
                % {"what": label, "n": bound}
            )
    return problems


def clean_text(value: str) -> str:
    """A name, club or id as typed: control characters out (``strip_controls``), spaces trimmed and single."""
    return " ".join(strip_controls(value).split())


def parse_rating(text: str) -> tuple[Decimal | None, str | None]:
    """A declared rating as typed or read from a file: (the number, None), (None, None) when empty, or
    (None, the problem in the director's words). «1650», «1650,5» and «1650.25» are read exactly."""
    value = clean_text(text).replace(" ", "")
    if not value:
        return None, None
    if _RATING.match(value):
        number = Decimal(value.replace(",", "."))
        if number <= RATING_MAX:
            return number, None
    return None, _("the rating “%(value)s” is not a number from 0 to %(max)s") % {
        "value": value[:12],
        "max": RATING_MAX,
    }


def rating_problem(value: Decimal) -> str | None:
    """What is wrong with a declared rating as a number (a form's): outside 0 to 4000, or finer than 0.01."""
    if not value.is_finite() or not 0 <= value <= RATING_MAX or value != value.quantize(Decimal("0.01")):
        return _("A rating is a number from 0 to %(max)s.") % {"max": RATING_MAX}
    return None


def rating_text(value: Decimal | None) -> str:
    """A declared rating as shown and exported: «1650», «1650.5» (no trailing zeros), "" when none."""
    if value is None:
        return ""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
