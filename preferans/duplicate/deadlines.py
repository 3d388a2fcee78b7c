"""Deadlines of the rules (duplicate-rules §1), as plain functions of the facts and of ``now``.

* Notice («предупредить судью»): the director must be warned of an appeal **before the start of the next
  deal**. The software cannot see cards being taken out of a box; it knows the deal had certainly started when
  the table entered a later board of the round, or when a later round started. The director records when the
  notice was given; :func:`check_notice` compares it with what is known.
* Filing («подать апелляцию»): **no later than 30 minutes after the end of the session** (configurable).
* Corrections («период коррекции»): **30 minutes after publication of the official result** unless the
  organisers set another time (``Tournament.correction_minutes``). After the results are final only obvious
  (arithmetic) errors are corrected.

"No later than" is inclusive: a filing at exactly the deadline is in time, one microsecond later is late.
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


def _hm(moment: dt.datetime | None) -> str:
    return moment.strftime("%H:%M") if moment else "—"


def check_filing(
    *, now: dt.datetime, session_ended_at: dt.datetime | None, minutes: int, publication: str = PROVISIONAL
) -> Check:
    """May an appeal on a deal of this session be filed at ``now``? (§1)"""
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
        return Check(True, "in_time", "filed in time", "§1", deadline, {"deadline": _hm(deadline)})
    return Check(
        False,
        "filing_late",
        f"filed at {_hm(now)}: appeals close {minutes} minutes after the end of the session, at {_hm(deadline)}",
        "§1",
        deadline,
        {"now": _hm(now), "deadline": _hm(deadline), "minutes": minutes},
    )


def check_notice(
    *, notice_at: dt.datetime, next_deal_started_at: dt.datetime | None, filed_at: dt.datetime | None = None
) -> Check:
    """Was the director warned before the next deal started? (§1)

    ``next_deal_started_at`` is the earliest moment the software knows the next deal had begun (``None``:
    nothing known, the notice stands as recorded).
    """
    if filed_at is not None and notice_at > filed_at:
        return Check(False, "notice_after_filing", "the notice cannot come after the filing", "§1")
    if next_deal_started_at is None or notice_at < next_deal_started_at:
        return Check(True, "notice_in_time", "notice given before the next deal", "§1")
    return Check(
        False,
        "notice_late",
        f"notice at {_hm(notice_at)}, but the next deal had started by {_hm(next_deal_started_at)}",
        "§1",
        next_deal_started_at,
        {"notice": _hm(notice_at), "started": _hm(next_deal_started_at)},
    )


def check_correction(
    *,
    now: dt.datetime,
    publication: str,
    official_at: dt.datetime | None,
    minutes: int,
    arithmetic: bool,
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
            True, "in_time", "within the correction period", "§1", deadline, {"deadline": _hm(deadline)}
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
        f"the correction period ended at {_hm(deadline)} ({minutes} minutes after the official results)",
        "§1",
        deadline,
        {"deadline": _hm(deadline), "minutes": minutes},
    )
