"""Olympic rounds by the book, through the services (draw_round, end_round, decide_tie, record_decision):
004-II «Победитель пули (или еще и второй игрок, по регламенту) проходит в следующий круг соревнований.
Остальные игроки выбывают.»"""

from __future__ import annotations

import pytest
from django.utils import timezone

from pulkas.models import OlympicDecision, PulkaRound, PulkaTable
from pulkas.services import olympic, rounds
from pulkas.services.event import pulka_settings_update
from tests.pulkas.factory import pulka_event
from tournaments.errors import Conflict, UserError
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def play_out(pulka_round: PulkaRound, director) -> set[int]:
    """Start, time is up (no deal: everyone tied), the director's lot among the tied (the first seats), end.
    Returns who went on."""
    now = timezone.now()
    rounds.start_round(pulka_round=pulka_round, user=director, now=now)
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now, reason="время вышло")
    event = pulka_round.tournament.pulka_event
    going: set[int] = set()
    for table in PulkaTable.objects.filter(round=pulka_round).order_by("number"):
        k = table.olympic_advance(event)
        seats = table.advance["seats"] + table.advance["tied"][: k - len(table.advance["seats"])]
        if table.advance["tied"]:
            rounds.decide_tie(
                table=table,
                seats=seats[len(table.advance["seats"]) :],
                user=director,
                now=now,
                reason="жребий",
            )
        going |= {table.seat_ids()[s] for s in seats}
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)
    return going


def players_of(pulka_round: PulkaRound) -> set[int]:
    return {pk for t in pulka_round.tables.all() for pk in t.seat_ids().values()}


def decide(t, number: int, tables: list[int], director, expected=None, reason="регламент турнира"):
    return olympic.record_decision(
        event=t.pulka_event,
        round_number=number,
        tables=tables,
        reason=reason,
        expected=expected,
        user=director,
        now=timezone.now(),
    )


def test_twenty_at_tables_of_four_nobody_out_comes_back(director) -> None:
    """«Остальные игроки выбывают»: 20 players at tables of 4, one going on. The draw of round 1 is refused (5
    winners cannot be seated) with what to do; after the director's decision and the regulation's advance 2 for
    round 2, every round is played only by those who went on from the one before — nobody out comes back."""
    t = pulka_event(director, "olympic", 20, 4, pool=4)
    with pytest.raises(Conflict) as refused:
        rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    text = refused.value.message
    assert refused.value.code == "olympic_winners_unseatable" and "Остальные игроки выбывают" in text
    assert "advance for round 1 to 2" in text and "decision of the director" in text
    assert not PulkaRound.objects.filter(tournament=t).exists()  # nothing half-saved
    decide(t, 1, [3], director)
    first = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    went = play_out(first, director)
    assert len(went) == 6
    with pytest.raises(Conflict):  # 6 at tables of 3-4: two tables, two winners — refused again
        rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=2)
    pulka_settings_update(
        event=t.pulka_event, changes={"advance_by_round": {"2": 2}}, user=director, now=timezone.now()
    )
    second = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=2)
    assert players_of(second) == went and not second.byes.exists()
    went2 = play_out(second, director)
    assert len(went2) == 4 and went2 <= went
    final = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=3)
    assert final.tables.count() == 1 and players_of(final) == went2
    play_out(final, director)
    assert rounds.play_over(t)
    with pytest.raises(Conflict):
        rounds.draw_round(tournament=t, user=director, now=timezone.now())


def test_the_regulation_advance_two_for_a_round(director) -> None:
    """«или еще и второй игрок, по регламенту»: with the first two going on in round 1, 6 players at tables of
    3 make a final of 4; the round's advance is fixed once it is drawn."""
    t = pulka_event(director, "olympic", 6, 3, pool=4, advance_by_round={"1": 2})
    first = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=4)
    with pytest.raises(UserError) as fixed:
        pulka_settings_update(
            event=t.pulka_event, changes={"advance_by_round": {}}, user=director, now=timezone.now()
        )
    assert fixed.value.code == "settings_fixed"
    went = play_out(first, director)
    final = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=5)
    assert len(went) == 4 and players_of(final) == went and final.tables.get().players == 4


