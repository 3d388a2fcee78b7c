"""A duplicate event's results as files: standings, protocols, score cards and the workbook (Excel and CSV from
the sheets of :mod:`results.sheets`, PDFs from :mod:`results.pdf_results`), and the pack of every printed file."""

from __future__ import annotations

import io
import zipfile
from typing import ClassVar

from django.utils.translation import gettext_lazy as _

from appeals.pdf import appeal_form_pdf
from results import pdf_results
from results.exporters.any_form import cost_table_for
from results.exporters.base import Exporter, ExportError
from results.exporters.duplicate_sessions import row_of_sets_for, table_cards_for
from results.render_tabular import render_csv, render_xlsx
from results.sheets import sheets

__all__ = [
    "CardsExporter",
    "PackExporter",
    "ProtocolsExporter",
    "ResultsExporter",
    "StandingsExporter",
    "WorkbookExporter",
]


class TabularExporter(Exporter):
    """A kind made of sheets: Excel and CSV from :mod:`results.render_tabular`; a PDF where it prints."""

    sheet_keys: ClassVar[tuple[str, ...]]

    def render_xlsx(self) -> bytes:
        return render_xlsx(
            sheets(self.report, list(self.sheet_keys), self.lang), progress=self.progress.part(10, 100)
        )

    def render_csv(self) -> bytes:
        return render_csv(sheets(self.report, list(self.sheet_keys), self.lang), lang=self.lang)


class ResultsExporter(TabularExporter):
    identifier = "results"
    label = _("Standings and protocols")
    formats = ("xlsx", "csv", "pdf")
    sheet_keys = ("standings", "protocols")

    def render_pdf(self) -> bytes:
        return pdf_results.results_pdf(self.report, lang=self.lang, progress=self.progress.part(5, 100))


class WorkbookExporter(TabularExporter):
    identifier = "workbook"
    label = _("Excel workbook: standings, protocols, score cards, frequencies")
    formats = ("xlsx",)
    sheet_keys = ("standings", "session_totals", "protocols", "cards", "frequencies")


class StandingsExporter(TabularExporter):
    identifier = "standings"
    label = _("Standings")
    formats = ("pdf", "xlsx", "csv")
    sheet_keys = ("standings", "session_totals")

    def render_pdf(self) -> bytes:
        return pdf_results.standings_pdf(self.report, lang=self.lang)


class ProtocolsExporter(TabularExporter):
    identifier = "protocols"
    label = _("Protocols with matchpoints")
    formats = ("pdf", "xlsx", "csv")
    sheet_keys = ("protocols", "frequencies")

    def render_pdf(self) -> bytes:
        layouts = self.options.get("layouts")
        return pdf_results.protocols_pdf(
            self.report, lang=self.lang, layouts=layouts, progress=self.progress.part(5, 100)
        )


class CardsExporter(TabularExporter):
    identifier = "cards"
    label = _("Personal score cards")
    formats = ("pdf", "xlsx", "csv")
    sheet_keys = ("cards", "session_totals")

    def render_pdf(self) -> bytes:
        participants = self.options.get("participants")
        return pdf_results.cards_pdf(
            self.report, lang=self.lang, participants=participants, progress=self.progress.part(5, 100)
        )


class PackExporter(Exporter):
    """Every printed material in one zip: results, score cards, and per session table cards and the row."""

    identifier = "pack"
    label = _("PDF pack (all printed materials, zip)")
    formats = ("zip",)

    def render_zip(self) -> bytes:
        report, lang, t, step = self.report, self.lang, self.tournament, self.progress.part(5, 100)
        slug, at = t.slug, report.generated_at
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as zf:
            zf.writestr(f"{slug}-standings.pdf", pdf_results.standings_pdf(report, lang=lang))
            step(3, 100)
            zf.writestr(
                f"{slug}-protocols.pdf",
                pdf_results.protocols_pdf(report, lang=lang, progress=step.part(3, 35)),
            )
            zf.writestr(
                f"{slug}-cards.pdf", pdf_results.cards_pdf(report, lang=lang, progress=step.part(35, 92))
            )
            base_url = self.base_url
            for session in t.sessions.all():
                try:
                    cards = table_cards_for(t, session, lang=lang, now=at, base_url=base_url)
                    row = row_of_sets_for(t, session, lang=lang, now=at)
                except ExportError:  # a session without a (valid) movement has nothing to print
                    continue
                zf.writestr(f"{slug}-table-cards-s{session.number}.pdf", cards)
                zf.writestr(f"{slug}-row-of-sets-s{session.number}.pdf", row)
            step(96, 100)
            zf.writestr(f"{slug}-cost-table.pdf", cost_table_for(t, lang=lang, now=at, standard=True))
            zf.writestr(f"{slug}-appeal-form.pdf", appeal_form_pdf(None, lang=lang))
        return buffer.getvalue()
