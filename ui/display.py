"""A stored row in one line of words: for the director's pages (``describe``) and for players (``describe_row``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Result
from ui.labels import CALL_WORDS, PLAY_WORDS, contract_label

CALL_MARK = {"whist": "", "pass": "", "half": "½", "half_returned": "½↩"}


def describe(result: Result) -> str:
    if result.adjusted:
        grades = ", ".join(f"{s} {g}" for s, g in result.adjusted.items())
        return _("Artificial: %(grades)s") % {"grades": grades}
    if result.assigned:
        values = ", ".join(f"{s} {v}" for s, v in result.assigned.items())
        return _("Assigned: %(values)s") % {"values": values}
    row = result.row or {}
    contract = row.get("contract")
    if not contract:
        return "—"
    parts = []
    calls = row.get("calls") or {}
    for col in ("declarer", "w1", "w2"):
        value = row.get(col)
        if isinstance(value, list) and len(value) == 2:
            seat, tricks = value
            call = calls.get(seat)
            mark = (
                " " + _("pass")
                if call == "pass"
                else f" {CALL_MARK[call]}"
                if call in ("half", "half_returned")
                else ""
            )
            parts.append(f"{seat} {tricks}{mark}")
    text = f"{contract_label(contract)}: " + " · ".join(parts)
    play = row.get("play")
    if play == "open":
        text += " · " + _("open")
    if row.get("dealer_whist"):
        text += " · " + _("dealer whisted")
    return text


def describe_in_words(result: Result) -> str:
    """A row in words for a reader who does not know the protocol's shorthand: «6♣ · N played: 5 tricks ·
    E: 3 tricks · W passed: 2 tricks» (``describe`` writes it «6♣: N 5 · E 3 · W 2 pass»)."""
    row = result.row or {}
    contract = row.get("contract")
    if result.adjusted or result.assigned or not contract:
        return describe(result)
    parts = [contract_label(contract)]
    calls = row.get("calls") or {}
    for col in ("declarer", "w1", "w2"):
        value = row.get(col)
        if not (isinstance(value, list) and len(value) == 2):
            continue
        seat, tricks = value
        n = {"seat": seat, "n": tricks}
        if col == "declarer" and contract != "-":
            parts.append(
                ngettext("%(seat)s played: %(n)s trick", "%(seat)s played: %(n)s tricks", tricks) % n
            )
        elif calls.get(seat) == "pass":
            parts.append(
                ngettext("%(seat)s passed: %(n)s trick", "%(seat)s passed: %(n)s tricks", tricks) % n
            )
        else:
            parts.append(ngettext("%(seat)s: %(n)s trick", "%(seat)s: %(n)s tricks", tricks) % n)
    if row.get("play") == "open":
        parts.append(_("open"))
    return " · ".join(parts)


def describe_row(row: dict[str, Any], players: int, dealer: str) -> str:
    """One line a player recognises: «6♠ — E 6, S 2 (whist), W 2 (whist), closed»."""
    if not row:
        return ""
    dealt = (
        " " + str(_("(dealt out of turn by %(seat)s, Code 3.2.14)") % {"seat": row["dealt_by"]})
        if row.get("dealt_by")
        else ""
    )
    if row.get("not_written"):  # a pulka deal that passed without a written game (Code 3.2.17, 4.2.10)
        return str(_("Deal not written: the deal passes (Code 3.2.17, 4.2.10)")) + dealt
    return _game_words(row) + dealt


def _game_words(row: dict[str, Any]) -> str:
    contract = contract_label(str(row.get("contract", "")))
    cols = [row.get(k) or ["?", "?"] for k in ("declarer", "w1", "w2")]
    calls = row.get("calls") or {}
    names = dict(CALL_WORDS)
    parts = []
    for i, (seat, tricks) in enumerate(cols):
        text = f"{seat} {tricks}"
        if i and seat in calls:
            text += f" ({names.get(calls[seat], calls[seat])})"
        parts.append(text)
    extra = []
    if row.get("dealer_whist"):
        extra.append(str(_("the dealer whisted")))
    if row.get("play") in ("open", "closed"):
        extra.append(str(dict(PLAY_WORDS).get(row["play"], row["play"])))
    if row.get("misere_shared"):
        extra.append(str(_("shared with the dealer")))
    return f"{contract}: " + ", ".join(parts) + (f"; {', '.join(extra)}" if extra else "")
