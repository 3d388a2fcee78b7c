"""A small event of each form played through the services and the players' pages, for the audit pages' tests
(``test_audit_words``, ``tests/e2e/test_audit_pages``): a pulka table where Ершова writes, the others confirm,
and she corrects; a duplicate round where the player at N enters, S confirms, E disputes, and the results are
published."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duplicate.gaps import publication_gaps, round_gaps
from duplicate.rounds import movement_choose, movement_offer, round_end, round_start
from events.participants import participant_save
from events.publication import publish
from pulkas.services import rounds as pulka_rounds
from pulkas.services.sheet import correct_deal
from tests.pulkas.factory import pulka_event
from tests.pulkas.test_table_page import deal_post, seats
from tests.table.factory import legal_row
from tournaments.models import Participant, Publication, Tournament
from tournaments.services.event import tournament_create

NAMES = ("Ершова", "Петров", "Сидорова", "Кузнецов")


def audit_pages(tournament: Tournament) -> list[str]:
    """The director's audit trail and the appeals' audit trail of the event."""
    return [
        reverse("director:audit", kwargs={"slug": tournament.slug}),
        reverse("appeals:audit", kwargs={"slug": tournament.slug}),
    ]


def played_pulka_event(director) -> tuple[Tournament, Participant]:  # type: ignore[no-untyped-def]
    """A compensation event of three: Ершова writes deal 1 on the table's phone with one confirmation there, the
    third player confirms it later, she corrects it, and the round ends. Returns the event and Ершова."""
    now = timezone.now()
    t = pulka_event(director, "compensation", 3, 3, name="Кубок «Пуля»", names=NAMES[:3], now=now, pool=10)
    pulka_round = pulka_rounds.draw_round(tournament=t, user=director, now=now, seed=5)
    pulka_rounds.start_round(pulka_round=pulka_round, user=director, now=now)
    table = pulka_round.tables.get()
    players = seats(table)
    writer = next(s for s, p in players.items() if p.name == "Ершова")
    others = [s for s in players if s != writer]
    phone = Client()
    page = reverse("table:pulka", kwargs={"code": table.code})
    assert phone.post(page, deal_post(table, writer, confirm=(others[0],))).status_code == 302
    last = players[others[1]]
    assert (
        phone.post(page, {"action": "confirm", "deal": 1, "number": last.number, "pin": last.pin}).status_code
        == 302
    )
    table.refresh_from_db()
    row = table.deals.get(number=1).row
    corrected = {**row, "w1": [row["w1"][0], row["w1"][1] + 1], "w2": [row["w2"][0], row["w2"][1] - 1]}
    correct_deal(
        table=table,
        number=1,
        row=corrected,
        now=timezone.now(),
        participant=players[writer],
        reason="перепутала висты",
        version=table.version,
    )
    pulka_rounds.stop_round(pulka_round=pulka_round, user=director, now=timezone.now(), reason="время вышло")
    pulka_rounds.end_round(pulka_round=pulka_round, user=director, now=timezone.now())
    return t, players[writer]


def played_duplicate_event(director) -> tuple[Tournament, Participant]:  # type: ignore[no-untyped-def]
    """Eight players in two tables: at table 1 the player at N enters two boards on the table's phone, S confirms
    the first and E disputes the second; the round ends and provisional results are published. Returns the event
    and the player at S."""
    now = timezone.now()
    t = tournament_create(name="Весенний кубок", user=director, slug="spring", now=now)
    for n in range(1, 9):
        participant_save(now=now, tournament=t, user=director, number=n, name=f"{NAMES[n % 4]} {n}")
    session = t.sessions.get(number=1)
    movement_choose(session=session, user=director, spec=movement_offer(t).spec, now=now)
    first = session.rounds.get(number=1)
    round_start(rnd=first, user=director, now=now)
    seating = session.seatings.get(round_number=1, table_number=1)
    pins = {p.number: p.pin for p in Participant.objects.filter(tournament=t)}
    page = reverse("table:entry", kwargs={"code": session.tables.get(number=1, room=1).code})
    phone = Client()
    boards = list(seating.set_boards())[:2]
    for i, board in enumerate(boards):
        row = legal_row(4, board.dealer)
        form = {
            "action": "save",
            "board": board.number,
            "key": f"audit-{i}",
            "contract": row["contract"],
            "declarer": row["declarer"][0],
            "t1": "6",
            "t2": "2",
            "call1": "whist",
            "call2": "whist",
            "play": "closed",
            "number": seating.seat_n.number,
            "pin": pins[seating.seat_n.number],
        }
        assert phone.post(page, form).status_code == 302
    s_player, e_player = seating.seat_s, seating.seat_e
    confirm = {
        "action": "confirm",
        "board": boards[0].number,
        "number": s_player.number,
        "pin": pins[s_player.number],
    }
    assert phone.post(page, confirm).status_code == 302
    dispute = {
        "action": "dispute",
        "board": boards[1].number,
        "number": e_player.number,
        "pin": pins[e_player.number],
        "reason": "висты записаны не те",
    }
    assert phone.post(page, dispute).status_code == 302
    round_end(rnd=first, user=director, now=timezone.now(), acknowledged=round_gaps(first).token)
    publish(
        tournament=t,
        to=Publication.PROVISIONAL,
        user=director,
        now=timezone.now(),
        acknowledged=publication_gaps(t).token,
    )
    return t, s_player
