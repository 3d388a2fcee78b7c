"""Filing an appeal (rules §1, Appendix B): the notice to the director and the appeal itself.

The «where» differs by the tournament's form (a board of a duplicate session here, a pulka deal in
:mod:`appeals.services.pulka`); what follows is one path for both: the §1 deadlines (notice before the next
deal, filing within the minutes after the end of the session or the round), the numbering, a notice turned into
the filed appeal, a late filing stored as refused with its reason, and the audit entry. When the organisers
require a notice (``AppealSettings.notice_required``), an appeal whose director was not warned before the next
deal is stored as refused too, with its reason; the director admits it with a note (at once when he files for
the player, or later with ``appeal_admit``). Every time in a message is in the event's time zone.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from appeals.models import Appeal, Irregularity
from appeals.services._common import (
    AppealsError,
    DeadlineMissed,
    _local,
    next_deal_started_at,
    settings_for,
)
from appeals.services._where import Place, guard_form, next_deal_of
from preferans.duplicate import deadlines
from scoring.models import Result
from tournaments.audit import log_action, participant_actor
from tournaments.models import AuditEntry, Participant, Seating, Session, Tournament


def _next_number(tournament: Tournament) -> int:
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    return (Appeal.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1


def _where_played(
    session: Session, appellant: Participant, round: int, board: int, table: int | None
) -> tuple[int, int, dict[str, int]]:
    """The room and table at which the appellant played (or was seated for) the board in that round (rooms play
    the same boards: table 1 of room 2 is not table 1 of room 1)."""
    rows = Result.objects.filter(session=session, round_number=round, board_number=board)
    if table is not None:
        rows = rows.filter(table_number=table)
    for r in rows.select_related("seat_n", "seat_e", "seat_s", "seat_w"):
        if appellant.number in r.seats().values():
            return r.room, r.table_number, r.seats()
    seatings = Seating.objects.filter(session=session, round_number=round)
    board_set = session.boards.filter(number=board).values_list("set_number", flat=True).first()
    if board_set is not None:
        seatings = seatings.filter(set_number=board_set)
    if table is not None:
        seatings = seatings.filter(table_number=table)
    for s in seatings.select_related("seat_n", "seat_e", "seat_s", "seat_w"):
        numbers = {seat: p.number for seat, p in s.seats().items()}
        if appellant.number in numbers.values():
            return s.room, s.table_number, numbers
    raise AppealsError(
        _("Participant %(p)s did not play board %(b)s in round %(r)s.")
        % {"p": appellant.number, "b": board, "r": round},
        code="not_played",
    )


def _session_place(
    session: Session, appellant: Participant, round: int, board: int, table: int | None
) -> Place:
    guard_form(session.tournament, pulka=False)
    room, table, seats = _where_played(session, appellant, round, board, table)
    fields = {
        "session": session,
        "round_number": round,
        "board_number": board,
        "table_number": table,
        "room": room,
    }
    return Place(
        fields,
        seats,
        {"board": board, "round": round, "table": table} | ({"room": room} if room != 1 else {}),
    )


def appeal_notice(
    *,
    session: Session,
    appellant: Participant,
    round: int,
    board: int,
    table: int | None = None,
    ruling: Irregularity | None = None,
    user: Any,
    now: dt.datetime,
    late_note: str = "",
) -> Appeal:
    """Record that a player warned the director of an appeal (§1: before the start of the next deal)."""
    place = _session_place(session, appellant, round, board, table)
    started = next_deal_started_at(session=session, board=board, round=round, table=place.table)
    return record_notice(
        tournament=session.tournament,
        place=place,
        appellant=appellant,
        started=started,
        ruling=ruling,
        user=user,
        now=now,
        late_note=late_note,
    )


def record_notice(
    *,
    tournament: Tournament,
    place: Place,
    appellant: Participant,
    started: dt.datetime | None,
    ruling: Irregularity | None,
    user: Any,
    now: dt.datetime,
    late_note: str,
) -> Appeal:
    """The notice at either kind of event: ``started`` is when the next deal at that table is known to have
    begun."""
    check = deadlines.check_notice(notice_at=now, next_deal_started_at=started, zone=tournament.time_zone)
    if not check and not late_note.strip():
        raise DeadlineMissed(
            _(
                "Notice too late: the next deal at table %(t)s had started by %(at)s (§1). Admit it with a note."
            )
            % {"t": place.table, "at": _local(check.deadline, tournament.time_zone)},
            check=check,
        )
    _check_ruling(tournament, ruling)
    if Appeal.objects.filter(**place.deal_key, appellant=appellant, status=Appeal.Status.NOTICE).exists():
        raise AppealsError(_("This notice is already recorded."), code="duplicate")
    with transaction.atomic():
        appeal = Appeal.objects.create(
            tournament=tournament,
            **place.fields,
            number=_next_number(tournament),
            ruling=ruling,
            appellant=appellant,
            seats=place.seats,
            notice_at=now,
            late_note=late_note if not check else "",
            status=Appeal.Status.NOTICE,
            filed_via=Appeal.Via.DIRECTOR,
        )
        log_action(
            tournament=tournament,
            action="appeal.notice",
            user=user,
            obj=appeal,
            at=now,
            reason=late_note,
            data={
                "appeal": appeal.pk,
                "number": appeal.number,
                "participant": appellant.number,
                **place.audit,
                "in_time": bool(check),
            },
        )
    return appeal


def _check_ruling(tournament: Tournament, ruling: Irregularity | None) -> None:
    if ruling is not None and ruling.tournament_id != tournament.pk:
        raise AppealsError(_("That ruling is not one of this tournament's."), code="ruling")


def appeal_file(
    *,
    session: Session,
    appellant: Participant,
    round: int,
    board: int,
    claim: str,
    table: int | None = None,
    bidding: str = "",
    play: str = "",
    ruling: Irregularity | None = None,
    via: str = Appeal.Via.PLAYER,
    late_note: str = "",
    user: Any = None,
    now: dt.datetime,
) -> Appeal:
    """File an appeal (Appendix B). A late filing is stored as refused, with the reason; a director filing for a
    player may admit it at once with a written note (``late_note``)."""
    if not claim.strip():
        raise AppealsError(_("Say what the claim is."), code="claim")
    place = _session_place(session, appellant, round, board, table)
    return record_filing(
        tournament=session.tournament,
        place=place,
        ended_at=session.ended_at,
        appellant=appellant,
        claim=claim,
        bidding=bidding,
        play=play,
        ruling=ruling,
        via=via,
        late_note=late_note,
        user=user,
        now=now,
    )


def record_filing(
    *,
    tournament: Tournament,
    place: Place,
    ended_at: dt.datetime | None,
    appellant: Participant,
    claim: str,
    bidding: str,
    play: str,
    ruling: Irregularity | None,
    via: str,
    late_note: str,
    user: Any,
    now: dt.datetime,
    part: str = "session",
) -> Appeal:
    """The filing at either kind of event: ``ended_at`` is the end of the session (duplicate) or of the round
    (``part="round"``, a pulka event); appeals close the tournament's filing minutes after it."""
    if not claim.strip():
        raise AppealsError(_("Say what the claim is."), code="claim")
    conf = settings_for(tournament)
    if via == Appeal.Via.PLAYER and not conf.online_filing:
        raise AppealsError(_("Appeals are filed with the director at this tournament."), code="offline")
    _check_ruling(tournament, ruling)
    check = deadlines.check_filing(
        now=now,
        session_ended_at=ended_at,
        minutes=conf.filing_minutes,
        publication=tournament.publication,
        zone=tournament.time_zone,
    )
    with transaction.atomic():
        appeal = (
            Appeal.objects.select_for_update()
            .filter(**place.deal_key, appellant=appellant, status=Appeal.Status.NOTICE)
            .first()
        )
        if appeal is None:
            appeal = Appeal(tournament=tournament, number=_next_number(tournament), appellant=appellant)
        for name, value in place.fields.items():
            setattr(appeal, name, value)
        notice = _notice_given(appeal, ruling or appeal.ruling, required=conf.notice_required, now=now)
        admitted = bool(
            not (check and notice)
            and check.code != "results_final"
            and via == Appeal.Via.DIRECTOR
            and late_note.strip()
        )
        appeal.ruling = ruling or appeal.ruling
        appeal.seats = place.seats
        appeal.claim, appeal.bidding, appeal.play = claim, bidding, play
        appeal.filed_at = now
        appeal.filed_via = via
        appeal.filed_by = user if getattr(user, "is_authenticated", False) else None
        appeal.deadline = check.deadline
        if notice.code == "dispute_is_notice" and appeal.notice_at is None:
            appeal.notice_at = disputed_at(appeal)
        if (check and notice) or admitted:
            appeal.status = Appeal.Status.FILED
            appeal.refusal = ""
            appeal.late_note = late_note if admitted else appeal.late_note
        else:
            appeal.status = Appeal.Status.REFUSED
            appeal.refusal = (
                _refusal_text(check, tournament.time_zone, part=part) if not check else notice_refusal(notice)
            )
        appeal.save()
        log_action(
            tournament=tournament,
            action="appeal.file" if appeal.status == Appeal.Status.FILED else "appeal.refuse",
            user=user,
            actor="" if user is not None else participant_actor(appellant),
            obj=appeal,
            at=now,
            reason=appeal.refusal or late_note,
            data={
                "appeal": appeal.pk,
                "number": appeal.number,
                "participant": appellant.number,
                **place.audit,
                "via": via,
                "deadline": check.code,
                "notice": notice.code,
                "admitted": admitted,
            },
        )
    return appeal


