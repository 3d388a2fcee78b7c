"""The pulka part of the tournament bundle: export → import gives the same event (standings, sheets, caches);
a deal the core refuses, or a malformed part, refuses the whole bundle and saves nothing; a duplicate event's
bundle is exactly what it was; backup and restore carry pulka events."""

from __future__ import annotations

import copy
import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from events.bundles import export_bundle, import_bundle, tournament_to_bundle
from preferans.bundle.document import BundleInvalid
from preferans.pulka.document import PulkaDocument, result_document
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaEvent, PulkaRound, PulkaTable
from pulkas.services import olympic, rounds, sheet
from pulkas.services.bundle import PART
from pulkas.services.standings import event_table
from pulkas.simulate import play_table
from tests import golden
from tests.pulkas.factory import pulka_event
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _six(setup, number: int, tricks: int) -> dict:
    """6♠ by the first seat that plays deal ``number`` (the 4-player dealer sits out), both defenders whisting."""
    dealer = setup.dealer(number)
    declarer, d1, d2 = [s for s in setup.seats if s != dealer or setup.players == 3][:3]
    return {
        "contract": "6S",
        "declarer": [declarer, tricks],
        "w1": [d1, 10 - tricks - 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "whist"},
        "play": "closed",
    }


def compensation_event(director) -> Tournament:
    """Two rounds: a table of 4 and a bye; deals confirmed, corrected (a warning, then a penalty), one awaiting
    confirmation, the table stopped by the time limit; round 2 by rating, still running."""
    t = pulka_event(director, "compensation", 5, 4, pool=30, rounds=3, tiebreaks=["remizes"])
    now = timezone.now()
    r1 = rounds.draw_round(tournament=t, user=director, now=now, seed=11)
    rounds.start_round(pulka_round=r1, user=director, now=now)
    table = r1.tables.get()
    seats = table.seats()
    writer, others = seats["N"], [seats["E"], seats["S"], seats["W"]]
    setup = sheet.load_sheet(table).setup
    for number in (1, 2):
        sheet.enter_deal(
            table=table, row=_six(setup, number, 6), participant=writer, confirmations=others, now=now
        )
        sheet.correct_deal(
            table=table,
            number=number,
            row=_six(setup, number, 5),
            participant=others[0],
            now=now,
            version=PulkaTable.objects.get(pk=table.pk).version,
        )
        for p in (writer, others[1], others[2]):
            sheet.confirm_deal(table=table, number=number, participant=p, now=now)
    for number, tricks in ((3, 7), (4, 6), (5, 5)):
        sheet.enter_deal(
            table=table, row=_six(setup, number, tricks), participant=writer, confirmations=others, now=now
        )
    sheet.enter_deal(table=table, row=_six(setup, 6, 6), participant=writer, now=now)
    rounds.stop_round(pulka_round=r1, user=director, now=now, reason="время вышло")
    rounds.end_round(pulka_round=r1, user=director, now=now)
    r2 = rounds.draw_round(tournament=t, user=director, now=now, seed=12)
    rounds.start_round(pulka_round=r2, user=director, now=now)
    play_table(r2.tables.get(), random.Random(5), now=now, deals=4)
    return t


def olympic_event(director) -> Tournament:
    """Two tables (one played to the pool, one stopped without a deal: all three tied at the cut); the
    director's decision that table 2's second-placed go on too (two winners cannot make a final), the tie
    decisions, a final of three drawn."""
    t = pulka_event(director, "olympic", 6, 3, pool=6)
    now = timezone.now()
    olympic.record_decision(
        event=t.pulka_event,
        round_number=1,
        tables=[2],
        reason="регламент: финал втроём",
        expected=None,
        user=director,
        now=now,
    )
    r1 = rounds.draw_round(tournament=t, user=director, now=now, seed=3)
    rounds.start_round(pulka_round=r1, user=director, now=now)
    play_table(r1.tables.get(number=1), random.Random(2), now=now)  # to the pool
    rounds.stop_round(pulka_round=r1, user=director, now=now, reason="время вышло")
    for table in r1.tables.order_by("number"):
        if table.advance["tied"]:
            rounds.decide_tie(
                table=table,
                seats=table.advance["tied"][: 2 - len(table.advance["seats"]) if table.number == 2 else 1],
                user=director,
                now=now,
                reason="lot",
            )
    rounds.end_round(pulka_round=r1, user=director, now=now)
    final = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    assert final.tables.get().players == 3
    return t


