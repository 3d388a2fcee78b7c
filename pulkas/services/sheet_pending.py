"""A player's correction of another player's entry, waiting for the others: the warning or penalty of Code 4.2.7
(«Ошибка в записи может быть поправлена партнёрами») stands once the others — the writer among them — confirm the
corrected deal; by the corrector's click alone it warns or penalises nobody (a dispute goes to the director).
"""

from __future__ import annotations

import datetime as dt

from pulkas.models import PulkaCorrection, PulkaDeal
from pulkas.services.sheet_load import TableSheet, load_sheet, refresh_cache
from tournaments.audit import log_action


def apply_confirmed_correction(
    sheet: TableSheet, deal: PulkaDeal, now: dt.datetime
) -> PulkaCorrection | None:
    """The others confirmed a deal a player corrected in another's entry: the warning or penalty that waited
    (Code 4.2.7, the partners' correction) now stands, on the one who answers for the entry."""
    waiting = (
        PulkaCorrection.objects.filter(table=sheet.table, deal_number=deal.number, pending__isnull=False)
        .order_by("-id")
        .first()
    )
    if waiting is None or not isinstance(waiting.pending, dict):
        return None
    waiting.warning = bool(waiting.pending.get("warning"))
    waiting.warned = list(waiting.pending.get("warned") or [])
    waiting.penalty = list(waiting.pending.get("penalty") or [])
    waiting.writer_id = waiting.pending.get("writer") or waiting.writer_id  # who answers for the entry
    waiting.pending = None
    waiting.save(update_fields=["warning", "warned", "penalty", "pending", "writer"])
    if waiting.penalty:
        deal.row = {
            **deal.row,
            "extra_entries": [*list(deal.row.get("extra_entries") or []), *waiting.penalty],
        }
        deal.save(update_fields=["row", "updated_at"])
    table = sheet.table
    refresh_cache(load_sheet(table, event=sheet.event))
    log_action(
        tournament=sheet.tournament,
        action="pulka_correction_confirmed",
        obj=deal,
        at=now,
        data={
            "table": table.number,
            "round": table.round.number,
            "deal": deal.number,
            "warning": waiting.warning,
            "warned": waiting.warned,
            "penalty": waiting.penalty,
        },
    )
    return waiting
