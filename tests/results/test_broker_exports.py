"""Issue 29, N6 and N1: exports when files cannot be stored or no worker takes the job.

A job whose file cannot be written is failed once, with a reason a director understands (not a 500, not
«being made 99 %» forever, not made twice because its own failure was taken for a broker outage); /healthz says
the files folder is unwritable; a job queued and started by no worker within a minute is said so, with «Make now».
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from results import services
from results import tasks as result_tasks
from results.models import ExportJob
from tournaments.models import AuditEntry


@pytest.fixture
def en_client() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def unwritable_media(settings, tmp_path):
    """A MEDIA_ROOT that cannot be created or written, as root too: its parent is a regular file."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    settings.MEDIA_ROOT = blocker / "media"
    return settings.MEDIA_ROOT


def _url(name: str, t, **kw) -> str:
    return reverse(f"results:{name}", kwargs={"slug": t.slug, **kw})


@pytest.mark.parametrize(
    ("kind", "fmt", "extra"),
    [("standings", "pdf", {}), ("table_cards", "pdf", {"session": "1"}), ("results", "xlsx", {})],
)
def test_an_unwritable_files_folder_fails_the_job_once_in_words(
    demo,
    en_client,
    director,
    unwritable_media,
    monkeypatch,
    django_capture_on_commit_callbacks,
    kind,
    fmt,
    extra,
):
    made: list[str] = []
    real = services.build_file

    def counting(*args, **kwargs):
        made.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "build_file", counting)
    en_client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = en_client.post(_url("exports", demo), {"kind": kind, "format": fmt, **extra})
    assert response.status_code == 302  # not a 500
    job = ExportJob.objects.get(tournament=demo)
    assert job.status == "failed" and job.finished_at is not None
    assert "could not be stored" in job.message and "not writable" in job.message
    assert made == [kind]  # made once: its own failure is not a broker outage
    page = en_client.get(_url("exports", demo)).content.decode()
    assert "could not be stored" in page
    status = en_client.get(_url("export-status", demo, pk=job.pk)).json()
    assert status["status"] == "failed" and status["download"] is None


def test_the_reason_is_in_russian_on_a_russian_page(
    demo, director, unwritable_media, django_capture_on_commit_callbacks
):
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_url("exports", demo), {"kind": "standings", "format": "pdf"})
    page = client.get(_url("exports", demo)).content.decode()
    assert "Файл не удалось сохранить: нет места или нет прав на запись" in page
    job = ExportJob.objects.get(tournament=demo)
    assert "Файл не удалось сохранить" in client.get(_url("export-status", demo, pk=job.pk)).json()["message"]


def test_healthz_says_the_files_folder_is_unwritable(client, db, unwritable_media):
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json() == {"status": "error", "media": "unwritable"}
    assert "not-a-folder" not in response.content.decode()  # the path goes to the log only


def test_healthz_is_ok_with_a_writable_files_folder(client, db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "fresh" / "media"
    response = client.get(reverse("healthz"))
    assert response.status_code == 200 and response.json() == {"status": "ok", "media": "ok"}
    assert list(settings.MEDIA_ROOT.iterdir()) == []  # the probe is deleted


@pytest.fixture
def with_broker():
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = saved


def test_a_hand_off_failure_makes_the_file_in_process(
    demo, en_client, director, with_broker, monkeypatch, django_capture_on_commit_callbacks
):
    def refuse(*args, **kwargs):
        raise ImportError("No module named 'packaging'")

    monkeypatch.setattr(result_tasks.generate_export, "delay", refuse)
    en_client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        en_client.post(_url("exports", demo), {"kind": "standings", "format": "pdf"})
    assert ExportJob.objects.get(tournament=demo).status == "done"


def test_a_job_no_worker_takes_is_said_and_made_on_request(
    demo, en_client, director, with_broker, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(result_tasks.generate_export, "delay", lambda *a, **k: None)  # taken, never run
    en_client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        en_client.post(_url("exports", demo), {"kind": "standings", "format": "pdf"})
    job = ExportJob.objects.get(tournament=demo)
    assert job.status == "pending"
    assert "job-not-taken" not in en_client.get(_url("exports", demo)).content.decode()
    later = job.created_at + dt.timedelta(seconds=61)
    monkeypatch.setattr(timezone, "now", lambda: later)
    page = en_client.get(_url("exports", demo)).content.decode()
    assert "no background worker has taken it" in page and "Make now" in page
    response = en_client.post(_url("exports", demo), {"action": "run_now", "job": str(job.pk)})
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.status == "done" and job.file
    assert AuditEntry.objects.filter(tournament=demo, action="export.run_now").count() == 1
    assert "job-not-taken" not in en_client.get(_url("exports", demo)).content.decode()
    # A second click (the job is made) makes nothing again.
    en_client.post(_url("exports", demo), {"action": "run_now", "job": str(job.pk)})
    assert AuditEntry.objects.filter(tournament=demo, action="export.run_now").count() == 1


def test_make_now_is_for_directors_only(
    demo, en_client, director, other_user, with_broker, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(result_tasks.generate_export, "delay", lambda *a, **k: None)
    en_client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        en_client.post(_url("exports", demo), {"kind": "standings", "format": "pdf"})
    job = ExportJob.objects.get(tournament=demo)
    en_client.force_login(other_user)
    response = en_client.post(_url("exports", demo), {"action": "run_now", "job": str(job.pk)})
    assert response.status_code == 404
    job.refresh_from_db()
    assert job.status == "pending"


def test_every_kind_fails_once_in_words_when_files_cannot_be_stored(
    demo, en_client, director, unwritable_media, monkeypatch, django_capture_on_commit_callbacks
):
    """Each kind and format of the exports page (the file's making stubbed: what fails is storing it)."""
    made: list[tuple[str, str]] = []

    def stub(tournament_id, kind, fmt, options=None, **kwargs):
        made.append((kind, fmt))
        return f"{kind}.{fmt}", b"x"

    monkeypatch.setattr(services, "build_file", stub)
    en_client.force_login(director)
    asked = [(kind, fmt) for kind, spec in services.EXPORTERS.items() for fmt in spec.formats]
    assert len({kind for kind, _ in asked}) >= 12
    for kind, fmt in asked:
        with django_capture_on_commit_callbacks(execute=True):
            response = en_client.post(_url("exports", demo), {"kind": kind, "format": fmt, "session": "1"})
        assert response.status_code == 302, (kind, fmt)
    assert made == asked  # each made once
    jobs = ExportJob.objects.filter(tournament=demo)
    assert {j.status for j in jobs} == {"failed"} and jobs.count() == len(asked)
    assert all("could not be stored" in j.message for j in jobs)
