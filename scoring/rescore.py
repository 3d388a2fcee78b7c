"""Rescoring: every change to a tournament's facts is scored again by the pure core, and the numbers kept.

The facts are read once by :func:`scoring.selectors.scoring_bundle` (each result keyed by its primary key),
scored by the same code as ``score_bundle`` (:func:`preferans.duplicate.session_scoring.score_bundle`), and
written back by key: each result's vists, matchpoints and top, and the tournament's standings.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from boards.handoff import hand_off, is_eager, not_taken
from preferans.duplicate.session_scoring import ScoredBundle, score_bundle
from preferans.duplicate.standings import out_of_the_ranking
from preferans.numbers import format_fraction, format_percent
from scoring.models import Result, Standing
from scoring.selectors import scoring_bundle
from scoring.session_totals import tournament_standings
from tournaments.models import Session, Tournament

logger = logging.getLogger(__name__)

# Sent after a rescore stored a tournament's numbers (arguments: tournament, now), inside its transaction.
standings_stored = Signal()

RESCORE_LOCK_CLASS = 7301  # the advisory-lock namespace of rescores
RESCORE_QUEUE_STALE = dt.timedelta(minutes=2)


def _text(values: Any) -> dict[str, str] | None:
    return None if values is None else {seat: format_fraction(v) for seat, v in values.items()}


def store_scores(tournament: Tournament, scored: ScoredBundle, *, now: dt.datetime) -> None:
    """Write the core's numbers into the result cache (matched by primary key) and replace the standings."""
    stored = {
        pk: (vists, mps, top)
        for pk, vists, mps, top in Result.objects.filter(session__tournament=tournament).values_list(
            "pk", "vists", "matchpoints", "top"
        )
    }
    changed = []
    for session in scored.sessions:
        for r in session.results:
            if r.key is None or r.key not in stored:
                continue  # deleted meanwhile: nothing to write
            out = (_text(r.vists), _text(r.matchpoints), _text(r.top))
            # Only rows whose numbers changed are written: after one new row, that is one board's rows.
            if stored[r.key] != out:
                changed.append((r.key, out))
    _write_result_cache(changed)
    participants = dict(tournament.participants.values_list("number", "pk"))
    # A disqualified participant takes no place (rules §13.2.4): the others are ranked without him.
    # Sessions totalled as the organisers chose, and a final's carry-over (docs/players/series.md).
    standings = out_of_the_ranking(
        tournament_standings(tournament, scored), tournament.disqualified_numbers()
    )
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        Standing(
            tournament=tournament,
            participant_id=participants[row.participant],
            position=position,
            rank=row.rank,
            matchpoints=format_fraction(row.matchpoints),
            max=format_fraction(row.max),
            percent=format_percent(row.percent),
        )
        for position, row in enumerate(standings, start=1)
        if row.participant in participants
    )
    # Last, so the session rows (which every new protocol row touches) are locked only until the commit.
    tournament.sessions.update(scored_at=now)


