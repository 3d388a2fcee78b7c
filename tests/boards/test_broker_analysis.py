# ruff: noqa: F811 - the fixtures imported from test_analysis_tasks are parameters here
"""Issue 29, N11 and N1 for the double-dummy analysis: without a worker a click analyses a few boards, never a
whole session inside the request; a second click while an analysis is in flight starts nothing («already
running»); a board the broker does not take is analysed here (bounded); a queued analysis no worker started
within a minute is said so on the page, which offers to analyse now."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from boards import analysis as ba
from boards import tasks as board_tasks
from boards.models import AnalysisRun, BoardAnalysis
from boards.runs import start_analysis
from config.celery import app as celery_app
from tests.boards.test_analysis_tasks import calls, event  # noqa: F401 - fixtures
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def _url(t: Tournament) -> str:
    return reverse("director:analysis", args=[t.slug, 1])


@pytest.fixture
def en(director) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(director)
    return c


@pytest.fixture
def with_broker():
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = saved


@pytest.fixture
def accepted(monkeypatch, with_broker) -> list[tuple[Any, ...]]:
    """A broker that takes every task, and no worker that runs them."""
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(board_tasks.analyse_board_task, "delay", lambda *a: queued.append(a))
    return queued


def test_analyse_again_without_a_worker_is_bounded_per_click(event, calls, en):
    en.post(_url(event), {"action": "start"})
    en.post(_url(event), {"action": "start"})
    assert BoardAnalysis.objects.count() == 15
    calls.clear()
    response = en.post(_url(event), {"action": "again"}, follow=True)
    assert len(calls) == 8  # not the whole session inside one request
    assert "7 remain" in response.content.decode()
    en.post(_url(event), {"action": "again"})
    assert set(calls) == set(range(1, 16))  # the next click redoes the others (the oldest analyses first)


def test_a_click_begins_no_board_after_its_time_budget(event, calls, en, settings):
    settings.DD_INLINE_SECONDS = 0
    en.post(_url(event), {"action": "start"})
    assert len(calls) == 1  # one board at least, then the budget is spent


def test_a_second_click_while_one_runs_starts_nothing(event, monkeypatch, en):
    """Eager: a click that comes while another click's analysis runs (here: from inside it) is refused."""
    seen: list[str] = []
    session = event.sessions.get(number=1)

    def analyse_board(given: Any, factory: Any, progress: Any = None) -> Any:
        if not seen:
            seen.append(start_analysis(session, again=True, now=timezone.now()).how)
        return given

    monkeypatch.setattr(ba, "analyse_board", analyse_board)
    monkeypatch.setattr(ba, "analysis_json", lambda given, result: {"seats": {}})
    en.post(_url(event), {"action": "start"})
    assert seen == ["busy"]
    assert AnalysisRun.objects.get(session=session).queued_at is None  # released after the click


def test_a_second_click_while_queued_queues_nothing(event, calls, en, accepted):
    en.post(_url(event), {"action": "start"})
    assert len(accepted) == 15
    response = en.post(_url(event), {"action": "again"}, follow=True)
    assert len(accepted) == 15 and not calls
    assert "already running" in response.content.decode()
    page = en.get(_url(event)).content.decode()
    assert 'id="analysis-busy"' in page and 'id="analysis-again"' not in page


def test_the_queued_tasks_mark_the_run_started_and_the_last_one_ends_it(event, calls, en, accepted):
    en.post(_url(event), {"action": "start"})
    session = event.sessions.get(number=1)
    board_tasks.analyse_board_task.run(*accepted[0])
    run = AnalysisRun.objects.get(session=session)
    assert run.started_at is not None and run.queued_at is not None and run.left == 14
    for args in accepted[1:]:
        board_tasks.analyse_board_task.run(*args)
    run.refresh_from_db()
    assert run.queued_at is None and run.left == 0 and len(calls) == 15
    assert 'id="analysis-start"' not in en.get(_url(event)).content.decode()


def test_a_hand_off_failure_analyses_here_bounded(event, calls, en, monkeypatch, with_broker):
    def refuse(*args: Any) -> None:
        raise ImportError("No module named 'packaging'")

    monkeypatch.setattr(board_tasks.analyse_board_task, "delay", refuse)
    en.post(_url(event), {"action": "start"})
    assert len(calls) == 8 and BoardAnalysis.objects.count() == 8
    assert AnalysisRun.objects.get(session=event.sessions.get(number=1)).queued_at is None


def test_an_analysis_no_worker_takes_is_said_and_run_on_request(
    event,
    calls,
    en,
    accepted,
    monkeypatch,
):
    en.post(_url(event), {"action": "start"})
    assert 'id="analysis-not-taken"' not in en.get(_url(event)).content.decode()
    run = AnalysisRun.objects.get(session=event.sessions.get(number=1))
    later = run.queued_at + dt.timedelta(seconds=61)
    monkeypatch.setattr(timezone, "now", lambda: later)
    page = en.get(_url(event)).content.decode()
    assert 'id="analysis-not-taken"' in page and "no background worker has taken it" in page
    ru = Client(HTTP_ACCEPT_LANGUAGE="ru")
    ru.force_login(event.directors.first())
    assert "фоновый обработчик за него не взялся" in ru.get(_url(event)).content.decode()
    en.post(_url(event), {"action": "run_now"})
    assert len(calls) == 8  # bounded, as without a broker
    assert AuditEntry.objects.filter(tournament=event, action="analysis.run_now").count() == 1
    page = en.get(_url(event)).content.decode()
    assert 'id="analysis-not-taken"' not in page and 'id="analysis-start"' in page


def test_analyse_now_is_for_directors_only(event, calls, en, accepted, monkeypatch, other_user):
    en.post(_url(event), {"action": "start"})
    run = AnalysisRun.objects.get(session=event.sessions.get(number=1))
    monkeypatch.setattr(timezone, "now", lambda: run.queued_at + dt.timedelta(seconds=61))
    stranger = Client()
    stranger.force_login(other_user)
    assert stranger.post(_url(event), {"action": "run_now"}).status_code == 403
    assert not calls and not AuditEntry.objects.filter(action="analysis.run_now").exists()


def test_a_boards_own_failure_is_said_and_not_run_again(event, en, monkeypatch):
    tried: list[int] = []

    def analyse_board(given: Any, factory: Any, progress: Any = None) -> Any:
        tried.append(given.number)
        if given.number == 3:
            raise RuntimeError("a bug in the search")
        return given

    monkeypatch.setattr(ba, "analyse_board", analyse_board)
    monkeypatch.setattr(ba, "analysis_json", lambda given, result: {"seats": {}})
    response = en.post(_url(event), {"action": "start"}, follow=True)
    assert tried == list(range(1, 9))  # board 3 tried once, the others went on
    assert "could not be analysed: 1" in response.content.decode()
    assert not BoardAnalysis.objects.filter(board__number=3).exists()
