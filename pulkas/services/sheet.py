"""A table's sheet: the one write path for its deals (every channel: table page, director's page, API).

Each deal is checked by the pure core (``preferans.pulka.PulkaGame``) against every deal before it; a refused
deal raises :class:`scoring.errors.ResultRejected` with the core's reasons in the player's language and stores
nothing. Writes lock the table row, so two devices never write the same deal number; a form or API call may
send the sheet's ``version`` it saw, and is refused if the sheet has changed since (nobody silently overwrites
anyone). A retried request with the same key returns the deal stored the first time.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from preferans.numbers import format_fraction
from preferans.pulka import PulkaGame, PulkaProblem, PulkaScore, PulkaSetup, SetupError
from preferans.pulka.corrections import overstatement_penalty
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaEvent, PulkaRound, PulkaTable, PulkaTableResult
from tournaments.audit import log_action, player_actor
from tournaments.errors import Conflict, NotAllowed, UserError
from tournaments.models import Participant, Tournament
from tournaments.refusals import Refusal, ResultRejected
from tournaments.setup_refusals import setup_refusal

MAX_ROW_BYTES = 4000
# What only the director writes into a deal: penalties (extra entries, penalty tricks). A player's correction keeps
# those already on the deal.
DIRECTOR_ONLY = ("extra_entries", "penalty_tricks", "wrong_cards")


@dataclass
class TableSheet:
    """A table with its deals loaded and played through the core."""

    table: PulkaTable
    event: PulkaEvent
    setup: PulkaSetup
    deals: list[PulkaDeal]
    game: PulkaGame

    @property
    def tournament(self) -> Tournament:
        return self.event.tournament

    def score(self) -> PulkaScore:
        return self.game.score(stopped=self.table.stopped_at is not None)

    def seat_of(self, participant: Participant) -> str | None:
        return next((s for s, pid in self.table.seat_ids().items() if pid == participant.pk), None)

    @property
    def last(self) -> PulkaDeal | None:
        return self.deals[-1] if self.deals else None


def _rejected(problems: Sequence[PulkaProblem]) -> ResultRejected:
    return ResultRejected(Refusal(p.code, p.field, p.message, p.params) for p in problems)


def event_of(tournament: Tournament) -> PulkaEvent:
    event = PulkaEvent.objects.filter(tournament=tournament).first()
    if event is None:
        raise Conflict(_("This tournament is not played in pulkas."), code="not_pulka_event")
    return event


def table_setup(event: PulkaEvent, table: PulkaTable) -> PulkaSetup:
    try:
        olympic = event.tournament.form == "olympic"
        return event.setup(
            table.players, table.first_dealer, table.olympic_advance(event) if olympic else None
        )
    except SetupError as exc:
        raise setup_refusal(exc) from exc


def load_sheet(table: PulkaTable, *, event: PulkaEvent | None = None) -> TableSheet:
    """The table's deals played through the core (they were each checked when written)."""
    if event is None:
        event = event_of(table.round.tournament)
        event.tournament = table.round.tournament  # already loaded with the table: no second read
    setup = table_setup(event, table)
    game = PulkaGame(setup)
    deals = list(table.deals.order_by("number"))
    for deal in deals:
        problems = game.add(deal.row)
        if problems:  # pragma: no cover - every stored deal was checked; settings changed under it
            raise _rejected(problems)
    return TableSheet(table, event, setup, deals, game)


def _locked_table(table: PulkaTable) -> PulkaTable:
    """The table's row locked (only it: ``of=("self",)``, so the other tables of the round write meanwhile)."""
    return (
        PulkaTable.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )


def _check_version(table: PulkaTable, version: int | None) -> None:
    if version is not None and version != table.version:
        raise Conflict(
            _("The sheet has changed since you opened it (somebody else wrote on it). Reload and check it."),
            code="sheet_changed",
        )


def _check_open(sheet: TableSheet, *, director: bool) -> None:
    table = sheet.table
    sheet.tournament.ensure_scores_open()
    if not director and table.round.status != PulkaRound.Status.RUNNING:
        raise Conflict(_("The round is not running: ask the director."), code="round_not_running")
    if table.stopped_at is not None:
        raise Conflict(
            _("The director stopped this table; the pulka is closed (Code 4.2.3)."), code="table_stopped"
        )
    if table.ended:
        raise Conflict(_("The pulka has ended: no deal may follow (Code 4.2.3)."), code="pulka_ended")


