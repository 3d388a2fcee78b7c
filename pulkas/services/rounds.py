"""Rounds of a pulka event: the draw, start, the time limit, the end, who goes on and who sits where next.

Olympic (004-II): round 1 by lot; then the players ranked 1…K at each table go on, drawn by lot, until one table
is left — the final (``pulkas.services.olympic``: nobody out comes back). Compensation (004-III) and Swiss:
everybody plays every round; round 1 by lot (or by the register's rating), then: compensation by the tournament
rating (table 1 the top-rated, P-26), Swiss by the least repeated meetings, then the least displacement from that
order (``services.pairing``, docs/pairing.md); Swiss may keep only the top M after round k (the clubs' cut, an
option).
Every draw uses a seed recorded on the round, so it can be shown and repeated.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from preferans.pairing import Pairing
from preferans.pulka.forms import TablePlan, draw_tables, order_by_rating
from pulkas.models import SEATS, PulkaBye, PulkaEvent, PulkaRound, PulkaTable, PulkaTableResult
from pulkas.services import olympic
from pulkas.services.pairing import paired_plan
from pulkas.services.sheet import event_of, load_sheet, refresh_cache
from pulkas.services.standings import event_table
from pulkas.services.table_control import stop_table
from tournaments.audit import log_action, require_reason
from tournaments.errors import Conflict, UserError
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.table_codes import unused_table_code


def _last_round(tournament: Tournament) -> PulkaRound | None:
    return PulkaRound.objects.filter(tournament=tournament).order_by("-number").first()


def is_final(form: str, tables: int, byes: int) -> bool:
    """An Olympic round of one table and nobody with a bye: the final, where the prizes are played for (004-II).
    The one rule for the event's end, the projector and the printed bracket."""
    return form == "olympic" and tables <= 1 and byes == 0


def event_over(event: PulkaEvent, last: PulkaRound | None) -> str:
    """Why no further round can be drawn after ``last`` (the latest round, ended), or "" while one can: an
    Olympic event is over once its final (one table, nobody with a bye) has been played (004-II); a compensation or
    Swiss event once its rounds are all played (004-III)."""
    if last is None:
        return ""
    if event.tournament.form == "olympic":
        if is_final("olympic", last.tables.count(), last.byes.count()):
            return _("The final has been played: the event is over.")
        return ""
    if last.number >= event.rounds:
        return ngettext(
            "The only round has been played.", "All %(n)s rounds have been played.", event.rounds
        ) % {"n": event.rounds}
    return ""


def play_over(tournament: Tournament) -> bool:
    """Play is over: every drawn round has ended and no further round is to be drawn (rules §1: official
    results come when play is over)."""
    event = PulkaEvent.objects.filter(tournament=tournament).select_related("tournament").first()
    last = _last_round(tournament)
    if event is None or last is None or last.status != PulkaRound.Status.ENDED:
        return False
    return bool(event_over(event, last))


def _rated_field(event: PulkaEvent, tournament: Tournament, number: int, rng: random.Random) -> list[int]:
    """Compensation and Swiss: every player still in, by tournament rating (highest first, equal ones by lot)."""
    table = event_table(tournament)
    lines = [line for line in table.lines if not line.cut]
    if tournament.form == "swiss" and event.cut_after is not None and number == event.cut_after + 1:
        keep = event.cut_to or len(lines)
        lines = lines[:keep]
    order = list(range(len(lines)))
    rng.shuffle(order)  # the lot among equal ratings
    lot = {line.participant.pk: i for i, line in zip(order, lines, strict=True)}
    lines.sort(key=lambda line: (-line.total, lot[line.participant.pk]))
    return [line.participant.pk for line in lines]


def _locked_event(tournament: Tournament) -> PulkaEvent:
    """The event's row, locked to the end of the transaction (one draw of a tournament at a time)."""
    event = event_of(tournament)
    return PulkaEvent.objects.select_for_update().get(pk=event.pk)


