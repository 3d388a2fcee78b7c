"""The public round and player pages of a pulka event link each table's sheet (``/pulka/<code>/``, the pulka
«traveller») once it is public — the results published and the table with results — and not before, for a
director neither."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events.publication import publish
from tests.html import parse
from tests.pulkas.test_paper import played_event, tables
from tournaments.models import Publication

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}


@pytest.fixture
def event(director):
    return played_event(director)


def sheet_links(doc) -> dict[str, str]:
    """Each linked sheet: the table's number (round page) or the round's (player page) → the address."""
    return {a.get("data-sheet"): a.get("href") for a in doc.find_all("a", data_sheet=True)}


def test_round_and_player_pages_link_the_sheets_only_once_public(event, director) -> None:
    round_1 = reverse("results:pulka-round", kwargs={"slug": event.slug, "number": 1})
    round_2 = reverse("results:pulka-round", kwargs={"slug": event.slug, "number": 2})
    player = reverse("results:pulka-player", kwargs={"slug": event.slug, "number": 1})
    boss = Client()
    boss.force_login(director)
    for page in (round_1, round_2, player):  # before publication: the director sees the pages, no sheet link
        response = boss.get(page, headers=RU)
        assert response.status_code == 200
        assert not sheet_links(parse(response)), page
    assert Client().get(round_1).status_code == 403
    publish(tournament=event, to=Publication.PROVISIONAL, user=director, now=timezone.now())
    public = Client()
    doc = parse(public.get(round_1, headers=RU))
    assert sheet_links(doc) == {str(t.number): f"/pulka/{t.code}/" for t in tables(event, 1)}
    assert not sheet_links(parse(public.get(round_2, headers=RU)))  # drawn, nothing written: no results yet
    me = event.participants.get(number=1)
    (mine,) = [t for t in tables(event, 1) if me.pk in t.seat_ids().values()]
    assert sheet_links(parse(public.get(player, headers=RU))) == {"1": f"/pulka/{mine.code}/"}
    sheet = public.get(f"/pulka/{mine.code}/", headers=RU)  # the link opens the sheet for anybody
    assert sheet.status_code == 200
    assert parse(sheet).find(id="unlock") is None and parse(sheet).find("div", class_="pk-side") is not None
