"""Benchmark: the whole PDF pack and the Excel workbook of a 200-participant event (about 9,000 rows).

Run from the project root:  ``.venv/bin/python bench/bench_reports.py [--tables 47] [--repeat 1] [--keep DIR]``

Builds the event as a bundle — basic movement, T tables × T rounds × 4 boards a set at 4-player Sochi tables
(T = 47: 188 participants, 188 boards, 8,836 rows), boards dealt (so every protocol page prints its layout),
plausible random legal rows from ``preferans.game.simulate.random_row`` — imports it with
``events.bundles.import_bundle`` into a temporary SQLite database, marks the session finished and
the results official, then times what the exports page runs (``results.services.build_file``):

* ``load``      — reading the event into the report data (one pass of queries);
* ``pack``      — every PDF: standings, protocols (one page per board, with layout), personal score cards,
  table cards, the director's row of sets, cost tables, the blank appeal form — zipped;
* ``workbook``  — the Excel workbook: standings, session totals, protocols, score cards, frequencies.

Target (bench/README.md): pack + workbook under 30 s together.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

from django.utils import timezone

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make_event(tables: int, seed: int = 1) -> dict[str, Any]:
    from preferans.cards.board_form import board_to_dict
    from preferans.cards.deal import deal_boards
    from preferans.game import make_rules
    from preferans.game.simulate import random_row
    from preferans.movements import build_movement

    rng = random.Random(seed)
    players, per_set = 4, 4
    spec = {"scheme": "basic", "tables": tables}
    movement = build_movement(spec, per_table=players, deals_per_set=per_set)
    boards = deal_boards(rng, sets=movement.sets, per_set=per_set, players=players)
    dealer_of = {b.number: b.dealer.value for b in boards}
    rules = make_rules("sochi")
    # A handful of outcomes per board, as in a real event (identical deals repeat).
    outcomes = {
        b: [
            random_row(rng, rules=rules, players=players, dealer=dealer_of[b])
            for _ in range(rng.randint(3, 8))
        ]
        for b in dealer_of
    }
    results = []
    for rnd, ta in movement.seatings():
        seats = {line.value: p for line, p in ta.seats}
        for board in movement.boards_of_set(ta.set):
            row = rng.choice(outcomes[board])
            results.append({"board": board, "round": rnd.number, "table": ta.table, "seats": seats, **row})
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {
            "name": f"Бенчмарк: {movement.participants} участников",
            "variant": "sochi",
            "players_per_table": players,
            "deals_per_set": per_set,
        },
        "participants": [
            {"number": n, "name": f"Участник {n}", "club": f"Клуб {n % 17}"}
            for n in range(1, movement.participants + 1)
        ],
        "sessions": [
            {
                "number": 1,
                "movement": spec,
                "boards": [board_to_dict(b) for b in boards],
                "results": results,
                "penalties": [{"participant": 1, "matchpoints": "-2", "reason": "12.2.1 lateness"}],
            }
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=47, help="tables (a prime ≥ 5); 47 → 8,836 rows")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each stage; the best time is shown")
    parser.add_argument("--keep", help="write the generated files into this folder")
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="bench-reports-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ["MEDIA_ROOT"] = f"{tmp}/media"
    os.environ.setdefault("PREFERANS_DEV", "1")  # a throw-away database on this machine: development settings
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    from events.bundles import import_bundle
    from results.data import load_report
    from results.services import build_file
    from tournaments.models import Publication, Session, Tournament

    call_command("migrate", verbosity=0)
    t0 = time.perf_counter()
    event = make_event(args.tables)
    t_make = time.perf_counter() - t0
    t0 = time.perf_counter()
    tournament = import_bundle(data=event, slug="bench", now=timezone.now())
    t_import = time.perf_counter() - t0
    Session.objects.filter(tournament=tournament).update(status=Session.Status.FINISHED)
    Tournament.objects.filter(pk=tournament.pk).update(publication=Publication.OFFICIAL)
    rows = len(event["sessions"][0]["results"])
    print(
        f"event: {len(event['participants'])} participants, {rows} rows "
        f"(generated in {t_make:.1f} s, imported and scored in {t_import:.1f} s)"
    )

    def best(fn: Any) -> tuple[float, Any]:
        times, value = [], None
        for _ in range(args.repeat):
            start = time.perf_counter()
            value = fn()
            times.append(time.perf_counter() - start)
        return min(times), value

    t_load, _report = best(lambda: load_report(tournament.pk))
    t_pack, (pack_name, pack) = best(lambda: build_file(tournament.pk, "pack", "zip"))
    t_book, (book_name, book) = best(lambda: build_file(tournament.pk, "workbook", "xlsx"))
    from pypdf import PdfReader

    with zipfile.ZipFile(io.BytesIO(pack)) as zf:
        pages = {n: len(PdfReader(io.BytesIO(zf.read(n))).pages) for n in zf.namelist()}
    print(f"{'stage':<10} {'seconds':>8}")
    print(f"{'load':<10} {t_load:8.2f}")
    print(
        f"{'pack':<10} {t_pack:8.2f}   {len(pack) / 1e6:.1f} MB, "
        + ", ".join(f"{n.removeprefix('bench-')}: {p} p." for n, p in pages.items())
    )
    print(f"{'workbook':<10} {t_book:8.2f}   {len(book) / 1e6:.1f} MB")
    total = t_pack + t_book
    print(f"{'together':<10} {total:8.2f}   target < 30 s: {'met' if total < 30 else 'NOT met'}")
    if args.keep:
        keep = Path(args.keep)
        keep.mkdir(parents=True, exist_ok=True)
        (keep / pack_name).write_bytes(pack)
        (keep / book_name).write_bytes(book)


if __name__ == "__main__":
    main()
