"""``python manage.py rebuild_players``: compute again every final event's master points and every rating from the
first day (docs/players/rating.md, docs/players/master-points.md).

For after a change the hooks did not see (a scheme edited outside the series page, data restored from a backup, a
fix in the formula). Idempotent: a second run changes nothing — an event's awards are replaced (and audited) only
when they differ, and the ratings are computed again whole from the same final events.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from players.models import MasterPointAward, RatingEntry
from players.services.points import award_master_points
from players.services.ratings import rebuild_ratings
from tournaments.models import AuditEntry, Publication, Tournament


class Command(BaseCommand):
    help = "Compute again the master points of every final event and every rating from the first day."

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        with transaction.atomic():
            finals = list(Tournament.objects.filter(publication=Publication.FINAL).order_by("pk"))
            audited = AuditEntry.objects.filter(action__startswith="master_points.").count()
            for tournament in finals:
                award_master_points(tournament, now=now, reason="rebuild_players: computed again")
            changed = AuditEntry.objects.filter(action__startswith="master_points.").count() - audited
            entries = rebuild_ratings(since=None, now=now)
        awards = MasterPointAward.objects.count()
        persons = RatingEntry.objects.values("person").distinct().count()
        self.stdout.write(
            f"final events: {len(finals)}; master-point awards: {awards} (events changed: {changed}); "
            f"rating entries: {entries} (persons rated: {persons})."
        )
