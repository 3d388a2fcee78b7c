"""Deadlines of the rules (duplicate-rules §1), as plain functions of the facts and of ``now``.

* Notice («предупредить судью»): the director must be warned of an appeal **before the start of the next
  deal**. The software cannot see cards being taken out of a box; it knows the deal had certainly started when
  the table entered a later board of the round, or when a later round started. The director records when the
  notice was given; :func:`check_notice` compares it with what is known, and :func:`check_notice_given` asks at
  the filing whether a notice was given at all (when the organisers require one).
* Filing («подать апелляцию»): **no later than 30 minutes after the end of the session** (configurable).
* Corrections («период коррекции»): **30 minutes after publication of the official result** unless the
  organisers set another time (``Tournament.correction_minutes``). After the results are final only obvious
  (arithmetic) errors are corrected.

"No later than" is inclusive: a filing at exactly the deadline is in time, one microsecond later is late.
Every time written into a text is in the event's time zone (the ``zone`` argument): never UTC beside local time.
Pure Python, no Django import; every function takes ``now`` (tests pin the clock).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "DEFAULT_FILING_MINUTES",
    "Check",
    "check_correction",
    "check_filing",
    "check_notice",
    "check_notice_given",
    "correction_deadline",
    "filing_deadline",
    "scores_closed",
]

DEFAULT_FILING_MINUTES: Final = 30
"""§1: the appeal is filed no later than 30 minutes after the end of the session."""
DEFAULT_CORRECTION_MINUTES: Final = 30
"""§1: corrections within 30 minutes after publication of the official result."""

# Publication states, as stored in ``Tournament.publication``.
DRAFT, PROVISIONAL, OFFICIAL, FINAL = "draft", "provisional", "official", "final"


@dataclass(frozen=True)
class Check:
    """The outcome of a deadline check: ``ok``, a stable ``code``, English text and its parameters."""

    ok: bool
    code: str
    message: str
    rule: str
    deadline: dt.datetime | None = None
    params: dict[str, object] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.ok


def filing_deadline(session_ended_at: dt.datetime | None, minutes: int) -> dt.datetime | None:
    """When the filing period of a session closes (``None`` while the session is still being played)."""
    if session_ended_at is None:
        return None
    return session_ended_at + dt.timedelta(minutes=minutes)


def correction_deadline(official_at: dt.datetime | None, minutes: int) -> dt.datetime | None:
    """When the correction period closes (``None`` until the official results are published)."""
    if official_at is None:
        return None
    return official_at + dt.timedelta(minutes=minutes)


def scores_closed(*, publication: str, locked: bool, arithmetic: bool = False) -> str | None:
    """Why scores may not change (``None``: they may): ``"locked"`` — a locked event changes never;
    ``"final"`` — final results change only for an obvious arithmetic error (§1: «очевидные ошибки»)."""
    if locked:
        return "locked"
    if publication == FINAL and not arithmetic:
        return "final"
    return None


def _hm(moment: dt.datetime | None, zone: dt.tzinfo | None = None) -> str:
    """``HH:MM`` of ``moment`` in the event's time zone ``zone`` (``None``: as given). Every time a person reads
    is in one zone: a deadline in local time beside a filing time in UTC would be off by hours."""
    if moment is None:
        return "—"
    if zone is not None and moment.tzinfo is not None:
        moment = moment.astimezone(zone)
    return moment.strftime("%H:%M")


def check_filing(
    *,
    now: dt.datetime,
    session_ended_at: dt.datetime | None,
    minutes: int,
    publication: str = PROVISIONAL,
    zone: dt.tzinfo | None = None,
) -> Check:
    """May an appeal on a deal of this session be filed at ``now``? (§1) Times in the text are in ``zone``."""
    if publication == FINAL:
        return Check(
            False,
            "results_final",
            "the results are final: they are not revised except for obvious (arithmetic) errors",
            "§1",
        )
    deadline = filing_deadline(session_ended_at, minutes)
    if deadline is None:
        return Check(True, "session_running", "the session is still being played", "§1")
    if now <= deadline:
        return Check(True, "in_time", "filed in time", "§1", deadline, {"deadline": _hm(deadline, zone)})
    at, closes = _hm(now, zone), _hm(deadline, zone)
    return Check(
        False,
        "filing_late",
        f"filed at {at}: appeals close {minutes} minutes after the end of the session, at {closes}",
        "§1",
        deadline,
        {"now": at, "deadline": closes, "minutes": minutes},
    )


def check_notice(
    *,
    notice_at: dt.datetime,
    next_deal_started_at: dt.datetime | None,
    filed_at: dt.datetime | None = None,
    zone: dt.tzinfo | None = None,
) -> Check:
    """Was the director warned before the next deal started? (§1)

    ``next_deal_started_at`` is the earliest moment the software knows the next deal had begun (``None``:
    nothing known, the notice stands as recorded).
    """
    if filed_at is not None and notice_at > filed_at:
        return Check(False, "notice_after_filing", "the notice cannot come after the filing", "§1")
    if next_deal_started_at is None or notice_at < next_deal_started_at:
        return Check(True, "notice_in_time", "notice given before the next deal", "§1")
    notice, started = _hm(notice_at, zone), _hm(next_deal_started_at, zone)
    return Check(
        False,
        "notice_late",
        f"notice at {notice}, but the next deal had started by {started}",
        "§1",
        next_deal_started_at,
        {"notice": notice, "started": started},
    )


def check_notice_given(
    *,
    required: bool,
    notice_at: dt.datetime | None,
    notice_admitted: bool,
    next_deal_started_at: dt.datetime | None,
    filed_at: dt.datetime,
    zone: dt.tzinfo | None = None,
    disputed_at: dt.datetime | None = None,
) -> Check:
    """At the filing: was the director warned of the appeal before the next deal started? (§1, general
    provisions: «О подаче апелляции необходимо предупредить судью до начала следующей сдачи».)

    * ``required`` off (the organisers' choice): no notice is asked for.
    * A recorded notice: in time if given before the next deal started, or if the director admitted a late
      one with a note (``notice_admitted``).
    * A dispute at the table (``disputed_at``: the appellant pressed «Оспорить — позвать судью» on that deal's
      row) called the director: it is the notice (``dispute_is_notice``) when it came before the next deal.
    * No notice recorded: the filing itself warns the director, so it is enough when it comes before the next
      deal is known to have started (``next_deal_started_at`` ``None``: nothing known to have started).
    * Otherwise the notice is missing (``notice_missing``) or late (``notice_late``): the appeal needs the
      director's admission with a note.
    """
    if not required:
        return Check(True, "notice_not_required", "the organisers do not require a notice", "§1")
    recorded: Check | None = None
    if notice_at is not None:
        if notice_admitted:
            return Check(True, "notice_admitted", "a late notice admitted by the director", "§1")
        recorded = check_notice(notice_at=notice_at, next_deal_started_at=next_deal_started_at, zone=zone)
        if recorded:
            return recorded
    if disputed_at is not None and disputed_at <= filed_at:
        if next_deal_started_at is None or disputed_at < next_deal_started_at:
            return Check(
                True,
                "dispute_is_notice",
                "the player disputed the row at the table before the next deal: the director was called",
                "§1",
            )
        if recorded is None:
            return check_notice(notice_at=disputed_at, next_deal_started_at=next_deal_started_at, zone=zone)
    if recorded is not None:
        return recorded
    if next_deal_started_at is None or filed_at < next_deal_started_at:
        return Check(True, "filing_is_notice", "filed before the next deal: the filing is the notice", "§1")
    started = _hm(next_deal_started_at, zone)
    return Check(
        False,
        "notice_missing",
        f"no notice was given to the director before the next deal, which had started by {started}",
        "§1",
        next_deal_started_at,
        {"started": started},
    )


def check_correction(
    *,
    now: dt.datetime,
    publication: str,
    official_at: dt.datetime | None,
    minutes: int,
    arithmetic: bool,
    zone: dt.tzinfo | None = None,
) -> Check:
    """May a result be corrected at ``now``? (§1)

    Before the official results: yes. Official: within ``minutes`` of ``official_at`` (inclusive). After that,
    and once the results are final, only an obvious arithmetic error.
    """
    if publication in (DRAFT, PROVISIONAL):
        return Check(True, "provisional", "the results are not official yet", "§1")
    deadline = correction_deadline(official_at, minutes)
    if publication == OFFICIAL and (deadline is None or now <= deadline):
        return Check(
            True, "in_time", "within the correction period", "§1", deadline, {"deadline": _hm(deadline, zone)}
        )
    if arithmetic:
        return Check(
            True, "arithmetic", "an obvious arithmetic error may always be corrected", "§1", deadline
        )
    if publication == FINAL:
        return Check(
            False,
            "results_final",
            "the results are final: only obvious (arithmetic) errors are corrected",
            "§1",
            deadline,
        )
    return Check(
        False,
        "correction_late",
        f"the correction period ended at {_hm(deadline, zone)} ({minutes} minutes after the official results)",
        "§1",
        deadline,
        {"deadline": _hm(deadline, zone), "minutes": minutes},
    )
