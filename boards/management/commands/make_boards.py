"""``python manage.py make_boards --sets S --per-set K [--players 3|4] [--seed N] [--format json] [--pdf PATH]``

Deals S·K boards (sets 1…S, boards 1…S·K, the dealer rotating as in movements.md §4) and prints them as a
JSON list in the bundle's board form (formats.md §5). Without ``--seed`` the deal uses the operating
system's secure randomness; with it, the same seed gives the same boards. ``--pdf`` also writes the hand
records. Extra options (optional, formats.md allows additions): ``--lang ru|en`` for the PDFs and
``--protocols PATH`` to write the protocol forms too.

Bad arguments: exit status 2, a clear message on stderr and nothing on stdout.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand

from preferans.cards.board_form import board_to_dict
from preferans.cards.deal import deal_boards, secure_rng, seeded_rng


class Command(BaseCommand):
    help = (
        "Deal S·K boards (sets 1…S, dealer rotating N, E, S(, W)) and print them as JSON in the bundle's "
        "board form; --seed makes the deal reproducible, --pdf also writes the hand records."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        # Values are read as text and checked here, so that every mistake gets the same clear message and
        # exit status 2, whether the command is run from the shell or through call_command.
        parser.add_argument("--sets", metavar="S", help="number of sets (комплекты), 1 or more")
        parser.add_argument("--per-set", dest="per_set", metavar="K", help="boards per set, 1 or more")
        parser.add_argument("--players", metavar="3|4", default="4", help="players per table (default 4)")
        parser.add_argument("--seed", metavar="N", help="deal reproducibly from this whole number")
        parser.add_argument(
            "--format", dest="output_format", metavar="json", default="json", help="json (default)"
        )
        parser.add_argument("--pdf", metavar="PATH", help="also write the hand records to this PDF file")
        parser.add_argument(
            "--protocols", metavar="PATH", help="also write the protocol forms to this PDF file"
        )
        parser.add_argument("--lang", metavar="ru|en", default="ru", help="language of the PDFs (default ru)")

    def _fail(self, message: str) -> NoReturn:
        self.stderr.write(f"make_boards: {message}")
        raise SystemExit(2)

    def _whole(self, name: str, raw: Any, *, minimum: int | None = None) -> int:
        if raw is None:
            self._fail(f"{name} is required")
        try:
            value = int(str(raw).strip())
        except ValueError:
            self._fail(f"{name} must be a whole number, not {raw!r}")
        if minimum is not None and value < minimum:
            self._fail(f"{name} must be at least {minimum}, not {value}")
        return value

    def _pdf_path(self, name: str, raw: str | None) -> Path | None:
        if raw is None:
            return None
        if not raw.strip():
            self._fail(f"{name} needs a file name")
        path = Path(raw)
        if path.is_dir():
            self._fail(f"{name} {raw!r} is a directory; give a file name")
        if not path.parent.is_dir():
            self._fail(f"{name} {raw!r}: the folder {str(path.parent)!r} does not exist")
        return path

    def handle(self, *args: Any, **options: Any) -> None:
        sets = self._whole("--sets", options["sets"], minimum=1)
        per_set = self._whole("--per-set", options["per_set"], minimum=1)
        players = self._whole("--players", options["players"])
        if players not in (3, 4):
            self._fail(f"--players must be 3 or 4, not {players}")
        seed = None if options["seed"] is None else self._whole("--seed", options["seed"])
        if options["output_format"] != "json":
            self._fail(f"--format must be json, not {options['output_format']!r}")
        lang = options["lang"]
        if lang not in ("ru", "en"):
            self._fail(f"--lang must be ru or en, not {lang!r}")
        pdf = self._pdf_path("--pdf", options["pdf"])
        protocols = self._pdf_path("--protocols", options["protocols"])

        rng = secure_rng() if seed is None else seeded_rng(seed)
        boards = deal_boards(rng, sets=sets, per_set=per_set, players=players)

        # Files first: if one cannot be written, nothing has gone to stdout.
        try:
            if pdf is not None:
                from boards.pdf.hand_records import hand_records_pdf

                pdf.write_bytes(hand_records_pdf(boards, lang=lang))
            if protocols is not None:
                from boards.pdf.protocol_form import protocol_forms_pdf

                protocols.write_bytes(protocol_forms_pdf(boards, lang=lang))
        except OSError as exc:
            self._fail(f"cannot write the PDF: {exc}")
        # A JSON list, one board per line.
        lines = ",\n".join("  " + json.dumps(board_to_dict(b), ensure_ascii=False) for b in boards)
        self.stdout.write("[\n" + lines + "\n]")
