"""What the project's commands share: a tournament named by its short name, and failing as formats.md says.

A command that cannot do what it was asked writes one line to standard error, nothing to standard output, and
exits 2.
"""

from __future__ import annotations

from typing import NoReturn

from django.core.management.base import BaseCommand

from tournaments.models import Tournament


class TournamentCommand(BaseCommand):
    def fail(self, message: str) -> NoReturn:
        self.stderr.write(message)
        raise SystemExit(2)

    def tournament(self, slug: str) -> Tournament:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            self.fail(f"no tournament with the short name {slug!r}")
        return tournament
