"""Series of events (issue 20 «a series (a season of club events) with its own table and rules (best k of n
events, …)»; docs/players/series.md): the service's table from stored standings through Participant.person,
who may create and edit, and the pages (public table: published events only; Russian and English)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from players.models import MasterPointAward, Person, Series
from players.services import series as service
from scoring.models import Standing
from tests.html import english_phrases, parse, visible_text
from tests.publishing import played_event, publish_to
from tournaments.errors import UserError
from tournaments.models import Participant, Publication, Tournament

pytestmark = pytest.mark.django_db
NOW = timezone.now()


def event(slug, director, results, *, published=True):
    """An event played out and, when ``published``, made final by its director; then its participants 1, 2, …
    linked to the persons of ``results`` and its stored standings are ``results``: (person, percent, rank) per
    line (the series reads only those)."""
    t = played_event(director, slug=slug, name=f"Вечер {slug}", now=NOW - dt.timedelta(hours=3))
    if published:
        publish_to(t, Publication.FINAL, director, NOW)
    Standing.objects.filter(tournament=t).delete()
    for n, (person, percent, rank) in enumerate(results, start=1):
        p = t.participants.get(number=n)
        p.name, p.person = person.name, person
        p.save(update_fields=["name", "person"])
        Standing.objects.create(
            tournament=t, participant=p, position=n, rank=rank, matchpoints="0", max="0", percent=percent
        )
    return t


@pytest.fixture
def season(director):
    ann, bob, cid = (
        Person.objects.create(name=n, federation_id=f)
        for n, f in (("Анна", "101"), ("Борис", "102"), ("Цветана", "103"))
    )
    e1 = event("e1", director, [(ann, "60.00", "1"), (bob, "55.50", "2"), (cid, "40.00", "3")])
    e2 = event("e2", director, [(bob, "70.25", "1"), (ann, "45.00", "2")])
    e3 = event("e3", director, [(cid, "65.00", "1"), (ann, "58.00", "2")])
    draft = event("e4", director, [(cid, "99.00", "1")], published=False)
    s = service.series_create(
        name="Сезон клуба",
        slug="club-season",
        season="2026",
        measure="percent",
        best=2,
        user=director,
        now=NOW,
    )
    for t in (e1, e2, e3, draft):
        service.series_add_event(series=s, tournament=t, user=director, now=NOW)
    return s, (ann, bob, cid), (e1, e2, e3, draft)


def test_best_two_of_the_published_events_by_percent(season):
    s, (ann, bob, cid), (e1, e2, e3, draft) = season
    table = service.table_of(s)
    assert [t.slug for t in table.events] == ["e1", "e2", "e3"]  # the draft is not public
    rows = [(line.person, line.total, line.rank, line.played) for line in table.lines]
    assert rows == [
        (bob, Fraction("125.75"), "1", 2),
        (ann, Fraction("118"), "2", 3),  # 60 + 58; her 45 is played, not counted
        (cid, Fraction("105"), "3", 2),
    ]
    ann_cells = table.lines[1].cells
    assert [(c.value, c.counted) for c in ann_cells] == [
        (Fraction(60), True),
        (Fraction(45), False),
        (Fraction(58), True),
    ]
    # The owner sees the draft too: Цветана's 99 then counts among her best two.
    owner = service.table_of(s, public=False)
    assert owner.lines[0].person == cid and owner.lines[0].total == Fraction("164")


def test_master_points_measure_and_a_merged_person(season, director):
    s, (ann, bob, cid), (e1, e2, e3, _) = season
    service.series_update(
        series=s, user=director, now=NOW, name=s.name, season="", measure="points", best=None
    )
    for t, person, points in ((e1, ann, "3"), (e2, bob, "5/2"), (e3, ann, "1")):
        p = t.participants.get(person=person)
        MasterPointAward.objects.create(
            person=person, tournament=t, participant=p, points=points, scheme="x", computed_at=NOW
        )
    dup = Person.objects.create(name="Анна (дубль)", merged_into=ann)
    p = Participant.objects.create(tournament=e2, number=9, name="Анна", person=dup)
    MasterPointAward.objects.create(
        person=dup, tournament=e2, participant=p, points="1/2", scheme="x", computed_at=NOW
    )
    table = service.table_of(s)
    assert [(line.person, line.total) for line in table.lines] == [
        (ann, Fraction(9, 2)),
        (bob, Fraction(5, 2)),
    ]


def test_who_may_create_edit_and_add(season, other_user, director):
    s, _, (e1, *_rest) = season
    with pytest.raises(UserError) as exc:
        service.series_create(name="X", slug="x", user=other_user, now=NOW)
    assert exc.value.status == 403
    mine = Tournament.objects.create(name="Чужой", slug="foreign")
    mine.directors.add(other_user)
    with pytest.raises(UserError):  # not his series
        service.series_add_event(series=s, tournament=mine, user=other_user, now=NOW)
    with pytest.raises(UserError) as exc:  # his series, but not an event he directs
        service.series_add_event(series=s, tournament=mine, user=director, now=NOW)
    assert exc.value.code == "series_not_director"
    with pytest.raises(UserError) as exc:
        service.series_add_event(series=s, tournament=e1, user=director, now=NOW)
    assert exc.value.code == "series_event_twice"
    with pytest.raises(UserError) as exc:
        service.series_create(name="Y", slug="club-season", user=director, now=NOW)
    assert exc.value.code == "series_slug_taken"
    service.series_remove_event(series=s, tournament=e1, user=director, now=NOW)
    assert [t.slug for t in service.table_of(s).events] == ["e2", "e3"]


def test_public_table_page_in_russian_and_english(season, client):
    s, (ann, bob, cid), _ = season
    page = client.get("/players/series/club-season/")
    assert page.status_code == 200
    text = visible_text(page)
    assert "Сезон клуба" in text and "125,75" in text and "99" not in text.replace("2026", "")
    assert not english_phrases(text, "Сезон клуба")
    rows = parse(page).one("table", id="series-table").find_all("tr")
    assert [r.get("data-person") for r in rows[1:]] == [str(bob.pk), str(ann.pk), str(cid.pk)]
    client.cookies["django_language"] = "en"
    english = visible_text(client.get("/players/series/club-season/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "best 2 events" in english


def test_director_creates_a_series_and_adds_an_event_through_the_pages(director, client):
    t = event("club-1", director, [])
    client.force_login(director)
    page = client.get("/players/series/new/")
    assert page.status_code == 200 and not english_phrases(visible_text(page))
    done = client.post(
        "/players/series/new/", {"name": "Кубок", "slug": "cup", "measure": "percent", "best": "3"}
    )
    assert done.status_code == 302 and done["Location"] == "/players/series/cup/edit/"
    s = Series.objects.get(slug="cup")
    assert s.owner == director and s.rules == {"measure": "percent", "best": 3}
    client.post("/players/series/cup/events/", {"add": t.slug})
    assert list(s.events.values_list("tournament__slug", flat=True)) == ["club-1"]
    edit = client.get("/players/series/cup/edit/")
    assert not english_phrases(visible_text(edit), "Кубок", t.name)
    client.post("/players/series/cup/events/", {"remove": t.slug})
    assert not s.events.exists()


def test_strangers_cannot_edit(season, client, other_user):
    assert client.get("/players/series/club-season/edit/").status_code == 302  # to the login page
    client.force_login(other_user)
    assert client.get("/players/series/club-season/edit/").status_code == 403
    assert client.post("/players/series/club-season/events/", {"remove": "e1"}).status_code == 403
    assert client.get("/players/series/new/").status_code == 403
    get_user_model()
