"""A pulka event's files (Olympic, compensation, Swiss), over the event as its public pages show it
(:mod:`results.pulka_exports`): the standings, the workbook, the Olympic bracket; per round the seating (with the
tables' codes), the tables' sheets and the table cards (each table's code, address and QR code); and the PIN slips
with each participant's own link and his table in the latest drawn round (``events.current_table``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from events.current_table import current_table
from results import pulka_exports as pulka_files
from results.exporters.base import PULKA_FORMS, Exporter, ExportError, personal_url, pulka_table_url
from results.pdf_pin_slips import PinSlip, SlipSeat, pin_slips_pdf
from results.pdf_qr import TableLink
from results.pulka_exports.labels import form_name
from tournaments.models import Form

__all__ = [
    "PulkaBracketExporter",
    "PulkaExporter",
    "PulkaPinSlipsExporter",
    "PulkaRoundExporter",
    "PulkaSeatingExporter",
    "PulkaSheetsExporter",
    "PulkaStandingsExporter",
    "PulkaTableCardsExporter",
    "PulkaWorkbookExporter",
]


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


class PulkaTableCardsExporter(PulkaRoundExporter):
    identifier = "pulka_table_cards"
    label = _("Table cards of a round: each table's code, address and QR code")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        base_url = self.base_url
        return pulka_files.table_cards_pdf(
            self.view,
            self.round,
            link=lambda code: TableLink(code, pulka_table_url(code, base_url)),
            lang=self.lang,
            now=self.now,
        )


class PulkaPinSlipsExporter(PulkaExporter):
    identifier = "pulka_pin_slips"
    label = _("PIN slips to cut, with each player's own link and his table in the latest round")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        t = self.tournament
        slips = []
        for p in t.participants.select_related("tournament").order_by("number"):
            now = current_table(p)
            seat = (
                SlipSeat(now.round, now.room, now.table, now.seat, now.code)
                if now.why == "table" and now.round and now.table and now.seat
                else None
            )
            slips.append(PinSlip(p.number, p.name, p.pin, seat, personal_url(p, self.base_url)))
        return pin_slips_pdf(
            slips,
            tournament=t.name,
            subtitle=form_name(t.form, self.lang),
            per_session=False,
            many_rooms=False,
            lang=self.lang,
            generated_at=self.now,
        )
