"""Issue 29, N4: anyone who can create an event wrote into any register person's public history. A director's
federation number now only proposes the link; the register's staff confirm it (``/players/register/links/``) before
the event counts in the person's history, master points and rating. And a federation file's master points are
what its stated (bounded) scheme gives, and it links a person the register holds only with ``--link-existing``."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duplicate.rounds import movement_choose
from events.bundles import import_bundle, tournament_to_bundle
from players.models import MasterPointAward
from players.services.interchange import export_text
from players.services.register import link_new, person_save
from tests import golden
from tests.html import visible_text
from tests.publishing import end_every_round, publish_to
from tournaments.models import AuditEntry, Participant, Publication, Tournament

pytestmark = pytest.mark.django_db
NOW = timezone.now()
RU = {"Accept-Language": "ru"}
EVENT = {
    "name": "Кубок самозванца",
    "variant": "sochi",
    "players_per_table": 3,
    "deals_per_set": 4,
    "minutes_per_deal": 5,
    "correction_minutes": 30,
    "unequal_results": "neuberg",
    "artificial_minus": 40,
    "artificial_average": 50,
    "artificial_plus": 60,
}


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("keeper", password="x", is_staff=True)


@pytest.fixture
def victim(staff):
    person = person_save(person=None, name="Честный Игрок", federation_id="V-1", user=staff)
    person.declared_rating = None
    return person


def intruders_event(client: Client) -> Tournament:
    """A fresh account creates an event and imports a list naming the victim's public federation number."""
    response = client.post(reverse("director:create"), EVENT, headers=RU)
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name=EVENT["name"])
    upload = reverse("director:participants_import", kwargs={"slug": t.slug})
    rows = "".join(f"{n};Игрок {n};\n" for n in range(2, 7))
    content = f"№;ФИО;Номер ФСП\n1;Честный Игрок;V-1\n{rows}".encode()
    client.post(upload, {"file": SimpleUploadedFile("список.csv", content)}, headers=RU)
    assert client.post(upload, {"confirm": "1"}, headers=RU).status_code == 302
    return t


def test_a_strangers_event_is_not_in_the_victims_history_until_the_register_staff_confirm(victim, staff):
    mallory = get_user_model().objects.create_user("mallory", password="x")
    client = Client()
    client.force_login(mallory)
    t = intruders_event(client)
    # He runs it to the end and makes the results final.
    movement_choose(
        session=t.sessions.get(number=1), user=mallory, spec={"scheme": "basic", "tables": 2}, now=NOW
    )
    end_every_round(t, mallory, NOW - dt.timedelta(hours=3))
    publish_to(t, Publication.FINAL, mallory, NOW)
    t.refresh_from_db()
    assert t.publication == Publication.FINAL

    page = visible_text(Client().get(reverse("players:person", args=[victim.pk]), headers=RU).content)
    assert EVENT["name"] not in page  # not in his public history
    one = t.participants.get(number=1)
    assert one.person is None and one.proposed_person == victim
    assert not MasterPointAward.objects.filter(person=victim).exists()
    assert not victim.ratings.exists()
    # The intruder cannot confirm his own proposal.
    assert client.get(reverse("players:register_links")).status_code == 403
    client.post(reverse("players:register_links"), {"participant": one.pk, "confirm": "1"})
    one.refresh_from_db()
    assert one.person is None

    # The register's staff see it and confirm it: from then on the event counts.
    keeper = Client()
    keeper.force_login(staff)
    listing = keeper.get(reverse("players:register_links"), headers=RU)
    assert f'id="proposal-{one.pk}"' in listing.content.decode()
    assert (
        keeper.post(reverse("players:register_links"), {"participant": one.pk, "confirm": "1"}).status_code
        == 302
    )
    one.refresh_from_db()
    assert one.person == victim and one.proposed_person is None
    page = visible_text(Client().get(reverse("players:person", args=[victim.pk]), headers=RU).content)
    assert EVENT["name"] in page
    assert AuditEntry.objects.filter(tournament=t, action="person.confirm").exists()


