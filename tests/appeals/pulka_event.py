"""A compensation event in pulkas for the appeals tests: 8 players, two tables of 4, round 1 played and ended at
pinned times (deals written and confirmed by the players through the sheet's write path)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from appeals.models import AppealSettings, CommitteeMember
from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from pulkas.services import rounds, sheet
from tests.publishing import end_every_round, publish_to
from tests.pulkas.factory import pulka_event
from tournaments.models import Participant, Publication, Tournament

T0 = dt.datetime(2026, 5, 9, 10, 0, tzinfo=dt.UTC)
ENDED = T0 + dt.timedelta(hours=2)
IN_TIME = ENDED + dt.timedelta(minutes=10)


@dataclass
class Event:
    t: Tournament
    round: PulkaRound
    table: PulkaTable  # table 1: three deals
    other: PulkaTable  # table 2: one deal
    director: object

    def seat(self, table: PulkaTable, seat: str) -> Participant:
        return table.seats()[seat]  # type: ignore[return-value]

    def outsider(self) -> Participant:
        """A player of table 2 (he did not sit at table 1)."""
        return self.seat(self.other, "N")


def six(table: PulkaTable, number: int, tricks: int) -> dict:
    """6♠ by the first seat that plays deal ``number`` (the 4-player dealer sits out), both defenders whisting."""
    setup = sheet.load_sheet(table).setup
    dealer = setup.dealer(number)
    declarer, d1, d2 = [s for s in setup.seats if s != dealer][:3]
    return {
        "contract": "6S",
        "declarer": [declarer, tricks],
        "w1": [d1, 10 - tricks - 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "whist"},
        "play": "closed",
    }


def write(
    table: PulkaTable, number: int, tricks: int, *, now: dt.datetime, at: dt.datetime | None = None
) -> None:
    """Deal ``number`` written by N and confirmed by the others; ``at``: when it was written (the notice's clock)."""
    seats = table.seats()
    sheet.enter_deal(
        table=table,
        row=six(table, number, tricks),
        participant=seats["N"],
        confirmations=[p for s, p in seats.items() if s != "N"],
        now=now,
    )
    PulkaDeal.objects.filter(table=table, number=number).update(created_at=at or now)


def event_with_round_one(
    director, *, name: str = "Кубок пулек", ended: dt.datetime | None = ENDED, notice_required: bool = False
) -> Event:
    t = pulka_event(director, "compensation", 8, 4, name=name, now=T0, pool=30, rounds=2)
    # These tests file appeals after the round without a notice: they are about the «where» and the filing
    # deadline. The notice rule (§1, on by default) is tested in test_rule_notice_before_the_next_deal.py.
    AppealSettings.objects.update_or_create(tournament=t, defaults={"notice_required": notice_required})
    r1 = rounds.draw_round(tournament=t, user=director, now=T0, seed=3)
    rounds.start_round(pulka_round=r1, user=director, now=T0)
    table, other = r1.tables.get(number=1), r1.tables.get(number=2)
    for number, tricks in ((1, 6), (2, 7), (3, 6)):
        write(table, number, tricks, now=T0, at=T0 + dt.timedelta(minutes=10 * number))
    write(other, 1, 6, now=T0)
    if ended is not None:
        rounds.stop_round(pulka_round=r1, user=director, now=ended, reason="время вышло")
        rounds.end_round(pulka_round=r1, user=director, now=ended)
    r1.refresh_from_db()
    return Event(t, r1, PulkaTable.objects.get(pk=table.pk), PulkaTable.objects.get(pk=other.pk), director)


def publish_event(e: Event, step: str, *, official_at: dt.datetime = ENDED) -> None:
    """The director ends the event's play (round 2 drawn, stopped and ended at once at ENDED) and publishes its
    results up to ``step``: official at ``official_at``, final an hour later (after the correction period)."""
    end_every_round(e.t, e.director, ENDED)
    at = official_at + dt.timedelta(hours=1) if step == Publication.FINAL else official_at
    publish_to(e.t, step, e.director, at, official_at=official_at)


def committee(e: Event) -> list[CommitteeMember]:
    """Three members who did not play at table 1 (players of table 2)."""
    return [
        CommitteeMember.objects.create(
            tournament=e.t, name=f"Член {p.number}", participant=p, is_chair=(s == "N")
        )
        for s, p in list(e.other.seats().items())[:3]
    ]