def standings(t: Tournament) -> list[tuple]:
    return [
        (
            line.participant.number,
            line.place,
            line.ratings,
            line.total,
            line.vists,
            line.byes,
            line.cut,
            line.out_in_round,
            line.tables,
        )
        for line in event_table(t).lines
    ]


def sheets(t: Tournament) -> dict[tuple[int, int], dict]:
    out = {}
    for table in PulkaTable.objects.filter(round__tournament=t).select_related("round__tournament"):
        loaded = sheet.load_sheet(table)
        names = {s: p.name for s, p in table.seats().items()}
        document = PulkaDocument(
            loaded.setup, names, tuple(d.row for d in loaded.deals), table.stopped_at is not None
        )
        out[(table.round.number, table.number)] = {
            "seats": {s: p.number for s, p in table.seats().items()},
            "cache": (table.deals_count, table.ended, table.reason, table.advance, table.tie_decision),
            "results": [
                (r.seat, r.participant.number, r.vists, r.integer_vists, r.rating, r.rank)
                for r in table.results.select_related("participant")
            ],
            "deals": [
                (d.number, d.row, d.status, d.entered_by.number if d.entered_by else None, d.confirmed_by)
                for d in loaded.deals
            ],
            "score": result_document(document, loaded.score()),
        }
    return out


def without_codes(bundle: dict) -> dict:
    bundle = copy.deepcopy(bundle)
    for r in bundle[PART]["rounds"]:
        for table in r["tables"]:
            table.pop("code")
    return bundle


@pytest.mark.parametrize("build", [compensation_event, olympic_event])
def test_export_then_import_gives_the_same_event(director, build):
    t = build(director)
    exported = json.loads(json.dumps(export_bundle(t), ensure_ascii=False))  # through JSON, as on disk
    part = exported[PART]
    assert part["form"] == t.form and len(part["rounds"]) == 2
    again = import_bundle(data=exported, slug="copy", now=timezone.now())
    assert again.form == t.form and again.pulka_event.pool == t.pulka_event.pool
    assert standings(again) == standings(t)
    assert sheets(again) == sheets(t)
    assert without_codes(export_bundle(again)) == without_codes(exported)
    # the codes were taken by the original event: the copy's tables got codes of their own
    codes = {tb.code for tb in PulkaTable.objects.filter(round__tournament=again)}
    assert not codes & {tb.code for tb in PulkaTable.objects.filter(round__tournament=t)}


def test_the_compensation_event_carries_what_it_should(director):
    part = export_bundle(compensation_event(director))[PART]
    first, second = part["rounds"]
    assert first["status"] == "ended" and first["byes"] and first["tables"][0]["stopped_at"]
    assert second["status"] == "running" and second["drawn_by"] == "rating" and second["ended_at"] is None
    deals = first["tables"][0]["deals"]
    assert deals[-1]["status"] == "entered" and deals[0]["status"] == "confirmed"
    assert [c["warning"] for c in part["corrections"]] == [True, False] and part["corrections"][1]["penalty"]
    declarer = part["corrections"][0]["old_row"]["declarer"][0]  # wrote a six made that went down: he gained
    assert [c["warned"] for c in part["corrections"]] == [[declarer], []]
    assert part["settings"]["tiebreaks"] == ["remizes"]


def test_a_tampered_deal_refuses_the_whole_bundle(director):
    t = compensation_event(director)
    bundle = export_bundle(t)
    bundle[PART]["rounds"][0]["tables"][0]["deals"][3]["row"]["declarer"][1] = 9  # 13 tricks
    before = (Tournament.objects.count(), PulkaEvent.objects.count(), PulkaDeal.objects.count())
    with pytest.raises(BundleInvalid) as caught:
        import_bundle(data=bundle, slug="tampered", now=timezone.now())
    lines = [str(p) for p in caught.value.problems]
    assert lines and all(line.startswith("table 1, round 1, pulka deal 4") for line in lines), lines
    assert (Tournament.objects.count(), PulkaEvent.objects.count(), PulkaDeal.objects.count()) == before
    assert not Tournament.objects.filter(slug="tampered").exists()


