"""The player register (issue 20): linking participants to persons — by federation number exactly, else only
proposed by name for the director to confirm — merging duplicates, and who may open the register's pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.base import ContentFile
from django.urls import reverse

from players.models import MasterPointAward, Person, RatingEntry
from players.services.register import link, link_event, link_new, merge, name_key, person_save, proposals
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Participant, Tournament

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 4, 12, tzinfo=dt.UTC)


def event(slug: str, people: list[tuple[str, str, str]], director=None) -> Tournament:
    t = Tournament.objects.create(name=f"Event {slug}", slug=slug, variant="sochi", players_per_table=4)
    if director is not None:
        t.directors.add(director)
    for n, (name, club, fed) in enumerate(people, start=1):
        Participant.objects.create(tournament=t, number=n, name=name, club=club, federation_id=fed)
    return t


@pytest.fixture
def users():
    User = get_user_model()
    return {
        "director": User.objects.create_user("dir", password="x"),
        "other": User.objects.create_user("other", password="x"),
        "staff": User.objects.create_user("staff", password="x", is_staff=True),
        "plain": User.objects.create_user("plain", password="x"),
    }


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Сёмин Иван", "семин  иван", True),  # «ё» as «е», case, spaces
        ("  ИВАНОВ Пётр ", "Иванов Петр", True),
        ("Иванов Иван", "Иванов Иван Иванович", False),  # another name is another name
        ("Ivanov", "ivanov", True),
        ("Иванов", "Иванова", False),
    ],
)
def test_names_compare_without_case_yo_or_spaces(a, b, same):
    assert (name_key(a) == name_key(b)) is same


@pytest.mark.parametrize(
    ("fed", "register", "expect"),
    [
        # (the participant's number as typed, the register's persons, what linking does)
        # A person the register holds already is only proposed (issue 29): the register's staff confirm.
        ("R-1", [("Иванов Иван", "R-1")], "proposed"),
        ("  R-1 ", [("Иванов Иван", "R-1")], "proposed"),  # trimmed
        ("r-1", [("Иванов Иван", "R-1")], "created"),  # exact: «r-1» is not «R-1»
        ("R-2", [("Иванов Иван", "R-1")], "created"),  # a new number: a new person
        ("", [("Иванов Иван", "R-1")], "none"),  # no number: never linked by name alone
        ("", [("Иванов Иван", "")], "none"),
    ],
)
def test_linking_by_federation_number_only(fed, register, expect):
    for name, number in register:
        Person.objects.create(name=name, federation_id=number)
    t = event("e1", [("Иванов Иван", "Спартак", fed)])
    report = link_event(t, now=NOW)
    p = Participant.objects.get(tournament=t)
    assert (report.linked, report.created, report.proposed) == {
        "proposed": (0, 0, 1),
        "created": (0, 1, 0),
        "none": (0, 0, 0),
    }[expect]
    if expect == "none":
        assert p.person is None and p.proposed_person is None
    elif expect == "proposed":
        assert p.person is None and p.proposed_person.federation_id == fed.strip()
    else:
        assert p.person.federation_id == fed.strip()
        assert Person.objects.filter(federation_id=fed.strip()).count() == 1
    # Linking again changes nothing.
    assert link_event(t, now=NOW) == type(report)(0, 0, 0)


def test_a_merged_person_does_not_take_his_number_back():
    keep = Person.objects.create(name="A", federation_id="")
    drop = Person.objects.create(name="A", federation_id="", merged_into=keep)
    Person.objects.filter(pk=drop.pk).update(federation_id="F-9")  # a merged person may keep his old number
    t = event("e2", [("A", "", "F-9")])
    link_event(t, now=NOW)
    person = Participant.objects.get(tournament=t).person  # a new person (the merged one holds no number)
    assert person != drop and person.merged_into is None and person.federation_id == "F-9"


def test_proposals_by_name_same_club_or_city_first():
    far = Person.objects.create(name="Петров Пётр", club="Зенит", city="Казань")
    near = Person.objects.create(name="петров петр", club="", city="Сочи")
    Person.objects.create(name="Петров Павел", city="Сочи")  # another name
    Person.objects.create(name="Петров Пётр", city="Сочи", merged_into=far)  # merged: never proposed
    t = event("e3", [("Петров  Пётр", "сочи", "")])
    participant = Participant.objects.get(tournament=t)
    assert proposals(participant) == [near, far]
    link_event(t, now=NOW)
    participant.refresh_from_db()
    assert participant.person is None  # proposed, never linked


def test_the_director_confirms_a_proposal_or_makes_a_new_person(users):
    person = Person.objects.create(name="Петров Пётр")
    t = event("e4", [("Петров Пётр", "", ""), ("Петров Пётр", "", "")], users["director"])
    first, second = t.participants.order_by("number")
    # A person of the register is only proposed by a director; a new person made for the participant is linked.
    assert not link(participant=first, person=person, user=users["director"], now=NOW)
    new = link_new(participant=second, user=users["director"], now=NOW)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.person is None and first.proposed_person == person and second.person == new != person
    assert AuditEntry.objects.filter(tournament=t, action="person.propose").count() == 1
    assert AuditEntry.objects.filter(tournament=t, action="person.link").count() == 1
    assert link(participant=first, person=person, user=users["staff"], now=NOW)  # the register's staff link
    first.refresh_from_db()
    assert first.person == person and first.proposed_person is None
    merged = Person.objects.create(name="X", merged_into=person)
    with pytest.raises(UserError):
        link(participant=first, person=merged, user=users["director"], now=NOW)


def test_merge_moves_everything_and_is_audited(users):
    keep = Person.objects.create(name="Иванов Иван", federation_id="")
    drop = Person.objects.create(name="Иванов И.", federation_id="F-7")
    older = Person.objects.create(name="Иванов", merged_into=drop)
    t1 = event("m1", [("Иванов Иван", "", "")])
    t2 = event("m2", [("Иванов И.", "", "F-7")])
    link_event(t2, now=NOW, user=users["staff"])
    Participant.objects.filter(tournament=t1).update(person=keep)
    p2 = Participant.objects.get(tournament=t2)
    MasterPointAward.objects.create(
        person=drop, tournament=t2, participant=p2, points="7/2", scheme="x", computed_at=NOW
    )
    RatingEntry.objects.create(
        person=drop, tournament=t2, before="1500", after="1510", played_on=NOW.date(), computed_at=NOW
    )
    moved = merge(keep=keep, drop=drop, user=users["staff"], reason="one player, two spellings", now=NOW)
    assert moved == 3
    drop.refresh_from_db()
    keep.refresh_from_db()
    older.refresh_from_db()
    assert drop.merged_into == keep and older.merged_into == keep
    assert keep.federation_id == "F-7"  # the number goes with the person who stays
    assert set(keep.participations.values_list("tournament__slug", flat=True)) == {"m1", "m2"}
    assert keep.master_points.get().points == "7/2" and keep.ratings.get().after == "1510"
    entry = AuditEntry.objects.get(tournament=t2, action="person.merge")
    assert entry.reason == "one player, two spellings" and entry.data["drop"] == drop.pk
    assert LogEntry.objects.filter(object_id=str(keep.pk), change_message__contains="person.merge").exists()


def test_merge_refusals(users):
    a = Person.objects.create(name="A")
    b = Person.objects.create(name="B")
    gone = Person.objects.create(name="C", merged_into=a)
    cases = [
        (a, a, "r", "merge_self"),
        (gone, b, "r", "merge_merged"),
        (b, gone, "r", "merge_merged"),
        (a, b, "  ", "merge_reason"),
    ]
    t = event("same", [("A", "", ""), ("B", "", "")])
    pa, pb = t.participants.order_by("number")
    Participant.objects.filter(pk=pa.pk).update(person=a)
    Participant.objects.filter(pk=pb.pk).update(person=b)
    cases.append((a, b, "r", "merge_same_event"))  # two persons at one event are two persons
    for keep, drop, reason, code in cases:
        with pytest.raises(UserError) as caught:
            merge(keep=keep, drop=drop, user=users["staff"], reason=reason, now=NOW)
        assert caught.value.code == code
    b.refresh_from_db()
    assert b.merged_into is None and Participant.objects.get(pk=pb.pk).person == b  # nothing saved


def test_person_save_keeps_federation_numbers_unique(users):
    person_save(person=None, name="A", federation_id="F-1", user=users["staff"])
    with pytest.raises(UserError) as caught:
        person_save(person=None, name="B", federation_id=" F-1 ", user=users["staff"])
    assert caught.value.details[0].field == "federation_id"
    with pytest.raises(UserError):
        person_save(person=None, name="B" * 201, user=users["staff"])


# -- pages: who may ----------------------------------------------------------------------------------------------
def test_register_pages_need_staff_or_the_permission(client, users):
    t = event("pg", [("A", "", "")], users["director"])
    edit_urls = [reverse("players:register_new"), reverse("players:register_import")]
    see_urls = [reverse("players:register"), reverse("players:register_export", args=["csv"])]
    for url in edit_urls + see_urls:
        assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(users["plain"])
    for url in edit_urls + see_urls:
        assert client.get(url).status_code == 403
    client.force_login(users["director"])  # a director looks the register up, does not edit it
    for url in see_urls:
        assert client.get(url).status_code == 200
    for url in edit_urls:
        assert client.get(url).status_code == 403
    users["plain"].user_permissions.add(Permission.objects.get(codename="change_person"))
    for user in (users["staff"], get_user_model().objects.get(pk=users["plain"].pk)):
        client.force_login(user)
        for url in edit_urls + see_urls:
            assert client.get(url).status_code == 200
    assert t.participants.get().person is None


def test_the_event_link_page_is_for_the_events_director(client, users):
    t = event("lp", [("Петров Пётр", "", ""), ("Иванов", "", "F-1")], users["director"])
    url = reverse("players:event_links", args=[t.slug])
    assert client.get(url).status_code == 302
    client.force_login(users["other"])
    assert client.get(url).status_code == 403
    assert client.post(url, {"by_number": "1"}).status_code == 403
    assert Person.objects.count() == 0
    client.force_login(users["director"])
    page = client.get(url)
    assert page.status_code == 200 and "Петров Пётр" in page.content.decode()
    client.post(url, {"by_number": "1"})
    assert t.participants.get(number=2).person.federation_id == "F-1"
    client.post(url, {"participant": "1", "new": "1"})
    assert t.participants.get(number=1).person.name == "Петров Пётр"
    participants = client.get(reverse("director:participants", args=[t.slug])).content.decode()
    assert url in participants  # linked from the participants page


def test_merge_page_confirms_with_a_reason(client, users):
    keep, drop = Person.objects.create(name="A"), Person.objects.create(name="A.")
    url = reverse("players:register_merge")
    client.force_login(users["director"])
    assert client.post(url, {"keep": keep.pk, "drop": drop.pk, "reason": "x"}).status_code == 403
    client.force_login(users["staff"])
    assert client.get(url, {"keep": keep.pk, "drop": drop.pk}).status_code == 200
    client.post(url, {"keep": keep.pk, "drop": drop.pk, "reason": ""})
    drop.refresh_from_db()
    assert drop.merged_into is None  # no reason: nothing merged
    client.post(url, {"keep": keep.pk, "drop": drop.pk, "reason": "same"})
    drop.refresh_from_db()
    assert drop.merged_into == keep


def test_russian_pages_speak_only_russian(client, users):
    """DEVELOPERS: no English word on a Russian page."""
    from tests.html import english_phrases, visible_text

    keep = Person.objects.create(name="Петров Пётр", club="Спартак", federation_id="R-1")
    drop = Person.objects.create(name="Петров П.", city="Сочи")
    t = event("ru", [("Петров Пётр", "Спартак", ""), ("Сидоров", "", "R-5")], users["director"])
    t.directors.add(users["staff"])
    client.force_login(users["staff"])
    upload = ContentFile("ФИО;Клуб;Город;Номер ФСП\nИванов;;;R-3\n".encode(), name="r.csv")
    pages = [
        client.get(reverse("players:register")),
        client.get(reverse("players:register_person", args=[keep.pk])),
        client.get(reverse("players:register_new")),
        client.get(reverse("players:register_merge"), {"keep": keep.pk, "drop": drop.pk}),
        client.post(reverse("players:register_import"), {"file": upload}),
        client.get(reverse("players:event_links", args=[t.slug])),
        client.get(reverse("players:register_links")),
    ]
    assert "Реестр игроков" in pages[0].content.decode()
    for page in pages:
        assert page.status_code == 200
        text = visible_text(page.content.decode())
        assert english_phrases(text, t.name, "Excel (.xlsx)") == [], page.request["PATH_INFO"]


def test_imported_events_link_by_federation_number(users):
    """Issue 20: «matched on import by federation number» — the bundle import and the participants import."""
    import json
    from pathlib import Path

    from events.bundles import import_bundle
    from events.participants import participants_import
    from tournaments.participant_file import read_participants_file

    data = json.loads((Path(__file__).parents[1] / "data" / "small_bundle.json").read_text())
    for p in data["participants"]:
        p["federation_id"] = f"F-{p['number']}" if p["number"] <= 2 else ""
    first = import_bundle(data=data, slug="club-1", now=NOW)
    second = import_bundle(data=data, slug="club-2", now=NOW)
    for number in (1, 2):
        # The first import makes the persons; the second (no director vouching) only proposes them.
        a, b = first.participants.get(number=number), second.participants.get(number=number)
        assert a.person is not None and b.person is None and b.proposed_person == a.person
        assert a.person.federation_id == f"F-{number}"
    assert first.participants.get(number=3).person is None  # no number: proposed only
    assert Person.objects.count() == 2
    t = event("lists", [], users["director"])
    lines = read_participants_file(
        filename="a.csv", content="№;ФИО;Номер ФСП\n1;Иванов Иван;F-1\n".encode()
    ).lines
    participants_import(tournament=t, lines=lines, user=users["director"], now=NOW)
    assert t.participants.get(number=1).proposed_person == first.participants.get(number=1).person


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("петров", ["Петров Пётр"]),
        ("ПЁТР", ["Петров Пётр"]),
        ("петр", ["Петров Пётр"]),
        ("R-1", ["Петров Пётр"]),
        ("сочи", ["Сидорова Анна"]),
        ("", ["Петров Пётр", "Сидорова Анна"]),
        ("Иванов", []),
    ],
)
def test_register_search_by_name_or_number(query, found):
    from players.services.register import search

    keep = Person.objects.create(name="Петров Пётр", club="Спартак", federation_id="R-1")
    Person.objects.create(name="Сидорова Анна", city="Сочи")
    Person.objects.create(name="Иванов", merged_into=keep)  # merged persons are not listed
    assert [p.name for p in search(query)] == found
