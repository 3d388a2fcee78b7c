"""Who may change a pulka's sheet: the measured attacks of issue 28 («one player alone can overwrite the
director's deal, reopen a finished pulka, give another player a warning and then a penalty»), each refused in the
one write path (``pulkas.services.sheet``) and so on every channel (the phone page, the API)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from preferans.game.seats import hands_in_order
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaTable
from pulkas.services import rounds, sheet, table_control
from tests.api.test_pulkas import client as api_client
from tests.api.test_pulkas import error
from tests.html import parse
from tests.pulkas.factory import pulka_event
from tests.pulkas.test_table_page import deal_post, label, make_table, show, url, words
from tournaments.errors import Conflict, NotAllowed

pytestmark = pytest.mark.django_db


def six(declarer: str, tricks: int, after: tuple[str, str]) -> dict:
    d1, d2 = after
    return {
        "contract": "6S",
        "declarer": [declarer, tricks],
        "w1": [d1, 10 - tricks - 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "whist"},
        "play": "closed",
    }


def three_at_a_table(director, pool: int = 30) -> tuple[PulkaTable, dict]:
    t = pulka_event(director, "compensation", 3, 3, pool=pool)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    rounds.start_round(pulka_round=r, user=director, now=now)
    table = r.tables.get()
    return table, table.seats()


def test_a_directors_deal_is_final_for_the_players_on_every_channel(director) -> None:
    """The software's rule for the Code's «В спорных случаях решение ... принимается квалифицированными
    арбитрами» (4.2.16): a deal the director wrote or corrected is not corrected by a player — not on the phone
    page, not through the API; the player calls the director or appeals."""
    table, seats = three_at_a_table(director)
    now = timezone.now()
    sheet.enter_deal(table=table, row=six("N", 6, ("E", "S")), user=director, now=now)
    with pytest.raises(NotAllowed) as refused:
        sheet.correct_deal(
            table=table, number=1, row=six("N", 5, ("E", "S")), participant=seats["E"], now=now
        )
    assert refused.value.code == "director_entry_final"
    # a player's deal the director then corrected is his too
    sheet.enter_deal(table=table, row=six("E", 6, ("S", "N")), participant=seats["E"], now=now)
    sheet.correct_deal(
        table=table, number=2, row=six("E", 7, ("S", "N")), user=director, now=now, reason="ruling"
    )
    table.refresh_from_db()
    answer = api_client(player=(table, seats["E"].number)).post(
        f"/api/pulka/tables/{table.code}/deals/2/correct/",
        {**six("E", 6, ("S", "N")), "version": table.version},
        format="json",
    )
    assert answer.status_code == 403 and error(answer)["code"] == "director_entry_final"
    assert PulkaDeal.objects.get(table=table, number=2).row["declarer"] == ["E", 7]


def test_the_phone_page_refuses_to_correct_the_directors_deal_in_words(client, director) -> None:
    """The same rule on the phone page: no «Исправить» on the director's deal, and a posted correction is refused
    in the player's words."""
    table = make_table(director, 3)
    dec, d1, d2 = hands_in_order(3, label(table, 1))[:3]
    row = {
        "contract": "6S",
        "declarer": [dec, 6],
        "w1": [d1, 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "pass"},
        "play": "closed",
    }
    sheet.enter_deal(table=table, row=row, user=director, now=timezone.now())
    show(client, table, "E")
    page = client.get(url(table) + "?correct=1")
    assert parse(page).find("input", name="correct") is None
    answer = client.post(url(table), deal_post(table, "E", board=1, correct=1, t1="7", t2="1"))
    assert answer.status_code == 409
    assert "записана или исправлена судьёй" in words(answer)
    assert PulkaDeal.objects.get(table=table, number=1).status == "director"


def test_a_finished_pulka_reopens_only_by_the_director(director) -> None:
    """Code 4.2.14 «пулька считается законченной» once every pool reaches the target: after its last deal is
    confirmed, no player's correction reopens it; the director does, with a reason, in the audit."""
    table, seats = three_at_a_table(director, pool=2)
    now = timezone.now()
    others = [seats["E"], seats["S"]]
    # N, E and S each write 2 in the pool with a six: the pulka of 2 ends with deal 3
    for dec, after in (("N", ("E", "S")), ("E", ("S", "N")), ("S", ("N", "E"))):
        writer = seats[dec]
        sheet.enter_deal(
            table=table,
            row=six(dec, 6, after),
            participant=writer,
            confirmations=[p for p in (seats["N"], *others) if p != writer],
            now=now,
        )
    table.refresh_from_db()
    assert table.ended
    with pytest.raises(Conflict) as refused:
        sheet.correct_deal(
            table=table, number=3, row=six("S", 5, ("N", "E")), participant=seats["N"], now=now
        )
    assert refused.value.code == "pulka_finished"
    table.refresh_from_db()
    assert table.ended
    sheet.correct_deal(
        table=table, number=3, row=six("S", 5, ("N", "E")), user=director, now=now, reason="appeal"
    )
    table.refresh_from_db()
    assert not table.ended  # reopened by the director's correction, audited with its reason
    assert table.round.tournament.audit_entries.filter(
        action="pulka_deal_corrected", reason="appeal"
    ).exists()


