"""Workflows of rulings, appeals and corrections: one keyword-only function each, in a transaction.

Time is passed in (``now``); every state change writes an audit entry; every score change is a
:class:`~appeals.models.ScoreChange` applied through ``scoring.rows`` and ``scoring.penalties`` (the one write path for results,
which audits it and rescores after the commit) and linked to the audit entry it wrote; at an event played in
pulkas a change is a deal's corrected row, applied through ``pulkas.services.sheet.correct_deal`` (the one write
path of a table's sheet). The «where» of a matter is a board of a session or a deal of a pulka table
(``appeals.services.pulka``), as the tournament's form says.

Errors a user can fix raise :class:`AppealsError` (and its subclasses) with a message in the active language;
anything else is a bug.
"""

from __future__ import annotations

from appeals.models import open_matters
from appeals.services._common import (
    AppealsError,
    DeadlineMissed,
    TransitionRefused,
    next_deal_started_at,
    penalty_add,
    penalty_remove,
    settings_for,
)
from appeals.services._where import guard_form, pulka_next_deal_started_at
from appeals.services.appeal_flow import (
    appeal_admit,
    appeal_apply,
    appeal_close,
    appeal_comment,
    appeal_decide,
    appeal_hear,
    appeal_sign,
    appeal_withdraw,
)
from appeals.services.committee import Elected, committee_elect
from appeals.services.corrections import (
    changes_for_participant,
    committee_add,
    committee_remove,
    correction_apply,
    correction_refuse,
    correction_request,
    settings_update,
)
from appeals.services.filing import appeal_file, appeal_notice
from appeals.services.irregularities import (
    irregularity_apply,
    irregularity_dismiss,
    irregularity_record,
    irregularity_revise,
)
from appeals.services.pulka import (
    PULKA_KINDS,
    check_pulka_row,
    pulka_appeal_file,
    pulka_appeal_notice,
    pulka_correction_request,
    pulka_irregularity_record,
    pulka_place,
    pulka_table_of,
)

__all__ = [
    "PULKA_KINDS",
    "check_pulka_row",
    "guard_form",
    "pulka_appeal_file",
    "pulka_appeal_notice",
    "pulka_correction_request",
    "pulka_irregularity_record",
    "pulka_next_deal_started_at",
    "pulka_place",
    "pulka_table_of",
    "changes_for_participant",
    "committee_add",
    "committee_elect",
    "Elected",
    "committee_remove",
    "settings_update",
    "irregularity_revise",
    "next_deal_started_at",
    "AppealsError",
    "DeadlineMissed",
    "TransitionRefused",
    "appeal_admit",
    "appeal_apply",
    "appeal_close",
    "appeal_comment",
    "appeal_decide",
    "appeal_file",
    "appeal_hear",
    "appeal_notice",
    "appeal_sign",
    "appeal_withdraw",
    "correction_apply",
    "correction_refuse",
    "correction_request",
    "irregularity_apply",
    "irregularity_dismiss",
    "irregularity_record",
    "open_matters",
    "penalty_add",
    "penalty_remove",
    "settings_for",
]
