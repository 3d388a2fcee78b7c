"""Every director page: login required, directors only, and it renders."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.html import parse

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def pages(slug):
    s = {"slug": slug, "session": 1}
    return [
        reverse("director:dashboard", kwargs={"slug": slug}),
        reverse("director:session_dashboard", kwargs=s),
        reverse("director:settings", kwargs={"slug": slug}),
        reverse("director:participants", kwargs={"slug": slug}),
        reverse("director:participant", kwargs={"slug": slug, "number": 1}),
        reverse("director:participants_import", kwargs={"slug": slug}),
        reverse("director:pins", kwargs={"slug": slug}),
        reverse("director:standings", kwargs={"slug": slug}),
        reverse("director:publication", kwargs={"slug": slug}),
        reverse("director:audit", kwargs={"slug": slug}),
        reverse("director:movement", kwargs=s),
        reverse("director:seating", kwargs=s),
        reverse("director:handover", kwargs=s | {"number": 1}),
        reverse("director:table_round", kwargs=s | {"round": 1, "table": 1}),
        reverse("director:board_entry", kwargs=s | {"round": 1, "table": 1, "board": 1}),
        reverse("director:boards", kwargs=s),
        reverse("director:board_detail", kwargs=s | {"board": 1}),
        reverse("director:penalties", kwargs=s),
    ]


def test_anonymous_is_sent_to_log_in(client, seated):
    for url in pages(seated.slug) + [reverse("director:index"), reverse("director:create")]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_other_users_are_refused(client, seated, other_user):
    client.force_login(other_user)
    for url in pages(seated.slug):
        assert client.get(url).status_code == 403, url
    assert (
        client.post(
            reverse("director:start_round", kwargs={"slug": seated.slug, "session": 1, "number": 1})
        ).status_code
        == 403
    )
    assert "Весенний кубок" not in client.get(reverse("director:index")).content.decode()


def test_directors_see_every_page(dclient, seated):
    dashboard = reverse("director:dashboard", kwargs={"slug": seated.slug})
    for url in pages(seated.slug):
        response = dclient.get(url, headers=EN)
        assert response.status_code == 200, url
        tabs = parse(response).find("nav", class_="d-tabs")  # the director's tabs, the dashboard first
        assert tabs is not None and tabs.find_all("a")[0].get("href") == dashboard, url


def test_superusers_direct_everything(client, seated, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password="x")
    client.force_login(admin)
    assert client.get(pages(seated.slug)[0]).status_code == 200


def test_unknown_things_are_404(dclient, seated):
    assert dclient.get("/director/nope/").status_code == 404
    assert (
        dclient.get(
            reverse("director:session_dashboard", kwargs={"slug": seated.slug, "session": 9})
        ).status_code
        == 404
    )
    assert (
        dclient.get(
            reverse("director:board_detail", kwargs={"slug": seated.slug, "session": 1, "board": 99})
        ).status_code
        == 404
    )


def test_actions_need_post(dclient, seated):
    url = reverse("director:start_round", kwargs={"slug": seated.slug, "session": 1, "number": 1})
    assert dclient.get(url).status_code == 405


def test_index_lists_my_tournaments(dclient, seated):
    page = dclient.get(reverse("director:index"), headers=EN).content.decode()
    assert "Весенний кубок" in page and reverse("director:dashboard", kwargs={"slug": seated.slug}) in page


def test_russian_by_default(dclient, seated):
    response = dclient.get(reverse("director:dashboard", kwargs={"slug": seated.slug}))
    assert response.status_code == 200
    assert '<html lang="ru">' in response.content.decode()
