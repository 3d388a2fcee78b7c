"""Redis (the broker) unavailable: rows are still accepted and the standings are rescored in-process."""

from __future__ import annotations

import logging
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from config.celery import app as celery_app
from scoring.models import Result
from scoring.rescore import request_rescore
from scoring.row_command import ArtificialAdjustment, RowCommand, RowPlace
from scoring.rows import result_save
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _reset_pool() -> None:
    """Drop pooled broker connections made with other settings (the pool is rebuilt on next use)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker_down():
    saved = {k: celery_app.conf[k] for k in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:1/0")
    _reset_pool()
    try:
        yield
    finally:
        celery_app.conf.update(**saved)
        _reset_pool()


def test_rescore_falls_back_in_process_and_says_so(broker_down, caplog):
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    Result.objects.filter(session__tournament=t).update(matchpoints=None)
    with caplog.at_level(logging.WARNING, logger="scoring.rescore"):
        assert request_rescore(t.pk) == "inline"
    assert "broker unavailable" in caplog.text
    assert not Result.objects.filter(session__tournament=t, matchpoints__isnull=True).exists()


def test_a_row_is_accepted_while_the_broker_is_down(broker_down, django_capture_on_commit_callbacks):
    call_command("seed_demo", stdout=StringIO())
    session = Tournament.objects.get(slug="demo").sessions.get()
    seating = session.seatings.get(round_number=4, table_number=2)
    board = session.boards.filter(set_number=seating.set_number).order_by("number").first()
    seats = {k: p.number for k, p in seating.seats().items()}
    with django_capture_on_commit_callbacks(execute=True):
        result = result_save(
            RowCommand(
                RowPlace(session=session, board=board.number, round=4, table=2, seats=seats),
                ArtificialAdjustment(grades={"N": "A", "E": "A", "S": "A", "W": "A"}),
            ),
            now=timezone.now(),
        )
    result.refresh_from_db()
    assert result.matchpoints is not None
