"""Rulings, appeals and corrections about a deal of a pulka (events played in pulkas: Olympic, compensation,
Swiss).

There is no session at such an event: the «where» is a table of one of its rounds and a deal on that table's
sheet (``pulkas.PulkaTable``, ``PulkaDeal.number``). Each function checks it — the event is played in pulkas,
the table is one of this event's, its round has started, the deal is on its sheet, the player sat at that
table — and then follows the very path a duplicate event takes (``appeals.services.filing``,
``corrections.record_correction``), with the same deadlines of §1: the filing minutes run from the end of the
round (the pulka event's independent part), the notice is due before the next deal at that table.

A change to a deal is always its corrected row (a pulka has no artificial or assigned results, pulka-spec P-22)
and goes through the sheet's one write path, ``pulkas.services.sheet.correct_deal``, as the director, with the
ruling's, decision's or correction's reason; a row is put to that write path when it is proposed (in a savepoint
that is rolled back), so a refused row is refused at once and never waits for the apply step.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from appeals.models import Appeal, Correction, Irregularity, ScoreChange
from appeals.services._common import _check_transition, _lock, _plan
from appeals.services._errors import AppealsError
from appeals.services._where import Place, guard_form, pulka_next_deal_started_at, rejection_text
from appeals.services.corrections import record_correction
from appeals.services.filing import record_filing, record_notice
from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from pulkas.services.sheet import correct_deal
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from tournaments.refusals import ResultRejected

# The irregularities a pulka can have (no boards moving between tables: no wrong board, no fouled board).
PULKA_KINDS = (
    Irregularity.Kind.WRONG_CARDS,
    Irregularity.Kind.MISSING_CARD,
    Irregularity.Kind.DEFECTIVE_TRICK,
    Irregularity.Kind.WRONG_HAND,
    Irregularity.Kind.PROCEDURAL,
    Irregularity.Kind.DIRECTOR_ERROR,
    Irregularity.Kind.OTHER,
)


# --- the «where» --------------------------------------------------------------------------------------------


def pulka_table_of(
    tournament: Tournament, *, round: int, table: int | None = None, participant: Participant | None = None
) -> PulkaTable:
    """The table of round ``round`` numbered ``table``, or (no number) the one where ``participant`` sat."""
    guard_form(tournament, pulka=True)
    tables = PulkaTable.objects.filter(round__tournament=tournament, round__number=round).select_related(
        "round", "seat_n", "seat_e", "seat_s", "seat_w"
    )
    if table is not None:
        found = tables.filter(number=table).first()
        if found is None:
            raise AppealsError(_("Round %(r)s has no table %(t)s.") % {"r": round, "t": table}, code="table")
        return found
    if participant is None:
        raise AppealsError(_("Name the table."), code="table")
    p = participant
    found = tables.filter(Q(seat_n=p) | Q(seat_e=p) | Q(seat_s=p) | Q(seat_w=p)).first()
    if found is None:
        raise AppealsError(
            _("Participant %(p)s did not play in round %(r)s.") % {"p": p.number, "r": round},
            code="not_played",
        )
    return found


def pulka_place(
    tournament: Tournament,
    table: PulkaTable,
    deal: int | None,
    *,
    participant: Participant | None = None,
    deal_required: bool = True,
) -> Place:
    """Check a pulka «where» of ``tournament`` and return it with the table's players."""
    guard_form(tournament, pulka=True)
    pulka_round = table.round
    where = {"r": pulka_round.number, "t": table.number, "n": deal}
    if pulka_round.tournament_id != tournament.pk:
        raise AppealsError(
            _("Table %(t)s of round %(r)s is not a table of this event.") % where, code="table"
        )
    if pulka_round.status == PulkaRound.Status.PENDING:
        raise AppealsError(_("Round %(r)s has not started yet.") % where, code="round_pending")
    if deal is None:
        if deal_required:
            raise AppealsError(_("Name the deal."), code="deal")
    elif not PulkaDeal.objects.filter(table=table, number=deal).exists():
        raise AppealsError(
            _("There is no deal %(n)s on the sheet of table %(t)s in round %(r)s.") % where, code="no_deal"
        )
    if participant is not None and (
        participant.tournament_id != tournament.pk or participant.pk not in table.seat_ids().values()
    ):
        raise AppealsError(
            _("Participant %(p)s did not play at table %(t)s in round %(r)s.")
            % {**where, "p": participant.number},
            code="not_played",
        )
    seats = {seat: p.number for seat, p in table.seats().items()}  # type: ignore[attr-defined]
    fields = {
        "pulka_table": table,
        "deal_number": deal,
        "round_number": pulka_round.number,
        "table_number": table.number,
    }
    return Place(fields, seats, {"deal": deal, "round": pulka_round.number, "table": table.number})


