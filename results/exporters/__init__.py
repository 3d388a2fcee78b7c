"""The generated files, one class per kind (pretix's exporters): who it is, which formats, how it is made.

An :class:`~results.exporters.base.Exporter` names its kind (``identifier``), its label on the exports page, the
formats it is made in, the tournament forms it is for (``forms``: a duplicate event's files, a pulka event's, or
both) and whether it is made per session (or per round of a pulka event); ``render(fmt)`` makes the bytes.
Tabular kinds list their sheets (:mod:`results.sheets`, rows yielded while the file is written) and get Excel and
CSV from the shared renderers; each kind that prints draws its own PDF. :data:`EXPORTERS` is built from the
classes, so a new kind is one new class in :data:`_KINDS` — nothing else branches on the kind.

The kinds, by what they are about: :mod:`.duplicate_results` (a duplicate event's results and the pack),
:mod:`.duplicate_sessions` (what a session's movement prints, its PIN slips), :mod:`.pulka_files` (a pulka
event's files), :mod:`.any_form` (the cost table and the appeal form); :mod:`.base` is what they share.

Every path goes through :func:`results.services.build_file` (the exports page via a Celery task, the
``export_results`` command, the benchmark).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from boards.pdf.text import lang_of
from results.data import Progress, Report
from results.exporters.any_form import AppealFormExporter, CostTableExporter
from results.exporters.base import Exporter, ExportError
from results.exporters.duplicate_results import (
    CardsExporter,
    PackExporter,
    ProtocolsExporter,
    ResultsExporter,
    StandingsExporter,
    WorkbookExporter,
)
from results.exporters.duplicate_sessions import (
    PinSlipsExporter,
    RowOfSetsExporter,
    SeatingExporter,
    TableCardsExporter,
)
from results.exporters.pulka_files import (
    PulkaBracketExporter,
    PulkaPinSlipsExporter,
    PulkaSeatingExporter,
    PulkaSheetsExporter,
    PulkaStandingsExporter,
    PulkaTableCardsExporter,
    PulkaWorkbookExporter,
)
from tournaments.models import Tournament

__all__ = ["EXPORTERS", "ExportError", "Exporter", "exporter_for"]

_KINDS: tuple[type[Exporter], ...] = (
    ResultsExporter,
    WorkbookExporter,
    StandingsExporter,
    ProtocolsExporter,
    CardsExporter,
    PackExporter,
    TableCardsExporter,
    RowOfSetsExporter,
    SeatingExporter,
    PinSlipsExporter,
    PulkaStandingsExporter,
    PulkaWorkbookExporter,
    PulkaBracketExporter,
    PulkaSeatingExporter,
    PulkaTableCardsExporter,
    PulkaSheetsExporter,
    PulkaPinSlipsExporter,
    CostTableExporter,
    AppealFormExporter,
)
EXPORTERS: dict[str, type[Exporter]] = {kind.identifier: kind for kind in _KINDS}


def exporter_for(
    tournament: Tournament,
    kind: str,
    *,
    options: Mapping[str, Any],
    now: dt.datetime,
    progress: Progress,
    report: Report | None = None,
) -> Exporter:
    """The exporter of ``kind`` for this tournament, in the language the options ask for (else the event's)."""
    cls = EXPORTERS.get(kind)
    if cls is None:
        raise ExportError(f"unknown kind {kind!r}: one of {', '.join(EXPORTERS)}")
    lang = lang_of(options.get("lang") or tournament.language)
    return cls(tournament, lang=lang, now=now, options=options, progress=progress, report=report)
