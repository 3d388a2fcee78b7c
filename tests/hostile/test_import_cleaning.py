"""Issue 29, N13 and the BOM: ``import_bundle`` and ``import_federation`` clean names as the web forms do
(``tournaments.participant_fields.clean_text``: bidi overrides, zero-width and other format characters out), a
bundle's result for a board outside its table's set is refused with nothing saved, and both commands read a file
the same way (one reader: a UTF-8 byte-order mark is accepted by both)."""

from __future__ import annotations

import copy
import datetime as dt
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from events.bundles import import_bundle, tournament_to_bundle
from players.models import Person
from players.services.interchange import export_text
from players.services.register import link_new
from tests import golden
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 4, 12, tzinfo=dt.UTC)
SMALL = Path(__file__).resolve().parents[1] / "data" / "small_bundle.json"
HIDDEN = "\u202e\u200b\u2066\ufeff\u00ad"  # RLO, ZWSP, LRI, BOM as a character, soft hyphen: all Cf


def small() -> dict:
    return json.loads(SMALL.read_text(encoding="utf-8"))


def run(command: str, path: Path, slug: str) -> tuple[int, str]:
    err = StringIO()
    try:
        call_command(command, str(path), "--slug", slug, stdout=StringIO(), stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), err.getvalue()
    return 0, err.getvalue()


def test_import_bundle_cleans_names_as_the_web_forms_do(tmp_path):
    data = small()
    data["tournament"]["name"] = f"Кубок{HIDDEN} клуба"
    data["participants"][0].update(
        name="Ива\u202eнов\u200b Иван", club="\u200bПуля", federation_id="F\u200b-1"
    )
    path = tmp_path / "b.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert run("import_bundle", path, "clean") == (0, "")
    t = Tournament.objects.get(slug="clean")
    one = t.participants.get(number=1)
    assert (t.name, one.name, one.club, one.federation_id) == ("Кубок клуба", "Иванов Иван", "Пуля", "F-1")


def test_import_federation_cleans_names_as_the_web_forms_do(tmp_path):
    t = import_bundle(now=NOW, data=golden.load("club_cup.json"), slug="cup", starts_on=dt.date(2026, 5, 1))
    link_new(participant=t.participants.get(number=1), user=None, now=NOW)
    data = json.loads(export_text(t, to_bundle=tournament_to_bundle))
    data["persons"][0].update(name=f"Сидоров\u202e Сидор{HIDDEN}", club="\u200bТуз", federation_id="BY-9")
    data["participants"][0]["name"] = f"Сидоров\u202e Сидор{HIDDEN}"
    path = tmp_path / "f.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert run("import_federation", path, "cup-2")[0] == 0
    person = Person.objects.get(federation_id="BY-9")
    assert (person.name, person.club) == ("Сидоров Сидор", "Туз")
    assert Tournament.objects.get(slug="cup-2").participants.get(number=1).name == "Сидоров Сидор"


def test_a_result_for_a_board_outside_the_tables_set_is_refused_and_nothing_saved(tmp_path):
    data = small()
    row = copy.deepcopy(data["sessions"][0]["results"][0])  # round 1, table 1: set 1 (boards 1-2)
    row.update(board=999, dealer="N")
    data["sessions"][0]["results"].append(row)
    path = tmp_path / "b.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, err = run("import_bundle", path, "b999")
    assert code == 2 and "999" in err and "set" in err
    assert not Tournament.objects.filter(slug="b999").exists() and not Participant.objects.exists()


@pytest.mark.parametrize("command", ["import_bundle", "import_federation"])
def test_both_commands_accept_a_utf8_byte_order_mark(tmp_path, command):
    if command == "import_bundle":
        text = json.dumps(small(), ensure_ascii=False)
    else:
        t = import_bundle(
            now=NOW, data=golden.load("club_cup.json"), slug="cup", starts_on=dt.date(2026, 5, 1)
        )
        text = export_text(t, to_bundle=tournament_to_bundle)
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert run(command, path, "with-bom") == (0, "")
    assert Tournament.objects.filter(slug="with-bom").exists()


def test_the_operators_commands_link_the_register_at_once_a_plain_import_only_proposes(tmp_path):
    """restore_tournaments and import_bundle --link-existing are the site's operator's: links to persons the register
    holds are made at once; a plain import_bundle only proposes them (issue 29)."""
    data = small()
    data["participants"][0]["federation_id"] = "F-1"
    path = tmp_path / "b.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert run("import_bundle", path, "first")[0] == 0  # a new number: a new person, linked
    person = Tournament.objects.get(slug="first").participants.get(number=1).person
    assert person is not None
    assert run("import_bundle", path, "second")[0] == 0
    second = Tournament.objects.get(slug="second").participants.get(number=1)
    assert second.person is None and second.proposed_person == person
    err = StringIO()
    call_command(
        "import_bundle", str(path), "--slug", "third", "--link-existing", stdout=StringIO(), stderr=err
    )
    assert Tournament.objects.get(slug="third").participants.get(number=1).person == person