def _players_write_no_penalties(row: Mapping[str, Any], keep: Mapping[str, Any] | None = None) -> None:
    """A player's row carries no extra entries or penalty tricks of its own (only those ``keep`` already has)."""
    for key in DIRECTOR_ONLY:
        if key in row and row[key] != (keep or {}).get(key):
            raise NotAllowed(
                _("Extra entries and penalty tricks are written by the director."), code="director_only"
            )


def _check_row_size(row: object) -> Mapping[str, Any]:
    if not isinstance(row, Mapping):
        raise ResultRejected.one("row", "row", "a deal is a JSON object")
    if len(json.dumps(row, ensure_ascii=False)) > MAX_ROW_BYTES:
        raise ResultRejected.one("row_size", "row", "the row is too long")
    return row


def refresh_cache(sheet: TableSheet) -> PulkaScore:
    """Write what the core computed into the table's cache and its players' results."""
    score = sheet.score()
    table = sheet.table
    table.deals_count = len(score.deals)
    table.ended = score.ended and score.reason in ("pool", "deal_limit")
    table.reason = score.reason
    advance = score.ranking.advance
    table.advance = {"seats": list(advance.seats), "tied": list(advance.tied)} if advance else None
    table.save(update_fields=["deals_count", "ended", "reason", "advance", "version"])
    rule = sheet.event.rating_rule
    vists, whole = score.vists, score.integer_vists
    ids = table.seat_ids()
    PulkaTableResult.objects.filter(table=table).delete()
    PulkaTableResult.objects.bulk_create(
        PulkaTableResult(
            table=table,
            participant_id=ids[seat],
            seat=seat,
            vists=format_fraction(vists[seat]),
            integer_vists=int(whole[seat]),
            rating=format_fraction(rule.round_rating(vists[seat], len(score.deals))),
            rank=score.ranking.rank_text(seat),
        )
        for seat in sheet.setup.seats
    )
    return score


def _actor(table: PulkaTable, participant: Participant | None, seat: str | None, user: Any) -> dict[str, Any]:
    """Who wrote: a player at his seat (named as the audit names a player of either form), or the director."""
    if participant is not None and seat is not None:
        return {"actor": player_actor(participant, table=table.number, seat=seat)}
    return {"user": user}


@transaction.atomic
def enter_deal(
    *,
    table: PulkaTable,
    row: object,
    now: dt.datetime,
    participant: Participant | None = None,
    user: Any = None,
    confirmations: Sequence[Participant] = (),
    key: str | None = None,
    version: int | None = None,
) -> tuple[PulkaDeal, bool]:
    """Write the next deal. A player of the table (``participant``) writes it and the others confirm; the
    director (``participant`` None, ``user``) writes it confirmed. ``confirmations``: other players of the table
    who agree with it on the same device. Returns the deal and whether it was written now (False: a retry)."""
    if key:
        existing = PulkaDeal.objects.filter(idempotency_key=key, table=table).first()
        if existing is not None:
            return existing, False
    row = _check_row_size(row)
    if participant is not None:
        _players_write_no_penalties(row)
    table = _locked_table(table)
    sheet = load_sheet(table)
    director = participant is None
    _check_open(sheet, director=director)
    _check_version(table, version)
    seat = None if director else _seated(sheet, participant)
    confirmed = _confirming_seats(sheet, confirmations, seat)
    if sheet.last is not None and sheet.last.status == PulkaDeal.Status.ENTERED and not director:
        raise Conflict(
            _("Deal %(n)s is not confirmed yet: its writing is finished when the others confirm it.")
            % {"n": sheet.last.number},
            code="previous_unconfirmed",
        )
    problems = sheet.game.add(row)
    if problems:
        raise _rejected(problems)
    scored = sheet.game.deals[-1]
    stored = dict(row)
    if scored.raspasy_step is not None:
        stored["raspasy_step"] = scored.raspasy_step
    others = [s for s in sheet.setup.seats if s != seat]
    status = (
        PulkaDeal.Status.DIRECTOR
        if director
        else PulkaDeal.Status.CONFIRMED
        if set(others) <= set(confirmed)
        else PulkaDeal.Status.ENTERED
    )
    deal = PulkaDeal.objects.create(
        table=table,
        number=scored.number,
        row=stored,
        status=status,
        entered_by=participant,
        confirmed_by=sorted(confirmed),
        idempotency_key=key,
    )
    sheet.deals.append(deal)
    table.version += 1
    refresh_cache(sheet)
    log_action(
        tournament=sheet.tournament,
        action="pulka_deal_entered",
        obj=deal,
        at=now,
        data={
            "table": table.number,
            "round": table.round.number,
            "deal": deal.number,
            "row": stored,
            "confirmed_by": sorted(confirmed),
        },
        **_actor(table, participant, seat, user),
    )
    return deal, True


