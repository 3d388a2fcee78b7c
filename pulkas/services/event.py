"""Creating an Olympic, compensation or Swiss event and changing its settings (pulka-spec §2.2, §10).

Every setting is checked by the pure core (``PulkaSetup.create`` for tables of 3 and of 4) before it is saved;
what decides how a pulka is scored is fixed once the first round has been drawn (Code 5.4.4: agreed before play).
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from preferans.pulka import SetupError
from pulkas.models import PulkaEvent, PulkaRound
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Form, Tournament
from tournaments.numbers import whole_number
from tournaments.services.event import tournament_create
from tournaments.setup_refusals import setup_refusal

PULKA_FORMS = (Form.OLYMPIC, Form.COMPENSATION, Form.SWISS)
# Settings that decide how a pulka is scored or who plays: fixed once a round has been drawn.
SCORING = (
    "pool",
    "max_deals",
    "raspasy_exit",
    "tiebreaks",
    "advance",
    "olympic_refill",
    "compensation_x",
    "compensation_y",
)
RATING = ("rating_base", "compression_threshold", "compression_divisor", "cut_after", "cut_to")
FREE = ("round_minutes", "rounds")
# Olympic: the regulation's advance by round ({"2": 2}), open for every round not yet drawn.
BY_ROUND = ("advance_by_round",)
EDITABLE = (*SCORING, *RATING, *FREE, *BY_ROUND)
MAX_ROUND = 50

DEFAULTS: dict[str, dict[str, Any]] = {
    Form.OLYMPIC: {"pool": 20, "max_deals": None, "rounds": 3},
    Form.COMPENSATION: {"pool": 10, "rating_base": "per_deal", "rounds": 3},
    Form.SWISS: {
        "pool": 10,
        "rating_base": "vists",
        "rounds": 7,
        "compression_threshold": 100,
        "compression_divisor": 2,
    },
}


def check_settings(tournament: Tournament, event: PulkaEvent) -> None:
    """The settings must give a valid pulka at tables of 3 and of 4, and a sensible cut."""
    for players in (3, 4):
        try:
            event.setup(players, "N")
        except SetupError as exc:
            raise setup_refusal(exc) from exc
    if (event.cut_after is None) != (event.cut_to is None):
        raise UserError(_("A cut needs both the round after which it is made and how many players it keeps."))
    if event.cut_after is not None and event.cut_to is not None:
        if not 1 <= event.cut_after < event.rounds:
            raise UserError(_("The cut comes after one of the rounds before the last."))
        if event.cut_to < 3:
            raise UserError(_("The cut keeps at least 3 players (one table)."))
    by_round = event.advance_by_round or {}
    if not isinstance(by_round, dict) or any(
        whole_number(str(k), digits=2, low=1, high=MAX_ROUND) is None or v not in (1, 2)
        for k, v in by_round.items()
    ):
        raise UserError(
            _("Players going on by round: 1 or 2 for a round from 1 to 50."), code="advance_by_round"
        )
    if event.compression_divisor is not None and event.compression_threshold is None:
        raise UserError(_("The compression divisor needs a threshold."))


@transaction.atomic
def pulka_event_create(
    *,
    name: str,
    form: str,
    user: Any,
    now: dt.datetime,
    settings: Mapping[str, Any] | None = None,
    **fields: Any,
) -> Tournament:
    """A new event played in pulkas: the tournament (no duplicate session) and its settings."""
    if form not in PULKA_FORMS:
        raise UserError(_("Choose the Olympic, compensation or Swiss form."), code="form")
    tournament = tournament_create(name=name, user=user, now=now, form=form, **fields)
    values = {**DEFAULTS[form], **dict(settings or {})}
    event = PulkaEvent(tournament=tournament, **{k: v for k, v in values.items() if k in EDITABLE})
    check_settings(tournament, event)
    event.save()
    log_action(
        tournament=tournament,
        action="pulka_event_created",
        user=user,
        at=now,
        obj=event,
        data={"form": form, **{k: getattr(event, k) for k in EDITABLE}},
    )
    return tournament


@transaction.atomic
def pulka_settings_update(
    *, event: PulkaEvent, changes: Mapping[str, Any], user: Any, now: dt.datetime
) -> PulkaEvent:
    tournament = event.tournament
    tournament.ensure_not_locked()
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise ValueError(f"not editable here: {', '.join(unknown)}")
    changed = {k: v for k, v in changes.items() if getattr(event, k) != v}
    if not changed:
        return event
    if PulkaRound.objects.filter(tournament=tournament).exists() and set(changed) & set(SCORING + RATING):
        raise UserError(
            _(
                "A round has been drawn: the pool, deal limit, raspasy, tie-breaks, advance, compensation, rating "
                "and cut are fixed now (Code 5.4.4: agreed before play)."
            ),
            code="settings_fixed",
        )
    if "advance_by_round" in changed:
        _check_rounds_not_drawn(event, changed["advance_by_round"])
    candidate = copy.copy(event)  # a refused change leaves the caller's object as it was
    for key, value in changed.items():
        setattr(candidate, key, value)
    check_settings(tournament, candidate)
    for key, value in changed.items():
        setattr(event, key, value)
    event.save()
    log_action(
        tournament=tournament,
        action="pulka_settings_changed",
        user=user,
        at=now,
        obj=event,
        data={k: v for k, v in changed.items()},
    )
    return event


def _check_rounds_not_drawn(event: PulkaEvent, new: Any) -> None:
    """The regulation's advance of a round is fixed once the round is drawn (its players know it)."""
    old = {k: event.advance_for(int(k)) for k in (event.advance_by_round or {})}
    fresh = {str(k): v for k, v in (new or {}).items()} if isinstance(new, dict) else {}
    drawn = set(PulkaRound.objects.filter(tournament=event.tournament).values_list("number", flat=True))
    for key in set(old) | set(fresh):
        if whole_number(str(key), digits=4) not in drawn:
            continue
        if fresh.get(key, event.advance) != old.get(key, event.advance):
            raise UserError(
                _("Round %(n)s has been drawn: how many go on from its tables is fixed.") % {"n": key},
                code="settings_fixed",
            )
