"""One-line descriptions of stored rows for the director's pages."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.labels import contract_label
from scoring.models import Result

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
