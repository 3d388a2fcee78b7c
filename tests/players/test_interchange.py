"""The federation file in and out of the database (issue 20: «exported and imported back losslessly»;
docs/federation-file.md): export → import under a fresh short name → export gives the same bytes but the short
name, persons are linked by federation number, and a bad file saves nothing."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO
from pathlib import Path

import jsonschema
import pytest
from django.core.management import call_command

from events.bundles import import_bundle, tournament_to_bundle
from players.models import MasterPointAward, Person
from players.services.interchange import export_event, export_text, import_event
from players.services.points import scheme_gives
from preferans.interchange.document import read_document
from preferans.interchange.fields import DocumentInvalid
from preferans.numbers import format_fraction
from preferans.ratings.master_points import parse_scheme
from scoring.models import Standing
from tests import golden
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 4, 12, tzinfo=dt.UTC)


def club_cup(slug: str = "cup") -> Tournament:
    """The club cup of tests/data with two players linked to the register and master points awarded."""
    t = import_bundle(now=NOW, data=golden.load("club_cup.json"), slug=slug, starts_on=dt.date(2026, 5, 1))
    ivanov = Person.objects.create(name="Иванов Иван", club="Пуля", city="Сочи", federation_id="RU-0001")
    petrov = Person.objects.create(name="Петров Пётр", city="Адлер")  # no federation number
    Participant.objects.filter(tournament=t, number=1).update(person=ivanov)
    Participant.objects.filter(tournament=t, number=2).update(person=petrov)
    # The awards a percentage scheme gives them (a federation file's master points must be its scheme's).
    gives = scheme_gives(t, SCHEME)
    places = dict(Standing.objects.filter(tournament=t).values_list("participant__number", "rank"))
    for number, person in ((1, ivanov), (2, petrov)):
        MasterPointAward.objects.create(
            person=person,
            tournament=t,
            participant=t.participants.get(number=number),
            points=format_fraction(gives[number]),
            place=places[number],
            scheme=SCHEME.name(),
            computed_at=NOW,
        )
    return t


SCHEME = parse_scheme({"scheme": "percent", "per_percent": "1", "above": "0"})


def export(t: Tournament) -> str:
    return export_text(t, to_bundle=tournament_to_bundle)


def test_export_import_export_is_identical_but_for_the_short_name() -> None:
    first = export(club_cup())
    copy = import_event(first, import_bundle=import_bundle, link_existing=True, now=NOW, slug="cup-copy")
    second = export(copy)
    assert second != first
    assert second.replace('"slug": "cup-copy"', '"slug": "cup"') == first
    assert json.loads(second)["standings"] == json.loads(first)["standings"] != []
    schema = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "federation-file.schema.json").read_text()
    )
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(first))) == []


def test_persons_are_linked_by_federation_number_and_the_others_created() -> None:
    t = club_cup()
    ivanov = Person.objects.get(federation_id="RU-0001")
    copy = import_event(export(t), import_bundle=import_bundle, link_existing=True, now=NOW, slug="cup-copy")
    assert copy.participants.get(number=1).person == ivanov  # the same person of the register, not a new one
    assert Person.objects.filter(federation_id="RU-0001").count() == 1
    petrovs = Person.objects.filter(name="Петров Пётр").order_by("pk")
    assert petrovs.count() == 2  # no number to match him by: a new person, as the file writes him
    assert copy.participants.get(number=2).person == petrovs[1] and petrovs[1].city == "Адлер"
    awards = MasterPointAward.objects.filter(tournament=copy).order_by("participant__number")
    first = MasterPointAward.objects.filter(tournament=t).order_by("participant__number")
    assert [(a.person, a.points, a.place, a.scheme) for a in awards] == [
        (ivanov, first[0].points, first[0].place, SCHEME.name()),
        (petrovs[1], first[1].points, first[1].place, SCHEME.name()),
    ]


def test_an_existing_persons_register_entry_is_linked_not_rewritten() -> None:
    data = read_document(export(club_cup()))
    data["persons"][0]["name"] = "Иванов И. И."
    data["persons"][0]["city"] = "Москва"
    copy = import_event(data, import_bundle=import_bundle, link_existing=True, now=NOW, slug="cup-copy")
    person = copy.participants.get(number=1).person
    assert (person.name, person.city) == ("Иванов Иван", "Сочи")


def test_a_person_new_to_the_register_is_created_as_the_file_writes_him() -> None:
    """The bundle import's register hook makes a person from the participant's name; the file's person wins."""
    data = read_document(export(club_cup()))
    data["persons"][0].update(federation_id="BY-77", name="Сидоров Сидор", club="Туз", city="Минск")
    data["participants"][0]["federation_id"] = "BY-77"
    copy = import_event(data, import_bundle=import_bundle, link_existing=True, now=NOW, slug="cup-copy")
    person = copy.participants.get(number=1).person
    assert (person.name, person.club, person.city, person.federation_id) == (
        "Сидоров Сидор",
        "Туз",
        "Минск",
        "BY-77",
    )
    assert Person.objects.filter(federation_id="BY-77").count() == 1