def _seated(sheet: TableSheet, participant: Participant | None) -> str:
    assert participant is not None
    seat = sheet.seat_of(participant)
    if seat is None:
        raise NotAllowed(
            _("Participant %(n)s does not play at this table.") % {"n": participant.number}, code="not_seated"
        )
    return seat


def _confirming_seats(sheet: TableSheet, confirmations: Sequence[Participant], seat: str | None) -> list[str]:
    seats: list[str] = []
    for other in confirmations:
        other_seat = _seated(sheet, other)
        if other_seat == seat or other_seat in seats:
            raise UserError(
                _("Each of the other players confirms once; the writer does not confirm his own deal."),
                code="confirmation_twice",
            )
        seats.append(other_seat)
    return seats


@transaction.atomic
def confirm_deal(*, table: PulkaTable, number: int, participant: Participant, now: dt.datetime) -> PulkaDeal:
    """Another player of the table agrees with deal ``number`` as written (the writer's pencil is down)."""
    table = _locked_table(table)
    sheet = load_sheet(table)
    seat = _seated(sheet, participant)
    deal = next((d for d in sheet.deals if d.number == number), None)
    if deal is None:
        raise Conflict(_("There is no deal %(n)s on this sheet.") % {"n": number}, code="no_deal")
    if deal.status != PulkaDeal.Status.ENTERED:
        return deal
    if deal.entered_by_id == participant.pk:
        raise UserError(_("The writer does not confirm his own deal; the others do."), code="own_deal")
    if seat not in deal.confirmed_by:
        deal.confirmed_by = sorted([*deal.confirmed_by, seat])
    writer_seat = next((s for s, pid in table.seat_ids().items() if pid == deal.entered_by_id), None)
    if set(sheet.setup.seats) - {writer_seat} <= set(deal.confirmed_by):
        deal.status = PulkaDeal.Status.CONFIRMED
    deal.save(update_fields=["confirmed_by", "status", "updated_at"])
    table.version += 1
    table.save(update_fields=["version"])
    log_action(
        tournament=sheet.tournament,
        action="pulka_deal_confirmed",
        obj=deal,
        at=now,
        data={"table": table.number, "round": table.round.number, "deal": number, "seat": seat},
        actor=player_actor(participant, table=table.number, seat=seat),
    )
    return deal


