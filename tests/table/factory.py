"""A small event with a running round, built directly (fast): tables with codes, seatings, boards, PINs."""

from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

from boards.models import Board
from tournaments.models import Participant, Round, Seating, Session, Table, Tournament

SEATS4 = ("N", "E", "S", "W")


def pin_of(number: int) -> str:
    return str(1000 + number)


def make_event(*, director=None, players: int = 4, tables: int = 2, variant: str = "sochi", slug: str = "tt"):
    cache.clear()
    t = Tournament.objects.create(
        name="Table test", slug=slug, variant=variant, players_per_table=players, deals_per_set=players
    )
    if director is not None:
        t.directors.add(director)
    people = [
        Participant.objects.create(tournament=t, number=n, name=f"Player {n}", pin=pin_of(n))
        for n in range(1, players * tables + 1)
    ]
    session = Session.objects.create(tournament=t, number=1, status=Session.Status.RUNNING)
    Round.objects.create(session=session, number=1, status=Round.Status.RUNNING, started_at=timezone.now())
    Round.objects.create(session=session, number=2, status=Round.Status.PENDING)
    dealers = SEATS4[:players]
    for i in range(1, tables + 1):
        Table.objects.create(session=session, number=i, code=f"TAB{i}{slug.upper()[:4]}"[:12])
        seat = people[(i - 1) * players : i * players]
        Seating.objects.create(
            session=session,
            round_number=1,
            table_number=i,
            set_number=i,
            seat_n=seat[0],
            seat_e=seat[1],
            seat_s=seat[2],
            seat_w=seat[3] if players == 4 else None,
        )
        for k in range(players):
            Board.objects.create(
                session=session, number=(i - 1) * players + k + 1, set_number=i, dealer=dealers[k]
            )
    return t, session


def active(players: int, dealer: str) -> list[str]:
    return [s for s in SEATS4[:players] if players == 3 or s != dealer]


def legal_row(players: int, dealer: str, *, tricks=(6, 2, 2)) -> dict:
    """6♠ by the first active seat, both defenders whist, closed."""
    a = active(players, dealer)
    return {
        "contract": "6S",
        "declarer": [a[0], tricks[0]],
        "w1": [a[1], tricks[1]],
        "w2": [a[2], tricks[2]],
        "calls": {a[1]: "whist", a[2]: "whist"},
        "play": "closed",
    }


def player_auth(table: Table, number: int, pin: str | None = None) -> str:
    return f"Player {table.code}:{number}:{pin or pin_of(number)}"