# --- appeals ------------------------------------------------------------------------------------------------


def pulka_appeal_notice(
    *,
    tournament: Tournament,
    table: PulkaTable,
    deal: int,
    appellant: Participant,
    ruling: Irregularity | None = None,
    user: Any,
    now: dt.datetime,
    late_note: str = "",
) -> Appeal:
    """Record that a player warned the director of an appeal about a pulka deal (before the next deal, §1)."""
    place = pulka_place(tournament, table, deal, participant=appellant)
    return record_notice(
        tournament=tournament,
        place=place,
        appellant=appellant,
        started=pulka_next_deal_started_at(table=table, deal=deal),
        ruling=ruling,
        user=user,
        now=now,
        late_note=late_note,
    )


def pulka_appeal_file(
    *,
    tournament: Tournament,
    table: PulkaTable,
    deal: int,
    appellant: Participant,
    claim: str,
    bidding: str = "",
    play: str = "",
    ruling: Irregularity | None = None,
    via: str = Appeal.Via.PLAYER,
    late_note: str = "",
    user: Any = None,
    now: dt.datetime,
) -> Appeal:
    """File an appeal about a pulka deal (Appendix B): as at a duplicate event, the filing minutes counted from
    the end of the round."""
    if not claim.strip():
        raise AppealsError(_("Say what the claim is."), code="claim")
    place = pulka_place(tournament, table, deal, participant=appellant)
    return record_filing(
        tournament=tournament,
        place=place,
        ended_at=table.round.ended_at,
        appellant=appellant,
        claim=claim,
        bidding=bidding,
        play=play,
        ruling=ruling,
        via=via,
        late_note=late_note,
        user=user,
        now=now,
        part="round",
    )


def plan_pulka_row(appeal: Appeal, adjustment: Mapping[str, Any], *, user: Any, now: dt.datetime) -> None:
    """The committee's adjustment of a pulka deal: its corrected row (``{"kind": "row", "row": {...}}``, and the
    sheet's ``version`` the row was read from, if any: a sheet changed since is not silently overwritten)."""
    row = adjustment.get("row")
    if adjustment.get("kind") != "row" or not isinstance(row, Mapping):
        raise AppealsError(
            _(
                "A pulka deal is adjusted by correcting its row: a pulka has no artificial or assigned results."
            ),
            code="adjustment",
        )
    assert appeal.pulka_table is not None and appeal.deal_number is not None
    check_pulka_row(
        appeal.pulka_table, appeal.deal_number, row, user=user, now=now, version=adjustment.get("version")
    )
    _plan(
        appeal,
        kind=ScoreChange.Kind.ROW,
        board=None,
        round=appeal.round_number,
        table=appeal.table_number,
        values=dict(row),
        deal=appeal.deal_number,
    )


class _DryRun(Exception):
    """Rolls back the savepoint in which the sheet's write path was asked about a row."""


def check_pulka_row(
    table: PulkaTable, deal: int, row: object, *, user: Any, now: dt.datetime, version: int | None = None
) -> None:
    """Would the sheet's write path accept ``row`` as deal ``deal`` (every later deal still standing; the sheet
    still at ``version`` if given)? It is asked itself, in a savepoint that is then rolled back: nothing is
    written, nothing is audited."""
    if not isinstance(row, Mapping):
        raise AppealsError(_("The corrected row of the deal is not valid."), code="row")
    try:
        with transaction.atomic():
            correct_deal(
                table=table, number=deal, row=row, now=now, user=user, reason="check", version=version
            )
            raise _DryRun
    except _DryRun:
        return
    except ResultRejected as exc:
        raise AppealsError(
            _("The sheet refuses this row: %(why)s") % {"why": rejection_text(exc)}, code="rejected"
        ) from exc
    except UserError as exc:
        raise AppealsError(exc.message, code=exc.code) from exc


# --- rulings ------------------------------------------------------------------------------------------------


