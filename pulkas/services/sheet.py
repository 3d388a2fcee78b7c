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
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from preferans.pulka import PulkaGame
from preferans.pulka.corrections import writing_penalties
from preferans.pulka.setup import row_dealer_label
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaRound, PulkaTable
from pulkas.services.sheet_authority import (
    DIRECTOR_ONLY,
    check_player_confirms,
    check_player_corrects,
    check_time_limit,
)
from pulkas.services.sheet_authority import players_write_no_penalties as _players_write_no_penalties
from pulkas.services.sheet_load import TableSheet, _rejected, event_of, load_sheet, refresh_cache, table_setup
from pulkas.services.sheet_pending import apply_confirmed_correction

__all__ = [
    "MAX_ROW_BYTES",
    "TableSheet",
    "confirm_deal",
    "correct_deal",
    "enter_deal",
    "event_of",
    "load_sheet",
    "locked_table",
    "refresh_cache",
    "table_setup",
]
from tournaments.audit import log_action, player_actor
from tournaments.errors import Conflict, NotAllowed, UserError
from tournaments.models import Participant
from tournaments.refusals import ResultRejected

MAX_ROW_BYTES = 4000


def _locked_table(table: PulkaTable) -> PulkaTable:
    """The table's row locked (only it: ``of=("self",)``, so the other tables of the round write meanwhile)."""
    return (
        PulkaTable.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )


locked_table = _locked_table  # for the table's other services (``table_control``)


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


def _check_row_size(row: object) -> Mapping[str, Any]:
    if not isinstance(row, Mapping):
        raise ResultRejected.one("row", "row", "a deal is a JSON object")
    if len(json.dumps(row, ensure_ascii=False)) > MAX_ROW_BYTES:
        raise ResultRejected.one("row_size", "row", "the row is too long")
    return row


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
    reason: str = "",
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
    overtime = check_time_limit(table, len(sheet.deals) + 1, now, director=director)
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
    if overtime:  # the deal in progress when the time limit passed: the last the players may write
        table.overtime_deal = deal.number
        table.save(update_fields=["overtime_deal"])
    refresh_cache(sheet)
    log_action(
        tournament=sheet.tournament,
        action="pulka_deal_entered",
        obj=deal,
        at=now,
        reason=reason[:500],
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
    sheet.tournament.ensure_scores_open()
    seat = _seated(sheet, participant)
    check_player_confirms(table)
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
    if deal.status == PulkaDeal.Status.CONFIRMED:
        apply_confirmed_correction(sheet, deal, now)
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

    Players may correct only the last deal, before the next one is written (4.2.9 says «до момента заказа
    следующей игры»; the software cannot see the next bid, so the next deal written is its approximation).
    Before anybody confirmed it the writer's pencil is still in his hand: no penalty (4.2.8). Once confirmed,
    each player who gains from the wrong row answers (4.2.4, 4.2.7; ``writing_penalties``): his first time at
    this table is a warning, each later one adds the penalty of 4.2.7 to the corrected row; a row that only left
    something off carries neither (4.2.10). A player's correction that makes ANOTHER player answer waits for the
    others' confirmation (``sheet_pending``). The director may correct any deal (a ruling, with a reason); that is
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
                    "Only the last deal can be corrected at the table; once the next deal is written the entry "
                    "stands (Code 4.2.9 says until the next game is bid; the software counts the next deal "
                    "written). Ask the director."
                ),
                code="correction_too_late",
            )
        check_player_corrects(table, deal, ended=table.ended)
    elif not reason.strip():
        raise UserError(_("Say why the director corrects the deal."), code="reason_required")
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
    # Whoever GAINS from the wrong row answers (4.2.4: each keeps his own entries), the first time with a warning;
    # a row that only left something off is written late without penalty (4.2.10).
    penalised = not director and (deal.status != PulkaDeal.Status.ENTERED or bool(deal.confirmed_by))
    played = replay.deals[-1]  # its dealer as the sheet was dealt (a deal out of turn shifts it, Code 3.2.14)
    label = row_dealer_label(sheet.setup.players, played.dealer, played.first_hand)
    answering = writing_penalties(sheet.setup, number, deal.row, corrected, label) if penalised else {}
    warned_before = PulkaCorrection.warned_seats(table) if answering else set()
    warned = [s for s in answering if s not in warned_before]
    penalty = [e for s, entries in answering.items() if s in warned_before for e in entries]
    warning = bool(warned)
    writer = table.seats().get(next(iter(answering))) if answering else None
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
    # A player's correction of another's entry warns or penalises nobody by his click alone: it waits for the
    # others' confirmation of the corrected deal (the writer's among them); a dispute goes to the director.
    pending = None
    by_other = not director and any(s != seat for s in answering)
    if by_other and (warning or penalty):
        pending = {
            "warning": warning,
            "warned": warned,
            "penalty": penalty,
            "writer": writer.pk if writer is not None else None,
        }
        warning, warned, penalty = False, [], []
        if "extra_entries" in base:
            corrected["extra_entries"] = base["extra_entries"]
        else:
            corrected.pop("extra_entries", None)
    waiting = PulkaCorrection.objects.filter(table=table, deal_number=number, pending__isnull=False)
    if pending is None and not director and deal.entered_by_id == getattr(participant, "pk", None):
        # the corrector fixes his own correction before anybody confirmed it: what waited still waits
        carried = waiting.order_by("-id").first()
        pending = carried.pending if carried is not None else None
    waiting.update(pending=None)
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
        writer=writer,
        old_row=old,
        new_row=corrected,
        warning=warning,
        warned=warned,
        penalty=penalty,
        pending=pending,
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
            "warned": warned,
            "penalty": penalty,
            "pending": pending,
        },
        **_actor(table, participant, seat, user),
    )
    return correction
