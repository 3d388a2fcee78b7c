"""Scoring workflows on the database: every change is rescored through the pure core.

The database is turned into a bundle (formats.md §2), scored by the same code as ``score_bundle``, and the
numbers are written back: each result's vists, matchpoints and top, and the tournament's standings.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.models import Result, Standing
from scoring.session_scoring import scored_to_dict, validate_and_score
from tournaments.models import Session, Tournament


def store_scores(tournament: Tournament, scored: dict[str, Any]) -> None:
    """Write the core's numbers into the result cache and replace the standings."""
    now = timezone.now()
    by_number = {s["number"]: s for s in scored["sessions"]}
    for session in tournament.sessions.all():
        results = list(session.results.order_by("position", "id"))
        outputs = by_number.get(session.number, {}).get("results", [])
        if len(outputs) != len(results):
            raise RuntimeError(f"session {session.number}: {len(results)} results but {len(outputs)} scored")
        for result, out in zip(results, outputs, strict=True):
            result.vists = out.get("vists")
            result.matchpoints = out["matchpoints"]
            result.top = out["top"]
        Result.objects.bulk_update(results, ["vists", "matchpoints", "top"], batch_size=500)
        Session.objects.filter(pk=session.pk).update(scored_at=now)
    participants = {p.number: p for p in tournament.participants.all()}
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        Standing(
            tournament=tournament,
            participant=participants[row["participant"]],
            position=position,
            rank=row["rank"],
            matchpoints=row["matchpoints"],
            max=row["max"],
            percent=row["percent"],
        )
        for position, row in enumerate(scored["standings"], start=1)
    )


@transaction.atomic
def rescore_tournament(*, tournament_id: int) -> Tournament:
    """Recompute every result and the standings of a tournament from its stored facts."""
    from tournaments.services.bundles import tournament_to_bundle

    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    _bundle, scored = validate_and_score(tournament_to_bundle(tournament))
    store_scores(tournament, scored_to_dict(scored))
    return tournament
