"""Finding one's way (issue 30): after logging in a director lands on his events, and the header leads there and
to a new event on every page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.html import parse

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}


def test_a_director_lands_on_his_events_and_the_header_leads_there(client, django_user_model):
    django_user_model.objects.create_user("vera", password="pw-vera-12345")
    response = client.post(
        reverse("login"), {"username": "vera", "password": "pw-vera-12345"}, headers=RU, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("director:index")
    for url in (reverse("home"), reverse("director:index"), reverse("login")):
        header = parse(client.get(url, headers=RU)).one("header")
        links = {a.attrs["href"]: a.text() for a in header.find_all("a")}
        assert links[reverse("director:index")] == "Ваши турниры"
        assert links[reverse("director:create")] == "Новый турнир"


def test_the_exports_page_prints_no_command_line(client, django_user_model):
    from django.utils import timezone

    from tournaments.services.event import tournament_create

    user = django_user_model.objects.create_user("vera", password="pw-vera-12345")
    t = tournament_create(name="Клубный вечер", user=user, slug="club", now=timezone.now())
    client.force_login(user)
    page = client.get(reverse("results:exports", kwargs={"slug": t.slug}), headers=RU).content.decode()
    assert "manage.py" not in page and "export_results" not in page
