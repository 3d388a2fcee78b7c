"""The dashboard's alerts about the order and the duties of the tables (rules §4, §11.6 А.2): rows the players
wrote out of the boards' order, boards a table is to play later. Plain (level, text, link) triples for
:mod:`director.dashboard`."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from duplicate.late_boards import late_boards
from duplicate.play_order import order_flags
from duplicate.session_facts import SessionFacts
from tournaments.models import Session, Tournament


def _table_page(tournament: Tournament, session: Session, round: int, table: int, room: int) -> str:
    page = reverse(
        "director:table_round",
        kwargs={"slug": tournament.slug, "session": session.number, "round": round, "table": table},
    )
    return page + (f"?room={room}" if room > 1 else "")


def _where(round: int, table: int, room: int) -> str:
    where = _("round %(r)s, table %(t)s") % {"r": round, "t": table}
    if room > 1:
        where += " " + _("(room %(n)s)") % {"n": room}
    return where


def partial_alerts(
    tournament: Tournament, session: Session, facts: SessionFacts | None = None
) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for flag in order_flags(session, facts):
        out.append(
            (
                "warning",
                _(
                    "Out of order (§4: the deals are played strictly in the order of their numbers): "
                    "%(where)s wrote board %(b)s before board(s) %(skipped)s."
                )
                % {
                    "where": _where(flag.round, flag.table, flag.room),
                    "b": flag.board,
                    "skipped": ", ".join(map(str, flag.skipped)),
                },
                _table_page(tournament, session, flag.round, flag.table, flag.room) + f"#board-{flag.board}",
            )
        )
    for state in late_boards(session, facts):
        if state.played:
            continue
        late = state.late
        out.append(
            (
                "info",
                _("To be played later (§11.6 A.2): board %(b)s, %(where)s. Enter its row when it is played.")
                % {"b": late.board_number, "where": _where(late.round_number, late.table_number, late.room)},
                _table_page(tournament, session, late.round_number, late.table_number, late.room)
                + f"#board-{late.board_number}",
            )
        )
    return out
