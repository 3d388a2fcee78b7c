"""Backups: every tournament as a bundle in a folder, and back; all or nothing."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from scoring.models import Standing
from tests import golden
from tournaments.models import Tournament

FIXTURE = golden.path("small_bundle.json")
pytestmark = pytest.mark.django_db


def _standings() -> dict[str, list[tuple[int, str, str]]]:
    out: dict[str, list[tuple[int, str, str]]] = {}
    for s in Standing.objects.select_related("participant", "tournament").order_by(
        "tournament__slug", "position"
    ):
        out.setdefault(s.tournament.slug, []).append((s.participant.number, s.rank, s.percent))
    return out


def test_backup_and_restore_round_trip(tmp_path):
    call_command("seed_demo", stdout=StringIO())
    call_command("import_bundle", str(FIXTURE), stdout=StringIO())
    before = _standings()
    call_command("backup_tournaments", str(tmp_path), stdout=StringIO())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.json", "kubok-kluba.json"]
    Tournament.objects.all().delete()
    out = StringIO()
    call_command("restore_tournaments", str(tmp_path), stdout=out)
    assert "restored 2" in out.getvalue()
    assert _standings() == before
    # A second restore skips what exists; --replace replaces it.
    out = StringIO()
    call_command("restore_tournaments", str(tmp_path), stdout=out)
    assert "skipped 2" in out.getvalue()
    call_command("restore_tournaments", str(tmp_path), "--replace", stdout=StringIO())
    assert _standings() == before


def test_one_bad_file_restores_nothing(tmp_path, capsys):
    (tmp_path / "good.json").write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    bad = json.loads(FIXTURE.read_text(encoding="utf-8"))
    bad["tournament"]["variant"] = "moscow"
    (tmp_path / "bad.json").write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        call_command("restore_tournaments", str(tmp_path))
    assert info.value.code == 2
    assert "bad.json" in capsys.readouterr().err
    assert Tournament.objects.count() == 0


def test_a_final_is_restored_after_its_qualification_whatever_their_names(tmp_path):
    """A final names its qualification (docs/formats.md §2.2); restoring a folder where the final's file sorts
    first still restores both, the final linked to its qualification."""
    qualification = json.loads(FIXTURE.read_text(encoding="utf-8"))
    final = json.loads(FIXTURE.read_text(encoding="utf-8"))
    final["tournament"]["qualification"] = "z-qualification"
    final["tournament"]["carry_over"] = "1/2"
    (tmp_path / "a-final.json").write_text(json.dumps(final, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "z-qualification.json").write_text(
        json.dumps(qualification, ensure_ascii=False), encoding="utf-8"
    )
    out = StringIO()
    call_command("restore_tournaments", str(tmp_path), stdout=out)
    assert "restored 2" in out.getvalue()
    restored = Tournament.objects.get(slug="a-final")
    assert restored.qualification is not None and restored.qualification.slug == "z-qualification"
    assert restored.carry_over == "1/2"
