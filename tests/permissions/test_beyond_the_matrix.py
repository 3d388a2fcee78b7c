"""What one request a role cannot show: generated files, unpublished results and boards still in play, what a
committee member or a player may do, objects of another tournament, the table's PIN and CSRF."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import clear_url_caches, reverse
from django.utils import timezone

from appeals.models import AppealMember
from appeals.views import PLAYER_KEY
from boards.models import Board
from events.publication import unpublish
from results.models import ExportJob
from scoring.models import Result
from tests.permissions.page import code, url_of
from tests.permissions.pages import PAGES, RESULT_PAGES
from tests.permissions.resolver import walk
from tests.permissions.world import (
    ANONYMOUS,
    COMMITTEE,
    DIRECTOR,
    DIRECTORS,
    OTHER_DIRECTOR,
    PLAYER,
    ROLES,
    World,
    client_for,
    finish,
    get,
    snapshot,
)
from tournaments.models import Participant, Publication, Seating, Session, Tournament


# -- generated files -----------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_generated_files_are_served_only_to_directors(world):
    """Exports (unpublished standings, protocols of boards still in play, table cards with the codes) are downloaded
    through the director-only view; no URL serves MEDIA_ROOT directly, in DEBUG either (it used to: /media/<file>
    to anyone, at a guessable name such as exports/<year>/<month>/<slug>-pack.zip)."""
    job = ExportJob.objects.get(pk=world.export)
    raw = f"/media/{job.file.name}"
    for role in ROLES:
        if role not in DIRECTORS:
            assert client_for(world, role).get(raw).status_code == 404, role
    download = reverse("results:export-download", kwargs={"slug": world.slug, "pk": job.pk})
    response = client_for(world, DIRECTOR).get(download)
    assert response.status_code == 200 and b"secret" in finish(response)
    assert client_for(world, OTHER_DIRECTOR).get(download).status_code == 404
    import config.urls

    with override_settings(DEBUG=True):
        importlib.reload(config.urls)
        served = [
            route for route, _name, p in walk(config.urls.urlpatterns) if "static.serve" in p.lookup_str
        ]
    importlib.reload(config.urls)
    clear_url_caches()
    assert not served, f"MEDIA_ROOT is served to anyone at {served}"


# -- results not for the public yet --------------------------------------------------------------------------
@pytest.mark.django_db
def test_unpublished_results_are_for_directors_only(world):
    """Nothing is public before the first publication, or after it is withdrawn (events.publication):
    the results pages answer 403 to everybody but the directors, the event's page shows no standings."""
    director = world.users[DIRECTOR]
    for t in Tournament.objects.filter(slug__in=[world.slug, world.pulka_slug, world.olympic_slug]):
        while t.publication != Publication.DRAFT:  # the director withdraws them, a step at a time
            unpublish(tournament=t, user=director, reason="published too early", now=timezone.now())
    for key in RESULT_PAGES:
        url = url_of(world, key, PAGES[key])
        for role in ROLES:
            status = get(world, role, url).status_code
            assert status == (200 if role in DIRECTORS else 403), (url, role, status)
    detail = reverse("tournament-detail", kwargs={"slug": world.slug})
    for role in ROLES:
        context = client_for(world, role).get(detail).context
        shown = role in DIRECTORS
        assert context["show_results"] is shown and bool(context["standings"]) is shown, role


@pytest.mark.django_db
def test_a_board_still_in_play_is_hidden_from_the_public(world):
    """While the session runs, a board's rows and layout stay hidden until every table has played it."""
    page = reverse("results:board", kwargs={"slug": world.slug, "number": world.round_board})
    chart = reverse("results:board-chart", kwargs={"slug": world.slug, "number": world.round_board})
    for role in ROLES:
        context = client_for(world, role).get(page).context
        director = role in DIRECTORS
        assert context["visible"] is director and bool(context["rows"]) is director, role
        assert (context["layout"] is not None) is director, role
        assert get(world, role, chart).status_code == (200 if director else 404), role
    Session.objects.filter(tournament_id=world.tournament).update(status=Session.Status.FINISHED)
    for role in ROLES:
        assert client_for(world, role).get(page).context["visible"] is True, role
        assert get(world, role, chart).status_code == 200, role


# -- appeals -------------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_committee_members_may_only_sign(world, baseline):
    def action(name):
        return reverse(
            "appeals:appeal-action", kwargs={"slug": world.slug, "number": world.decided, "action": name}
        )

    committee = client_for(world, COMMITTEE)
    for name in ("comment", "hear", "decide", "apply", "close", "withdraw", "admit"):
        assert committee.post(action(name), {"comment": "x", "decision": "x"}).status_code == 403, name
    assert snapshot() == baseline
    assert committee.post(action("sign"), {"member": world.member}).status_code == 302
    assert AppealMember.objects.get(
        appeal__number=world.decided, appeal__tournament_id=world.tournament
    ).signed_at


@pytest.mark.django_db
def test_a_player_sees_only_his_own_appeals(world, baseline):
    client = Client()
    session = client.session
    other = Participant.objects.filter(tournament_id=world.tournament).exclude(pk=world.appellant).first()
    session[PLAYER_KEY.format(world.tournament)] = other.pk
    session.save()
    url = reverse("appeals:player-appeal", kwargs={"slug": world.slug, "number": world.appeal})
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "withdraw"}).status_code == 404
    assert snapshot() == baseline
    # The identification is per tournament: in another one the player is asked for his number and PIN again.
    response = client.get(reverse("appeals:player", kwargs={"slug": "other"}))
    assert [t.name for t in response.templates][0] == "appeals/player_login.html"


