"""``python manage.py export_results SLUG --format xlsx|csv|pdf --output PATH`` (formats.md §6).

Writes the standings and the board-by-board protocols (vists and matchpoints) in the chosen format. With
``--kind`` any other generated file (``results.exporters.EXPORTERS``): ``workbook`` (standings, session totals,
protocols, score cards, frequencies), ``standings``, ``protocols``, ``cards``, ``pack`` (zip of every PDF),
``table_cards``, ``row_of_sets``, ``seating``, ``pin_slips`` (``--session N``), a pulka event's ``pulka_*`` kinds
(the per-round ones take the round as ``--session N``), ``cost_table``, ``appeal_form``. ``--lang ru|en``
overrides the tournament's language; ``--base-url`` is the site's address the printed links (table cards, PIN
slips) start with. An unknown tournament, kind or format: a message on stderr, nothing on stdout, exit 2.
"""

from __future__ import annotations

from pathlib import Path

from results.services import EXPORTERS, ExportError, build_file
from tournaments.management.base import TournamentCommand


class Command(TournamentCommand):
    help = "Write a tournament's standings and protocols (or another printed file) as xlsx, csv or pdf."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument(
            "--format", dest="fmt", required=True, help="xlsx, csv or pdf (zip for --kind pack)"
        )
        parser.add_argument("--output", required=True, help="the file to write")
        parser.add_argument(
            "--kind", default="results", help=f"what to write: {', '.join(EXPORTERS)} (default results)"
        )
        parser.add_argument(
            "--session",
            type=int,
            default=None,
            help="the session (a pulka event's round) of a per-session (per-round) kind",
        )
        parser.add_argument("--lang", default=None, help="ru or en (default: the tournament's language)")
        parser.add_argument(
            "--base-url",
            default="",
            help="site address for the links and QR codes on table cards and PIN slips",
        )

    def handle(self, *args, **options):
        tournament = self.tournament(options["slug"])
        kind, fmt = options["kind"], options["fmt"]
        spec = EXPORTERS.get(kind)
        if spec is None:
            self.fail(f"unknown --kind {kind!r}: use one of {', '.join(EXPORTERS)}")
        if fmt not in spec.formats:
            self.fail(f"--kind {kind} is written as {' or '.join(spec.formats)}, not {fmt!r}")
        if options["lang"] not in (None, "ru", "en"):
            self.fail(f"--lang must be ru or en, not {options['lang']!r}")
        extra = {"session": options["session"], "lang": options["lang"], "base_url": options["base_url"]}
        try:
            _name, body = build_file(tournament.pk, kind, fmt, {k: v for k, v in extra.items() if v})
        except ExportError as exc:
            self.fail(str(exc))
        Path(options["output"]).write_bytes(body)
        if options["verbosity"] >= 1:
            self.stdout.write(f"{options['output']}: {len(body)} bytes")
