"""The generated files, one class per kind (pretix's exporters): who it is, which formats, how it is made.

An :class:`Exporter` names its kind (``identifier``), its label on the exports page, the formats it is made in,
the tournament forms it is for (``forms``: a duplicate event's files, a pulka event's, or both) and whether it is
made per session (or per round of a pulka event); ``render(fmt)`` makes the bytes. Tabular kinds list their sheets
(:mod:`results.sheets`, rows yielded while the file is written) and get Excel and CSV from the shared
renderers; each kind that prints draws its own PDF. :data:`EXPORTERS` is built from the classes, so a new kind
is one new class in :data:`_KINDS` — nothing else branches on the kind.

Every path goes through :func:`results.services.build_file` (the exports page via a Celery task, the
``export_results`` command, the benchmark).
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Mapping
from typing import Any, ClassVar

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from appeals.pdf import appeal_form_pdf
from boards.pdf.text import lang_of
from duplicate.seating import SeatingError, movement_for
from preferans.movements import Movement
from results import pdf_results
from results import pulka_exports as pulka_files
from results.data import Progress, Report, load_report
from results.pdf_movement import (
    PinSlip,
    TableLink,
    cost_tables_pdf,
    pin_slips_pdf,
    row_of_sets_pdf,
    seating_pdf,
    table_cards_pdf,
)
from results.render_tabular import render_csv, render_xlsx
from results.sheets import sheets
from tournaments.errors import UserError
from tournaments.models import Form, Session, Tournament

__all__ = ["EXPORTERS", "ExportError", "Exporter", "table_links", "table_url"]


class ExportError(UserError):
    """The file cannot be made as asked (unknown kind or format, no such session, no movement)."""

    code = "export_refused"


def table_url(code: str, base_url: str = "") -> str:
    """The table's protocol-entry page (absolute when ``base_url`` is given)."""
    try:
        path = reverse("table:entry", kwargs={"code": code})
    except NoReverseMatch:
        path = f"/table/{code}/"
    return base_url.rstrip("/") + path if base_url else path


def table_links(session: Session, base_url: str = "") -> dict[tuple[int, int], TableLink]:
    """(room, table) → the table's code and the address its QR code points to."""
    return {(t.room, t.number): TableLink(t.code, table_url(t.code, base_url)) for t in session.tables.all()}


def session_movement(session: Session) -> Movement:
    """The session's movement (``duplicate.seating.movement_for``); without one nothing is printed."""
    if not session.movement:
        raise ExportError(str(_("Session %(n)s has no movement.") % {"n": session.number}))
    try:
        return movement_for(session, session.movement)
    except SeatingError as exc:  # already a translated refusal
        raise ExportError(exc.message, code=exc.code) from exc


DUPLICATE: tuple[str, ...] = (Form.DUPLICATE,)
PULKA_FORMS: tuple[str, ...] = (Form.OLYMPIC, Form.COMPENSATION, Form.SWISS)
ALL_FORMS: tuple[str, ...] = tuple(Form.values)


class Exporter:
    """One kind of generated file. Subclasses set the class attributes and the ``render_<format>`` methods."""

    identifier: ClassVar[str]
    label: ClassVar[Any]  # lazily translated, for the exports page
    formats: ClassVar[tuple[str, ...]]
    forms: ClassVar[tuple[str, ...]] = DUPLICATE  # the tournament forms this kind of file is made for
    per_session: ClassVar[bool] = False
    per_round: ClassVar[bool] = False  # a pulka event's round (the exports page's round choice)
    do_not_call_in_templates: ClassVar[bool] = True  # templates list the classes themselves

    def __init__(
        self,
        tournament: Tournament,
        *,
        lang: str,
        now: dt.datetime,
        options: Mapping[str, Any],
        progress: Progress,
        report: Report | None = None,
    ) -> None:
        self.tournament = tournament
        self.lang = lang
        self.now = now
        self.options = options
        self.progress = progress
        self._report = report

    @property
    def report(self) -> Report:
        """The results as stored, loaded once (the first 5 % of the progress)."""
        if self._report is None:
            self._report = load_report(self.tournament.pk, now=self.now)
            self.progress(5, 100, "loaded")
        return self._report

    def stem(self) -> str:
        """The file name before the language code: the event and the kind (and the session or round)."""
        return f"{self.tournament.slug}-{self.identifier.replace('_', '-')}"

    def filename(self, fmt: str) -> str:
        """``demo-standings-ru.pdf``: the language code keeps a Russian and an English file apart."""
        return f"{self.stem()}-{self.lang}.{fmt}"

    def render(self, fmt: str) -> bytes:
        if fmt not in self.formats:
            raise ExportError(f"{self.identifier} is made as {', '.join(self.formats)}, not {fmt!r}")
        if self.tournament.form not in self.forms:
            raise ExportError(
                str(_("This file is not made for a tournament of this form.")), code="export_form"
            )
        body: bytes = getattr(self, f"render_{fmt}")()
        return body


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