@pytest.mark.django_db
def test_objects_of_one_tournament_are_not_reached_through_another(world, baseline):
    """The director of "other" uses his own tournament's URLs with this tournament's ids: not found."""
    client = client_for(world, OTHER_DIRECTOR)

    def other(name: str, **kwargs: Any) -> str:
        return reverse(name, kwargs={"slug": "other", **kwargs})

    requests = [
        ("post", other("director:penalty_delete", session=1, pk=world.penalty), {"reason": "x"}),
        ("get", other("appeals:ruling", pk=world.ruling), None),
        ("post", other("appeals:ruling", pk=world.ruling), {"action": "dismiss"}),
        ("get", other("appeals:correction", pk=world.correction), None),
        ("post", other("appeals:correction", pk=world.correction), {"action": "refuse"}),
        ("get", other("appeals:appeal", number=world.appeal), None),
        (
            "post",
            other("appeals:appeal-action", number=world.decided, action="sign"),
            {"member": world.member},
        ),
        ("post", other("appeals:settings"), {"action": "remove", "member": world.member}),
        ("get", other("results:export-status", pk=world.export), None),
        ("get", other("results:export-download", pk=world.export), None),
    ]
    for method, url, data in requests:
        response = client.post(url, data) if method == "post" else client.get(url)
        finish(response)
        assert response.status_code == 404, (method, url, response.status_code)
    assert snapshot() == baseline


# -- the table -----------------------------------------------------------------------------------------------
def _row(w: World, **extra: Any) -> dict[str, Any]:
    """A legal row for the running round's first board at table 1 (6♠ by the first hand, both whist)."""
    dealer = Board.objects.get(session__tournament_id=w.tournament, number=w.table_board).dealer
    declarer = next(s for s in "NESW" if s != dealer)
    return {
        "action": "save",
        "board": w.table_board,
        "key": "perm-key",
        "contract": "6S",
        "declarer": declarer,
        "t1": "6",
        "t2": "2",
        "call1": "whist",
        "call2": "whist",
        "play": "closed",
        **extra,
    }


def _seating(w: World, table: int) -> Seating:
    """Who sits at ``table`` in the running round."""
    return Seating.objects.get(session__tournament_id=w.tournament, round_number=4, table_number=table)


def _n_pin(w: World) -> dict[str, Any]:
    n = _seating(w, 1).seat_n
    return {"number": n.number, "pin": n.pin}


@pytest.mark.django_db
def test_table_writes_need_the_pin(world, baseline):
    """The table code opens the page to anyone; a row is stored only with the PIN of the player at N."""
    url = reverse("table:entry", kwargs=code(world))
    here, stranger = _seating(world, 1), _seating(world, 2).seat_n
    attempts = [
        (ANONYMOUS, {}),  # no PIN
        (ANONYMOUS, {"number": here.seat_n.number, "pin": "0000"}),  # a wrong PIN
        (ANONYMOUS, {"number": stranger.number, "pin": stranger.pin}),  # a player of another table
        (ANONYMOUS, {"number": here.seat_e.number, "pin": here.seat_e.pin}),  # not the player at N
        (DIRECTOR, {}),  # a director's login is no PIN
        (PLAYER, {}),  # nor is the appeals page's identification
    ]
    for role, who in attempts:
        response = client_for(world, role).post(url, _row(world, **who))
        assert 400 <= response.status_code < 500, (role, who, response.status_code)
        assert snapshot() == baseline, (role, who)
    response = client_for(world, ANONYMOUS).post(url, _row(world, **_n_pin(world)))
    assert response.status_code == 302
    result = Result.objects.get(session__tournament_id=world.tournament, round_number=4, table_number=1)
    confirm = {"action": "confirm", "board": world.table_board, "number": here.seat_e.number, "pin": "0000"}
    assert client_for(world, ANONYMOUS).post(url, confirm).status_code >= 400
    result.refresh_from_db()
    assert not result.confirmed_by


@pytest.mark.django_db
def test_the_rows_of_a_table_are_not_shown_to_a_device_without_a_pin(world):
    url = reverse("table:entry", kwargs=code(world))
    if client_for(world, ANONYMOUS).post(url, _row(world, **_n_pin(world))).status_code != 302:
        pytest.fail("the player at N could not save the row")
    page = client_for(world, ANONYMOUS).get(url).content.decode()  # another phone: a player of another table
    assert "6♠:" not in page  # the row as described («6♠: E 6, …»); «6♠» alone is a button of the picker


# -- CSRF ----------------------------------------------------------------------------------------------------
def _csrf_cases() -> list[Any]:
    """A director's form (with the body of its entry in PAGES), an appeals one, and a row at the table."""
    forms = [
        pytest.param(DIRECTOR, name, PAGES[name].kwargs, PAGES[name].post, id=name.split(":")[0])
        for name in ("director:participants", "appeals:settings")
    ]
    row = pytest.param(ANONYMOUS, "table:entry", code, lambda w: _row(w, **_n_pin(w)), id="table")
    return [*forms, row]


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "name", "kwargs", "body"), _csrf_cases())
def test_forms_refuse_a_post_without_the_csrf_token(world, baseline, role, name, kwargs, body):
    url = reverse(name, kwargs=kwargs(world))
    client = client_for(world, role, enforce_csrf_checks=True)
    assert client.post(url, body(world)).status_code == 403
    assert snapshot() == baseline
    client.get(url)  # the form sets the token cookie; with the token the same POST goes through
    token = client.cookies["csrftoken"].value
    assert client.post(url, {**body(world), "csrfmiddlewaretoken": token}).status_code == 302
    assert snapshot() != baseline
