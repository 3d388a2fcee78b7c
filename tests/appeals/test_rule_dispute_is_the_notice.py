"""Rules, general provisions (seed 004, «Общие положения»): «О подаче апелляции необходимо предупредить судью до
начала следующей сдачи» — the director must be warned of an appeal before the start of the next deal.

A player who pressed «Оспорить — позвать судью» on the row at the table called the director to that deal: the
dispute is the notice. Later, filing in time on the players' appeals page, he is not refused for a missing
notice; a player who did not dispute and files after the next deal is refused, and the page never shows the
success («передана судье») beside a refusal.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from appeals.models import Appeal
from preferans.duplicate import deadlines
from scoring.models import Result
from tests.html import english_phrases, lang, visible_text
from tests.table.factory import make_event, pin_of
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db
RU = {"headers": {"accept-language": "ru"}}
TABLE = reverse("table:entry", kwargs={"code": "TAB1TT"})
SENT = "Апелляция передана судье."


def _row(board: int, declarer: str, key: str) -> dict:
    """A closed 6♠ both whisted: board 1 (dealer N) is played by E, S, W; board 2 (dealer E) by N, S, W."""
    order = {"E": ("E", "S", "W"), "N": ("N", "S", "W")}[declarer]
    return {
        "board": board,
        "key": key,
        "contract": "6S",
        "declarer": order[0],
        "t1": "6",
        "t2": "2",
        "call1": "whist",
        "call2": "whist",
        "play": "closed",
        "action": "save",
        "number": 1,
        "pin": pin_of(1),
    }


@pytest.fixture
def played(director):
    """Board 1 at table 1 entered by N (player 1); S (player 3) disputes it at the table; then board 2 is entered,
    so the next deal had started. All through the table's page."""
    t, session = make_event(director=director)
    Client().post(TABLE, _row(1, "E", "k1"))
    Client().post(
        TABLE, {"board": 1, "number": 3, "pin": pin_of(3), "action": "dispute", "reason": "W took 3 tricks"}
    )
    Client().post(TABLE, _row(2, "N", "k2"))
    assert Result.objects.get(board_number=1).status == Result.Status.DISPUTED
    assert Result.objects.filter(board_number=2).exists()
    return t, session


def _appeal(t, number: int):
    """The player logs in on the appeals page with his number and PIN and appeals board 1, in Russian."""
    client = Client()
    url = reverse("appeals:player", kwargs={"slug": t.slug})
    client.post(url, {"number": number, "pin": pin_of(number)}, **RU)
    page = client.post(
        url, {"action": "appeal", "deal": "1-1-1-1", "claim": "Взяток было не шесть"}, follow=True, **RU
    )
    return page, Appeal.objects.get(appellant__number=number)


def test_rule_dispute_at_the_table_is_the_notice_of_appeal(played):
    """«О подаче апелляции необходимо предупредить судью до начала следующей сдачи»: the dispute at the table
    («Оспорить — позвать судью») before the next deal warned the director; the appeal filed later is accepted."""
    t, _session = played
    page, appeal = _appeal(t, 3)
    assert appeal.status == Appeal.Status.FILED and not appeal.refusal
    disputed = AuditEntry.objects.get(action="result.dispute").at
    assert appeal.notice_at == disputed
    assert AuditEntry.objects.get(action="appeal.file").data["notice"] == "dispute_is_notice"
    words = visible_text(page)
    assert SENT in words and "не был предупреждён" not in words
    assert lang(page) == "ru" and english_phrases(words, t.name) == []


def test_rule_no_dispute_no_notice_and_no_success_beside_the_refusal(played):
    """«предупредить судью до начала следующей сдачи»: W (player 4) did not dispute and appeals after the next
    deal started — refused with the reason, and the page does not say «передана судье» beside it."""
    t, _session = played
    page, appeal = _appeal(t, 4)
    assert appeal.status == Appeal.Status.REFUSED and "§1" in appeal.refusal
    words = visible_text(page)
    assert appeal.refusal in words and SENT not in words


def test_rule_a_dispute_after_the_next_deal_is_a_late_notice():
    """«до начала следующей сдачи»: a dispute made once the next deal had started is a late notice, not the
    notice; one made before it is (the core's rule)."""
    started = dt.datetime(2026, 3, 14, 18, 0, tzinfo=dt.UTC)
    late = deadlines.check_notice_given(
        required=True,
        notice_at=None,
        notice_admitted=False,
        next_deal_started_at=started,
        filed_at=started + dt.timedelta(minutes=40),
        disputed_at=started + dt.timedelta(minutes=1),
    )
    assert not late and late.code == "notice_late"
    in_time = deadlines.check_notice_given(
        required=True,
        notice_at=None,
        notice_admitted=False,
        next_deal_started_at=started,
        filed_at=started + dt.timedelta(minutes=40),
        disputed_at=started - dt.timedelta(minutes=1),
    )
    assert in_time and in_time.code == "dispute_is_notice"