def test_refused_proposals_are_not_made_again(victim, staff):
    mallory = get_user_model().objects.create_user("mallory", password="x")
    client = Client()
    client.force_login(mallory)
    t = intruders_event(client)
    one = t.participants.get(number=1)
    keeper = Client()
    keeper.force_login(staff)
    keeper.post(reverse("players:register_links"), {"participant": one.pk, "refuse": "1"})
    one.refresh_from_db()
    assert one.person is None and one.proposed_person is None and one.refused_person == victim
    client.post(reverse("players:event_links", args=[t.slug]), {"by_number": "1"})  # link by number again
    one.refresh_from_db()
    assert one.person is None and one.proposed_person is None
    assert AuditEntry.objects.filter(tournament=t, action="person.refuse").exists()


def test_a_strangers_list_does_not_write_the_victims_declared_rating(victim):
    mallory = get_user_model().objects.create_user("mallory", password="x")
    client = Client()
    client.force_login(mallory)
    response = client.post(reverse("director:create"), EVENT, headers=RU)
    t = Tournament.objects.get(name=EVENT["name"])
    upload = reverse("director:participants_import", kwargs={"slug": t.slug})
    content = "№;ФИО;Номер ФСП;Рейтинг\n1;Честный Игрок;V-1;100\n".encode()
    client.post(upload, {"file": SimpleUploadedFile("список.csv", content)}, headers=RU)
    assert client.post(upload, {"confirm": "1"}, headers=RU).status_code == 302, response
    victim.refresh_from_db()
    assert victim.declared_rating is None


# -- the federation file --------------------------------------------------------------------------------------
def federation_file(tmp_path, staff, **award) -> str:
    """The club cup's federation file, its first player a new person, with one master-point award."""
    t = import_bundle(now=NOW, data=golden.load("club_cup.json"), slug="cup", starts_on=dt.date(2026, 5, 1))
    link_new(participant=t.participants.get(number=1), user=staff, now=NOW)
    data = json.loads(export_text(t, to_bundle=tournament_to_bundle))
    data["persons"][0]["federation_id"] = "FED-77"  # a number the register does not hold
    data["master_points"] = [{"participant": 1, "place": "1", **award}]
    path = tmp_path / "fed.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "award",
    [
        {"points": "1000000", "scheme": "place(first=10, field=16, cut=1/4)"},  # not what the scheme gives
        {"points": "1000000", "scheme": "place(first=1000000, field=1, cut=1)"},  # a scheme beyond the bounds
        {"points": "1000000", "scheme": "mine"},  # no scheme at all
    ],
)
def test_a_million_master_points_file_is_refused(tmp_path, staff, award):
    path = federation_file(tmp_path, staff, **award)
    err = StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("import_federation", path, "--slug", "cup-2", stdout=StringIO(), stderr=err)
    assert caught.value.code == 2 and "master_points" in err.getvalue()
    assert not Tournament.objects.filter(slug="cup-2").exists()
    assert not MasterPointAward.objects.filter(points="1000000").exists()


def test_a_federation_file_links_a_person_the_register_holds_only_with_the_flag(tmp_path, staff, victim):
    t = import_bundle(now=NOW, data=golden.load("club_cup.json"), slug="cup", starts_on=dt.date(2026, 5, 1))
    link_new(participant=t.participants.get(number=1), user=staff, now=NOW)
    data = json.loads(export_text(t, to_bundle=tournament_to_bundle))
    data["persons"][0].update(federation_id="V-1", name="Самозванец")
    path = tmp_path / "fed.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    err = StringIO()
    with pytest.raises(SystemExit):
        call_command("import_federation", str(path), "--slug", "cup-2", stdout=StringIO(), stderr=err)
    assert "--link-existing" in err.getvalue() and not Tournament.objects.filter(slug="cup-2").exists()
    assert not Participant.objects.filter(person=victim).exists()
    call_command("import_federation", str(path), "--slug", "cup-3", "--link-existing", stdout=StringIO())
    assert Tournament.objects.get(slug="cup-3").participants.get(number=1).person == victim
    victim.refresh_from_db()
    assert victim.name == "Честный Игрок"  # linked, never rewritten
