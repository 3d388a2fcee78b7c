"""An Olympic event's bracket for the director (004-II: «Остальные игроки выбывают»): before round 1 and on, per
round the field, the tables and who goes on, a warning on a round whose winners cannot be seated with the fix
offered; and the director's decision for the round about to be drawn (the second-placed also go on at chosen
tables, with a reason: audited by ``pulkas.services.olympic.record_decision``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from preferans.pulka.olympic import BracketRound
from pulkas.models import PulkaEvent
from pulkas.services import olympic
from tournaments.errors import UserError
from tournaments.models import Tournament
from tournaments.numbers import whole_number
from ui.director_pages import directs, fail


class DecisionForm(forms.Form):
    """The second-placed also go on at these tables of the round about to be drawn (none: withdraw)."""

    tables = forms.TypedMultipleChoiceField(
        label=gettext_lazy("The second-placed also go on at tables"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=olympic.MAX_REASON,
        help_text=gettext_lazy(
            "Recorded in the audit: the regulation's clause, or why the director decided so."
        ),
    )
    expected = forms.CharField(widget=forms.HiddenInput, required=False, max_length=400)

    def __init__(self, *args: Any, tables: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tables"].choices = [(n, str(n)) for n in range(1, tables + 1)]


def _tables_text(sizes: tuple[int, ...]) -> str:
    counts = Counter(sizes)
    return " + ".join(f"{counts[size]} × {size}" for size in sorted(counts, reverse=True))


def _row(r: BracketRound) -> dict[str, Any]:
    fixes = []
    if r.problem is not None:
        if r.fix_advance is not None:
            fixes.append(
                _("the regulation: %(k)s going on from each table in round %(n)s (%(going)s go on)")
                % {"k": r.fix_advance, "n": r.number, "going": r.fix_going_on}
            )
        if r.extra and r.advance == 1:
            fixes.append(
                ngettext(
                    "a decision of the director: the second-placed also go on at %(e)s table",
                    "a decision of the director: the second-placed also go on at %(e)s tables",
                    r.extra,
                )
                % {"e": r.extra}
            )
    return {
        "number": r.number,
        "players": r.players,
        "tables": _tables_text(r.tables),
        "advance": r.advance,
        "going_on": r.going_on,
        "final": r.final,
        "problem": olympic.problem_words(r.problem) if r.problem else "",
        "fixes": fixes,
    }


def olympic_panel(event: PulkaEvent) -> dict[str, Any]:
    """What the rounds and settings pages show of the bracket; ``round_count``: the rounds before the final,
    counted from round 1 (one advance setting each)."""
    first, b = olympic.event_bracket(event)
    rows = [_row(r) for r in b.rounds]
    panel: dict[str, Any] = {
        "first": first,
        "rows": rows,
        "field_problem": olympic.problem_words(b.field_problem) if b.field_problem else "",
        "round_count": first - 1 + sum(1 for r in b.rounds if not r.final),
        "refill": event.olympic_refill,
        "flagged": [r["number"] for r in rows if r["problem"]],
    }
    head = b.rounds[0] if b.rounds else None
    if head is not None and not head.final and head.advance == 1:
        decision = olympic.decision_of(event.tournament, first)
        tables = decision.tables if decision else []
        if head.problem is not None or decision is not None:
            panel["decision"] = decision
            panel["decision_form"] = DecisionForm(
                tables=len(head.tables),
                initial={
                    "tables": tables,
                    "reason": decision.reason if decision else "",
                    "expected": ",".join(str(n) for n in tables) if decision else "-",
                },
                prefix="od",
            )
            panel["decision_round"] = first
    return panel


@require_POST
@directs
def decision(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Record (or withdraw) the director's decision for the round about to be drawn."""
    from .views_pulka_settings import pulka_event  # the settings page shows the bracket: imported here

    event = pulka_event(tournament)
    back = redirect(reverse("director:pulka_rounds", kwargs={"slug": tournament.slug}))
    number, players = olympic.next_field_size(event)
    form = DecisionForm(request.POST, tables=max(players // 3, 1), prefix="od")
    if not form.is_valid():
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            messages.error(request, f"{label}: {' '.join(errors)}" if label else " ".join(errors))
        return back
    raw = form.cleaned_data["expected"]
    expected = (
        None
        if raw in ("", "-")
        else [n for x in raw.split(",") if (n := whole_number(x, digits=6)) is not None]
    )
    try:
        olympic.record_decision(
            event=event,
            round_number=number,
            tables=form.cleaned_data["tables"],
            reason=form.cleaned_data["reason"],
            expected=expected,
            user=request.user,
            now=timezone.now(),
        )
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("The decision for round %(n)s is recorded.") % {"n": number})
    return back
