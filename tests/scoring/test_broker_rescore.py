"""Issue 29, N1: any failure to hand a rescore to the broker falls back in-process and clears the "being
recomputed" mark; the rescore's own failure in eager mode is logged, reported, and not run a second time; a
rescore queued and taken by no worker within a minute is said so on the dashboard, which offers to compute now."""

from __future__ import annotations

import datetime as dt
import logging
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from scoring import rescore as rescore_module
from scoring import tasks
from scoring.models import Result
from scoring.rescore import request_rescore
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_broker(settings):
    """Tasks are not eager (a broker is configured); each test says what ``delay`` does."""
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.RESCORE_DELAY = 0
    yield
    celery_app.conf.task_always_eager = saved


@pytest.fixture
def demo():
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    Result.objects.filter(session__tournament=t).update(matchpoints=None)
    return t


def _unscored(t: Tournament) -> bool:
    return Result.objects.filter(session__tournament=t, matchpoints__isnull=True).exists()


@pytest.mark.parametrize(
    "error", [ImportError("No module named 'packaging'"), RuntimeError("queue full"), ValueError("x")]
)
def test_any_hand_off_failure_rescores_in_process_and_clears_the_mark(
    with_broker, demo, monkeypatch, caplog, error
):
    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(tasks.rescore_tournament_task, "delay", refuse)
    with caplog.at_level(logging.WARNING):
        assert request_rescore(demo.pk) == "inline"
    demo.refresh_from_db()
    assert demo.rescore_queued_at is None  # the dashboard does not say «being recomputed» forever
    assert not _unscored(demo)
    assert "broker unavailable" in caplog.text


def test_the_rescores_own_failure_in_eager_mode_is_not_run_again(demo, monkeypatch, caplog):
    calls: list[int] = []

    def broken(*, tournament_id, now=None):
        calls.append(tournament_id)
        raise ZeroDivisionError("a bug in the scoring")

    monkeypatch.setattr(tasks, "rescore_tournament", broken)
    monkeypatch.setattr(rescore_module, "rescore_tournament", broken)
    with caplog.at_level(logging.ERROR):
        assert request_rescore(demo.pk) == "failed"
    assert calls == [demo.pk]  # once: its failure is not taken for a broker outage
    demo.refresh_from_db()
    assert demo.rescore_queued_at is None
    assert "rescoring tournament" in caplog.text


def _queued_and_not_taken(monkeypatch, t: Tournament) -> None:
    """A broker that takes the task, and no worker that runs it."""
    monkeypatch.setattr(tasks.rescore_tournament_task, "delay", lambda *a, **k: None)
    assert request_rescore(t.pk) == "queued"


def test_a_rescore_no_worker_takes_is_said_on_the_dashboard_and_computed_on_request(
    with_broker, demo, monkeypatch, client
):
    from director.dashboard import overview

    _queued_and_not_taken(monkeypatch, demo)
    session = demo.sessions.get()
    demo.refresh_from_db()
    soon = demo.rescore_queued_at + dt.timedelta(seconds=30)
    later = demo.rescore_queued_at + dt.timedelta(seconds=61)
    assert not any(a.action for a in overview(demo, session, now=soon).alerts)
    assert any(a.action for a in overview(demo, session, now=later).alerts)
    # The page, a minute and more later.
    director = demo.directors.first()
    client.force_login(director)
    monkeypatch.setattr(timezone, "now", lambda: later)
    page = client.get(reverse("director:dashboard", args=[demo.slug])).content.decode()
    assert 'class="inline alert-action"' in page and reverse("director:rescore", args=[demo.slug]) in page
    response = client.post(reverse("director:rescore", args=[demo.slug]), {"next": "dashboard"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "director:dashboard", args=[demo.slug]
    )
    demo.refresh_from_db()
    assert demo.rescore_queued_at is None and not _unscored(demo)
    assert AuditEntry.objects.filter(tournament=demo, action="tournament.rescore").exists()
    page = client.get(reverse("director:dashboard", args=[demo.slug])).content.decode()
    assert "alert-action" not in page


def test_compute_now_is_for_directors_only(with_broker, demo, monkeypatch, client, django_user_model):
    _queued_and_not_taken(monkeypatch, demo)
    stranger = django_user_model.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    response = client.post(reverse("director:rescore", args=[demo.slug]))
    assert response.status_code in (403, 404)
    demo.refresh_from_db()
    assert demo.rescore_queued_at is not None and _unscored(demo)
