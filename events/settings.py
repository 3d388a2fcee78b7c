"""Changing an event's settings, either form: what may change once results, seatings or drawn rounds exist, and
the duplicate standings computed again when a setting they depend on changes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import Result
from scoring.rescore import mark_changed
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Seating, Tournament
from tournaments.services.event import check_artificial, check_confirmation, check_rules, check_zone

# Settings that define how rows are read and seated: frozen once results (or seatings) exist.
STRUCTURAL = ("variant", "rule_overrides", "players_per_table", "deals_per_set")
SCORING = ("unequal_results", "artificial", "session_totals", "qualification_id", "carry_over")
EDITABLE = (
    "name",
    "starts_on",
    "venue",
    "language",
    "zone",
    "minutes_per_deal",
    "correction_minutes",
    "confirmation",
    "bidding_record",
    *STRUCTURAL,
    *SCORING,
)


def _jsonable(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


@transaction.atomic
def tournament_update(
    *, now: dt.datetime, tournament: Tournament, user: Any, changes: Mapping[str, Any], reason: str = ""
) -> Tournament:
    """Change settings. How rows are read and seated is frozen once results or seatings exist."""
    tournament.ensure_not_locked()
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise ValueError(f"not editable here: {', '.join(unknown)}")
    changed = {k: v for k, v in changes.items() if getattr(tournament, k) != v}
    if not changed:
        return tournament
    structural = [k for k in changed if k in STRUCTURAL]
    if structural and Result.objects.filter(session__tournament=tournament).exists():
        raise UserError(
            _(
                "Results have been entered: the variant, rules, players per table and deals per set are fixed now."
            )
        )
    # An event played in pulkas: once a round is drawn its pulkas are scored by these rules (Code 5.4.4). The
    # rounds are reached by their reverse name: this layer does not import the pulkas app.
    if structural and tournament.plays_pulkas and tournament.pulka_rounds.exists():  # type: ignore[attr-defined]
        raise UserError(
            _("A round has been drawn: the variant, rules and players per table are fixed now (Code 5.4.4)."),
            code="settings_fixed",
        )
    seated = Seating.objects.filter(session__tournament=tournament).exists()
    if seated and {"players_per_table", "deals_per_set"} & set(changed):
        raise UserError(
            _(
                "The movement has been set up: choose the movement again after changing players per table or deals per set."
            )
        )
    if "name" in changed and not str(changed["name"]).strip():
        raise UserError(_("Give the tournament a name."))
    variant = changed.get("variant", tournament.variant)
    check_rules(variant, changed.get("rule_overrides", tournament.rule_overrides), tournament.form)
    if "artificial" in changed:
        changed["artificial"] = check_artificial(changed["artificial"])
    if "zone" in changed:
        changed["zone"] = check_zone(changed["zone"])
    if "confirmation" in changed:
        changed["confirmation"] = check_confirmation(changed["confirmation"])
    before = {k: _jsonable(getattr(tournament, k)) for k in changed}
    for key, value in changed.items():
        setattr(tournament, key, value)
    tournament.save(update_fields=list(changed))
    log_action(
        tournament=tournament,
        action="tournament.settings",
        user=user,
        obj=tournament,
        reason=reason,
        data={"before": before, "after": {k: _jsonable(v) for k, v in changed.items()}},
        at=now,
    )
    if set(SCORING) & set(changed):
        for session in tournament.sessions.all():
            mark_changed(session, now=now)
    return tournament
