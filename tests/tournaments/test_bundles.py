"""Database round trip of bundles: import → export → import gives identical results and standings."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from events.bundles import BundleInvalid, import_bundle, tournament_to_bundle
from preferans.duplicate.session_scoring import score_document
from scoring.models import Result, Standing
from tests import golden
from tournaments.models import AuditEntry, Participant, Round, Seating, Table, Tournament

FIXTURE = golden.path("small_bundle.json")
pytestmark = pytest.mark.django_db


def _bundle() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _standings(t: Tournament) -> list[tuple[int, str, str, str, str]]:
    return [
        (s.participant.number, s.rank, s.matchpoints, s.max, s.percent)
        for s in Standing.objects.filter(tournament=t).select_related("participant")
    ]


def _assert_stored_as_scored(t: Tournament, data: dict) -> None:
    """The standings and every row's vists, matchpoints and top are what scoring the file gives."""
    expected = score_document(data)
    assert _standings(t) == [
        (s["participant"], s["rank"], s["matchpoints"], s["max"], s["percent"]) for s in expected["standings"]
    ]
    stored = [
        (r.board_number, r.table_number, r.round_number, r.vists, r.matchpoints, r.top)
        for r in Result.objects.filter(session__tournament=t).order_by("session__number", "position")
    ]
    scored = [
        (r["board"], r["table"], r["round"], r.get("vists"), r["matchpoints"], r["top"])
        for s in expected["sessions"]
        for r in s["results"]
    ]
    assert stored == scored


def test_import_stores_the_cores_numbers():
    data = _bundle()
    t = import_bundle(data=data, now=timezone.now())
    _assert_stored_as_scored(t, data)
    assert AuditEntry.objects.filter(tournament=t, action="tournament.import").count() == 1


def test_round_trip_import_export_import_gives_identical_standings():
    first = import_bundle(data=_bundle(), now=timezone.now())
    exported = tournament_to_bundle(first)
    second = import_bundle(data=json.loads(json.dumps(exported)), now=timezone.now())
    assert first.slug != second.slug
    assert _standings(first) == _standings(second)
    assert score_document(exported) == score_document(_bundle())


def test_a_bad_bundle_saves_nothing_and_names_every_problem():
    data = _bundle()
    row = data["sessions"][0]["results"][0]
    row["declarer"] = [row["declarer"][0], row["declarer"][1] + 1]
    data["participants"].append({"number": 1, "name": "twice"})
    with pytest.raises(BundleInvalid) as info:
        import_bundle(data=data, now=timezone.now())
    assert len(info.value.problems) >= 2
    assert Tournament.objects.count() == 0
    assert Participant.objects.count() == 0


def test_commands_round_trip(tmp_path):
    out = StringIO()
    call_command("import_bundle", str(FIXTURE), stdout=out)
    slug = out.getvalue().strip().splitlines()[-1]
    target = tmp_path / "export.json"
    call_command("export_bundle", slug, str(target))
    again = StringIO()
    call_command("import_bundle", str(target), stdout=again)
    assert _standings(Tournament.objects.get(slug=slug)) == _standings(
        Tournament.objects.get(slug=again.getvalue().strip())
    )


def test_import_command_exits_2_and_saves_nothing_for_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "duplicate-preferans-bundle", "version": 1}', encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        call_command("import_bundle", str(bad))
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "tournament" in captured.err
    assert Tournament.objects.count() == 0


def test_seed_demo_builds_a_runnable_event_and_is_repeatable():
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    session = t.sessions.get()
    assert t.participants.count() == 20
    assert session.boards.count() == 20
    assert all(b.hands for b in session.boards.all())
    assert Seating.objects.filter(session=session).count() == 25
    assert Table.objects.filter(session=session).count() == 5
    assert list(Round.objects.filter(session=session).values_list("status", flat=True)) == [
        "ended",
        "ended",
        "ended",
        "running",
        "pending",
    ]
    assert Result.objects.filter(session=session).count() == 60
    assert Result.objects.filter(session=session, adjusted__isnull=False).count() == 1
    assert Standing.objects.filter(tournament=t).count() == 20
    assert session.penalties.count() == 1
    assert t.is_published


def test_import_then_rescore_equals_scoring_the_file():
    """The rescore reads the database (scoring.selectors), not the bundle: after wiping every stored number,
    a rescore gives back exactly what scoring the file gives, row by row (matched by primary key)."""
    from scoring.rescore import rescore_tournament

    data = _bundle()
    t = import_bundle(data=data, now=timezone.now())
    Result.objects.filter(session__tournament=t).update(vists=None, matchpoints=None, top=None)
    t.standings.all().delete()
    rescore_tournament(tournament_id=t.pk, now=timezone.now())
    _assert_stored_as_scored(t, data)