def test_a_decision_of_the_director_is_audited_and_guarded(director) -> None:
    """The software's choice, the book being silent: the director's decision (the second-placed also go on at
    chosen tables) is recorded with its reason in the audit; a decision without reason, for another round,
    that still cannot seat, or over a decision somebody else changed, is refused and saves nothing."""
    t = pulka_event(director, "olympic", 6, 3, pool=4)
    with pytest.raises(UserError):
        decide(t, 1, [1], director, reason="  ")
    with pytest.raises(Conflict):
        decide(t, 2, [1], director)
    with pytest.raises(UserError):
        decide(t, 1, [3], director)  # there are two tables
    decision = decide(t, 1, [2], director, reason="финал втроём по регламенту")
    assert decision is not None and decision.tables == [2]
    entry = AuditEntry.objects.get(tournament=t, action="pulka_olympic_decision")
    assert entry.reason == "финал втроём по регламенту" and entry.data["tables"] == [2]
    with pytest.raises(Conflict):  # a second director's form made before the decision
        decide(t, 1, [1], director, expected=None)
    assert OlympicDecision.objects.get(tournament=t).tables == [2]
    first = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=6)
    went = play_out(first, director)
    assert len(went) == 3
    assert {tb.number: tb.olympic_advance(t.pulka_event) for tb in first.tables.all()} == {1: 1, 2: 2}
    with pytest.raises(Conflict):  # the round is drawn: a decision is for the round about to be drawn
        decide(t, 1, [1], director, expected=[2])


def test_a_field_of_five_gets_no_bye_by_default(director) -> None:
    """«Остальные игроки выбывают» and the software's choice: 5 players cannot sit at tables of 3–4; by default
    the draw is refused in words (no bye: a bye is the regulation's option, not from the book)."""
    t = pulka_event(director, "olympic", 5, 4, pool=4)
    assert t.pulka_event.olympic_refill is False
    with pytest.raises(UserError) as refused:
        rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    assert refused.value.code == "olympic_unseatable" and "not from the book" in refused.value.message


def test_lucky_losers_only_by_the_option_and_their_ties_by_lot(director) -> None:
    """Not from the book, the regulation's explicit option (off by default): two winners are joined by a lucky
    loser; all losers being equal, the lot of the round's recorded seed picks him — not the first table."""
    t = pulka_event(director, "olympic", 6, 3, pool=4, olympic_refill=True)
    first = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=7)
    went = play_out(first, director)
    table_of = {pk: tb.number for tb in first.tables.all() for pk in tb.seat_ids().values()}
    tables_of_lucky = set()
    for seed in range(12):
        final = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=seed)
        (lucky,) = players_of(final) - went
        tables_of_lucky.add(table_of[lucky])
        again = players_of(final)
        rounds.undraw_round(pulka_round=final, user=director, now=timezone.now())
        redraw = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=seed)
        assert players_of(redraw) == again  # the recorded seed repeats the lot
        rounds.undraw_round(pulka_round=redraw, user=director, now=timezone.now())
    assert tables_of_lucky == {1, 2}


@pytest.mark.parametrize("per_table", [3, 4])
@pytest.mark.parametrize("players", range(6, 65))
def test_the_draw_refuses_exactly_the_rounds_the_bracket_flags(director, players, per_table) -> None:
    """«Остальные игроки выбывают», through the services, advance 1: the draw is refused exactly at the rounds the
    bracket shown before round 1 flags; after the director's smallest decision every round is played only by
    those who went on from the one before (no refill path: nobody out comes back), down to a single table."""
    t = pulka_event(director, "olympic", players, per_table, pool=4)
    _first, shown = olympic.event_bracket(t.pulka_event)
    refused, previous, number = [], None, 1
    while True:
        try:
            drawn = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=number)
        except Conflict as exc:
            assert exc.code == "olympic_winners_unseatable"
            refused.append(number)
            extra = shown.rounds[number - 1].extra
            decide(t, number, list(range(1, extra + 1)), director)
            continue
        if previous is not None:
            assert players_of(drawn) == previous and not drawn.byes.exists()
        final = drawn.tables.count() == 1
        previous = play_out(drawn, director)
        if final:
            break
        number += 1
    assert refused == list(shown.flagged)
    assert rounds.play_over(t)
