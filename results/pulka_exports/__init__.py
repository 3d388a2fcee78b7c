"""The results of a pulka event as people read them: what the public pages show (:mod:`.model`) and the files
an organiser prints and a federation reads — the Excel workbook and CSV (:mod:`.workbook`) and the PDFs
(:mod:`.pdf`; a round's table cards: :mod:`.table_cards`), in the file's language (:mod:`.labels`).

``results.exporters`` registers one thin :class:`~results.exporters.Exporter` class per kind of file over the
builders below, so the exports page, the export jobs and the download permission handle them as they do the
duplicate files.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from results.pulka_exports import pdf
from results.pulka_exports.model import EventView, RoundView, load_event
from results.pulka_exports.table_cards import table_cards_pdf
from results.pulka_exports.workbook import standings_sheet, workbook_sheets
from results.render_tabular import render_csv, render_xlsx

__all__ = [
    "EventView",
    "RoundView",
    "bracket_pdf",
    "load_event",
    "seating_pdf",
    "sheets_pdf",
    "standings_csv",
    "standings_pdf",
    "standings_xlsx",
    "table_cards_pdf",
    "workbook_xlsx",
]


def workbook_xlsx(view: EventView, *, lang: str, progress: Callable[[int, int], None] | None = None) -> bytes:
    """The standings, each round's tables and each round's pulkas deal by deal."""
    return render_xlsx(workbook_sheets(view, lang), progress=progress)


def standings_xlsx(view: EventView, *, lang: str) -> bytes:
    return render_xlsx([standings_sheet(view, lang)])


def standings_csv(view: EventView, *, lang: str) -> bytes:
    return render_csv([standings_sheet(view, lang)], lang=lang)


def standings_pdf(view: EventView, *, lang: str, now: dt.datetime) -> bytes:
    return pdf.standings_pdf(view, lang=lang, now=now)


def bracket_pdf(view: EventView, *, lang: str, now: dt.datetime) -> bytes:
    return pdf.bracket_pdf(view, lang=lang, now=now)


def seating_pdf(view: EventView, pulka_round: RoundView, *, lang: str, now: dt.datetime) -> bytes:
    return pdf.seating_pdf(view, pulka_round, lang=lang, now=now)


def sheets_pdf(view: EventView, pulka_round: RoundView, *, lang: str, now: dt.datetime) -> bytes:
    return pdf.sheets_pdf(view, pulka_round, lang=lang, now=now)
