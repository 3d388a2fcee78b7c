"""``python manage.py export_deals SLUG [PATH|-]``: an event's boards in the deal notation
(docs/deal-notation.md), one line a board."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from boards.models import Board
from events.management.commands.export_federation import write_out
from preferans.interchange.deals import DealLine, deal_of, write_deals
from tournaments.management.base import TournamentCommand


class Command(TournamentCommand):
    help = (
        "Write an event's boards (dealer, table size, hands in playing order, prikup) in the deal notation."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "path", nargs="?", default="-", help="output file, or - for standard output (default)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = self.tournament(options["slug"])
        players = tournament.players_per_table
        deals: list[DealLine] = []
        for number, session, dealer, hands, prikup in (
            Board.objects.filter(session__tournament=tournament)
            .order_by("session__number", "number")
            .values_list("number", "session__number", "dealer", "hands", "prikup")
        ):
            board = {"number": number, "dealer": dealer, "hands": hands, "prikup": prikup}
            try:
                deals.append(deal_of(session, players, board))
            except ValueError as exc:
                # A layout that is not a whole deck is written without it; the line says the board is there.
                self.stderr.write(f"session {session}, {exc}: written without its layout")
                deals.append(deal_of(session, players, {"number": number, "dealer": dealer}))
        write_out(self, options["path"], write_deals(deals, title=tournament.name))
