"""Issue 29, N7 and N8: the same thing sent twice — a pulka page's form key used again at another table, a round
drawn twice — is answered in words (the stored row, or a refusal), never an IntegrityError's 500."""

from __future__ import annotations

import threading
from contextlib import suppress
from unittest import mock

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pulkas.models import PulkaDeal, PulkaRound
from pulkas.services import rounds
from tests.pulkas.factory import pulka_event, running_round
from tests.pulkas.test_table_page import deal_post
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_a_page_key_used_at_another_table_writes_there_too(director):
    t = pulka_event(director, "compensation", 8, 4, pool=6)
    first, second = running_round(director, t).tables.order_by("number")
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    for table in (first, second):
        data = deal_post(table, confirm=("E", "S", "W"), key="the-same-key")
        response = c.post(reverse("table:pulka", kwargs={"code": table.code}), data)
        assert response.status_code == 302, response.status_code
        assert PulkaDeal.objects.filter(table=table).count() == 1
    again = c.post(
        reverse("table:pulka", kwargs={"code": second.code}), deal_post(second, key="the-same-key")
    )
    assert again.status_code in (200, 302) and PulkaDeal.objects.filter(table=second).count() == 1


def draw_url(t) -> str:
    return reverse("director:pulka_draw", kwargs={"slug": t.slug})


def test_a_second_draw_of_the_same_round_through_the_page_is_refused(director):
    t = pulka_event(director, "compensation", 8, 4, pool=6)
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    c.force_login(director)
    assert c.post(draw_url(t), {"number": 1, "seed": 3}).status_code == 302
    second = c.post(draw_url(t), {"number": 1, "seed": 4}, follow=True)
    said = [str(m) for m in second.context["messages"]]
    assert second.status_code == 200 and said[-1:] == [
        "Жеребьёвка тура 1 уже проведена (возможно, повторным нажатием): больше ничего не разыграно."
    ], said
    assert list(PulkaRound.objects.filter(tournament=t).values_list("number", "seed")) == [(1, 3)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writes one at a time: no race to lose")
@pytest.mark.django_db(transaction=True)
def test_two_draw_clicks_at_once_draw_one_round_postgresql(director):
    t = pulka_event(director, "compensation", 8, 4, pool=6)
    both_read = threading.Barrier(2)
    real_over = rounds.event_over

    def slow_over(event, last):  # both requests have read «no round yet» before either writes one
        with suppress(threading.BrokenBarrierError):  # the other waits for the lock (the fix): nobody to meet
            both_read.wait(timeout=3)
        return real_over(event, last)

    answers: list[int] = []

    def click(seed: int) -> None:
        try:
            c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
            c.force_login(director)
            answers.append(c.post(draw_url(t), {"number": 1, "seed": seed}).status_code)
        finally:
            connections.close_all()

    with mock.patch.object(rounds, "event_over", slow_over):
        threads = [threading.Thread(target=click, args=(seed,)) for seed in (1, 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert sorted(answers) == [302, 302], answers  # the second answered «already drawn», not a 500
    assert PulkaRound.objects.filter(tournament=t).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writes one at a time: no race to lose")
@pytest.mark.django_db(transaction=True)
def test_two_start_clicks_at_once_start_the_round_once_postgresql(director):
    t = pulka_event(director, "compensation", 8, 4, pool=6)
    drawn = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    both_read = threading.Barrier(2)
    real_event_of = rounds.event_of

    def slow_event_of(tournament):  # both have read «pending» before either writes «running»
        with suppress(threading.BrokenBarrierError):
            both_read.wait(timeout=3)
        return real_event_of(tournament)

    def click() -> None:
        try:
            rounds.start_round(
                pulka_round=PulkaRound.objects.get(pk=drawn.pk), user=director, now=timezone.now()
            )
        except Exception as exc:  # noqa: BLE001 - the loser's refusal is what we look at
            refusals.append(exc)
        finally:
            connections.close_all()

    refusals: list[Exception] = []
    with mock.patch.object(rounds, "event_of", slow_event_of):
        threads = [threading.Thread(target=click) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert [getattr(e, "code", repr(e)) for e in refusals] == ["round_started"]
    assert AuditEntry.objects.filter(action="pulka_round_started").count() == 1
