"""The rounds page of a pulka event (its dashboard): every round's clock and tables, and the buttons that draw,
start, stop and end rounds; for an Olympic table with players tied at the cut, who goes on; the round's printed
files (table cards, seating, PIN slips)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from director.forms_pulka import DrawForm, RoundActionForm, TieForm
from players.services.ratings import register_ratings
from pulkas.models import PulkaEvent, PulkaRound, PulkaTable, PulkaTableResult
from pulkas.services import rounds as round_services
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from tournaments.numbers import list_count, whole_number
from tournaments.pins import pin_locks
from ui.director_pages import directs, fail

from .views_pulka_olympic import olympic_panel
from .views_pulka_settings import player_label, pulka_event, pulka_nav, table_state

SEAT_FIELDS = ("seat_n", "seat_e", "seat_s", "seat_w")
# The selected round's printed files (results.exporters; per round: the round is sent as the exports page's choice).
ROUND_PDFS = (
    ("pulka_table_cards", gettext_lazy("Table cards with codes and QR, PDF"), True),
    ("pulka_seating", gettext_lazy("Seating with the table codes, PDF"), True),
    ("pulka_pin_slips", gettext_lazy("PIN slips with own links, PDF"), False),
)


@dataclass
class SeatLine:
    seat: str
    participant: Participant
    first_dealer: bool
    result: PulkaTableResult | None = None
    goes_on: bool = False
    tied: bool = False


@dataclass
class TableCard:
    table: PulkaTable
    state: str
    state_text: str
    seats: list[SeatLine]
    sheet_url: str
    players_url: str
    tied: list[SeatLine] = field(default_factory=list)
    places: int = 0  # Olympic: how many of the tied go on
    tie_form: TieForm | None = None


def table_cards(event: PulkaEvent, pulka_round: PulkaRound) -> list[TableCard]:
    tables = (
        pulka_round.tables.select_related(*SEAT_FIELDS)
        .prefetch_related(Prefetch("results", queryset=PulkaTableResult.objects.order_by("seat")))
        .order_by("number")
    )
    olympic = event.tournament.form == "olympic"
    cards = []
    for table in tables:
        results = {r.seat: r for r in table.results.all()}
        advance = table.advance or {"seats": [], "tied": []}
        decided = list(table.tie_decision or [])
        seats = [
            SeatLine(
                seat,
                participant,
                seat == table.first_dealer,
                results.get(seat),
                goes_on=olympic and (seat in advance["seats"] or seat in decided),
                tied=seat in table.tie_to_decide,
            )
            for seat, participant in table.seats().items()
            if isinstance(participant, Participant)
        ]
        state, text = table_state(table)
        card = TableCard(
            table,
            state,
            text,
            seats,
            sheet_url=reverse(
                "director:pulka_table",
                kwargs={"slug": event.tournament.slug, "number": pulka_round.number, "table": table.number},
            ),
            players_url=f"/pulka/{table.code}/",
        )
        if olympic and advance["tied"] and table.finished:
            # The form lists every tied seat, decided or not (a decision may be changed); the badge (s.tied) only
            # marks a tie still to decide.
            card.tied = [s for s in seats if s.seat in advance["tied"]]
            card.places = table.olympic_advance(event) - len(advance["seats"])
            card.tie_form = TieForm(
                choices=[(s.seat, f"{s.seat} · {player_label(s.participant)}") for s in card.tied],
                initial={"seats": decided, "decided": ",".join(decided)},
                prefix=f"t{table.number}",
            )
        cards.append(card)
    return cards


def _next_draw(event: PulkaEvent, rounds: list[PulkaRound]) -> tuple[int | None, str]:
    """The number of the round the director may draw now, or None and why not."""
    last = rounds[-1] if rounds else None
    if last is None:
        return 1, ""
    if last.status != PulkaRound.Status.ENDED:
        return None, ""
    over = round_services.event_over(event, last)
    return (None, over) if over else (last.number + 1, "")


def _seeds_by_rating(tournament: Tournament, number: int | None) -> bool:
    """The first round of a compensation or Swiss event may be seated by rating (docs/players/rating.md)."""
    return number == 1 and tournament.form in ("compensation", "swiss")


def _draw_form(tournament: Tournament, number: int) -> DrawForm:
    form = DrawForm(initial={"number": number})
    if not _seeds_by_rating(tournament, number):
        del form.fields["by_rating"]
    return form


def _next_step(
    event: PulkaEvent, selected: PulkaRound | None, draw: int | None, cards: list[TableCard]
) -> str:
    if selected is None:
        if not Participant.objects.filter(tournament=event.tournament).exists():
            return _("Register the participants, then draw round 1.")
        return _("Check the settings, then draw round 1.")
    if selected.status == PulkaRound.Status.PENDING:
        return _("Announce the seating and the table codes, then start the round.")
    if selected.status == PulkaRound.Status.RUNNING:
        playing = sum(1 for c in cards if c.state == "in_progress")
        if playing:
            return ngettext(
                "%(n)s table is still playing. When time is up, stop it; then end the round.",
                "%(n)s tables are still playing. When time is up, stop them; then end the round.",
                playing,
            ) % {"n": playing}
        return _("Every table has finished: end the round.")
    if any(c.tie_form is not None and not c.table.tie_decision for c in cards):
        return _("Decide who goes on among the players tied at the cut, then draw the next round.")
    if draw is not None:
        return _("Draw round %(n)s.") % {"n": draw}
    return _("The event is over: publish the results.")


@directs
def rounds_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    event = pulka_event(tournament)
    rounds = list(PulkaRound.objects.filter(tournament=tournament).order_by("number"))
    wanted = request.GET.get("round", "")
    selected = next((r for r in rounds if r.number == whole_number(wanted, digits=4)), None)
    selected = selected or (rounds[-1] if rounds else None)
    cards = table_cards(event, selected) if selected else []
    draw, over = _next_draw(event, rounds)
    context: dict[str, Any] = pulka_nav(tournament, "rounds") | {
        "event": event,
        "rounds": rounds,
        "round": selected,
        "cards": cards,
        "byes": list(selected.byes.select_related("participant").order_by("participant__number"))
        if selected
        else [],
        "draw_number": draw,
        "draw_form": _draw_form(tournament, draw) if draw else None,
        "over": over,
        "next_step": _next_step(event, selected, draw, cards),
        "players": Participant.objects.filter(tournament=tournament).count(),
        "ties": [c for c in cards if c.tie_form is not None],
        "playing": sum(1 for c in cards if c.state == "in_progress"),
        "round_pdfs": ROUND_PDFS,
        "olympic": olympic_panel(event) if tournament.form == "olympic" and not over else {},
        "pin_locks": pin_locks(
            tournament
        ),  # tournaments.pins: the director clears them here or on the PIN list
        "pin_back": "pulka_rounds",
    }
    panel = context["olympic"]
    if draw is not None and panel and not panel["refill"] and draw in panel["flagged"]:
        context["next_step"] = _(
            "Round %(n)s cannot be drawn as it stands: its winners could not be seated. See the bracket below: "
            "change the round's advance in the settings, or record a decision of the director."
        ) % {"n": draw}
    if request.GET.get("partial"):
        return render(request, "director/pulka/_tables.html", context)
    return render(request, "director/pulka/rounds.html", context)


def _back(tournament: Tournament, number: int | None = None) -> HttpResponse:
    url = reverse("director:pulka_rounds", kwargs={"slug": tournament.slug})
    return redirect(f"{url}?round={number}" if number else url)


@require_POST
@directs
def draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    event = pulka_event(tournament)
    form = DrawForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return _back(tournament)
    drawn_before = list(PulkaRound.objects.filter(tournament=tournament).order_by("number"))
    expected, _over = _next_draw(event, drawn_before)
    asked = form.cleaned_data["number"]
    if any(r.number == asked for r in drawn_before) or (expected is not None and asked != expected):
        messages.error(
            request,
            _("Round %(n)s has already been drawn (maybe by a second click): nothing more was drawn.")
            % {"n": form.cleaned_data["number"]},
        )
        return _back(tournament)
    try:
        by_rating = bool(form.cleaned_data["by_rating"]) and _seeds_by_rating(tournament, expected)
        drawn = round_services.draw_round(
            tournament=tournament,
            user=request.user,
            now=timezone.now(),
            seed=form.cleaned_data["seed"],
            ratings=register_ratings(tournament.participants.all()) if by_rating else None,
        )
    except UserError as exc:
        fail(request, exc)
        return _back(tournament)
    tables, byes = drawn.tables.count(), drawn.byes.count()
    text = _("Round %(n)s is drawn (seed %(seed)s): %(tables)s.") % {
        "n": drawn.number,
        "seed": drawn.seed,
        "tables": ngettext("%(k)s table", "%(k)s tables", tables) % {"k": tables},
    }
    if drawn.number == 1 and drawn.drawn_by == "rating":
        text += " " + _("Seated by rating: table 1 has the highest-rated players.")
    if byes:
        text += " " + ngettext("%(k)s player has a bye.", "%(k)s players have a bye.", byes) % {"k": byes}
    messages.success(request, text)
    return _back(tournament, drawn.number)


@require_POST
@directs
def round_action(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Start, «time is up» (stop every table still playing), end, or draw again (a round not started)."""
    pulka_event(tournament)
    pulka_round = get_object_or_404(PulkaRound, tournament=tournament, number=number)
    form = RoundActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose what to do with the round."))
        return _back(tournament, number)
    if form.cleaned_data["status"] != pulka_round.status:
        messages.error(
            request,
            _(
                "Round %(n)s changed since you opened the page (now: %(status)s). Nothing was "
                "done: check it and try again."
            )
            % {"n": number, "status": pulka_round.get_status_display()},
        )
        return _back(tournament, number)
    action, now, user = form.cleaned_data["action"], timezone.now(), request.user
    try:
        if action == "start":
            started = round_services.start_round(pulka_round=pulka_round, user=user, now=now)
            ends = formats.time_format(timezone.localtime(started.ends_at), "H:i") if started.ends_at else ""
            messages.success(
                request, _("Round %(n)s has started; time is up at %(t)s.") % {"n": number, "t": ends}
            )
        elif action == "stop":
            stopped = round_services.stop_round(
                pulka_round=pulka_round, user=user, now=now, reason=form.cleaned_data["reason"]
            )
            if stopped:
                messages.success(
                    request,
                    ngettext(
                        "Time is up: table %(tables)s is stopped and its sheet closed.",
                        "Time is up: tables %(tables)s are stopped and their sheets closed.",
                        list_count(stopped),
                    )
                    % {"tables": ", ".join(str(t.number) for t in stopped)},
                )
            else:
                messages.info(request, _("No table was still playing."))
        elif action == "end":
            round_services.end_round(pulka_round=pulka_round, user=user, now=now)
            messages.success(request, _("Round %(n)s has ended.") % {"n": number})
        else:
            round_services.undraw_round(pulka_round=pulka_round, user=user, now=now)
            messages.success(
                request, _("The draw of round %(n)s is taken back: draw it again.") % {"n": number}
            )
            return _back(tournament)
    except UserError as exc:
        fail(request, exc)
    return _back(tournament, number)


