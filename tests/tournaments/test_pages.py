from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Standing

pytestmark = pytest.mark.django_db


def test_home_lists_tournaments(client, tournament):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "Кубок клуба" in response.content.decode()
    assert tournament.get_absolute_url() in response.content.decode()


def test_home_speaks_russian_by_default_and_english_on_request(client, tournament):
    assert "Турниры" in client.get("/").content.decode()
    english = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert "Tournaments" in english


def test_unpublished_results_are_hidden_from_the_public(client, tournament, director):
    Standing.objects.create(
        tournament=tournament,
        participant=tournament.participants.first(),
        position=1,
        rank="1",
        matchpoints="10",
        max="12",
        percent="83.33",
    )
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "83,33" not in page and "83.33" not in page
    client.force_login(director)
    assert (
        "83,33" in client.get(tournament.get_absolute_url()).content.decode()
    )  # a Russian page: decimal comma


def test_published_results_are_public(client, published):
    Standing.objects.create(
        tournament=published,
        participant=published.participants.first(),
        position=1,
        rank="1",
        matchpoints="10",
        max="12",
        percent="83.33",
    )
    assert (
        "83,33" in client.get(published.get_absolute_url()).content.decode()
    )  # a Russian page: decimal comma


def test_unknown_tournament_is_404(client, db):
    assert client.get("/t/nope/").status_code == 404


def test_healthz(client, db):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "media": "ok"}


def test_admin_lists_every_model(admin_client):
    index = admin_client.get("/admin/").content.decode()
    for model in (
        "tournament",
        "participant",
        "session",
        "round",
        "seating",
        "table",
        "auditentry",
        "board",
        "result",
        "penalty",
        "standing",
    ):
        assert f"/{model}/" in index, model


def test_healthz_says_unhealthy_without_naming_the_database(client, db, monkeypatch, caplog):
    from django.db import connection

    def broken(*args, **kwargs):
        raise RuntimeError(
            'connection to server at "db.internal" (10.0.0.5), port 5432 failed: user "preferans"'
        )

    monkeypatch.setattr(connection, "cursor", broken)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unreachable", "media": "ok"}
    assert "db.internal" not in response.content.decode()
    assert "db.internal" in caplog.text  # the operator finds the reason in the log
