"""Ways in to players across events (issue 20): the director's index links the register and the series list for
those who may use them (players.services.register.can_see_register, players.services.series.can_create_series);
the public home page links the series list (series tables are public)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from players.services.register import can_see_register
from players.services.series import can_create_series
from tests.html import english_phrases, parse, visible_text
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def user(kind: str):
    users = get_user_model().objects
    if kind == "superuser":
        return users.create_superuser("root", password="pw-root-1")
    u = users.create_user(kind, password="pw-user-1", is_staff=kind == "staff")
    if kind == "director":
        Tournament.objects.create(name="Кубок", slug="cup").directors.add(u)
    if kind == "keeper":
        u.user_permissions.add(
            Permission.objects.get(codename="change_person", content_type__app_label="players")
        )
    return get_user_model().objects.get(pk=u.pk)  # fresh: no cached permissions


def link_text(doc, ident: str) -> str:
    node = doc.by_id(ident)
    return node.text() if node is not None else ""


@pytest.mark.parametrize(
    ("kind", "register", "series"),
    [
        ("director", True, True),
        ("staff", True, False),
        ("keeper", True, False),
        ("superuser", True, True),
        ("plain", False, False),
    ],
)
def test_the_directors_index_links_what_the_user_may_use(client, kind, register, series):
    u = user(kind)
    assert (can_see_register(u), can_create_series(u)) == (register, series)  # the services decide
    client.force_login(u)
    page = client.get(reverse("director:index"))
    doc = parse(page)
    link = doc.by_id("register-link")
    assert (link is not None) == register and (
        link is None or link.get("href") == reverse("players:register")
    )
    link = doc.by_id("series-link")
    assert (link is not None) == series and (
        link is None or link.get("href") == reverse("players:series_list")
    )
    if register:
        assert link_text(doc, "register-link") == "Реестр игроков"
    if series:
        assert link_text(doc, "series-link") == "Серии турниров"
    assert not english_phrases(visible_text(page), u.get_username())


def test_the_home_page_links_the_series_for_everyone(client):
    page = client.get(reverse("home"))
    link = parse(page).one("a", href=reverse("players:series_list"))
    assert link.text() == "Серии турниров"
    assert (
        client.get(reverse("home"), headers={"accept-language": "en"}).content.count(b"Series of events") == 1
    )