class SessionExporter(Exporter):
    """A kind printed for one session's movement (the chosen session, else the last)."""

    per_session = True

    @property
    def session(self) -> Session:
        number = self.options.get("session")
        sessions = self.tournament.sessions.all()
        found = (
            sessions.filter(number=int(number)).first() if number else sessions.order_by("-number").first()
        )
        if found is None:
            raise ExportError(str(_("The tournament has no such session.")))
        return found

    def stem(self) -> str:
        return f"{super().stem()}-s{self.session.number}"


class TableCardsExporter(SessionExporter):
    identifier = "table_cards"
    label = _("Table cards for the movement")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        return table_cards_for(
            self.tournament,
            self.session,
            lang=self.lang,
            now=self.now,
            base_url=str(self.options.get("base_url") or ""),
        )


class RowOfSetsExporter(SessionExporter):
    identifier = "row_of_sets"
    label = _("Director's row of sets")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        return row_of_sets_for(self.tournament, self.session, lang=self.lang, now=self.now)


class SeatingExporter(SessionExporter):
    identifier = "seating"
    label = _("Seating of a session: every round, tables × seats, who rests")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        t, session = self.tournament, self.session
        names = dict(t.participants.values_list("number", "name"))
        return seating_pdf(
            session_movement(session),
            tournament=t.name,
            session=session.number,
            names=names,
            lang=self.lang,
            generated_at=self.now,
        )


class PinSlipsExporter(SessionExporter):
    identifier = "pin_slips"
    label = _("PIN slips to cut, with the table where each starts")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        t, session = self.tournament, self.session
        try:
            movement = session_movement(session)
        except ExportError:  # no movement yet: the slips still carry the PINs, without a table
            movement = None
        links = table_links(session, str(self.options.get("base_url") or ""))
        first: dict[int, tuple[int, int, int, str]] = {}
        for rnd, ta in movement.seatings() if movement is not None else ():
            for line, p in ta.seats:
                first.setdefault(p, (rnd.number, ta.room, ta.table, str(line)))
        slips = [
            PinSlip(
                number,
                name,
                pin,
                first.get(number),
                links.get(first[number][1:3]) if number in first else None,
            )  # type: ignore[arg-type]
            for number, name, pin in t.participants.order_by("number").values_list("number", "name", "pin")
        ]
        return pin_slips_pdf(
            slips,
            tournament=t.name,
            session=session.number,
            many_rooms=bool(movement and movement.rooms > 1),
            lang=self.lang,
            generated_at=self.now,
        )


class CostTableExporter(Exporter):
    identifier = "cost_table"
    label = _("Table of game costs")
    formats = ("pdf",)
    forms = ALL_FORMS

    def render_pdf(self) -> bytes:
        return cost_table_for(
            self.tournament, lang=self.lang, now=self.now, standard=bool(self.options.get("standard", True))
        )


