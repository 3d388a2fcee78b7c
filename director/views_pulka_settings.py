"""The director's pages of a pulka event: what they share, and the event's settings.

The rounds page is :mod:`.director_rounds`, a table's sheet :mod:`.director_sheet`, the standings
:mod:`.director_standings`. Every page is behind ``directs`` (a director of this tournament); every change goes
through ``pulkas.services`` (or the tournament's own settings service), and a refusal is shown as it is.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from director.forms_pulka import TIEBREAK_FIELDS, PulkaSettingsForm, settings_state
from director.views_pulka_olympic import olympic_panel
from events.settings import tournament_update
from pulkas.models import PulkaEvent, PulkaRound, PulkaTable
from pulkas.services.event import check_settings, pulka_settings_update
from pulkas.services.sheet_authority import time_over
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from ui.director_pages import directs, nav

# Why a table's pulka is over (PulkaTable.reason), as the director reads it.
TABLE_STATES = {
    "waiting": gettext_lazy("waiting for the start"),
    "in_progress": gettext_lazy("playing"),
    "pool": gettext_lazy("ended by the pool"),
    "deal_limit": gettext_lazy("ended at the deal limit"),
    "stopped": gettext_lazy("stopped"),
    "time_up": gettext_lazy("time is up: waits for the director"),
}
# The core's codes for a bad setting (preferans.pulka.setup.SetupError), in the director's words.


# The settings page in sections, and what is fixed once a round is drawn, named once for several fields.
SETTING_GROUPS = (
    (
        gettext_lazy("The game at a table"),
        ("variant", "players_per_table", "pool", "max_deals", "round_minutes", "raspasy_exit", "rules"),
    ),
    (gettext_lazy("Places at a table"), (*TIEBREAK_FIELDS, "advance")),
    (
        gettext_lazy("Rating"),
        ("compensation_x", "compensation_y", "rating_base", "compression_threshold", "compression_divisor"),
    ),
    (gettext_lazy("Rounds"), ("rounds", "cut_after", "cut_to")),
)
FIXED_LABELS = (
    (
        gettext_lazy("the variant, its rules and the players per table"),
        ("variant", "players_per_table", "rules"),
    ),
    (gettext_lazy("the pool target and the deal limit"), ("pool", "max_deals")),
    (gettext_lazy("the exit from raspasy"), ("raspasy_exit",)),
    (gettext_lazy("the tie-breaks"), TIEBREAK_FIELDS),
    (gettext_lazy("who goes on from a table"), ("advance",)),
    (gettext_lazy("lucky losers and byes"), ("olympic_refill",)),
    (
        gettext_lazy("the extra column, the round rating and its compression"),
        ("compensation_x", "rating_base", "compression_threshold"),
    ),
    (gettext_lazy("the cut"), ("cut_after",)),
)


class FieldGroup:
    """Some fields of a form, rendered by the director's field partial like a form of their own."""

    def __init__(self, form: Any, names: tuple[str, ...]) -> None:
        self.fields = [form[n] for n in names if n in form.fields]

    def __iter__(self) -> Any:
        return iter(self.fields)

    def non_field_errors(self) -> str:
        return ""


def pulka_event(tournament: Tournament) -> PulkaEvent:
    """The event's pulka settings; a duplicate tournament has no pulka pages (404)."""
    event = PulkaEvent.objects.filter(tournament=tournament).first()
    if event is None or not tournament.plays_pulkas:
        raise Http404(_("This tournament is not played in pulkas."))
    event.tournament = tournament
    return event


def pulka_nav(tournament: Tournament, active: str) -> dict[str, Any]:
    return nav(tournament, active=active) | {"pulka": True}


def player_label(participant: Participant | None) -> str:
    if participant is None:
        return ""
    return f"{participant.number} {participant.name}".strip()


def table_state(table: PulkaTable) -> tuple[str, str]:
    """The state code for styles and tests, and its words."""
    code = "stopped" if table.stopped_at is not None and not table.ended else table.reason
    if code not in TABLE_STATES:
        code = "in_progress"
    if code == "in_progress" and table.round.status == PulkaRound.Status.PENDING:
        code = "waiting"
    over = table.overtime_deal is not None and table.deals_count >= table.overtime_deal
    if code == "in_progress" and over and time_over(table, timezone.now()):
        code = "time_up"  # the deal in progress at the limit is written: only the director moves it on
    return code, str(TABLE_STATES[code])


def show_refusal(form: Any, exc: UserError) -> None:
    """A refused change on its form: next to the field it concerns when the service named one."""
    if exc.details:
        for detail in exc.details:
            field = (
                detail.field
                if detail.field in form.fields and not form.fields[detail.field].disabled
                else None
            )
            form.add_error(field, detail.message)
    else:
        form.add_error(None, exc.message)


@directs
def settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Pool target, deal limit, time limit, raspasy exit, tie-breaks, advance, the extra column, the rating and
    its compression, rounds and the cut — and the game's variant, rules and players per table."""
    event = pulka_event(tournament)
    drawn = PulkaRound.objects.filter(tournament=tournament).count()
    fixed = drawn > 0
    olympic = olympic_panel(event) if tournament.form == "olympic" else {}
    form = PulkaSettingsForm(
        request.POST or None,
        tournament=tournament,
        event=event,
        fixed=fixed,
        olympic_rounds=olympic.get("round_count", 0),
        drawn=drawn,
    )
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["state"] != settings_state(tournament, event):
            messages.error(
                request,
                _(
                    "The settings were changed by somebody else since you opened the page. "
                    "Nothing was saved: here they are as they are now."
                ),
            )
            return redirect("director:pulka_settings", slug=tournament.slug)
        try:
            with transaction.atomic():
                now = timezone.now()
                tournament_update(
                    tournament=tournament, user=request.user, changes=form.tournament_changes(), now=now
                )
                pulka_settings_update(event=event, changes=form.event_changes(), user=request.user, now=now)
                check_settings(tournament, event)  # the variant and rules as the pulka reads them
        except UserError as exc:
            tournament.refresh_from_db()
            event.refresh_from_db()
            show_refusal(form, exc)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("director:pulka_settings", slug=tournament.slug)
    context = pulka_nav(tournament, "settings") | {
        "form": form,
        "groups": [
            (
                title,
                FieldGroup(
                    form, (*names, *form.round_fields, "olympic_refill") if "advance" in names else names
                ),
            )
            for title, names in SETTING_GROUPS
            if any(n in form.fields for n in names)
        ],
        "olympic": olympic,
        "event": event,
        "fixed": fixed,
        "fixed_labels": [str(label) for label, names in FIXED_LABELS if any(n in form.fields for n in names)],
    }
    return render(request, "director/pulka/settings.html", context, status=400 if form.errors else 200)
