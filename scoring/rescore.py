"""Scoring workflows on the database: every change is rescored through the pure core.

The database is turned into a bundle (formats.md §2), scored by the same code as ``score_bundle``, and the
numbers are written back: each result's vists, matchpoints and top, and the tournament's standings.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from preferans.duplicate.session_scoring import scored_to_dict, validate_and_score
from scoring.models import Result, Standing
from tournaments.models import Tournament


def store_scores(tournament: Tournament, scored: dict[str, Any]) -> None:
    """Write the core's numbers into the result cache and replace the standings."""
    now = timezone.now()
    by_number = {s["number"]: s for s in scored["sessions"]}
    for session in tournament.sessions.all():
        stored = list(
            session.results.order_by("position", "id").values_list("id", "vists", "matchpoints", "top")
        )
        outputs = by_number.get(session.number, {}).get("results", [])
        if len(outputs) != len(stored):
            raise RuntimeError(f"session {session.number}: {len(stored)} results but {len(outputs)} scored")
        # Only rows whose numbers changed are written: after one new row, that is one board's rows.
        changed = [
            (pk, out)
            for (pk, vists, mps, top), out in zip(stored, outputs, strict=True)
            if (vists, mps, top) != (out.get("vists"), out["matchpoints"], out["top"])
        ]
        _write_result_cache(changed)
    participants = dict(tournament.participants.values_list("number", "pk"))
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        Standing(
            tournament=tournament,
            participant_id=participants[row["participant"]],
            position=position,
            rank=row["rank"],
            matchpoints=row["matchpoints"],
            max=row["max"],
            percent=row["percent"],
        )
        for position, row in enumerate(scored["standings"], start=1)
    )
    # Last, so the session rows (which every new protocol row touches) are locked only until the commit.
    tournament.sessions.update(scored_at=now)


def _write_result_cache(changed: list[tuple[int, dict[str, Any]]]) -> None:
    """One parameterised UPDATE per row, sent as a batch (far faster than ORM bulk_update's CASE chains)."""
    table = connection.ops.quote_name(Result._meta.db_table)
    cast = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
    q = connection.ops.quote_name
    sql = (
        f"UPDATE {table} SET {q('vists')} = {cast}, {q('matchpoints')} = {cast}, {q('top')} = {cast} "
        f"WHERE {q('id')} = %s"
    )
    params = [
        (
            json.dumps(out.get("vists")) if out.get("vists") is not None else None,
            json.dumps(out["matchpoints"]),
            json.dumps(out["top"]),
            pk,
        )
        for pk, out in changed
    ]
    if not params:
        return
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _rescore_lock(tournament_id: int) -> None:
    """A transaction-scoped advisory lock on PostgreSQL (SQLite serialises writers by itself)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [RESCORE_LOCK_CLASS, tournament_id])


RESCORE_LOCK_CLASS = 7301  # the advisory-lock namespace of rescores


@transaction.atomic
def rescore_tournament(*, tournament_id: int) -> Tournament:
    """Recompute every result and the standings of a tournament from its stored facts."""
    from tournaments.services.bundles import tournament_to_bundle

    # One rescore of a tournament at a time, without locking its row: entry (inserts that check the foreign
    # key to the tournament) goes on while the standings are recomputed.
    _rescore_lock(tournament_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    _bundle, scored = validate_and_score(tournament_to_bundle(tournament))
    store_scores(tournament, scored_to_dict(scored))
    return tournament
