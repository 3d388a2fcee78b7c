"""Olympic, compensation and Swiss events through the services: draw, play, stop, advance, re-seat, standings."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from django.utils import timezone

from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from pulkas.services import rounds, sheet
from pulkas.services.event import pulka_settings_update
from pulkas.services.standings import event_table
from pulkas.simulate import play_round, play_table
from tests.pulkas.factory import pulka_event
from tournaments.errors import Conflict, UserError
from tournaments.refusals import ResultRejected

pytestmark = pytest.mark.django_db


def finish(pulka_round: PulkaRound, director, now) -> None:
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now, reason="время вышло")
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)


def test_olympic_nine_players_to_a_final(director) -> None:
    t = pulka_event(director, "olympic", 9, 3, pool=6)
    now = timezone.now()
    r1 = rounds.draw_round(tournament=t, user=director, now=now, seed=7)
    assert [tb.players for tb in r1.tables.all()] == [3, 3, 3]
    rounds.start_round(pulka_round=r1, user=director, now=now)
    rng = random.Random(1)
    for table in r1.tables.order_by("number"):
        play_table(table, rng, now=now)
    for table in PulkaTable.objects.filter(round=r1):
        assert table.ended and table.reason == "pool"
        if table.advance["tied"]:
            rounds.decide_tie(
                table=table, seats=table.advance["tied"][:1], user=director, now=now, reason="lot"
            )
    rounds.end_round(pulka_round=r1, user=director, now=now)
    final = rounds.draw_round(tournament=t, user=director, now=now, seed=8)
    assert final.tables.count() == 1 and final.tables.get().players == 3
    winners = {
        pid
        for tb in PulkaTable.objects.filter(round=r1)
        for s, pid in tb.seat_ids().items()
        if s in tb.advance["seats"] or s in (tb.tie_decision or [])
    }
    assert set(final.tables.get().seat_ids().values()) == winners
    rounds.start_round(pulka_round=final, user=director, now=now)
    play_table(final.tables.get(), rng, now=now, deals=3)
    finish(final, director, now)  # the time limit closes the final
    assert final.tables.get().reason == "stopped"
    with pytest.raises(Conflict):
        rounds.draw_round(tournament=t, user=director, now=now)
    table = event_table(t)
    assert [line.place for line in table.lines][:3] != ["", "", ""]
    assert {line.participant.pk for line in table.lines[:3]} == winners
    assert all(line.out_in_round == 1 for line in table.lines[3:])


def test_compensation_eight_players_three_rounds(director) -> None:
    t = pulka_event(director, "compensation", 8, 4, pool=6, rounds=3)
    now = timezone.now()
    rng = random.Random(2)
    for number in (1, 2, 3):
        r = rounds.draw_round(tournament=t, user=director, now=now, seed=number)
        assert [tb.players for tb in r.tables.all()] == [4, 4]
        if number > 1:
            # table 1 holds the four top-rated players after the rounds before
            before = event_table(t)
            top = {line.participant.pk for line in sorted(before.lines, key=lambda x: -x.total)[:4]}
            assert set(r.tables.get(number=1).seat_ids().values()) == top
        rounds.start_round(pulka_round=r, user=director, now=now)
        play_round(r, rng, now=now, deals=5)
        finish(r, director, now)
    with pytest.raises(Conflict):
        rounds.draw_round(tournament=t, user=director, now=now)
    table = event_table(t)
    assert len(table.lines) == 8 and table.lines[0].place.startswith("1")
    for line in table.lines:
        assert len(line.ratings) == 3 and all(x is not None for x in line.ratings)
        assert line.total == sum(line.ratings, Fraction(0))
    totals = [line.total for line in table.lines]
    assert totals == sorted(totals, reverse=True)


def test_swiss_cut(director) -> None:
    t = pulka_event(director, "swiss", 12, 4, pool=4, rounds=3, cut_after=2, cut_to=8)
    now = timezone.now()
    rng = random.Random(3)
    for _ in range(3):
        r = rounds.draw_round(tournament=t, user=director, now=now)
        rounds.start_round(pulka_round=r, user=director, now=now)
        play_round(r, rng, now=now, deals=4)
        finish(r, director, now)
    assert PulkaRound.objects.get(tournament=t, number=3).tables.count() == 2
    lines = event_table(t).lines
    assert [line.cut for line in lines] == [False] * 8 + [True] * 4


def test_the_write_path_refuses_and_keeps_nothing(director) -> None:
    t = pulka_event(director, "compensation", 4, 4, pool=10, raspasy_exit=[7])
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=1)
    table = r.tables.get()
    n = table.seat_n
    with pytest.raises(Conflict):  # the round has not started
        sheet.enter_deal(table=table, row={"contract": "-"}, participant=n, now=now)
    rounds.start_round(pulka_round=r, user=director, now=now)
    setup = sheet.table_setup(sheet.event_of(t), table)
    first = setup.first_hand(1)
    hands = (first, *sheet.load_sheet(table).game.setup.seats)
    del hands
    with pytest.raises(ResultRejected) as caught:
        sheet.enter_deal(table=table, row={"contract": "7S", "declarer": ["N", 11]}, participant=n, now=now)
    assert caught.value.details
    assert not PulkaDeal.objects.filter(table=table).exists()
    # the version guard: a form opened before a change is refused
    play_table(table, random.Random(5), now=now, deals=1)
    table.refresh_from_db()
    with pytest.raises(Conflict):
        sheet.enter_deal(
            table=table, row={"contract": "-"}, participant=n, now=now, version=table.version - 1
        )


def test_settings_fixed_once_drawn(director) -> None:
    t = pulka_event(director, "olympic", 9, 3)
    event = t.pulka_event
    with pytest.raises(UserError):
        pulka_settings_update(event=event, changes={"raspasy_exit": [11]}, user=director, now=timezone.now())
    rounds.draw_round(tournament=t, user=director, now=timezone.now())
    with pytest.raises(UserError):
        pulka_settings_update(event=event, changes={"pool": 30}, user=director, now=timezone.now())
    pulka_settings_update(event=event, changes={"round_minutes": 90}, user=director, now=timezone.now())


def _six(declarer: str, tricks: int, after: tuple[str, str]) -> dict:
    d1, d2 = after
    return {
        "contract": "6S",
        "declarer": [declarer, tricks],
        "w1": [d1, 10 - tricks - 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "whist"},
        "play": "closed",
    }


def test_correction_warning_then_penalty(director) -> None:
    """Code 4.2.7: «безнаказанно – только в первый раз, в виде предупреждения … штраф за приписку должен равняться
    величине приписки»: the first correction of N's confirmed entry is a warning; the next one costs him what he
    wrote himself beyond what was due (2 pool points → 2 on his mountain). The mountain and whists he left off
    are written late without penalty (4.2.10)."""
    t = pulka_event(director, "compensation", 3, 3, pool=30)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    rounds.start_round(pulka_round=r, user=director, now=now)
    table = r.tables.get()
    seats = table.seats()
    writer, others = seats["N"], [seats["E"], seats["S"]]
    after = ("E", "S")
    for number in (1, 2):
        sheet.enter_deal(
            table=table, row=_six("N", 6, after), participant=writer, confirmations=others, now=now
        )
        assert PulkaDeal.objects.get(table=table, number=number).status == "confirmed"
        # E points out that N went down one: N wrote himself 2 pool points instead of 2 on the mountain
        correction = sheet.correct_deal(
            table=table, number=number, row=_six("N", 5, after), participant=others[0], now=now
        )
        for p in (writer, others[1]):
            sheet.confirm_deal(table=table, number=number, participant=p, now=now)
        correction.refresh_from_db()  # E's correction counts once the others confirmed it (N among them)
        assert correction.writer == writer
        if number == 1:
            assert correction.warning and correction.warned == ["N"] and correction.penalty == []
        else:
            assert not correction.warning
            assert correction.penalty == [{"type": "mountain", "seat": "N", "amount": 2}]
    score = sheet.load_sheet(table).score()
    assert score.sheet.mountain["N"] == 2 + 2 + 2  # two remizes and the penalty
    with pytest.raises(Conflict):  # deal 1 is no longer the last: the entry stands (4.2.9)
        sheet.correct_deal(table=table, number=1, row=_six("N", 6, after), participant=others[0], now=now)


def test_variant_and_players_fixed_once_a_round_is_drawn(director) -> None:
    from events.settings import tournament_update

    t = pulka_event(director, "compensation", 8, 4)
    tournament_update(tournament=t, user=director, now=timezone.now(), changes={"variant": "leningrad"})
    rounds.draw_round(tournament=t, user=director, now=timezone.now())
    for change in ({"variant": "rostov"}, {"players_per_table": 3}, {"rule_overrides": {"amnesty": False}}):
        with pytest.raises(UserError):
            tournament_update(tournament=t, user=director, now=timezone.now(), changes=change)
    tournament_update(tournament=t, user=director, now=timezone.now(), changes={"venue": "Клуб"})


def test_rules_of_a_pulka_event_keep_the_pulka_limits(director) -> None:
    from events.settings import tournament_update

    t = pulka_event(director, "olympic", 6, 3)
    for rules in ({"pool_weight": 2}, {"price_6": "5/2"}):
        with pytest.raises(UserError):
            tournament_update(
                tournament=t, user=director, now=timezone.now(), changes={"rule_overrides": rules}
            )
    with pytest.raises(UserError):
        tournament_update(
            tournament=t,
            user=director,
            now=timezone.now(),
            changes={"variant": "rostov", "rule_overrides": {"amnesty": True}},
        )
    t.refresh_from_db()
    assert t.rule_overrides == {} and t.variant == "sochi"


def test_rostov_raspasy_progression_is_an_agreed_option(director) -> None:
    """Code 3.7.4 «по предварительной договоренности между игроками, цена за одну взятку может увеличиваться» is
    general: the organisers of a Rostov event may agree on a progression (the software's reading for whists)."""
    from events.settings import tournament_update

    t = pulka_event(director, "olympic", 6, 3)
    tournament_update(
        tournament=t,
        user=director,
        now=timezone.now(),
        changes={"variant": "rostov", "rule_overrides": {"progression": "arithmetic"}},
    )
    t.refresh_from_db()
    assert t.variant == "rostov" and t.rule_overrides == {"progression": "arithmetic"}


def test_players_write_no_penalties_and_keep_the_directors(director) -> None:
    """Extra entries and penalty tricks are the director's: a player's deal may not carry them, and a player's
    correction keeps those the director wrote (one rule for the table page, the API and every other channel)."""
    from tournaments.errors import NotAllowed

    t = pulka_event(director, "compensation", 3, 3, pool=30)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    rounds.start_round(pulka_round=r, user=director, now=now)
    table = r.tables.get()
    seats = table.seats()
    fine = [{"type": "mountain", "seat": "E", "amount": 5}]
    with pytest.raises(NotAllowed):
        sheet.enter_deal(
            table=table,
            row={**_six("N", 6, ("E", "S")), "extra_entries": fine},
            participant=seats["N"],
            now=now,
        )
    sheet.enter_deal(
        table=table, row={**_six("N", 6, ("E", "S")), "extra_entries": fine}, user=director, now=now
    )
    # the director's deal is final for the players (issue 28): neither its row nor its penalty changes by them
    for row in (_six("N", 5, ("E", "S")), {**_six("N", 5, ("E", "S")), "extra_entries": []}):
        with pytest.raises(NotAllowed):
            sheet.correct_deal(table=table, number=1, row=row, participant=seats["E"], now=now)
    assert PulkaDeal.objects.get(table=table, number=1).row["extra_entries"] == fine
