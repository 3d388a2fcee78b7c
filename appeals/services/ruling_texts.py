"""What the rules prescribe, in the page's language: the core's proposal (:mod:`preferans.duplicate.rulings`)
carries a stable ``code`` and its ``params`` beside its English text; here each code gets its translatable
sentence, so a Russian page shows no English (a code not listed falls back to the core's text)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _


def _texts() -> dict[str, str]:
    return {
        "override_none": _("The director lets the result stand."),
        "override_artificial": _("Artificial adjusted result by fault (§11.2 B1)."),
        "override_assigned": _(
            "Assigned result: the most favourable possible for the non-offenders, the least favourable for the "
            "offenders (§11.2 B2)."
        ),
        "wrong_cards_call": _(
            "The player with the wrong number of cards has made a call: artificial adjusted result; the offender "
            "may be penalised (§11.3)."
        ),
        "wrong_cards_keep": _(
            "Play completed with a wrong hand: the non-offenders keep their result (it did not depend on the "
            "opponents' play); the result is annulled for %(seats)s, who get the artificial result A- (40 %% of the "
            "top; a side partly at fault: A, 50 %%) (§11.3 C with §11.2 B1: the book does not say what an annulled "
            "offender gets; this is the software's reading)."
        ),
        "wrong_cards_completed": _(
            "Play completed with a wrong hand: the result is annulled and an artificial result awarded (§11.3 C)."
        ),
        "wrong_cards_seen": _(
            "A player saw other players' cards and the information interferes with normal play: artificial "
            "result (§11.3 B.2)."
        ),
        "wrong_cards_repaired": _(
            "The deal is repaired (hand records, the players who played it earlier, or a redeal) and played "
            "normally (§11.3 A)."
        ),
        "missing_card_restored": _(
            "The card is found and returned to the hand that was short; it is deemed always to have belonged to "
            "that hand, may become a penalty card, and not having played it earlier may establish a revoke "
            "(§11.4 A.1, B.1 b, B.3)."
        ),
        "missing_card_not_found": _(
            "The card cannot be found: the director reconstructs the layout as far as possible on another deck "
            "and play goes on; a penalty may follow (§11.4 A.2, B.2, B.3)."
        ),
        "missing_card_played": _(
            "The card was found among the played cards: the board is fouled (§10); this table played version "
            "%(version)s, scored separately from the tables that played the board as dealt."
        ),
        "defective_trick": _(
            "The trick is rectified at the table; a revoke, if established, is scored in the protocol row (§11.5)."
        ),
        "wrong_board_stands": _(
            "Nobody had played the deal before: the result stands (§11.6 A.1) and is compared with the board's "
            "other results."
        ),
        "wrong_board_stands_enter": _(
            "Nobody had played the deal before: the result stands (§11.6 A.1). Enter the row as played below, so "
            "that it is stored and compared with the board's other results."
        ),
        "wrong_board_annul": _(
            "%(seats)s had played this deal before: each one's second result (the later round) is annulled "
            "(§11.6 B); the other players keep their result on this board and are compared normally."
        ),
        "wrong_hand": _("Play with the wrong hand: the deal is annulled, artificial result (§11.7)."),
        "fouled": _(
            "Fouled board: this table played version %(version)s, scored separately from the tables that played "
            "the board as dealt (§10)."
        ),
        "fouled_same": _(
            "The layout this table played is the board as dealt: the result is compared normally (§10)."
        ),
        "procedural": _("Procedural penalty in matchpoints (§12)."),
        "director_error": _(
            "The director's ruling was wrong: adjusted result treating all players as non-offending (§13.2.6)."
        ),
        "other": _("No score change unless the director chooses one (§11.2)."),
    }


def proposal_text(proposal: Mapping[str, Any], facts: Mapping[str, Any] | None = None) -> str:
    """The stored proposal (``Irregularity.proposal``) as a sentence in the active language, with what the
    director added: the correct board to be played later, a non-offender's raised percentage and its reason."""
    code = str(proposal.get("code") or "")
    params = dict(proposal.get("params") or {})
    template = _texts().get(code)
    if template is None:
        return str(proposal.get("text") or "")
    try:
        text = template % params if "%(" in template else template
    except (KeyError, TypeError, ValueError):
        return str(proposal.get("text") or "")
    parts = [text]
    if code.startswith("wrong_board") and params.get("later"):
        parts.append(
            _("The correct board is to be played later by all of them against one another (§11.6 A.2).")
        )
    if code == "wrong_board_annul" and params.get("intended"):
        parts.append(
            _("The players deprived of a normal result on board %(board)s get artificial results.")
            % {"board": params["intended"]}
        )
    if code == "wrong_board_annul" and params.get("missing"):
        parts.append(_("Enter the row as played below, so that the other players' result is stored."))
    facts = facts or {}
    raised = {s: v for s, v in dict(facts.get("percent") or {}).items() if str(v).strip()}
    if raised and any(c.get("values", {}).get("percent") for c in proposal.get("changes") or ()):
        shown = ", ".join(f"{seat} {value} %" for seat, value in raised.items())
        parts.append(
            _("Non-offender above A+ (§11.2 B1, «at least 60 %%»): %(seats)s — %(reason)s")
            % {"seats": shown, "reason": facts.get("percent_reason") or ""}
        )
    return " ".join(parts)