def test_standings_that_do_not_follow_from_the_results_refuse_the_file_and_save_nothing() -> None:
    data = read_document(export(club_cup()))
    data["standings"][0]["matchpoints"] = "14"
    persons, events = Person.objects.count(), Tournament.objects.count()
    with pytest.raises(DocumentInvalid) as caught:
        import_event(data, import_bundle=import_bundle, link_existing=True, now=NOW, slug="cup-copy")
    assert str(caught.value.problems[0]).startswith(
        f"$.standings[0]: participant {data['standings'][0]['participant']}: the results give place 1, 13 of 16"
    )
    assert (Person.objects.count(), Tournament.objects.count()) == (persons, events)
    assert not Tournament.objects.filter(slug="cup-copy").exists()


def test_an_existing_short_name_is_refused() -> None:
    text = export(club_cup())
    with pytest.raises(DocumentInvalid, match=r"\$.event.slug: an event named 'cup' exists"):
        import_event(text, import_bundle=import_bundle, link_existing=True, now=NOW)


def test_a_missing_qualification_is_refused() -> None:
    data = read_document(export(club_cup()))
    data["event"]["qualification"] = "nowhere"
    with pytest.raises(DocumentInvalid, match=r"\$.event.qualification: no event named 'nowhere' here"):
        import_event(data, import_bundle=import_bundle, link_existing=True, now=NOW, slug="cup-copy")


def test_a_final_with_its_qualification_and_averaged_sessions_round_trips() -> None:
    qualification = club_cup("qual")
    final = import_bundle(now=NOW, data=golden.load("club_cup.json"), slug="final")
    Tournament.objects.filter(pk=final.pk).update(
        qualification=qualification, carry_over="0.5", session_totals="percent"
    )
    final.refresh_from_db()
    first = export(final)
    event = json.loads(first)["event"]
    assert (event["qualification"], event["carry_over"], event["session_totals"]) == (
        "qual",
        "1/2",
        "percent",
    )
    # the final's standings carry half of each finalist's qualification percentage: not the plain ones
    assert json.loads(first)["standings"] != json.loads(export(qualification))["standings"]
    copy = import_event(first, import_bundle=import_bundle, link_existing=True, now=NOW, slug="final-2")
    assert copy.qualification == qualification and copy.session_totals == "percent"
    assert export(copy).replace('"final-2"', '"final"') == first


def test_an_event_played_in_pulkas_is_not_exported() -> None:
    t = Tournament.objects.create(name="Пулька", slug="p", variant="sochi", players_per_table=4, form="swiss")
    with pytest.raises(DocumentInvalid, match=r"\$.event.form: 'swiss'"):
        export_event(t, to_bundle=tournament_to_bundle)


def test_the_commands_write_and_read_the_file(tmp_path: Path) -> None:
    club_cup()
    path = tmp_path / "cup.json"
    call_command("export_federation", "cup", str(path))
    out = StringIO()
    call_command("export_federation", "cup", "-", stdout=out)
    assert out.getvalue() == path.read_text(encoding="utf-8")
    out = StringIO()
    call_command("import_federation", str(path), "--slug", "cup-2", "--link-existing", stdout=out)
    assert out.getvalue().strip() == "cup-2"
    assert Tournament.objects.get(slug="cup-2").participants.get(number=1).person.federation_id == "RU-0001"


def test_the_import_command_exits_2_with_one_problem_a_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    data = read_document(export(club_cup()))
    data["persons"][0]["ref"] = 0
    data["event"]["form"] = "olympic"
    path.write_text(json.dumps(data), encoding="utf-8")
    err = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("import_federation", str(path), "--slug", "x", stderr=err)
    assert exited.value.code == 2
    lines = err.getvalue().splitlines()
    assert lines[0].startswith("$.event.form: 'olympic'") and lines[1].startswith("$.persons[0].ref:")
    assert not Tournament.objects.filter(slug="x").exists()


def test_export_deals_writes_every_board_of_the_event(tmp_path: Path) -> None:
    club_cup()
    out = StringIO()
    call_command("export_deals", "cup", stdout=out, stderr=StringIO())
    lines = out.getvalue().splitlines()
    assert lines[:3] == [
        "% duplicate-preferans-deals 1",
        "% Кубок клуба",
        "1.1 N 4 E:AKQJ.7.J98.A10 S:1098.AKQ.AK.K9 W:7.J1098.Q10.QJ8 H7,D7",
    ]
    boards = golden.load("club_cup.json")["sessions"][0]
    assert len(lines) == 2 + len(
        {b["number"] for b in boards["boards"]} | {r["board"] for r in boards["results"]}
    )
    path = tmp_path / "deals.txt"
    call_command("export_deals", "cup", str(path), stderr=StringIO())
    assert path.read_text(encoding="utf-8") == out.getvalue()
