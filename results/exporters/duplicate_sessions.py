"""What a duplicate session's movement prints (:mod:`results.pdf_movement`): the table cards, the director's row
of sets, the seating; and the session's PIN slips (:mod:`results.pdf_pin_slips`) with the table where each
participant sits down first and his own link."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext_lazy as _

from duplicate.seating import SeatingError, movement_for
from preferans.movements import Movement
from results.exporters.base import Exporter, ExportError, personal_url, table_url
from results.labels import labels
from results.pdf_movement import row_of_sets_pdf, seating_pdf, table_cards_pdf
from results.pdf_pin_slips import PinSlip, SlipSeat, pin_slips_pdf
from results.pdf_qr import TableLink
from tournaments.models import Session, Tournament

__all__ = [
    "PinSlipsExporter",
    "RowOfSetsExporter",
    "SeatingExporter",
    "SessionExporter",
    "TableCardsExporter",
    "row_of_sets_for",
    "session_movement",
    "table_cards_for",
    "table_links",
]


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
            self.tournament, self.session, lang=self.lang, now=self.now, base_url=self.base_url
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
    label = _("PIN slips to cut, with the table where each starts and his own link")
    formats = ("pdf",)

    def render_pdf(self) -> bytes:
        t, session = self.tournament, self.session
        try:
            movement = session_movement(session)
        except ExportError:  # no movement yet: the slips still carry the PINs and the links, without a table
            movement = None
        codes = {(table.room, table.number): table.code for table in session.tables.all()}
        first: dict[int, SlipSeat] = {}
        for rnd, ta in movement.seatings() if movement is not None else ():
            for line, p in ta.seats:
                if p not in first:
                    code = codes.get((ta.room, ta.table), "")
                    first[p] = SlipSeat(rnd.number, ta.room, ta.table, str(line), code)
        slips = [
            PinSlip(p.number, p.name, p.pin, first.get(p.number), personal_url(p, self.base_url))
            for p in t.participants.select_related("tournament").order_by("number")
        ]
        return pin_slips_pdf(
            slips,
            tournament=t.name,
            subtitle=f"{labels(self.lang)['session']} {session.number}",
            per_session=True,
            many_rooms=bool(movement and movement.rooms > 1),
            lang=self.lang,
            generated_at=self.now,
        )