def test_the_writer_may_still_fix_the_final_deal_while_his_pencil_is_down_not_confirmed(director) -> None:
    """Code 4.2.8 «Если записывающий игрок сам заметил ошибку ... когда ручка или карандаш всё ещё находятся у
    него в руках, он может исправить запись без наказания»: a final deal not yet confirmed is still open."""
    table, seats = three_at_a_table(director, pool=2)
    now = timezone.now()
    all3 = [seats["N"], seats["E"], seats["S"]]
    for dec, after in (("N", ("E", "S")), ("E", ("S", "N"))):
        sheet.enter_deal(
            table=table,
            row=six(dec, 6, after),
            participant=seats[dec],
            confirmations=[p for p in all3 if p != seats[dec]],
            now=now,
        )
    sheet.enter_deal(table=table, row=six("S", 6, ("N", "E")), participant=seats["S"], now=now)
    table.refresh_from_db()
    assert table.ended
    sheet.correct_deal(table=table, number=3, row=six("S", 5, ("N", "E")), participant=seats["S"], now=now)
    table.refresh_from_db()
    assert not table.ended


def test_another_players_click_alone_warns_nobody_the_others_confirmation_does(director) -> None:
    """Code 4.2.7 «Ошибка в записи может быть поправлена партнёрами, но безнаказанно – только в первый раз, в
    виде предупреждения»: the partners correct, not one player alone. The software's reading: E's correction of
    N's confirmed entry waits for the others' confirmation — N's among them; until then nobody is warned or
    penalised, and if N disputes it the director decides (4.2.16)."""
    table, seats = three_at_a_table(director)
    now = timezone.now()
    n, e, s = seats["N"], seats["E"], seats["S"]
    after = ("E", "S")
    sheet.enter_deal(table=table, row=six("N", 6, after), participant=n, confirmations=[e, s], now=now)
    c1 = sheet.correct_deal(table=table, number=1, row=six("N", 5, after), participant=e, now=now)
    assert (
        not c1.warning
        and c1.penalty == []
        and c1.pending == {"warning": True, "warned": ["N"], "penalty": [], "writer": n.pk}
    )
    # E corrects again, alone: still no warning, no penalty for N
    c2 = sheet.correct_deal(table=table, number=1, row=six("N", 5, after), participant=e, now=now)
    assert not PulkaCorrection.objects.filter(table=table, warning=True).exists()
    c1.refresh_from_db()
    assert c1.pending is None  # superseded by the later correction
    assert "extra_entries" not in PulkaDeal.objects.get(table=table, number=1).row
    # the others agree, N himself among them: now the warning stands
    sheet.confirm_deal(table=table, number=1, participant=s, now=now)
    c2.refresh_from_db()
    assert not c2.warning and c2.pending is not None
    sheet.confirm_deal(table=table, number=1, participant=n, now=now)
    c2.refresh_from_db()
    assert c2.warning and c2.pending is None
    # the next wrong entry of N, corrected by E and confirmed by the others: the penalty (4.2.7)
    sheet.enter_deal(table=table, row=six("N", 6, after), participant=n, confirmations=[e, s], now=now)
    c3 = sheet.correct_deal(table=table, number=2, row=six("N", 5, after), participant=e, now=now)
    assert c3.penalty == [] and c3.pending["penalty"]
    assert "extra_entries" not in PulkaDeal.objects.get(table=table, number=2).row
    for p in (n, s):
        sheet.confirm_deal(table=table, number=2, participant=p, now=now)
    c3.refresh_from_db()
    assert c3.penalty == [{"type": "mountain", "seat": "N", "amount": 2}]  # only what N added (4.2.7)
    assert PulkaDeal.objects.get(table=table, number=2).row["extra_entries"] == c3.penalty
    assert table.round.tournament.audit_entries.filter(action="pulka_correction_confirmed").count() == 2


def test_the_writers_own_correction_of_a_confirmed_entry_is_his_warning_at_once(director) -> None:
    """Code 4.2.7, the rule applied to the writer: N corrects his own confirmed entry — his first warning."""
    table, seats = three_at_a_table(director)
    now = timezone.now()
    n, e, s = seats["N"], seats["E"], seats["S"]
    sheet.enter_deal(table=table, row=six("N", 6, ("E", "S")), participant=n, confirmations=[e, s], now=now)
    c = sheet.correct_deal(table=table, number=1, row=six("N", 5, ("E", "S")), participant=n, now=now)
    assert c.warning and c.pending is None


def test_no_confirmation_after_the_director_stopped_the_table_or_the_round_ended(director) -> None:
    """Code 4.2.3 (the director closes the sheet) and the round's end: a confirmation given afterwards is
    refused — the software's rule: what was unconfirmed then goes to the director."""
    table, seats = three_at_a_table(director)
    now = timezone.now()
    sheet.enter_deal(table=table, row=six("N", 6, ("E", "S")), participant=seats["N"], now=now)
    table_control.stop_table(table=table, user=director, now=now, reason="time")
    with pytest.raises(Conflict) as refused:
        sheet.confirm_deal(table=table, number=1, participant=seats["E"], now=now)
    assert refused.value.code == "table_stopped"
    assert PulkaDeal.objects.get(table=table, number=1).confirmed_by == []
    phone = Client()
    p = seats["E"]
    phone.post(f"/pulka/{table.code}/", {"action": "show", "number": p.number, "pin": p.pin})
    assert 'value="confirm"' not in phone.get(f"/pulka/{table.code}/").content.decode()  # no form to refuse
    rounds.end_round(pulka_round=table.round, user=director, now=now)
    table_control.reopen_table(table=table, user=director, now=now, reason="test: the round has ended")
    with pytest.raises(Conflict) as refused:
        sheet.confirm_deal(table=table, number=1, participant=seats["E"], now=now)
    assert refused.value.code == "round_not_running"