@transaction.atomic
def correct_deal(
    *,
    table: PulkaTable,
    number: int,
    row: object,
    now: dt.datetime,
    participant: Participant | None = None,
    user: Any = None,
    reason: str = "",
    version: int | None = None,
) -> PulkaCorrection:
    """Correct a written deal (Code 4.2.7–4.2.9).

    Players may correct only the last deal, before the next one is written (4.2.9: until the next contract is
    bid). Before anybody confirmed it the writer's pencil is still in his hand: no penalty (4.2.8). Once
    confirmed, the first correction of a writer's entry at this table is a warning; each later one adds the
    penalty of 4.2.7 to the corrected row. The director may correct any deal (a ruling, with a reason); that is
    no writer's error and carries no 4.2.7 penalty. A deal a player corrected waits for the others' confirmation
    again."""
    row = _check_row_size(row)
    table = _locked_table(table)
    sheet = load_sheet(table)
    director = participant is None
    sheet.tournament.ensure_scores_open()
    _check_version(table, version)
    seat = None if director else _seated(sheet, participant)
    deal = next((d for d in sheet.deals if d.number == number), None)
    if deal is None:
        raise Conflict(_("There is no deal %(n)s on this sheet.") % {"n": number}, code="no_deal")
    if not director:
        if table.stopped_at is not None or table.round.status != PulkaRound.Status.RUNNING:
            raise Conflict(_("The round is not running: ask the director."), code="round_not_running")
        if deal.number != len(sheet.deals):
            raise Conflict(
                _(
                    "Only the last deal can be corrected at the table; once the next deal is played the entry "
                    "stands (Code 4.2.9). Ask the director."
                ),
                code="correction_too_late",
            )
    elif not reason.strip():
        raise UserError(_("Say why the director corrects the deal."), code="reason_required")
    writer = deal.entered_by
    writer_seat = next((s for s, pid in table.seat_ids().items() if writer and pid == writer.pk), None)
    replay = PulkaGame(sheet.setup)
    for earlier in sheet.deals[: number - 1]:
        replay.add(earlier.row)
    base = {k: v for k, v in dict(row).items() if k != "raspasy_step"}
    if not director:  # the director's penalties already on the deal stay; a player adds none
        _players_write_no_penalties(base, keep=deal.row)
        base.update({k: deal.row[k] for k in DIRECTOR_ONLY if k in deal.row})
    problems = replay.add(base)
    if problems:
        raise _rejected(problems)
    corrected = dict(base)
    step = replay.deals[-1].raspasy_step
    if step is not None:
        corrected["raspasy_step"] = step
    # 4.2.7 punishes a wrong entry that the partners point out at the table; a director's or committee's change
    # (a ruling, an appeal) is not a writer's error, and a director adds any penalty as extra entries himself.
    penalised = not director and (deal.status != PulkaDeal.Status.ENTERED or bool(deal.confirmed_by))
    warning = False
    penalty: list[dict[str, object]] = []
    if penalised and writer_seat is not None:
        earlier_warnings = PulkaCorrection.objects.filter(table=table, writer=writer, warning=True).exists()
        if not earlier_warnings:
            warning = True
        else:
            penalty = overstatement_penalty(sheet.setup, number, deal.row, corrected, writer_seat)
    if penalty:
        corrected["extra_entries"] = [*list(corrected.get("extra_entries") or []), *penalty]
    # every later deal must still stand after the correction (the director's case); their steps follow
    restepped: list[tuple[PulkaDeal, dict[str, Any]]] = []
    for later in sheet.deals[number:]:
        if replay.ended:
            raise Conflict(
                _("After this correction the pulka would have ended before deal %(n)s.")
                % {"n": later.number},
                code="correction_ends_game",
            )
        later_row = {k: v for k, v in later.row.items() if k != "raspasy_step"}
        problems = replay.add(later_row)
        if problems:
            raise _rejected(problems)
        later_step = replay.deals[-1].raspasy_step
        if later_step is not None:
            later_row["raspasy_step"] = later_step
        if later_row != later.row:
            restepped.append((later, later_row))
    for later, later_row in restepped:
        later.row = later_row
        later.save(update_fields=["row", "updated_at"])
    old = deal.row
    deal.row = corrected
    deal.status = PulkaDeal.Status.DIRECTOR if director else PulkaDeal.Status.ENTERED
    deal.confirmed_by = []
    if not director:
        deal.entered_by = participant
    deal.save(update_fields=["row", "status", "confirmed_by", "entered_by", "updated_at"])
    correction = PulkaCorrection.objects.create(
        table=table,
        deal_number=number,
        writer=writer if penalised else None,
        old_row=old,
        new_row=corrected,
        warning=warning,
        penalty=penalty,
        user=user if director else None,
        reason=reason[:500],
        at=now,
    )
    sheet = load_sheet(table, event=sheet.event)
    table.version += 1
    refresh_cache(sheet)
    log_action(
        tournament=sheet.tournament,
        action="pulka_deal_corrected",
        obj=deal,
        at=now,
        reason=reason[:500],
        data={
            "table": table.number,
            "round": table.round.number,
            "deal": number,
            "old": old,
            "new": corrected,
            "warning": warning,
            "penalty": penalty,
        },
        **_actor(table, participant, seat, user),
    )
    return correction


@transaction.atomic
def stop_table(*, table: PulkaTable, user: Any, now: dt.datetime, reason: str = "") -> PulkaTable:
    """The director stops the table (time limit, 004 fn[32]): the deal in progress is finished first (fn94),
    then the sheet is closed by Code 4.2.3 — every unplayed pool point goes on the mountain."""
    table = _locked_table(table)
    sheet = load_sheet(table)
    sheet.tournament.ensure_scores_open()
    if table.finished:
        return table
    table.stopped_at = now
    table.version += 1
    table.save(update_fields=["stopped_at"])
    refresh_cache(sheet)
    log_action(
        tournament=sheet.tournament,
        action="pulka_table_stopped",
        obj=table,
        at=now,
        user=user,
        reason=reason,
        data={"table": table.number, "round": table.round.number, "deals": len(sheet.deals)},
    )
    return table


@transaction.atomic
def reopen_table(*, table: PulkaTable, user: Any, now: dt.datetime, reason: str) -> PulkaTable:
    """Undo a stop made in error (the director, with a reason)."""
    table = _locked_table(table)
    sheet = load_sheet(table)
    sheet.tournament.ensure_scores_open()
    if not reason.strip():
        raise UserError(_("Say why the table is reopened."), code="reason_required")
    table.stopped_at = None
    table.version += 1
    table.save(update_fields=["stopped_at"])
    refresh_cache(sheet)
    log_action(
        tournament=sheet.tournament,
        action="pulka_table_reopened",
        obj=table,
        at=now,
        user=user,
        reason=reason,
        data={"table": table.number, "round": table.round.number},
    )
    return table