@transaction.atomic
def draw_round(
    *,
    tournament: Tournament,
    user: Any,
    now: dt.datetime,
    seed: int | None = None,
    ratings: Mapping[int, Fraction] | None = None,
) -> PulkaRound:
    """Draw the next round: its tables, seats, first dealers and byes. ``ratings``: a compensation or Swiss
    event's first round seeded by the players' rating across events (participant's key → rating, from the
    register: ``players.services.ratings.register_ratings``; docs/players/rating.md), not by lot."""
    tournament.ensure_not_locked()
    event = _locked_event(
        tournament
    )  # two «Draw» clicks at once: the second waits, then sees the round drawn
    last = _last_round(tournament)
    number = (last.number + 1) if last else 1
    if last is not None and last.status != PulkaRound.Status.ENDED:
        raise Conflict(_("Round %(n)s has not ended yet.") % {"n": last.number}, code="round_open")
    seed = seed if seed is not None else secrets.randbelow(2**62)
    rng = random.Random(seed)
    per_table = int(tournament.players_per_table)
    seating: Pairing[int] | None = None
    ranked: list[int] = []  # the order the round was seated in (compensation and Swiss after round 1)
    over = event_over(event, last)
    if over:
        raise Conflict(over, code="event_over")
    if tournament.form == "olympic":  # by the book: pulkas.services.olympic
        plan, drawn_by = olympic.draw(event, last, number, rng), "lot"
    else:
        if last is None and ratings is not None:
            by_number = Participant.objects.filter(tournament=tournament).order_by("number")
            ranked = order_by_rating(list(by_number.values_list("pk", flat=True)), ratings, rng)
            plan, seating = paired_plan(tournament, ranked, per_table, rng)  # no earlier table: the book's
            drawn_by = "rating"
        elif last is None:
            ids = list(Participant.objects.filter(tournament=tournament).values_list("pk", flat=True))
            plan, drawn_by = draw_tables(sorted(ids), per_table, rng), "lot"
        else:
            ranked = _rated_field(event, tournament, number, rng)
            plan, seating = paired_plan(tournament, ranked, per_table, rng)
            drawn_by = "swiss" if tournament.form == "swiss" else "rating"
    if not plan.tables:
        raise UserError(
            _("A table needs 3 or 4 players; there are not enough players."), code="too_few_players"
        )
    try:
        with transaction.atomic():
            pulka_round = PulkaRound.objects.create(
                tournament=tournament, number=number, seed=seed, drawn_by=drawn_by, **_pairing_fields(seating)
            )
    except IntegrityError:  # drawn by another request meanwhile (the lock above makes this the last resort)
        raise Conflict(
            _("Round %(n)s has already been drawn: nothing more was drawn.") % {"n": number},
            code="round_drawn",
        ) from None
    _create_tables(pulka_round, event, plan, rng)
    if tournament.status == TournamentStatus.SETUP:
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    log_action(
        tournament=tournament,
        action="pulka_round_drawn",
        obj=pulka_round,
        user=user,
        at=now,
        data={
            "round": number,
            "seed": seed,
            "by": drawn_by,
            "tables": len(plan.tables),
            "byes": len(plan.byes),
            **_pairing_fields(seating),
            **({"ranking": ranked} if seating is not None else {}),
        },
    )
    return pulka_round


def _pairing_fields(seating: Pairing[int] | None) -> dict[str, Any]:
    """R, D and whether they are proved least, for the round and its audit entry (docs/pairing.md)."""
    if seating is None:
        return {}
    return {
        "repeats": seating.repeats,
        "displacement": seating.displacement,
        "pairing_optimal": seating.optimal,
    }


def _create_tables(pulka_round: PulkaRound, event: PulkaEvent, plan: TablePlan, rng: random.Random) -> None:
    for i, members in enumerate(plan.tables, start=1):
        seats = dict(zip(SEATS, members, strict=False))
        first_dealer = rng.choice(SEATS[: len(members)])  # drawn by lot (Code 3.2.1)
        for _attempt in range(5):
            try:
                with transaction.atomic():
                    table = PulkaTable.objects.create(
                        round=pulka_round,
                        number=i,
                        code=unused_table_code(),  # no table of either form has it
                        first_dealer=first_dealer,
                        seat_n_id=seats["N"],
                        seat_e_id=seats["E"],
                        seat_s_id=seats["S"],
                        seat_w_id=seats.get("W"),
                    )
                break
            except IntegrityError:  # pragma: no cover - a code collision: draw another
                continue
        refresh_cache(load_sheet(table, event=event))
    PulkaBye.objects.bulk_create(PulkaBye(round=pulka_round, participant_id=pk) for pk in plan.byes)


def _locked_round(pulka_round: PulkaRound) -> PulkaRound:
    """The round's row locked to the end of the transaction and read again as it is now (a second click waits,
    then sees it); the caller's object itself is refreshed, as the callers go on using it."""
    if not PulkaRound.objects.select_for_update().filter(pk=pulka_round.pk).exists():
        raise Conflict(_("This round's draw was taken back meanwhile."), code="round_undrawn")
    pulka_round.refresh_from_db(fields=["status", "started_at", "ends_at", "ended_at"])
    return pulka_round


