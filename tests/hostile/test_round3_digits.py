"""Issue 29, «more of the same kind» as N7: every whole number read from a request — a query parameter, a posted
field, an If-Match header, a key of a JSON object — is read as ASCII digits (``tournaments.numbers``), so «¹», «①»
or «²3» is no number (ignored, or refused in words) and never an ``int()`` 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.helpers import enter
from tests.publishing import publish_to
from tests.pulkas.factory import pulka_event
from tests.table.factory import make_event
from tournaments.models import Publication

pytestmark = pytest.mark.django_db
ODD = ["¹", "①", "²3"]


def web(user=None) -> Client:
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    if user is not None:
        c.force_login(user)
    return c


@pytest.mark.parametrize("odd", ODD)
def test_query_parameters_of_the_duplicate_pages(director, odd):
    t, session = make_event(director=director)
    enter()
    publish_to(t, Publication.PROVISIONAL, director, timezone.now())
    public = [f"/t/{t.slug}/boards/", f"/t/{t.slug}/boards/1/", f"/t/{t.slug}/frequencies/"]
    for url in public:
        assert web().get(url, {"session": odd}).status_code in (200, 404), url
    s = {"slug": t.slug, "session": session.number}
    table_round = reverse("director:table_round", kwargs={**s, "round": 1, "table": 1})
    checks = [
        (reverse("director:session_dashboard", kwargs=s), {"round": odd}),
        (table_round, {"room": odd}),
    ]
    for url, query in checks:
        assert web(director).get(url, query).status_code in (200, 302, 404), url
    assert web(director).post(table_round, {"accept": odd}).status_code in (200, 302, 400), table_round
    exports = reverse("results:exports", kwargs={"slug": t.slug})
    assert (
        web(director).post(exports, {"kind": "standings", "format": "csv", "session": odd}).status_code < 500
    )


@pytest.mark.parametrize("odd", ODD)
def test_a_players_read_stamps_on_confirm_all(director, odd):
    make_event(director=director)
    enter()
    answer = web().post(
        "/table/TAB1TT/", {"action": "confirm_all", "number": 2, "pin": "1002", "read": [f"{odd}:1"]}
    )
    assert answer.status_code in (200, 302, 400, 409), answer.status_code


@pytest.mark.parametrize("odd", ODD)
def test_an_if_match_revision(director, odd):
    make_event(director=director)
    row = enter()
    c = APIClient(raise_request_exception=False)
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=director)[0].key}")
    header = f'"{odd}"'.encode().decode("latin-1")  # as a WSGI server hands the UTF-8 bytes on
    answer = c.patch(
        f"/api/results/{row.pk}/", {"play": "closed", "reason": "x"}, format="json", HTTP_IF_MATCH=header
    )
    assert answer.status_code in (200, 400, 409, 412, 428), answer.status_code


@pytest.mark.parametrize("odd", ODD)
def test_the_pulka_pages_and_settings(director, odd):
    t = pulka_event(director, "olympic", 9, 3, pool=6)
    rounds_page = reverse("director:pulka_rounds", kwargs={"slug": t.slug})
    assert web(director).get(rounds_page, {"round": odd}).status_code == 200
    c = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=director)[0].key}")
    answer = c.patch(f"/api/tournaments/{t.slug}/pulka/", {"advance_by_round": {odd: 2}}, format="json")
    assert answer.status_code == 400, answer.status_code


@pytest.mark.parametrize("odd", [*ODD, "٣", "1_0", "9" * 20])
def test_board_numbers_on_the_table_pages_and_api_filters(director, odd):
    make_event(director=director)
    enter()
    for query in ({"board": odd}, {"edit": odd}, {"saved": odd}):
        assert web().get("/table/TAB1TT/", query).status_code == 200, query
    assert web().post("/table/TAB1TT/", {"action": "save", "board": odd}).status_code == 400
    answer = APIClient(raise_request_exception=False).get("/api/results/", {"session": odd})
    assert answer.status_code == 400 and answer.json()["error"]["details"][0]["field"] == "session"


@pytest.mark.parametrize("odd", ODD)
def test_the_registers_posted_numbers(director, django_user_model, odd):
    """The register's pages read a posted participant or series the same way (no ``int()`` 500)."""
    t, _ = make_event(director=director)
    staff = django_user_model.objects.create_user("reg", password="pw-reg-12345", is_staff=True)
    links = reverse("players:register_links")
    assert web(staff).post(links, {"participant": odd, "confirm": "1"}).status_code in (200, 302)
    event = reverse("players:event_links", kwargs={"slug": t.slug})
    for data in ({"participant": odd, "new": "1"}, {"series": odd, "decide": "1"}):
        assert web(director).post(event, data).status_code in (200, 302, 404), data
