"""``python manage.py publish SLUG --to provisional|official|final [--acknowledge-gaps]``: take an event's results
one step forward, either form, through the same service as the director's publication page and the API
(``events.publication.publish``).

Prints one JSON line, ``{"tournament": SLUG, "publication": "official"}``. A refusal (play not over, gaps not
acknowledged, the correction period running, open matters, not the next step) prints the page's message in one
line on standard error and exits 2. ``--acknowledge-gaps`` acknowledges what is open now (the page's «I know»
box); without it a step with gaps is refused, naming them. ``--language`` chooses the messages' language (the
site's default, Russian, unless told).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser
from django.utils import timezone, translation

from events.publication import publication_gaps, publish
from tournaments.errors import UserError
from tournaments.management.base import TournamentCommand

STEPS = ("provisional", "official", "final")


class Command(TournamentCommand):
    help = "Publish an event's results one step further: provisional, official or final."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the event's short name")
        parser.add_argument("--to", required=True, choices=STEPS, help="the step to take")
        parser.add_argument(
            "--acknowledge-gaps",
            action="store_true",
            help="publish although results are missing, unconfirmed or disputed (as the page's «I know» box)",
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the language of the messages (default: the site's)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(options["language"]):
            tournament = self.tournament(options["slug"])
            acknowledged = publication_gaps(tournament).token if options["acknowledge_gaps"] else ""
            try:
                publish(
                    tournament=tournament,
                    to=options["to"],
                    user=None,
                    actor="manage.py publish",
                    now=timezone.now(),
                    acknowledged=acknowledged,
                )
            except UserError as exc:
                self.fail(" ".join(exc.message.split()))
        self.stdout.write(json.dumps({"tournament": tournament.slug, "publication": tournament.publication}))