class AppealFormExporter(Exporter):
    identifier = "appeal_form"
    label = _("Appeal form (blank)")
    formats = ("pdf",)
    forms = ALL_FORMS

    def render_pdf(self) -> bytes:
        return appeal_form_pdf(None, lang=self.lang)


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
            base_url = str(self.options.get("base_url") or "")
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


# -- pulka events (the builders are results.pulka_exports) ----------------------------------------------------------
class PulkaExporter(Exporter):
    """A file of an Olympic, compensation or Swiss event, over the event as its public pages show it."""

    forms = PULKA_FORMS
    _view: pulka_files.EventView | None = None

    @property
    def view(self) -> pulka_files.EventView:
        """The event as its public pages show it, loaded once (the first 10 % of the progress)."""
        if self._view is None:
            self._view = pulka_files.load_event(self.tournament)
            self.progress(10, 100, "loaded")
        return self._view


class PulkaRoundExporter(PulkaExporter):
    """A file of one round: the one chosen on the exports page (its ``session`` field), else the last drawn."""

    per_round = True

    @property
    def round(self) -> pulka_files.RoundView:
        number = self.options.get("round") or self.options.get("session")
        rounds = self.view.rounds
        found = self.view.round(int(number)) if number else (rounds[-1] if rounds else None)
        if found is None:
            raise ExportError(str(_("The event has no such round.")), code="no_round")
        return found

    def stem(self) -> str:
        return f"{super().stem()}-r{self.round.number}"


class PulkaWorkbookExporter(PulkaExporter):
    identifier = "pulka_workbook"
    label = _("Excel workbook: rating table, rounds, pulka sheets deal by deal")
    formats = ("xlsx",)

    def render_xlsx(self) -> bytes:
        return pulka_files.workbook_xlsx(self.view, lang=self.lang, progress=self.progress.part(10, 100))


class PulkaStandingsExporter(PulkaExporter):
    identifier = "pulka_standings"
    label = _("Standings of the pulka event")
    formats = ("pdf", "xlsx", "csv")

    def render_pdf(self) -> bytes:
        return pulka_files.standings_pdf(self.view, lang=self.lang, now=self.now)

    def render_xlsx(self) -> bytes:
        return pulka_files.standings_xlsx(self.view, lang=self.lang)

    def render_csv(self) -> bytes:
        return pulka_files.standings_csv(self.view, lang=self.lang)


class PulkaBracketExporter(PulkaExporter):
    identifier = "pulka_bracket"
    label = _("Olympic bracket")
    formats = ("pdf",)
    forms = (Form.OLYMPIC,)

    def render_pdf(self) -> bytes:
        return pulka_files.bracket_pdf(self.view, lang=self.lang, now=self.now)


class PulkaSeatingExporter(PulkaRoundExporter):
    identifier = "pulka_seating"
    label = _("Seating of a round: by table and by name")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        return pulka_files.seating_pdf(self.view, self.round, lang=self.lang, now=self.now)


class PulkaSheetsExporter(PulkaRoundExporter):
    identifier = "pulka_sheets"
    label = _("Pulka sheets of a round's tables")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        return pulka_files.sheets_pdf(self.view, self.round, lang=self.lang, now=self.now)


def table_cards_for(t: Tournament, session: Session, *, lang: str, now: dt.datetime, base_url: str) -> bytes:
    return table_cards_pdf(
        session_movement(session),
        tournament=t.name,
        publication=t.publication,
        session=session.number,
        lang=lang,
        links=table_links(session, base_url),
        generated_at=now,
    )


def row_of_sets_for(t: Tournament, session: Session, *, lang: str, now: dt.datetime) -> bytes:
    return row_of_sets_pdf(
        session_movement(session), tournament=t.name, session=session.number, lang=lang, generated_at=now
    )


def cost_table_for(t: Tournament, *, lang: str, now: dt.datetime, standard: bool) -> bytes:
    return cost_tables_pdf(
        tournament=t.name,
        variant=t.variant,
        rules=t.rule_overrides or {},
        players=t.players_per_table,
        lang=lang,
        standard=standard,
        generated_at=now,
    )


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
    PulkaSheetsExporter,
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
