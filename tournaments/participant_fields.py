"""A participant's number and texts as every channel bounds them: a number from 1 to 9999 (formats.md §2), a name
and a club of at most :data:`NAME_MAX` characters, a federation id of at most :data:`FEDERATION_ID_MAX`; a text
as typed is cleaned of control characters and extra spaces. The problems are in the director's words."""

from __future__ import annotations

from django.utils.translation import gettext as _

from preferans.bundle.bounds import PARTICIPANT_NUMBER_MAX, TEXT_MAX, strip_controls

__all__ = ["FEDERATION_ID_MAX", "NAME_MAX", "clean_text", "number_problem", "text_problems"]

NAME_MAX = TEXT_MAX  # Participant.name and .club
FEDERATION_ID_MAX = 64  # Participant.federation_id


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
            problems.append(_("%(what)s is longer than %(n)s characters") % {"what": label, "n": bound})
    return problems


def clean_text(value: str) -> str:
    """A name, club or id as typed: control characters out (``strip_controls``), spaces trimmed and single."""
    return " ".join(strip_controls(value).split())