def pulka_irregularity_record(
    *,
    tournament: Tournament,
    table: PulkaTable,
    kind: str,
    deal: int | None = None,
    description: str = "",
    row: Mapping[str, Any] | None = None,
    user: Any,
    now: dt.datetime,
) -> Irregularity:
    """Record an irregularity at a pulka table (a deal, or the table as a whole) and the director's remedy: the
    deal's corrected row, or none (the deal stands). Nothing changes until the ruling is applied."""
    if kind not in PULKA_KINDS:
        raise AppealsError(_("Unknown kind of irregularity."), code="kind")
    place = pulka_place(tournament, table, deal, deal_required=row is not None)
    with transaction.atomic():
        irregularity = Irregularity.objects.create(
            tournament=tournament,
            **place.fields,
            kind=kind,
            seats=place.seats,
            facts={"row": dict(row)} if row else {},
            description=description,
            recorded_at=now,
            recorded_by=user if getattr(user, "is_authenticated", False) else None,
        )
        _propose(irregularity, user=user, now=now)
        log_action(
            tournament=tournament,
            action="irregularity.record",
            user=user,
            obj=irregularity,
            at=now,
            reason=description,
            data={
                "irregularity": irregularity.pk,
                "kind": kind,
                **place.audit,
                "proposal": irregularity.proposal,
            },
        )
    return irregularity


def pulka_irregularity_revise(
    *,
    irregularity: Irregularity,
    row: Mapping[str, Any] | None,
    user: Any,
    now: dt.datetime,
    version: int | None = None,
) -> Irregularity:
    """The director's remedy changed before the ruling is applied: a corrected row (read from the sheet at
    ``version``), or none."""
    with transaction.atomic():
        irregularity = _lock(Irregularity, irregularity.pk)
        _check_transition(irregularity, [Irregularity.Status.RECORDED], _("revise the ruling"))
        if row is not None and irregularity.deal_number is None:
            raise AppealsError(_("Name the deal."), code="deal")
        irregularity.facts = {**irregularity.facts, "row": dict(row) if row else None}
        _propose(irregularity, user=user, now=now, version=version)
        log_action(
            tournament=irregularity.tournament,
            action="irregularity.revise",
            user=user,
            obj=irregularity,
            at=now,
            data={"irregularity": irregularity.pk, "proposal": irregularity.proposal},
        )
    return irregularity


def _propose(irregularity: Irregularity, *, user: Any, now: dt.datetime, version: int | None = None) -> None:
    """The remedy of a pulka ruling, planned: the corrected row (checked by the sheet's write path) or none."""
    irregularity.changes.filter(status=ScoreChange.Status.PLANNED).delete()
    row = irregularity.facts.get("row")
    deal = irregularity.deal_number
    with translation.override(irregularity.tournament.language):
        if row and deal is not None:
            assert irregularity.pulka_table is not None
            check_pulka_row(irregularity.pulka_table, deal, row, user=user, now=now, version=version)
            text = _("Deal %(n)s is corrected as the director rules.") % {"n": deal}
            changes = [{"kind": "row", "deal": deal, "values": dict(row)}]
        else:
            text, changes = _("No score change: the deal stands as written."), []
    irregularity.proposal = {
        "rule": "",
        "code": "pulka_row" if changes else "pulka_none",
        "text": text,
        "params": {"deal": deal},
        "changes": changes,
    }
    irregularity.save(update_fields=["facts", "proposal"])
    for c in changes:
        _plan(
            irregularity,
            kind=ScoreChange.Kind.ROW,
            board=None,
            round=irregularity.round_number,
            table=irregularity.table_number,
            values=c["values"],
            deal=deal,
        )


# --- corrections --------------------------------------------------------------------------------------------


def pulka_correction_request(
    *,
    tournament: Tournament,
    table: PulkaTable,
    deal: int,
    description: str,
    kind: str = Correction.Kind.ENTRY,
    participant: Participant | None = None,
    late_note: str = "",
    user: Any = None,
    now: dt.datetime,
) -> Correction:
    """Ask for a pulka deal to be corrected: the correction period of §1, as at a duplicate event."""
    place = pulka_place(tournament, table, deal, participant=participant)
    return record_correction(
        tournament=tournament,
        where=place.fields,
        audit=place.audit,
        description=description,
        kind=kind,
        participant=participant,
        late_note=late_note,
        user=user,
        now=now,
    )
