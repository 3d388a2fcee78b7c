"""The movement library's refusals in the director's language.

``preferans.movements`` explains a movement it cannot build in plain English with a stable ``code`` and the
``params`` it interpolated (``MovementError``). Here each code gets a translatable message with the same
params, so the movement page (and any other channel) answers in the language of the request. A code this
mapping does not know — or none, for errors only a malformed file or a bug can raise — falls back to a
translated sentence that carries the core's English detail.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext, ngettext_lazy

from duplicate.movement_text import by_code
from preferans.movements import MovementError
from tournaments.errors import UserError
from tournaments.numbers import list_count

GENERIC_CODE = "movement_invalid"

# Fields of a movement's short form (``build_movement``) as the core names them in ``field`` params.
FIELD_NAMES: dict[str, Any] = {
    "movement.tables": gettext_lazy("The number of tables"),
    "movement.rounds": gettext_lazy("The number of rounds"),
    "movement.rooms": gettext_lazy("The number of rooms"),
    "movement.participants": gettext_lazy("The number of participants"),
    "movement.per_table": gettext_lazy("Players per table"),
    "movement.deals_per_set": gettext_lazy("Deals per set"),
}

# code -> the message, interpolated with the error's params (``no_movement`` is built in ``_no_movement``).
MESSAGES: dict[str, Any] = {
    "per_table": gettext_lazy("Players per table must be 3 or 4 (rules §1), not %(per_table)s."),
    "too_few_participants": ngettext_lazy(
        "%(participants)s participant cannot be seated: a movement needs at least %(minimum)s (two tables of "
        "three, so that every board is compared in each line).",
        "%(participants)s participants cannot be seated: a movement needs at least %(minimum)s (two tables of "
        "three, so that every board is compared in each line).",
        "participants",
    ),
    "too_few_rounds": gettext_lazy("A session needs at least 2 rounds, not %(rounds)s."),
    "too_few_for_tables_of_4": ngettext_lazy(
        "%(participants)s participants cannot be seated at tables of 4: two tables (%(minimum)s participant) "
        "are the least that lets every board be compared in each line; choose tables of 3 in the tournament's "
        "settings.",
        "%(participants)s participants cannot be seated at tables of 4: two tables (%(minimum)s participants) "
        "are the least that lets every board be compared in each line; choose tables of 3 in the tournament's "
        "settings.",
        "minimum",
    ),
    "unknown_scheme": gettext_lazy("Unknown movement scheme «%(scheme)s»: use one of %(choices)s."),
    "book_tables_of_4": gettext_lazy(
        "The book's special schemes (§5, procedure 4) are for tables of 4 players."
    ),
    "book_one_room": gettext_lazy("The book's special schemes are for one room."),
    "basic_participants": gettext_lazy(
        "The basic movement needs a number of participants that is a multiple of %(multiples)s (tables of "
        "%(per_table)s, rooms: %(rooms)s), not %(participants)s."
    ),
    "substitutes_cannot_join": gettext_lazy(
        "%(extra)s substitute(s) cannot join the basic movement on %(tables)s tables for %(rounds)s rounds "
        "without someone playing a set twice or resting twice."
    ),
    "substitutes": gettext_lazy("Substitutes: 1…%(maximum)s extra participants in one room, not %(extra)s."),
    "basic_tables": gettext_lazy("The basic movement needs at least 2 tables per room (§5), not %(tables)s."),
    "rooms": gettext_lazy("The number of rooms must be at least 1, not %(rooms)s."),
    "basic_rounds": gettext_lazy(
        "A session may be shortened (§5: announced in advance), but the basic movement on %(tables)s tables "
        "has 2…%(maximum)s rounds, not %(rounds)s."
    ),
    "book_participants": gettext_lazy(
        "The book has special schemes (§5, procedure 4) only for these numbers of participants: "
        "%(available)s — not for %(participants)s."
    ),
    "scheme_rounds": gettext_lazy("This scheme has 2…%(maximum)s rounds in a session, not %(rounds)s."),
    "not_an_integer": gettext_lazy("%(field)s must be a whole number, not %(value)s."),
    "below_minimum": gettext_lazy("%(field)s must be at least %(minimum)s, not %(value)s."),
    "unknown_fields": gettext_lazy("%(field)s: unknown field(s) %(fields)s."),
    "per_table_mismatch": gettext_lazy(
        "The movement is for tables of %(given)s, but the tournament plays at tables of %(per_table)s."
    ),
    "not_a_spec": gettext_lazy("The movement must be described by an object that names its scheme."),
}

# The seating rules a movement must keep (``preferans.movements.validate``: M1…M7), in the director's words.
RULES: dict[str, Any] = {
    "M1": gettext_lazy("every table plays once in every round"),
    "M2": gettext_lazy("every seat holds one of the participants"),
    "M3": gettext_lazy("every participant plays or rests once in every round"),
    "M4": gettext_lazy("nobody plays a set twice"),
    "M5": gettext_lazy("every board is played at least twice in each line, so that it can be compared"),
    "M6": gettext_lazy("the rests are shared out evenly"),
    "M7": gettext_lazy("every set of the row is played"),
}

# Every code the translation knows (the test checks that each code the core raises is here).
KNOWN_CODES = frozenset(MESSAGES) | {"no_movement", "movement_rules"}


def _no_movement(params: Mapping[str, Any]) -> str:
    conditions = []
    if "per_table" in params:
        conditions.append(gettext("tables of %(per_table)s") % params)
    if "rooms" in params:
        conditions.append(gettext("rooms: %(rooms)s") % params)
    if "rounds" in params:
        conditions.append(gettext("rounds: %(rounds)s") % params)
    if not conditions:
        return gettext("No valid movement seats %(participants)s participants.") % params
    return gettext("No valid movement seats %(participants)s participants (%(conditions)s).") % {
        **params,
        "conditions": ", ".join(conditions),
    }


def _rules_broken(params: Mapping[str, Any]) -> str:
    broken = [str(RULES[code]) for code in str(params["rules"]).split(", ") if code in RULES]
    text = gettext("This movement does not keep the seating rules (§5): %(broken)s.") % {
        "broken": "; ".join(broken)
    }
    if params.get("sets"):
        text += " " + ngettext(
            "Set %(sets)s would be played fewer than twice in a line: play more rounds or choose another movement.",
            "Sets %(sets)s would be played fewer than twice in a line: play more rounds or choose another movement.",
            list_count(str(params["sets"]).split(",")),
        ) % {"sets": params["sets"]}
    return text


def movement_message(exc: MovementError) -> str:
    """The error's message in the active language (the generic sentence with the English detail if unknown)."""
    params: dict[str, Any] = dict(exc.params)
    if "field" in params and params["field"] in FIELD_NAMES:
        params["field"] = str(FIELD_NAMES[str(params["field"])])
    found = by_code(
        exc.code, params, MESSAGES, {"no_movement": _no_movement, "movement_rules": _rules_broken}
    )
    return found or gettext("This movement cannot be used: %(detail)s") % {"detail": str(exc)}


def movement_refusal(exc: MovementError) -> UserError:
    """A ``UserError`` saying ``exc`` in the active language, with the core's code (or ``movement_invalid``)."""
    code = exc.code if exc.code in KNOWN_CODES else GENERIC_CODE
    return UserError(movement_message(exc), code=code)
