"""A refused row (either form: a duplicate protocol row or a pulka deal) in the player's language.

The scoring core explains a refused row in plain English with a stable ``code`` and the ``params`` it
interpolated (``preferans.game.row_fields``, ``contract_checks`` and ``misere_raspasy_checks``). Here each code
gets a translatable message with the same params, so the table page and the API answer in the language of the
request. A code this mapping does not know falls back to the core's English text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy, pgettext_lazy

from preferans.duplicate.artificial import Problem
from tournaments.errors import Detail, UserError

Params = Mapping[str, Any]


@dataclass(frozen=True)
class Refusal:
    """One reason a row was refused: a stable code, the field at fault, English text and its parameters."""

    code: str
    field: str
    message: str
    params: Mapping[str, object]


class ResultRejected(UserError):
    """The row breaks a rule; nothing was stored. ``refusals`` says which rules; ``details`` says it in words a
    player understands (in the active language)."""

    code = "row_invalid"

    def __init__(self, refusals: Iterable[Refusal]) -> None:
        self.refusals = tuple(refusals)
        details = [Detail(r.field, r.code, refusal_message(r)) for r in self.refusals]
        message = _("The row is not accepted.") if len(details) != 1 else details[0].message
        super().__init__(message, details=details)

    @classmethod
    def one(cls, code: str, field: str, message: str, **params: object) -> ResultRejected:
        """A refusal for one reason (``message`` is the English text, translated by its ``code``)."""
        return cls([Refusal(code, field, message, params)])


# Names of the protocol's columns as the core writes them into ``name``/``other``/``what`` params.
COLUMN_NAMES = {
    "declarer": gettext_lazy("declarer"),
    "first whister": gettext_lazy("first defender"),
    "second whister": gettext_lazy("second defender"),
    "first hand": gettext_lazy("first hand"),
    "second hand": gettext_lazy("second hand"),
    "third hand": gettext_lazy("third hand"),
    "raspasy": gettext_lazy("raspasy"),
    "misere": gettext_lazy("misère"),
}
LEVEL_NAMES = {
    "six": pgettext_lazy("contract level", "six"),
    "seven": pgettext_lazy("contract level", "seven"),
    "eight": pgettext_lazy("contract level", "eight"),
    "nine": pgettext_lazy("contract level", "nine"),
    "ten": pgettext_lazy("contract level", "ten"),
}
CALL_NAMES = {
    "whist": pgettext_lazy("whist call", "whist"),
    "pass": pgettext_lazy("whist call", "pass"),
    "half": pgettext_lazy("whist call", "half-whist"),
    "half_returned": pgettext_lazy("whist call", "half-whist, whist returned"),
}

# code -> list of (condition on params, message); the first whose condition holds is used.
Rule = tuple[Callable[[Params], bool], Any]


def _always(_p: Params) -> bool:
    return True


def _has(*keys: str) -> Callable[[Params], bool]:
    return lambda p: all(k in p for k in keys)


MESSAGES: dict[str, list[Rule]] = {
    # -- the core (preferans.game), spec §11.4 --
    "contract": [
        (_always, gettext_lazy("Illegal contract %(contract)s — choose 6♠…10NT, misère or raspasy."))
    ],
    # what the player typed, added up: «8 + 5 = 13 tricks, more than 10» (the phone, the director's form, the API)
    "tricks_total": [
        (
            lambda p: "tricks" in p and (_int(p.get("total")) or 0) > 10,
            ngettext_lazy(
                "%(tricks)s = %(total)s trick, more than 10.",
                "%(tricks)s = %(total)s tricks, more than 10.",
                "total",
            ),
        ),
        (
            lambda p: "tricks" in p and (_int(p.get("total")) or 0) < 10,
            ngettext_lazy(
                "%(tricks)s = %(total)s trick, fewer than 10.",
                "%(tricks)s = %(total)s tricks, fewer than 10.",
                "total",
            ),
        ),
        (_has("total"), gettext_lazy("The tricks total %(total)s — they must total 10.")),
    ],
    "tricks_range": [
        (_has("name"), gettext_lazy("The %(name)s's tricks %(tricks)s — tricks are whole numbers 0 to 10."))
    ],
    "position": [(_always, gettext_lazy("The %(name)s must be written as a seat and its tricks."))],
    "seat": [(_always, gettext_lazy("%(name)s: %(seat)s is not a seat (N, E, S or W)."))],
    "seat_empty": [
        (_always, gettext_lazy("The %(name)s is %(seat)s, but %(seat)s is empty at a 3-player table."))
    ],
    "dealer_position": [
        (_always, gettext_lazy("The %(name)s is the dealer %(seat)s, who sits out at a 4-player table."))
    ],
    "duplicate_position": [
        (_always, gettext_lazy("The %(other)s and the %(name)s are both %(seat)s — each seat appears once."))
    ],
    "column_order": [
        (
            _has("after", "first", "second"),
            gettext_lazy("After %(after)s come %(first)s and then %(second)s (clockwise)."),
        ),
        (_has("first"), gettext_lazy("Raspasy starts with the first hand %(first)s, not %(seat)s.")),
    ],
    "raspasy_total": [
        (
            lambda p: "variant" in p,
            gettext_lazy("Raspasy total %(total)s — at this table the three hands take 10 tricks."),
        ),
        (
            lambda p: _int(p.get("total")) is not None and _int(p.get("total")) < 8,  # type: ignore[operator]
            gettext_lazy(
                "Raspasy total %(total)s — the three hands take 8 to 10 tricks (the dealer at most 2)."
            ),
        ),
        (
            lambda p: _int(p.get("total")) is not None and _int(p.get("total")) > 10,  # type: ignore[operator]
            gettext_lazy("Raspasy total %(total)s — there are only 10 tricks."),
        ),
        (_always, gettext_lazy("Raspasy total %(total)s — the three hands take 10 tricks.")),
    ],
    "raspasy_step": [
        (_has("step"), gettext_lazy("Raspasy step %(step)s given, but these rules have no progression.")),
        (_always, gettext_lazy("A raspasy step belongs only to raspasy.")),
    ],
    "calls_missing": [
        (_has("seat"), gettext_lazy("%(seat)s has no call — each defender says whist, pass or half-whist.")),
        (_always, gettext_lazy("The defenders' calls are missing — each says whist, pass or half-whist.")),
    ],
    "calls_seat": [(_always, gettext_lazy("%(seat)s is not a defender, so %(seat)s has no call."))],
    "calls_value": [(_always, gettext_lazy("%(seat)s's call %(value)s — choose whist, pass or half-whist."))],
    "calls_raspasy": [(_always, gettext_lazy("Raspasy has no whist calls."))],
    "calls_misere": [(_always, gettext_lazy("A misère has no whist calls."))],
    "calls_half_level": [
        (_always, gettext_lazy("Half-whist on a %(level_name)s is not allowed — only on a six or a seven."))
    ],
    "calls_two_halves": [(_always, gettext_lazy("Only one defender can go for half-whist."))],
    "calls_half_first": [
        (
            _always,
            gettext_lazy(
                "Half-whist by the first defender %(seat)s is allowed only under gentleman's whist."
            ),
        )
    ],
    "calls_half_with_whist": [
        (
            _always,
            gettext_lazy(
                "%(seat)s's half-whist cannot stand beside a whist — if the whist was returned, "
                "choose “half-whist, whist returned”."
            ),
        )
    ],
    "calls_no_returner": [
        (
            _always,
            gettext_lazy(
                "%(seat)s's whist was returned, but nobody whisted (the other defender or the dealer)."
            ),
        )
    ],
    "dealer_whist": [
        (_has("what"), gettext_lazy("There is no whist in a %(what)s, so the dealer cannot whist.")),
        (
            _always,
            gettext_lazy("The dealer can whist only at a 4-player table and only when no defender whists."),
        ),
    ],
    "penalty_tricks": [(_always, gettext_lazy("Penalty tricks apply only to a trick contract (6…10)."))],
    # Code 3.9.18: a player found with a wrong number of cards
    "wrong_cards": [
        (
            _always,
            gettext_lazy(
                "“Wrong number of cards” lists the seats (N, E, S, W) of the players found with a wrong number "
                "of cards."
            ),
        )
    ],
    "wrong_cards_twice": [(_always, gettext_lazy("“Wrong number of cards” names a seat twice."))],
    "wrong_cards_kind": [
        (
            _always,
            gettext_lazy(
                "A wrong number of cards (Code 3.9.18) is scored only on a played trick contract (6…10); "
                "on a misère or raspasy give the director's penalty as extra entries."
            ),
        )
    ],
    "wrong_cards_no_play": [
        (
            _always,
            gettext_lazy(
                "Nobody whisted, so the deal was not played: nobody can be found with a wrong number of cards."
            ),
        )
    ],
    "wrong_cards_seat": [
        (
            _always,
            gettext_lazy(
                "%(seat)s held no cards in this deal: a wrong number of cards is found at the declarer "
                "%(declarer)s or a defender (%(first)s, %(second)s)."
            ),
        )
    ],
    "wrong_cards_all": [
        (
            _always,
            gettext_lazy(
                "All three hands cannot be at fault: Code 3.9.18 punishes a player when the others' cards "
                "are right."
            ),
        )
    ],
    "misere_shared": [
        (_always, gettext_lazy("A shared misère exists only for a misère at a 4-player table."))
    ],
    "play": [(_always, gettext_lazy("Open or closed play does not fit this deal."))],
    "play_two_whisters": [(_always, gettext_lazy("Two whisters always play closed."))],
    "play_no_whister": [(_always, gettext_lazy("Nobody whisted, so the deal was not played."))],
    "play_none": [
        (_always, gettext_lazy("Someone whisted, so the deal was played — choose open or closed."))
    ],
    "nominal_tricks": [
        (
            _always,
            gettext_lazy(
                "A deal that was not played is written with the nominal tricks %(expected)s, not %(actual)s."
            ),
        )
    ],
    "not_boolean": [(_always, gettext_lazy("%(key)s must be yes or no."))],
    "out_of_range": [
        (_always, gettext_lazy("%(key)s %(value)s — it must be a whole number %(low)s to %(high)s."))
    ],
    "players": [(_always, gettext_lazy("A table has 3 or 4 players."))],
    "dealer": [(_always, gettext_lazy("The board's dealer is missing or wrong — call the director."))],
    "extra_entry": [(_always, gettext_lazy("Extra entries are for the director only."))],
    "vists": [(_always, gettext_lazy("The vists must give a number for each seat."))],
    "vists_seat": [(_always, gettext_lazy("%(seat)s has no player at this table, so no vists."))],
    "vists_number": [(_always, gettext_lazy("%(seat)s's vists are not a number."))],
    "vists_missing": [(_always, gettext_lazy("%(seat)s has no vists — every seated player has an entry."))],
    "vists_sum": [(_always, gettext_lazy("The vists sum to %(total)s — they must sum to 0."))],
    "vists_mismatch": [
        (_always, gettext_lazy("%(seat)s's vists %(claimed)s — the rules give %(computed)s."))
    ],
    # -- the write path (scoring.rows) --
    "seat_unknown": [(_always, gettext_lazy("There is no such seat at this table."))],
    "seat_missing": [(_always, gettext_lazy("A seat of this table has no participant."))],
    "seat_twice": [(_always, gettext_lazy("One participant sits in two seats."))],
    "participant_unknown": [(_always, gettext_lazy("No such participant number in this tournament."))],
    "adjusted_grade": [(_always, gettext_lazy("Seat %(seat)s needs an artificial result A-, A or A+."))],
    "assigned_value": [(_always, gettext_lazy("Seat %(seat)s needs an assigned score in vists."))],
    "row_kind": [(_always, gettext_lazy("Give either a played deal, an artificial or an assigned result."))],
    "board_unknown": [(_always, gettext_lazy("This session has no board %(board)s."))],
    "board_played_twice": [
        (
            lambda p: p.get("room", 1) != 1,
            gettext_lazy(
                "Participant %(numbers)s already played board %(board)s (table %(table)s of room %(room)s, round "
                "%(round)s): the director rules on it (§11.6)."
            ),
        ),
        (
            _always,
            gettext_lazy(
                "Participant %(numbers)s already played board %(board)s (table %(table)s, round "
                "%(round)s): the director rules on it (§11.6)."
            ),
        ),
    ],
    "row_field": [(_always, gettext_lazy("Unknown field %(field)s."))],
    # -- a deal of a pulka (preferans.pulka): the rules between deals, pulka-spec §6, §7, §11 --
    "pulka_row_field": [
        (_always, gettext_lazy("%(key)s has no place in a pulka deal: the dealer follows from the rotation."))
    ],
    "pulka_unknown_field": [(_always, gettext_lazy("Unknown field %(key)s."))],
    "raspasy_step_chain": [
        (
            _has("chain", "step"),
            gettext_lazy("This is raspasy number %(chain)s in a row, so its step is %(step)s (Code 3.7.4)."),
        )
    ],
    "raspasy_exit": [
        (
            _has("chain", "minimum", "contract"),
            gettext_lazy(
                "After %(chain)s raspasy in a row the lowest contract is a %(minimum)s (Code 3.7.8); "
                "%(contract)s is too low."
            ),
        )
    ],
    "after_end": [
        (
            _has("ended_with"),
            gettext_lazy("The pulka ended with deal %(ended_with)s (Code 4.2.3): no deal may follow."),
        )
    ],
    "deal_limit": [(_has("limit"), gettext_lazy("The deal limit is %(limit)s: no more deals are played."))],
    "extra_whole": [
        (_always, gettext_lazy("The sheet holds whole numbers only (an extra entry is a fraction)."))
    ],
    "row_size": [(_always, gettext_lazy("The row is too long."))],
}


def _int(value: object) -> int | None:
    try:
        return int(value)  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError):
        return None


def _display(key: str, value: object) -> object:
    """Param values as a player reads them: column and level names translated, lists joined."""
    if key in ("name", "other", "what") and isinstance(value, str):
        return COLUMN_NAMES.get(value, value)
    if key == "level_name" and isinstance(value, str):
        return LEVEL_NAMES.get(value, value)
    if key == "value" and isinstance(value, str):
        return CALL_NAMES.get(value, value)
    if key == "contract" and value == "":
        return "—"
    if key == "tricks" and isinstance(value, (list, tuple)):  # the tricks a total is made of: «8 + 5»
        return " + ".join(str(v) for v in value)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return value


def translate(code: str, params: Params, fallback: str) -> str:
    """The message for one refusal in the active language (the core's English text if unknown)."""
    for condition, message in MESSAGES.get(code, []):
        try:
            if not condition(params):
                continue
            shown = {k: _display(k, v) for k, v in params.items()}
            return str(message % shown)  # a plural message picks its form by the params
        except (KeyError, TypeError, ValueError):
            continue
    return fallback


def refusal_message(refusal: Refusal) -> str:
    return translate(refusal.code, refusal.params, refusal.message)


def adjustment_message(p: Problem) -> str:
    """A refusal of :mod:`preferans.duplicate.artificial` in the request's language."""
    texts = {
        "artificial_range": _("The artificial result %(grade)s must be a percentage 0–100."),
        "artificial_minus_fixed": _(
            "A- is %(bound)s %% of the top, fixed by the book (rules §11.2 B1: the side at fault gets 40 %%); "
            "%(value)s %% cannot be set."
        ),
        "artificial_average_fixed": _(
            "A is %(bound)s %% of the top, fixed by the book (rules §11.2 B1: a side partly at fault gets "
            "50 %%); %(value)s %% cannot be set."
        ),
        "artificial_plus_low": _(
            "A+ is at least %(bound)s %% of the top: rules §11.2 B1 give the non-offending side at least 60 %%."
        ),
        "percent_seat": _("Seat %(seat)s is not at this table."),
        "percent_range": _("Seat %(seat)s: a percentage of the top is between 0 and 100."),
        "percent_not_plus": _(
            "Seat %(seat)s: only a non-offender's artificial result (A+) may be raised above the tournament's A+."
        ),
        "percent_below_plus": _(
            "Seat %(seat)s: a non-offender gets at least %(bound)s %% of the top (rules §11.2 B1)."
        ),
        "annulled_artificial": _("An artificial result has no played result to annul."),
        "annulled_seat": _("Seat %(seats)s is not at this table."),
        "annulled_twice": _("A seat is named twice among the annulled."),
        "annulled_all": _("Every seat's result cannot be annulled on one row: delete the row instead."),
    }
    text = texts.get(p.code)
    return text % dict(p.params) if text else p.message