def _write_result_cache(changed: list[tuple[int, tuple[Any, Any, Any]]]) -> None:
    """One parameterised UPDATE per row, sent as a batch (far faster than ORM bulk_update's CASE chains)."""
    if not changed:
        return
    table = connection.ops.quote_name(Result._meta.db_table)
    cast = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
    q = connection.ops.quote_name
    sql = (
        f"UPDATE {table} SET {q('vists')} = {cast}, {q('matchpoints')} = {cast}, {q('top')} = {cast} "
        f"WHERE {q('id')} = %s"
    )
    params = [
        (json.dumps(vists) if vists is not None else None, json.dumps(mps), json.dumps(top), pk)
        for pk, (vists, mps, top) in changed
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _rescore_lock(tournament_id: int) -> None:
    """A transaction-scoped advisory lock on PostgreSQL (SQLite serialises writers by itself)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [RESCORE_LOCK_CLASS, tournament_id])


@transaction.atomic
def rescore_tournament(*, tournament_id: int, now: dt.datetime | None = None) -> Tournament:
    """Recompute every result and the standings of a tournament from its stored facts.

    A background task's entry point: ``now`` (when the scores were computed) is read here when not given.
    """
    # One rescore of a tournament at a time, without locking its row: entry (inserts that check the foreign
    # key to the tournament) goes on while the standings are recomputed.
    _rescore_lock(tournament_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    now = now or timezone.now()
    store_scores(tournament, score_bundle(scoring_bundle(tournament)), now=now)
    # Final results changed (a correction, an appeal): master points and ratings follow (players.services.points).
    for receiver, error in standings_stored.send_robust(sender=Tournament, tournament=tournament, now=now):
        if isinstance(error, Exception):
            logger.error("after rescoring tournament %s, %r failed", tournament_id, receiver, exc_info=error)
    return tournament


def mark_changed(session: Session, *, now: dt.datetime) -> None:
    """Note that the session's standings are stale, and rescore once the transaction commits."""
    Session.objects.filter(pk=session.pk).update(changed_at=now)
    tournament_id = session.tournament_id
    transaction.on_commit(lambda: request_rescore(tournament_id))


def request_rescore(tournament_id: int, *, inline: bool = False) -> str:
    """Queue a rescore (Celery; in-process when no broker is configured, or ``inline``); returns how it ran:
    "queued", "coalesced", "inline" (the broker did not take it, or ``inline``: computed here) or "failed".

    With a broker, requests coalesce: while one rescore is queued and not yet started, further changes ride on
    it (the task clears the mark when it starts, and recomputes everything stored by then), so a burst of
    rows queues one task, not hundreds. A mark older than two minutes is ignored (a lost task cannot block
    rescoring); one older than a minute is shown to the director, who may compute now (``inline``). Any failure
    to hand the task to the broker clears the mark and rescores here and now, so standings never wait on a
    broken queue; a failure of the rescore itself is logged and not run again (boards.handoff).
    """
    from scoring.tasks import rescore_tournament_task  # the task calls back into this module

    if inline:
        return _rescore_here(tournament_id)
    eager = getattr(settings, "CELERY_TASK_ALWAYS_EAGER", True) and is_eager(rescore_tournament_task)
    if not eager:
        now = timezone.now()
        claimed = (
            Tournament.objects.filter(pk=tournament_id)
            .filter(Q(rescore_queued_at__isnull=True) | Q(rescore_queued_at__lt=now - RESCORE_QUEUE_STALE))
            .update(rescore_queued_at=now)
        )
        if not claimed:
            return "coalesced"
    # A short delay lets a burst of rows (the end of a round) share one rescore instead of running them back
    # to back; the standings are at most RESCORE_DELAY seconds plus one rescore behind.
    delay = 0.0 if eager else float(getattr(settings, "RESCORE_DELAY", 0) or 0)
    try:
        taken = hand_off(rescore_tournament_task, (tournament_id,), countdown=delay)
    except Exception:  # noqa: BLE001 - eager: the rescore ran here and failed; it must not undo the stored row
        logger.exception("rescoring tournament %s failed", tournament_id)
        return "failed"
    if taken:
        return "queued"
    logger.warning("broker unavailable: rescoring tournament %s in-process", tournament_id)
    return _rescore_here(tournament_id)


def _rescore_here(tournament_id: int) -> str:
    """Rescore in this process, clearing the "being recomputed" mark first (as the task does when it starts)."""
    Tournament.objects.filter(pk=tournament_id).update(rescore_queued_at=None)
    try:
        rescore_tournament(tournament_id=tournament_id)
    except Exception:  # noqa: BLE001 - logged for the operator; the director is told it failed
        logger.exception("rescoring tournament %s failed", tournament_id)
        return "failed"
    return "inline"


def rescore_not_taken(tournament: Tournament, *, now: dt.datetime) -> bool:
    """Whether a queued rescore of the tournament has waited more than a minute for a worker."""
    return not_taken(tournament.rescore_queued_at, now)
