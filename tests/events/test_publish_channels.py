"""One step of publication, three channels: the director's page, ``manage.py publish`` and the API refuse with
the same words for the same reason, and take the same step, at either form's events."""

from __future__ import annotations

import datetime as dt
import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from appeals.services import pulka_correction_request
from events.publication import publication_gaps, publish
from pulkas.models import PulkaRound
from pulkas.services import rounds
from pulkas.simulate import play_round, play_table
from tests.events.pulka import finish_round, pulka_event
from tests.html import parse
from tournaments.models import Publication, Tournament

pytestmark = pytest.mark.django_db


def page_message(director, t: Tournament, to: str, acknowledged: str = "") -> str:
    """The message the director's publication page shows after the step (Russian, the default)."""
    client = Client()
    client.force_login(director)
    response = client.post(
        reverse("director:publication", kwargs={"slug": t.slug}),
        {"action": to, "acknowledged": acknowledged},
        follow=True,
    )
    assert response.status_code == 200
    return " ".join(parse(response.content.decode()).one("ul", class_="messages").text().split())


def command(t: Tournament, to: str, *extra: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("publish", t.slug, "--to", to, *extra, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def api(director, t: Tournament, to: str, acknowledged: str = "", language: str = "ru"):
    token, _ = Token.objects.get_or_create(user=director)
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_ACCEPT_LANGUAGE=language)
    return client.post(
        f"/api/tournaments/{t.slug}/publication/",
        {"to": to, "acknowledged": acknowledged},
        content_type="application/json",
    )


def refused_alike(director, t: Tournament, to: str, code: str) -> str:
    """The page, the command and the API refuse ``to`` with one message; nothing changes."""
    before = Tournament.objects.get(pk=t.pk).publication
    on_page = page_message(director, t, to)
    status, out, err = command(t, to)
    answer = api(director, t, to)
    body = answer.json()["error"]
    assert (status, out) == (2, "")
    assert err.count("\n") <= 1 and err.strip() == on_page
    assert (answer.status_code, body["code"]) == (409, code)
    assert body["message"] == on_page
    assert Tournament.objects.get(pk=t.pk).publication == before
    return on_page


def played_pulka_event(director, *, rounds_total: int, rounds_played: int) -> Tournament:
    t = pulka_event(director, "compensation", players=8, per_table=4, pool=4, rounds=rounds_total)
    rng, now = random.Random(11), timezone.now()
    for _ in range(rounds_played):
        r = rounds.draw_round(tournament=t, user=director, now=now, seed=rng.randrange(1000))
        rounds.start_round(pulka_round=r, user=director, now=now)
        play_round(r, rng, now=now, deals=5)
        finish_round(r, director, now)
    return Tournament.objects.get(pk=t.pk)


def test_each_refusal_reads_the_same_on_the_page_the_command_line_and_the_api(director) -> None:
    t = played_pulka_event(director, rounds_total=2, rounds_played=1)
    # Not the next step.
    assert "следующий шаг" in refused_alike(director, t, "official", "publication_order")
    status, out, _err = command(t, "provisional")
    assert status == 0 and json.loads(out) == {"tournament": t.slug, "publication": "provisional"}
    # Play not over: one round of two.
    assert "все туры" in refused_alike(director, t, "official", "play_not_over")
    now = timezone.now()
    r2 = rounds.draw_round(tournament=t, user=director, now=now, seed=5)
    rounds.start_round(pulka_round=r2, user=director, now=now)
    play_table(r2.tables.order_by("number").first(), random.Random(3), now=now, deals=2)
    finish_round(r2, director, now)
    # Official now: play is over. The correction period then keeps the results from becoming final.
    answer = api(director, t, "official")
    assert answer.status_code == 200 and answer.json()["publication"] == "official"
    assert "Исправления принимаются до" in refused_alike(director, t, "final", "correction_period")


def test_an_open_correction_reads_the_same_on_every_channel(director) -> None:
    t = played_pulka_event(director, rounds_total=1, rounds_played=1)
    now = timezone.now()
    official = now - dt.timedelta(minutes=t.correction_minutes + 10)  # the period ended ten minutes ago
    for step in ("provisional", "official"):
        publish(tournament=t, to=step, user=director, now=official)
    table = PulkaRound.objects.get(tournament=t, number=1).tables.order_by("number").first()
    pulka_correction_request(  # asked for in time, and not yet decided
        tournament=t,
        table=table,
        deal=1,
        description="7 вместо 6",
        user=director,
        now=official + dt.timedelta(minutes=5),
    )
    assert "нерешённое: исправления 1" in refused_alike(director, t, "final", "open_matters")


def test_gaps_are_acknowledged_by_their_token_on_every_channel(director) -> None:
    t = pulka_event(director, "compensation", players=8, per_table=4, pool=20, rounds=1)
    now = timezone.now()
    r1 = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    rounds.start_round(pulka_round=r1, user=director, now=now)  # both tables still playing
    gaps = publication_gaps(t)
    assert gaps.count("playing") == 2
    message = refused_alike(director, t, "provisional", "gaps_not_acknowledged")
    assert "столов ещё играют: 2" in message
    # The API tells what is open and takes the step with the token it gave.
    state = api(director, t, "provisional").json()
    assert state["error"]["code"] == "gaps_not_acknowledged"
    token, _ = Token.objects.get_or_create(user=director)
    seen = Client(HTTP_AUTHORIZATION=f"Token {token.key}").get(f"/api/tournaments/{t.slug}/publication/")
    assert seen.json()["gaps"]["token"] == gaps.token and seen.json()["gaps"]["counts"]["playing"] == 2
    assert api(director, t, "provisional", acknowledged=gaps.token).json()["publication"] == "provisional"


def test_the_command_acknowledges_what_is_open_when_told(director) -> None:
    t = pulka_event(director, "compensation", players=8, per_table=4, pool=20, rounds=1)
    now = timezone.now()
    rounds.start_round(
        pulka_round=rounds.draw_round(tournament=t, user=director, now=now, seed=4), user=director, now=now
    )
    status, _out, err = command(t, "provisional")
    assert status == 2 and "I know" not in err and err.strip()
    status, out, _err = command(t, "provisional", "--acknowledge-gaps")
    assert status == 0 and json.loads(out)["publication"] == "provisional"
    entry = t.audit_entries.get(action="publication.provisional")
    assert entry.actor == "manage.py publish" and entry.data["playing"] == 2


def test_the_command_and_the_api_serve_a_duplicate_event_too(director, tournament) -> None:
    tournament.directors.add(director)
    status, out, _err = command(tournament, "provisional")
    assert status == 0 and json.loads(out)["publication"] == "provisional"
    answer = api(director, tournament, "official", language="en")
    assert answer.status_code == 409 and answer.json()["error"] == {
        "code": "play_not_over",
        "message": "Official results come when every round has ended.",
        "details": [],
    }
    status, _out, err = command(tournament, "official", "--language", "en")
    assert (status, err.strip()) == (2, "Official results come when every round has ended.")


def test_only_a_director_reads_or_takes_the_step(director, other_user, tournament) -> None:
    anonymous = Client()
    url = f"/api/tournaments/{tournament.slug}/publication/"
    assert anonymous.get(url).status_code == 401
    assert anonymous.post(url, {"to": "provisional"}, content_type="application/json").status_code == 401
    token, _ = Token.objects.get_or_create(user=other_user)
    stranger = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert stranger.get(url).status_code == 403
    assert stranger.post(url, {"to": "provisional"}, content_type="application/json").status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).publication == Publication.DRAFT
    answer = api(director, tournament, "sideways", language="en")
    assert answer.status_code == 400 and answer.json()["error"]["details"][0]["field"] == "to"
    assert command(tournament, "provisional")[0] == 0


def test_a_locked_event_refuses_every_step(director) -> None:
    t = played_pulka_event(director, rounds_total=1, rounds_played=1)
    past = timezone.now() - dt.timedelta(hours=3)
    for step in ("provisional", "official"):
        publish(tournament=t, to=step, user=director, now=past)
    publish(tournament=t, to="final", user=director, now=timezone.now())
    from events.publication import tournament_lock

    tournament_lock(tournament=t, user=director, now=timezone.now())
    status, _out, err = command(t, "final", "--language", "en")
    assert status == 2 and "locked" in err
    answer = api(director, t, "final", language="en")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "tournament_locked"
