"""The planner's reasons, the movement's note and the alternatives in the director's language.

``preferans.movements`` explains its choice in English ``Reason`` strings, each with a stable ``code`` and the
``params`` it interpolated (nested reasons for its parts). Here each code gets a translatable message with
the same params; nested reasons are said first. A code this mapping does not know — or a plain ``str``, such
as the name of a scheme read from a file — is shown as the core's English text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy, pgettext_lazy

from preferans.movements import Plan, Reason

# code -> the message, interpolated with the reason's params (nested reasons already translated).
MESSAGES: dict[str, Any] = {
    # the movement's note: the name of the book's scheme, the book's notes
    "book_scheme": gettext_lazy("book scheme for %(participants)s participants (§5)"),
    "book_note_8": gettext_lazy("7 sets of at least two deals; tables 1 and 2 play the same set"),
    "book_note_9": gettext_lazy("9 sets of at least two deals; tables 1 and 2 play the same set; P = rest"),
    "book_note_12": gettext_lazy("11 sets; 1N keeps its player"),
    "book_note_13": gettext_lazy("13 sets; P = rest"),
    "book_note_16": gettext_lazy(
        "two groups of 8 (players 1–8 at tables 1–2, 9–16 at tables 3–4); No. 16 stays at 3E"
    ),
    "book_note_18": gettext_lazy("two groups of 9 (players 1–9 at tables 1–2, 10–18 at tables 3–4)"),
    "book_note_24": gettext_lazy(
        "two groups of 12 (players 1–12 at tables 1–3, 13–24 at tables 4–6); No. 24 stays at 4E; note the "
        "table order in the row"
    ),
    # the planner's reasons
    "book_uneven": gettext_lazy(
        "The book has a scheme for %(participants)s participants, but its meetings are uneven (%(meetings)s "
        "pairs×times); a cyclic scheme of the same length where every pair meets %(times)s times exists and is "
        "used instead (the book's scheme can be chosen below)."
    ),
    "copies_price": gettext_lazy(
        "Its price: all %(tables)s tables play the same set in a round, so each set is needed in %(copies)s "
        "copies (the book does the same for 8 and 9)."
    ),
    "book_special": gettext_lazy(
        "The book has a special scheme for %(participants)s participants (§5, procedure 4): %(note)s."
    ),
    "book_chosen": gettext_lazy("The %(scheme)s: %(note)s."),
    "basic_perfect_4": gettext_lazy(
        "%(participants)s = %(tables)s tables × 4: the basic movement (§5) — N stays, E +1, S +2, W −2, sets "
        "to table −1; every player meets each player of another line exactly once."
    ),
    "basic_perfect_3": gettext_lazy(
        "%(participants)s = %(tables)s tables × 3: the basic movement (§5) with lines N, E, S; every player "
        "meets each player of another line exactly once."
    ),
    # shortened (§5): the claim above no longer holds; the number of pairs left apart is the movement's
    "basic_shortened_4": ngettext_lazy(
        "%(participants)s = %(tables)s tables × 4: the basic movement (§5) — N stays, E +1, S +2, W −2, sets "
        "to table −1; every player meets each player of another line at most once: shortened to %(played)s of "
        "%(full)s rounds, %(never)s of the %(pairs)s pair of players of different lines never meet.",
        "%(participants)s = %(tables)s tables × 4: the basic movement (§5) — N stays, E +1, S +2, W −2, sets "
        "to table −1; every player meets each player of another line at most once: shortened to %(played)s of "
        "%(full)s rounds, %(never)s of the %(pairs)s pairs of players of different lines never meet.",
        "pairs",
    ),
    "basic_shortened_3": ngettext_lazy(
        "%(participants)s = %(tables)s tables × 3: the basic movement (§5) with lines N, E, S; every player "
        "meets each player of another line at most once: shortened to %(played)s of %(full)s rounds, "
        "%(never)s of the %(pairs)s pair of players of different lines never meet.",
        "%(participants)s = %(tables)s tables × 3: the basic movement (§5) with lines N, E, S; every player "
        "meets each player of another line at most once: shortened to %(played)s of %(full)s rounds, "
        "%(never)s of the %(pairs)s pairs of players of different lines never meet.",
        "pairs",
    ),
    "basic_layout": gettext_lazy(
        "%(participants)s = %(rooms)s room(s) × %(tables)s tables × %(per_table)s: %(note)s."
    ),
    "tables_not_prime": gettext_lazy(
        "%(tables)s tables is not prime: lines that would meet a set again skip one more table."
    ),
    "shortened": gettext_lazy(
        "Shortened to %(played)s of %(full)s rounds, announced before the session (§5)."
    ),
    "best_plan": gettext_lazy("%(head)s, and %(basic)s. Best plan: %(what)s — %(summary)s."),
    "no_book_scheme": gettext_lazy("No book scheme for %(participants)s"),
    "book_scheme_tables_of_4": gettext_lazy("The book scheme for %(participants)s is for tables of 4"),
    "not_perfect_tables": gettext_lazy(
        "%(divisions)s is not a number of tables the basic movement handles perfectly (prime ≥ 5)"
    ),
    "division": gettext_lazy("%(participants)s/%(per_table)s = %(tables)s tables"),
    "not_a_multiple": gettext_lazy("%(participants)s is not a multiple of %(per_table)s"),
    "not_a_multiple_of_either": gettext_lazy("%(participants)s is not a multiple of %(first)s or %(second)s"),
    "family_rooms": gettext_lazy(
        "several rooms, each with the basic movement, all playing the same boards (§5, procedure 2)"
    ),
    "family_skip": gettext_lazy("the basic movement with the skip procedure (§5, procedure 3)"),
    "family_substitutes": gettext_lazy(
        "the basic movement plus substitutes: each round the extra players take the seats of players who then "
        "rest (each at most once)"
    ),
    "family_cyclic": gettext_lazy("a cyclic scheme with rests like the book's for 9 and 13, found by search"),
    "meeting_pairs": gettext_lazy("%(pairs)s pairs ×%(times)s"),
    "chosen_by_score": gettext_lazy(
        "Chosen by score %(score)s (lower is better: rests, uneven meetings, extra copies of sets, short "
        "sessions, tables of three)."
    ),
    # the alternatives: the family's short name, then the summary
    "alternative": gettext_lazy("%(family)s: %(summary)s (score %(score)s)"),
    "label_rooms": pgettext_lazy("movement family", "rooms"),
    "label_skip": pgettext_lazy("movement family", "skip"),
    "label_substitutes": pgettext_lazy("movement family", "substitutes"),
    "label_cyclic": pgettext_lazy("movement family", "cyclic"),
}


def _basic_note(params: Mapping[str, Any], *, skip: bool) -> str:
    if skip:
        text = gettext("basic movement with the skip procedure (§5, procedure 3)")
    else:
        text = gettext("basic movement (§5)")
    if int(params["rooms"]) > 1:
        text += gettext(", %(rooms)s rooms on the same boards (§5, procedure 2)") % params
    if int(params["extra"]):
        text += (
            gettext(", %(extra)s substitute(s) taking turns with the players of line(s) %(lines)s") % params
        )
    return text


def _cyclic_scheme(params: Mapping[str, Any]) -> str:
    text = gettext("cyclic scheme: %(routes)s route(s) of %(length)s places") % params
    if int(params["fixed"]):
        text += gettext(", %(fixed)s fixed seat(s)") % params
    if int(params["resting"]):
        text += gettext(", %(resting)s resting per round") % params
    return text


def _summary(params: Mapping[str, Any]) -> str:
    parts = [
        gettext("%(rooms)s room(s) × %(tables)s tables of %(per_table)s") % params,
        gettext("%(rounds)s rounds") % params,
        gettext("%(sets)s sets") % params,
        gettext("%(results)s results per board and line") % params,
        gettext("%(resting)s resting per round") % params
        if int(params["rests"])
        else gettext("nobody rests"),
        gettext("%(copies)s copies of each set per room") % params
        if int(params["copies"]) > 1
        else gettext("one copy of each set per room"),
        gettext("meetings: %(meetings)s") % params,
    ]
    return "; ".join(parts)


# codes whose wording depends on the params
COMPOSED: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "note_basic": lambda params: _basic_note(params, skip=False),
    "note_basic_skip": lambda params: _basic_note(params, skip=True),
    "cyclic_scheme": _cyclic_scheme,
    "summary": _summary,
}

# Every code the translation knows (the tests check that each code the planner produces is here).
KNOWN_CODES = frozenset(MESSAGES) | frozenset(COMPOSED)


def _param(value: Any) -> Any:
    if isinstance(value, float):  # a score: the active language's decimal sign («1,23» in Russian)
        return number_format(value, 2)
    if isinstance(value, tuple):
        return ", ".join(reason_text(item) for item in value)
    if isinstance(value, str):
        return reason_text(value)
    return value


def by_code(
    code: str,
    params: Mapping[str, Any],
    messages: Mapping[str, Any],
    composed: Mapping[str, Callable[[Mapping[str, Any]], str]],
) -> str | None:
    """The sentence of ``code`` in the active language (a message interpolated with ``params``, or a composer);
    None when the code is unknown or the params do not fit, so the caller says it in English."""
    try:
        if code in composed:
            return composed[code](params)
        if code in messages:
            return str(messages[code] % params)  # a plural message takes its form from its number param
    except (KeyError, TypeError, ValueError):
        return None
    return None


def reason_text(reason: str) -> str:
    """``reason`` in the active language; the English text when it is no ``Reason`` or its code is unknown."""
    if not isinstance(reason, Reason):
        return str(reason)
    params = {k: _param(v) for k, v in reason.params.items()}
    return by_code(reason.code, params, MESSAGES, COMPOSED) or str(reason)


@dataclass(frozen=True)
class PlanText:
    """What the movement page says about a plan, in the active language."""

    note: str
    reasons: tuple[str, ...]
    alternatives: tuple[str, ...]


def plan_text(plan: Plan) -> PlanText:
    m = plan.movement
    return PlanText(
        note=reason_text(m.note) if m.note else "",
        reasons=tuple(reason_text(r) for r in plan.explanation),
        alternatives=tuple(reason_text(a) for a in plan.alternatives),
    )