def test_the_import_command_refuses_a_tampered_deal(director, tmp_path, capsys):
    t = compensation_event(director)
    path = tmp_path / "event.json"
    call_command("export_bundle", t.slug, str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    data[PART]["rounds"][1]["tables"][0]["deals"][0]["row"]["contract"] = "11S"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_bundle", str(path), "--slug", "bad-copy")
    assert exit_info.value.code == 2
    assert "table 1, round 2, pulka deal 1" in capsys.readouterr().err
    assert not Tournament.objects.filter(slug="bad-copy").exists()


def test_a_malformed_part_names_every_problem_and_saves_nothing(director):
    bundle = export_bundle(olympic_event(director))
    part = bundle[PART]
    part["colour"] = "red"
    part["settings"]["pool"] = 0
    first = part["rounds"][0]
    first["tables"][0]["seats"]["N"] = 99
    first["tables"][1]["seats"]["E"] = first["tables"][0]["seats"]["E"]
    first["tables"][1]["code"] = first["tables"][0]["code"]
    part["rounds"][1]["status"] = "finished"
    part["corrections"] = [
        {"round": 7, "table": 1, "deal": 1, "old_row": {}, "new_row": [], "at": None, "warned": ["X"]}
    ]
    part["olympic_decisions"][0]["tables"] = [2, 2]
    bundle["sessions"] = [{"number": 1}]
    count = Tournament.objects.count()
    with pytest.raises(BundleInvalid) as caught:
        import_bundle(data=bundle, now=timezone.now())
    text = "\n".join(str(p) for p in caught.value.problems)
    for expected in (
        "unknown field 'colour'",
        "settings.pool: must be a whole number from 1 to 1000",
        "participant 99 is not registered",
        "is twice in this round",
        "two tables have this code",
        "round 2, pulka_event.status",
        "corrections.0: names a round and table",
        "corrections.0.new_row",
        "corrections.0.at",
        "warned lists the seats warned",
        "olympic_decisions.0.tables: must be a list of distinct table numbers",
        "sessions: an event played in pulkas",
    ):
        assert expected in text, (expected, text)
    assert Tournament.objects.count() == count


def test_a_duplicate_events_bundle_is_unchanged(tmp_path):
    out = StringIO()
    call_command("import_bundle", str(golden.path("small_bundle.json")), "--slug", "dup", stdout=out)
    t = Tournament.objects.get(slug="dup")
    exported = StringIO()
    call_command("export_bundle", "dup", stdout=exported)
    before = json.dumps(tournament_to_bundle(t), ensure_ascii=False, indent=1)
    assert exported.getvalue().rstrip("\n") == before and PART not in json.loads(before)


def test_backup_and_restore_carry_pulka_events(director, tmp_path):
    call_command("import_bundle", str(golden.path("small_bundle.json")), "--slug", "dup", stdout=StringIO())
    events = [compensation_event(director), olympic_event(director)]
    before = {t.slug: (standings(t), sheets(t), export_bundle(t)) for t in events}
    call_command("backup_tournaments", str(tmp_path), stdout=StringIO())
    Tournament.objects.all().delete()
    assert not PulkaRound.objects.exists() and not PulkaCorrection.objects.exists()
    out = StringIO()
    call_command("restore_tournaments", str(tmp_path), stdout=out)
    assert "restored 3" in out.getvalue()
    for slug, (table, sheet_data, bundle) in before.items():
        t = Tournament.objects.get(slug=slug)
        assert standings(t) == table and sheets(t) == sheet_data
        assert export_bundle(t) == bundle  # into an empty database the table codes are kept
    call_command("restore_tournaments", str(tmp_path), "--replace", stdout=StringIO())
    assert {t.slug: export_bundle(t) for t in Tournament.objects.filter(slug__in=before)} == {
        slug: b for slug, (_s, _d, b) in before.items()
    }