def _notice_given(
    appeal: Appeal, ruling: Irregularity | None, *, required: bool, now: dt.datetime
) -> deadlines.Check:
    """§1 «предупредить судью до начала следующей сдачи», asked at the filing (the core's rule). An appeal
    against a ruling given after the next deal had started is measured from the ruling: the player could not
    warn earlier, and no later deal is known to the software, so the filing is the notice."""
    started = next_deal_of(appeal)
    if ruling is not None and started is not None and ruling.recorded_at >= started:
        started = None
    notice_at = appeal.notice_at if appeal.status == Appeal.Status.NOTICE and appeal.pk else None
    return deadlines.check_notice_given(
        required=required,
        notice_at=notice_at,
        notice_admitted=bool(notice_at and appeal.late_note.strip()),
        next_deal_started_at=started,
        filed_at=now,
        zone=appeal.tournament.time_zone,
        disputed_at=disputed_at(appeal),
    )


def disputed_at(appeal: Appeal) -> dt.datetime | None:
    """When the appellant first disputed the deal's row at the table («Оспорить — позвать судью»): the dispute
    called the director, so it warned him of the appeal (§1). Only a duplicate row can be disputed at the
    table; a pulka sheet has no dispute."""
    if appeal.session_id is None or appeal.board_number is None:
        return None
    return (
        AuditEntry.objects.filter(
            tournament_id=appeal.tournament_id,
            action="result.dispute",
            data__session=appeal.session.number,
            data__round=appeal.round_number,
            data__board=appeal.board_number,
            data__table=appeal.table_number,
            data__room=appeal.room,
            data__participant=appeal.appellant.number,
        )
        .order_by("at")
        .values_list("at", flat=True)
        .first()
    )


