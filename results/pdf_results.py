"""Results as PDF files: the standings, every board's filled protocol with matchpoints, personal score cards,
and the standings followed by the protocols (what ``export_results --format pdf`` writes).

Each file is a document of the report's event (:func:`report_doc`) with its parts drawn by
:mod:`results.pdf_standings`, :mod:`results.pdf_protocols` and :mod:`results.pdf_cards`; numbers are the core's
stored values, rounded half-up for print (``5,33``, :mod:`results.pdf_cells`).
"""

from __future__ import annotations

from collections.abc import Sequence

from results.data import Progress, Report
from results.labels import labels
from results.pdf_cards import draw_cards
from results.pdf_common import PdfDoc
from results.pdf_protocols import draw_protocols
from results.pdf_standings import draw_standings

__all__ = ["cards_pdf", "protocols_pdf", "report_doc", "results_pdf", "standings_pdf"]


def report_doc(report: Report, title: str, lang: str, *, landscape: bool = False) -> PdfDoc:
    """A PDF document of the report's event: its name, date and publication in the header of every page."""
    return PdfDoc(
        title=title,
        tournament=report.name,
        publication=report.publication,
        lang=lang,
        landscape=landscape,
        generated_at=report.generated_at,
        subtitle=f"{report.starts_on:%d.%m.%Y}" if report.starts_on else "",
    )


def standings_pdf(report: Report, *, lang: str, progress: Progress | None = None) -> bytes:
    """The standings alone."""
    doc = report_doc(report, labels(lang)["standings"], lang)
    draw_standings(doc, report, lang)
    return doc.finish()


def protocols_pdf(
    report: Report, *, lang: str, layouts: bool | None = None, progress: Progress | None = None
) -> bytes:
    """Every board's protocol, landscape; the layouts as ``layouts`` says (by default once a session is over)."""
    doc = report_doc(report, labels(lang)["protocols"], lang, landscape=True)
    draw_protocols(doc, report, lang, layouts=layouts, progress=progress)
    return doc.finish()


def results_pdf(report: Report, *, lang: str, progress: Progress | None = None) -> bytes:
    """The standings, then every board's protocol (what ``export_results --format pdf`` writes)."""
    lab = labels(lang)
    doc = report_doc(report, f"{lab['standings']}, {lab['protocols'].lower()}", lang, landscape=True)
    draw_standings(doc, report, lang)
    draw_protocols(doc, report, lang, progress=progress)
    return doc.finish()


def cards_pdf(
    report: Report, *, lang: str, participants: Sequence[int] | None = None, progress: Progress | None = None
) -> bytes:
    """The score cards of ``participants`` (everyone when ``None``)."""
    doc = report_doc(report, labels(lang)["cards"], lang)
    draw_cards(doc, report, lang, participants=participants, progress=progress)
    return doc.finish()
