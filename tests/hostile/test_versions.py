"""Issue 18, lost updates: two people correcting one row at once, and twelve devices sending one row at once.

A correction carries the revision of the row it read; a stale one is refused with who changed the row and when,
nothing is overwritten and the audit has exactly one change (the service, the director's page, the table page,
the API). Twelve devices at once store exactly one row; the others get the idempotent replay or a clear conflict,
never a 500 or «database is locked» — on PostgreSQL in-process, on SQLite against a real server on a file
database (the embedded default; the test database of SQLite is in memory and cannot show its locking).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from http.client import HTTPConnection
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from duplicate import at_table, table_rows
from scoring.models import Result
from scoring.revisions import RowChanged
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from tests.table.factory import legal_row, make_event, pin_of
from tests.test_smoke_server import _free_port
from tournaments.models import AuditEntry, Participant, Table

ROOT = Path(__file__).resolve().parent.parent.parent
ROW = legal_row(4, "N")  # board 1, dealer N
SEVEN = legal_row(4, "N", tricks=(7, 2, 1))
EIGHT = legal_row(4, "N", tricks=(8, 1, 1))


@pytest.fixture
def two_directors(director):
    t, session = make_event(director=director)
    second = get_user_model().objects.create_user("second", password="pw-second-1", first_name="Анна")
    t.directors.add(second)
    stored = result_save(
        RowCommand(
            RowPlace(session=session, board=1, round=1, table=1),
            PlayedRow(row=ROW),
            author=RowAuthor(user=director),
        ),
        now=timezone.now(),
    )
    assert stored.revision == 1
    return t, session, director, second


def _updates() -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action="result.update"))


def _correct(session, user, row, revision):  # type: ignore[no-untyped-def]
    return result_save(
        RowCommand(
            RowPlace(session=session, board=1, round=1, table=1),
            PlayedRow(row=row),
            RowWriting(correction=True, reason="protocol", revision=revision),
            RowAuthor(user=user),
        ),
        now=timezone.now(),
    )


@pytest.mark.django_db
def test_the_service_refuses_a_correction_made_on_a_stale_read(two_directors):
    _t, session, first, second = two_directors
    assert _correct(session, first, SEVEN, 1).revision == 2
    with pytest.raises(RowChanged) as refused:
        _correct(session, second, EIGHT, 1)
    assert refused.value.status == 409 and refused.value.code == "row_changed"
    assert refused.value.message.startswith("director changed this row at ")
    assert "check it and save again" in refused.value.message and refused.value.revision == 2
    stored = Result.objects.get()
    assert stored.row["declarer"] == ["E", 7] and stored.revision == 2
    assert len(_updates()) == 1
    # read again, corrected again: stored
    assert _correct(session, second, EIGHT, 2).revision == 3 and len(_updates()) == 2
    # deleted meanwhile: not entered again silently
    Result.objects.all().delete()
    with pytest.raises(RowChanged) as gone:
        _correct(session, first, SEVEN, 3)
    assert "deleted" in gone.value.message and not Result.objects.exists()


def _director_page(user):  # type: ignore[no-untyped-def]
    c = Client()
    c.force_login(user)
    url = reverse(
        "director:board_entry", kwargs={"slug": "tt", "session": 1, "round": 1, "table": 1, "board": 1}
    )
    return c, url


def _form(row, revision):  # type: ignore[no-untyped-def]
    return {
        "kind": "row",
        "contract": "6S",
        "declarer_seat": "E",
        "declarer_tricks": row["declarer"][1],
        "w1_tricks": row["w1"][1],
        "w2_tricks": row["w2"][1],
        "call1": "whist",
        "call2": "whist",
        "reason": "protocol",
        "revision": revision,
    }


@pytest.mark.django_db
def test_two_directors_correct_one_row_on_the_director_page(two_directors):
    _t, _session, first, second = two_directors
    (c1, url), (c2, _url) = _director_page(first), _director_page(second)
    for c in (c1, c2):  # both open the board: the form carries revision 1
        assert 'name="revision" value="1"' in c.get(url).content.decode()
    assert c1.post(url, _form(SEVEN, "1")).status_code == 302
    page = c2.post(url, _form(EIGHT, "1"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Строку изменил(а) director в " in html and "проверьте и сохраните снова" in html
    assert 'name="revision" value="2"' in html  # the current row's revision: saving again corrects it
    stored = Result.objects.get()
    assert stored.row["declarer"] == ["E", 7] and len(_updates()) == 1
    assert c2.post(url, _form(EIGHT, "2")).status_code == 302
    assert Result.objects.get().row["declarer"] == ["E", 8] and len(_updates()) == 2


@pytest.mark.django_db
def test_a_director_who_read_no_row_does_not_overwrite_one_entered_meanwhile(two_directors):
    _t, _session, first, _second = two_directors
    c, url = _director_page(first)
    page = c.post(url, _form(SEVEN, ""))  # the page was opened before the row came in
    assert page.status_code == 200 and Result.objects.get().row["declarer"] == ["E", 6]
    assert not _updates()


def _api(user):  # type: ignore[no-untyped-def]
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return c


@pytest.mark.django_db
def test_two_directors_correct_one_row_through_the_api(two_directors):
    _t, _session, first, second = two_directors
    pk = Result.objects.get().pk
    read = _api(first).get(f"/api/results/{pk}/")
    assert read.json()["revision"] == 1 and read["ETag"] == '"1"'
    body = {**SEVEN, "reason": "protocol"}
    missing = _api(first).put(f"/api/results/{pk}/", body, format="json")
    assert missing.status_code == 428 and missing.json()["error"]["code"] == "revision_missing"
    done = _api(first).put(f"/api/results/{pk}/", {**body, "revision": 1}, format="json")
    assert done.status_code == 200 and done.json()["revision"] == 2 and done["ETag"] == '"2"'
    stale = _api(second).put(f"/api/results/{pk}/", {**EIGHT, "reason": "x", "revision": 1}, format="json")
    assert stale.status_code == 409
    error = stale.json()["error"]
    assert error["code"] == "row_changed" and error["message"].startswith("director changed this row at ")
    stale_header = _api(second).patch(
        f"/api/results/{pk}/", {"play": "closed", "reason": "x"}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert stale_header.status_code == 409, stale_header.json()
    assert Result.objects.get().row["declarer"] == ["E", 7] and len(_updates()) == 1
    again = _api(second).put(
        f"/api/results/{pk}/", {**EIGHT, "reason": "x"}, format="json", HTTP_IF_MATCH='"2"'
    )
    assert again.status_code == 200 and again.json()["revision"] == 3


@pytest.mark.django_db
def test_the_player_at_n_correcting_a_row_changed_from_another_phone_is_refused(director):
    make_event(director=director)
    table = Table.objects.get(code="TAB1TT")
    n = Participant.objects.get(tournament__slug="tt", number=1)
    state = at_table.table_state(table)
    row, _created = table_rows.table_submit(
        state=state, participant=n, board_number=1, row=ROW, now=timezone.now()
    )
    phone = Client()
    phone.get(reverse("table:entry", kwargs={"code": table.code}))
    form = {
        "action": "save",
        "board": 1,
        "replace": "on",
        "revision": "1",
        "contract": "6S",
        "declarer": "E",
        "t1": 7,
        "t2": 2,
        "t3": 1,
        "call1": "whist",
        "call2": "whist",
        "play": "closed",
        "number": 1,
        "pin": pin_of(1),
    }
    table_rows.table_submit(  # the other phone corrects first
        state=at_table.table_state(table),
        participant=n,
        board_number=1,
        row=EIGHT,
        replace=True,
        revision=1,
        now=timezone.now(),
    )
    answer = phone.post(reverse("table:entry", kwargs={"code": table.code}), form, follow=True)
    assert "изменил(а) 1 Player 1 в " in answer.content.decode()
    row.refresh_from_db()
    assert row.row["declarer"] == ["E", 8] and row.revision == 2 and len(_updates()) == 1


# -- twelve devices at once ---------------------------------------------------------------------------------
DEVICES = 12


def _devices(send) -> list[tuple[int, dict]]:  # type: ignore[no-untyped-def,type-arg]
    """Twelve devices send board 1 at the same moment (devices 0-5 with their own keys, 6-11 sharing one key:
    one phone's retries); ``send(i, key)`` returns (status, body)."""
    barrier = threading.Barrier(DEVICES)
    answers: list[tuple[int, dict]] = [(0, {})] * DEVICES  # type: ignore[type-arg]

    def device(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[i] = send(i, f"device-{i}" if i < 6 else "one-phone")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=device, args=(i,)) for i in range(DEVICES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return answers


def _exactly_one_row(answers, stored_ids) -> None:  # type: ignore[no-untyped-def]
    statuses = sorted(code for code, _body in answers)
    assert set(statuses) <= {201, 409}, [
        a for a in answers if a[0] not in (201, 409)
    ]  # no 500, no «database is locked»
    assert len(set(stored_ids)) == 1, stored_ids
    winners = [body["id"] for code, body in answers if code == 201]
    assert winners and set(winners) == set(stored_ids)
    for code, body in answers:
        if code == 409:
            assert (
                body["error"]["code"] == "conflict" and "another device was first" in body["error"]["message"]
            )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite: the file-database server test below")
@pytest.mark.django_db(transaction=True)
def test_twelve_devices_send_one_row_at_once_postgresql(director):
    make_event(director=director)
    auth = f"Player TAB1TT:1:{pin_of(1)}"

    def send(i: int, key: str) -> tuple[int, dict]:  # type: ignore[type-arg]
        c = APIClient(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=f"127.0.0.{10 + i}")  # twelve phones
        c.credentials(HTTP_AUTHORIZATION=auth)
        r = c.post("/api/results/", {"board": 1, **ROW}, format="json", HTTP_IDEMPOTENCY_KEY=key)
        return r.status_code, r.json()

    answers = _devices(send)
    _exactly_one_row(answers, list(Result.objects.values_list("id", flat=True)))
    assert AuditEntry.objects.filter(action="result.create").count() == 1


TOKEN = "a" * 40
SETUP = f"""
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from tests.table.factory import make_event
director = get_user_model().objects.create_user("director")
Token.objects.create(user=director, key="{TOKEN}")
make_event(director=director)
"""


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL: the in-process test above")
@pytest.mark.slow
def test_twelve_devices_send_one_row_at_once_to_a_server_on_an_sqlite_file(tmp_path):
    database = tmp_path / "embedded.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_CACHE_URL"}}
    env |= {"DATABASE_URL": f"sqlite:///{database}", "PREFERANS_DEV": "1", "DEBUG": "1", "RESCORE_DELAY": "0"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    for args in (["migrate", "--noinput"], ["shell", "-c", SETUP]):
        done = subprocess.run(manage + args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    port = _free_port()
    server = subprocess.Popen(
        manage + ["runserver", "--noreload", "--skip-checks", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"

    def send(i: int, key: str, *, path: str = "/api/results/", method: str = "POST", body=None, auth=None):  # type: ignore[no-untyped-def]
        # each device from its own address, as twelve phones (127.0.0.0/8 is all loopback)
        http = HTTPConnection("127.0.0.1", port, timeout=60, source_address=(f"127.0.0.{10 + i}", 0))
        try:
            http.request(
                method,
                path,
                body=json.dumps(body or {"board": 1, **ROW}),
                headers={
                    "Content-Type": "application/json",
                    "Idempotency-Key": key,
                    "Accept-Language": "en",
                    "Authorization": auth or f"Player TAB1TT:1:{pin_of(1)}",
                },
            )
            response = http.getresponse()
            text = response.read().decode(errors="replace")
        finally:
            http.close()
        return response.status, json.loads(text) if text.startswith("{") else {"text": text[:300]}

    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"{base}/api/", timeout=5).close()
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                threading.Event().wait(0.2)
        answers = _devices(send)
        # then twelve directors' corrections of that row, all read at revision 1 (read, check, write at once)
        (pk,) = {body["id"] for code, body in answers if code == 201}
        tricks = [(6, 2, 2), (7, 2, 1), (8, 1, 1), (6, 3, 1), (7, 1, 2), (6, 1, 3)] * 2
        corrections = _devices(
            lambda i, key: send(
                i,
                f"director-{i}",
                path=f"/api/results/{pk}/",
                method="PUT",
                auth=f"Token {TOKEN}",
                body={**legal_row(4, "N", tricks=tricks[i]), "reason": f"director {i}", "revision": 1},
            )
        )
    finally:
        server.terminate()
        log = server.communicate(timeout=20)[0]
    assert "database is locked" not in log
    import sqlite3

    with sqlite3.connect(database) as db:
        ids = [i for (i,) in db.execute("SELECT id FROM scoring_result")]
        creates = db.execute(
            "SELECT count(*) FROM tournaments_auditentry WHERE action='result.create'"
        ).fetchone()
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        updates = db.execute(
            "SELECT count(*) FROM tournaments_auditentry WHERE action='result.update'"
        ).fetchone()
        revision = db.execute("SELECT revision FROM scoring_result").fetchone()
    _exactly_one_row(answers, ids)
    assert creates == (1,) and mode == "wal"
    codes = sorted(code for code, _body in corrections)
    assert codes.count(200) == 1 and set(codes) == {200, 409}, corrections  # no 500, no «database is locked»
    assert {b["error"]["code"] for code, b in corrections if code == 409} == {"row_changed"}
    assert updates == (1,) and revision == (2,)