def notice_refusal(check: deadlines.Check) -> str:
    """Why the notice does not count (§1), in the request's language, times in the event's zone."""
    if check.code == "notice_missing":
        return _(
            "The director was not warned of the appeal before the next deal, which had started by %(started)s "
            "(§1: warn the director before the next deal)."
        ) % {"started": check.params.get("started")}
    if check.code == "notice_late":
        return _(
            "The director was warned at %(notice)s, but the next deal had started by %(started)s (§1: warn the "
            "director before the next deal)."
        ) % {"notice": check.params.get("notice"), "started": check.params.get("started")}
    if check.code == "notice_after_filing":
        return _("The notice cannot come after the filing (§1).")
    return check.message


def _refusal_text(check: deadlines.Check, zone: dt.tzinfo, *, part: str = "session") -> str:
    if check.code == "filing_late":
        params = {
            "now": check.params.get("now"),
            "minutes": check.params.get("minutes"),
            "deadline": _local(check.deadline, zone),
        }
        minutes = int(params["minutes"] or 0)
        if part == "round":
            return (
                ngettext(
                    "Filed at %(now)s: appeals close %(minutes)s minute after the end of the round, at %(deadline)s (§1).",
                    "Filed at %(now)s: appeals close %(minutes)s minutes after the end of the round, at %(deadline)s (§1).",
                    minutes,
                )
                % params
            )
        return (
            ngettext(
                "Filed at %(now)s: appeals close %(minutes)s minute after the end of the session, at %(deadline)s (§1).",
                "Filed at %(now)s: appeals close %(minutes)s minutes after the end of the session, at %(deadline)s (§1).",
                minutes,
            )
            % params
        )
    if check.code == "results_final":
        return _("The results are final: they are not revised except for obvious (arithmetic) errors (§1).")
    return check.message