@require_POST
@directs
def decide_tie(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    """Olympic: the director sends on the players the regulation (or a lot) chose among those tied at the cut."""
    event = pulka_event(tournament)
    pulka_table = get_object_or_404(
        PulkaTable, round__tournament=tournament, round__number=number, number=table
    )
    cards = [c for c in table_cards(event, pulka_table.round) if c.table.pk == pulka_table.pk]
    card = cards[0] if cards else None
    if card is None or card.tie_form is None:
        messages.error(request, _("Nobody is tied at the cut at table %(n)s.") % {"n": table})
        return _back(tournament, number)
    form = TieForm(request.POST, choices=card.tie_form.fields["seats"].choices, prefix=f"t{table}")
    if not form.is_valid():
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            messages.error(request, f"{label}: {' '.join(errors)}" if label else " ".join(errors))
        return _back(tournament, number)
    if form.cleaned_data["decided"] != ",".join(pulka_table.tie_decision or []):
        messages.error(
            request,
            _(
                "Somebody decided this tie since you opened the page. Nothing was changed: "
                "check the decision shown now."
            ),
        )
        return _back(tournament, number)
    try:
        round_services.decide_tie(
            table=pulka_table,
            seats=form.cleaned_data["seats"],
            user=request.user,
            now=timezone.now(),
            reason=form.cleaned_data["reason"],
        )
    except UserError as exc:
        fail(request, exc)
    else:
        names = ", ".join(
            label for seat, label in form.fields["seats"].choices if seat in form.cleaned_data["seats"]
        )
        messages.success(
            request,
            ngettext(
                "Table %(n)s: %(names)s goes on.",
                "Table %(n)s: %(names)s go on.",
                len(form.cleaned_data["seats"]),
            )
            % {"n": table, "names": names},
        )
    return _back(tournament, number)
