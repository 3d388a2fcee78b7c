"""The pulka core's refusals of a game's parameters (``preferans.pulka.SetupError``) in the director's language.

A ``SetupError`` carries a stable ``code`` and the ``field`` at fault (``rules.pool_weight``, ``pool`` …). Here
each code gets a translatable message and the field becomes the settings form's field, so every channel that
changes a pulka event's rules or settings (the tournament settings service, the pulka settings service, their
pages and the API) refuses in the same words, next to the same field.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from preferans.pulka import SetupError
from tournaments.errors import Detail, UserError

MESSAGES = {
    "pool_weight": gettext_lazy(
        "A pulka has no pool_weight: a pool point is worth 1 mountain point with help "
        "(Sochi, Rostov) and 2 with the Leningrad closing rule."
    ),
    "whole": gettext_lazy("The sheet holds whole numbers: prices and amounts in the rules must be whole."),
    "raspasy_exit": gettext_lazy("Contract levels from 6 to 10, separated by commas: 6 or 7, 8, 9, 10."),
    "pool": gettext_lazy("The pool target is a whole number, 1 or more."),
    "max_deals": gettext_lazy("The deal limit is a whole number, 1 or more."),
    "tiebreaks": gettext_lazy("Each tie-break once, from the Code's list."),
    "advance": gettext_lazy("One player goes on from a table, or two by regulation."),
}


def form_field(field: str) -> str:
    """``rules.raspasy_exit`` → ``raspasy_exit``; another ``rules.*`` → ``rules``; ``olympic.advance`` →
    ``advance``."""
    if field == "rules.raspasy_exit":
        return "raspasy_exit"
    return field.split(".", 1)[0] if field.startswith("rules") else field.rsplit(".", 1)[-1]


def setup_refusal(exc: SetupError) -> UserError:
    """The refusal as a :class:`UserError` with its message in the active language and the form field named."""
    message = MESSAGES.get(exc.code)
    text = (
        str(message)
        if message is not None
        else gettext("The rule overrides are not valid: %(problem)s") % {"problem": exc}
    )
    return UserError(text, code=exc.code, details=[Detail(form_field(exc.field), exc.code, text)])