@transaction.atomic
def undraw_round(*, pulka_round: PulkaRound, user: Any, now: dt.datetime) -> None:
    """Take back a drawn round that has not started (to draw it again)."""
    pulka_round = _locked_round(pulka_round)
    if pulka_round.status != PulkaRound.Status.PENDING:
        raise Conflict(_("Only a round that has not started can be drawn again."), code="round_started")
    log_action(
        tournament=pulka_round.tournament,
        action="pulka_round_undrawn",
        user=user,
        at=now,
        data={"round": pulka_round.number, "seed": pulka_round.seed},
    )
    pulka_round.delete()


@transaction.atomic
def start_round(*, pulka_round: PulkaRound, user: Any, now: dt.datetime) -> PulkaRound:
    """«Start!»: the clock runs from now to the round's time limit (004 fn[32])."""
    pulka_round = _locked_round(pulka_round)  # two clicks at once: the second sees the round started
    pulka_round.tournament.ensure_not_locked()
    if pulka_round.status != PulkaRound.Status.PENDING:
        raise Conflict(_("The round has already started."), code="round_started")
    event = event_of(pulka_round.tournament)
    pulka_round.status = PulkaRound.Status.RUNNING
    pulka_round.started_at = now
    pulka_round.ends_at = now + dt.timedelta(minutes=event.round_minutes)
    pulka_round.save(update_fields=["status", "started_at", "ends_at"])
    log_action(
        tournament=pulka_round.tournament,
        action="pulka_round_started",
        obj=pulka_round,
        user=user,
        at=now,
        data={"round": pulka_round.number, "ends_at": pulka_round.ends_at.isoformat()},
    )
    return pulka_round


def stop_round(*, pulka_round: PulkaRound, user: Any, now: dt.datetime, reason: str) -> list[PulkaTable]:
    """Time is up: every table still playing is stopped and its sheet closed by Code 4.2.3. It cannot be undone
    for all tables at once, so the director confirms it with a reason (audited on each table)."""
    require_reason(reason)
    stopped = []
    for table in pulka_round.tables.filter(ended=False, stopped_at__isnull=True).order_by("number"):
        stopped.append(stop_table(table=table, user=user, now=now, reason=reason[:500]))
    return stopped


@transaction.atomic
def end_round(*, pulka_round: PulkaRound, user: Any, now: dt.datetime) -> PulkaRound:
    """End the round once every table has finished (by the pool, the deal limit, or stopped)."""
    pulka_round = _locked_round(pulka_round)
    pulka_round.tournament.ensure_not_locked()
    if pulka_round.status != PulkaRound.Status.RUNNING:
        raise Conflict(_("The round is not running."), code="round_not_running")
    playing = [t.number for t in pulka_round.tables.order_by("number") if not t.finished]
    if playing:
        raise Conflict(
            _("Tables still playing: %(tables)s. Stop them (time limit) or wait.")
            % {"tables": ", ".join(str(n) for n in playing)},
            code="tables_playing",
        )
    pulka_round.status = PulkaRound.Status.ENDED
    pulka_round.ended_at = now
    pulka_round.save(update_fields=["status", "ended_at"])
    tournament = pulka_round.tournament
    if play_over(tournament):  # the last round: play is over, as after a duplicate event's last session
        Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    log_action(
        tournament=pulka_round.tournament,
        action="pulka_round_ended",
        obj=pulka_round,
        user=user,
        at=now,
        data={"round": pulka_round.number},
    )
    return pulka_round


@transaction.atomic
def decide_tie(
    *, table: PulkaTable, seats: Sequence[str], user: Any, now: dt.datetime, reason: str
) -> PulkaTable:
    """Olympic: among players tied at the cut (P-21), the director sends on the ones the regulation (or a lot)
    chose."""
    # Lock the table's row only: a bare FOR UPDATE over the join would lock the round and the tournament too
    # (PostgreSQL locks every joined row) and make every other table of the event wait.
    table = (
        PulkaTable.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )
    event = event_of(table.round.tournament)
    advance = table.advance or {"seats": [], "tied": []}
    places = table.olympic_advance(event) - len(advance["seats"])
    chosen = list(dict.fromkeys(seats))
    if not advance["tied"] or any(s not in advance["tied"] for s in chosen) or len(chosen) != places:
        raise UserError(
            _("Choose %(k)s of the tied players: %(seats)s.")
            % {"k": places, "seats": ", ".join(advance["tied"])},
            code="tie_choice",
        )
    table.tie_decision = chosen
    table.save(update_fields=["tie_decision"])
    log_action(
        tournament=table.round.tournament,
        action="pulka_tie_decided",
        obj=table,
        user=user,
        at=now,
        reason=reason,
        data={"table": table.number, "round": table.round.number, "seats": chosen},
    )
    return table


def table_results(table: PulkaTable) -> list[PulkaTableResult]:
    return list(table.results.select_related("participant").order_by("seat"))
