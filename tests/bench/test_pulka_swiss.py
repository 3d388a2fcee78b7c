"""bench/pulka_swiss.py in a tiny size (12 players, 2 rounds, 3 deals a pulka): the benchmark still runs through
the services and measures what it says it measures."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from preferans.pairing.enumerate import least_by_enumeration
from preferans.pairing.pair import build_problem
from preferans.pairing.sizes import split_tables
from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

PATH = Path(__file__).resolve().parents[2] / "bench" / "pulka_swiss.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_pulka_swiss", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def least_after(pulka_round: PulkaRound) -> tuple[int, int]:
    """The least (R, D) by plain enumeration for the round's field in its ranking, after the earlier rounds."""
    entry = AuditEntry.objects.get(action="pulka_round_drawn", data__round=pulka_round.number)
    ranked = entry.data["ranking"]  # the order the round was seated in
    earlier = [
        [list(t.seat_ids().values()) for t in r.tables.all()]
        for r in PulkaRound.objects.filter(number__lt=pulka_round.number)
    ]
    sizes, _byes = split_tables(len(ranked), 4)
    seat = {p: t.number - 1 for t in pulka_round.tables.all() for p in t.seat_ids().values()}
    problem = build_problem(ranked, sizes, earlier)
    assert problem.cost([seat[p] for p in ranked]) == (pulka_round.repeats, pulka_round.displacement)
    return least_by_enumeration(problem)


def test_tiny_swiss_event(director) -> None:
    bench = load_bench()
    lines: list[str] = []
    stats, meter = bench.run(
        players=12, rounds=2, deals=3, pool=50, user=director, profile=True, progress=lines.append
    )
    assert [s.number for s in stats] == [1, 2] and len(lines) == 2
    # round 2 is seated by the Swiss (pairing-spec §4), not strictly by rating: its (R, D) is the least
    assert [s.drawn_by for s in stats] == ["lot", "swiss"]
    second = PulkaRound.objects.get(number=2)
    assert second.pairing_optimal is True and (second.repeats, second.displacement) == least_after(second)
    assert [s.tables for s in stats] == [3, 3] and [s.byes for s in stats] == [0, 0]
    # every deal went through the write path and was timed once
    assert [s.deals for s in stats] == [9, 9]
    assert PulkaDeal.objects.filter(status=PulkaDeal.Status.CONFIRMED).count() == 18
    assert all(len(s.latencies) == s.deals and sorted(s.by_number) == [1, 2, 3] for s in stats)
    assert set(PulkaRound.objects.values_list("status", flat=True)) == {PulkaRound.Status.ENDED}
    assert all(t.deals_count == 3 and t.reason == "deal_limit" for t in PulkaTable.objects.all())
    for s in stats:
        assert all(s.phases[p].seconds > 0 and s.phases[p].queries > 0 for p in bench.PHASES)
        mean, p95, top = s.per_deal()
        assert 0 < mean <= top and p95 <= top
    text = bench.report(stats, meter, vendor="test", players=12, deals=3, pool=50)
    assert "total: 18 deals" in text and "re-seating by the Swiss" in text
    assert all(f"=== profile: {p} (all rounds) ===" in text for p in bench.PHASES)


def test_statement_kinds() -> None:
    kind = load_bench().statement_kind
    assert kind('INSERT INTO "pulkas_pulkatableresult" ("seat") SELECT * FROM UNNEST((%s)::text[])') == (
        "INSERT pulkas_pulkatableresult"
    )
    assert kind('UPDATE "pulkas_pulkatable" SET "version" = 2') == "UPDATE pulkas_pulkatable"
    assert kind('SELECT "id" FROM "pulkas_pulkadeal" WHERE "table_id" = 9') == "SELECT pulkas_pulkadeal"
    assert kind('DELETE FROM "pulkas_pulkatableresult" WHERE 1') == "DELETE pulkas_pulkatableresult"
    assert kind('SAVEPOINT "s1"') == "SAVEPOINT"
