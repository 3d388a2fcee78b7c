"""Olympic rounds by the book (004-II: «Остальные игроки выбывают»): who goes on, the bracket the field makes,
the draw's refusal when a round's winners could not be seated, and the director's recorded decision.

Only the players ranked 1…K at each table (K by the regulation, per round) go on; nobody who is out comes back.
When the winners of the round about to be drawn could not be seated at tables of 3–4 in the next round, the draw
is refused with what the director can do: change the regulation's advance for that round, or record a decision
(the second-placed also go on at chosen tables, with a reason, audited). Lucky losers and byes only as the
regulation's explicit option ``olympic_refill`` (not from the book), ties among lucky losers by lot.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from preferans.numbers import parse_fraction
from preferans.pulka.forms import TablePlan, draw_tables, split_tables
from preferans.pulka.olympic import Bracket, Problem, bracket, going_on, refill, seatable, unseatable
from pulkas.models import OlympicDecision, PulkaEvent, PulkaRound
from tournaments.audit import log_action
from tournaments.errors import Conflict, UserError
from tournaments.models import Participant, Tournament

MAX_REASON = 500


def problem_words(problem: Problem) -> str:
    """Why some players cannot be seated, in the reader's language."""
    if problem.code == "too_few":
        return ngettext(
            "%(n)s player cannot make a table of 3 or 4",
            "%(n)s players cannot make a table of 3 or 4",
            problem.players,
        ) % {"n": problem.players}
    return ngettext(
        "%(n)s player does not divide into tables of 3 and 4",
        "%(n)s players do not divide into tables of 3 and 4",
        problem.players,
    ) % {"n": problem.players}


def decision_of(tournament: Tournament, number: int) -> OlympicDecision | None:
    return OlympicDecision.objects.filter(tournament=tournament, round_number=number).first()


def winners(event: PulkaEvent, last: PulkaRound) -> tuple[list[int], dict[int, Fraction]]:
    """Who goes on from ``last`` by the book: ranks 1…K at every table (K: the round's advance, or 2 at a table
    of the director's decision) and the director's choice among players tied at the cut; and the others'
    round ratings (for the regulation's refill option only)."""
    going: list[int] = []
    others: dict[int, Fraction] = {}
    for table in last.tables.order_by("number"):
        if not table.finished:
            raise Conflict(
                _("Table %(n)s is still playing: end the round first.") % {"n": table.number},
                code="round_open",
            )
        advance = table.advance or {"seats": [], "tied": []}
        ids = table.seat_ids()
        chosen = list(advance["seats"])
        if advance["tied"]:
            if table.tie_decision is None:
                raise Conflict(
                    _(
                        "Table %(n)s: %(seats)s are tied at the cut. Decide who goes on (by the regulation or by "
                        "lot) on the round's page."
                    )
                    % {"n": table.number, "seats": ", ".join(advance["tied"])},
                    code="tie_undecided",
                )
            chosen += list(table.tie_decision)
        going += [ids[s] for s in chosen]
        for result in table.results.all():
            if result.participant_id not in going:
                others[result.participant_id] = parse_fraction(result.rating)
    return going, {k: v for k, v in others.items() if k not in going}


def field(event: PulkaEvent, last: PulkaRound | None, rng: random.Random) -> list[int]:
    """The players of the next round: the registered field for round 1; else the winners of ``last`` — with
    the refill option (not from the book) also the byes and lucky losers up to a table of 3."""
    tournament = event.tournament
    if last is None:
        return list(Participant.objects.filter(tournament=tournament).values_list("pk", flat=True))
    going, others = winners(event, last)
    if event.olympic_refill:
        going += list(last.byes.values_list("participant_id", flat=True))
        going += [int(x) for x in refill(going, others, 3, rng)]
    return going


def _field_refusal(problem: Problem, number: int) -> UserError:
    if number == 1:
        text = _(
            "The field cannot be seated: %(why)s. Register one player more or fewer, or allow byes in the "
            "settings (not from the book)."
        ) % {"why": problem_words(problem)}
    else:
        text = _(
            "Round %(n)s cannot be seated: %(why)s. Record a decision of the director for round %(prev)s "
            "(the second-placed also go on at some tables)."
        ) % {"n": number, "why": problem_words(problem), "prev": number - 1}
    return UserError(text, code="olympic_unseatable")


def winners_refusal(
    number: int,
    players: int,
    tables: int,
    k: int,
    extra: int,
    going: int,
    problem: Problem,
    sizes: Sequence[int],
) -> Conflict:
    """The words of a refused draw: round ``number``'s winners could not be seated, and what to do."""
    fixes: list[str] = []
    other = 2 if k == 1 else 1
    other_going = going_on(sizes, other)
    if seatable(other_going):
        fixes.append(
            _("set the regulation's advance for round %(n)s to %(k)s in the settings (%(going)s go on)")
            % {"n": number, "k": other, "going": other_going}
        )
    if k == 1:
        fixes.append(
            ngettext(
                "record a decision of the director on the rounds page, with a reason: the second-placed also go "
                "on at some of the %(t)s table",
                "record a decision of the director on the rounds page, with a reason: the second-placed also go "
                "on at some of the %(t)s tables",
                tables,
            )
            % {"t": tables}
        )
    text = ngettext(
        "Round %(n)s cannot be drawn: of %(players)s player (tables: %(tables)s), %(going)s go on to round "
        "%(next)s, and %(why)s. By the book only the table winners go on («Остальные игроки выбывают»), "
        "nobody comes back. What you can do: %(fixes)s.",
        "Round %(n)s cannot be drawn: of %(players)s players (tables: %(tables)s), %(going)s go on to round "
        "%(next)s, and %(why)s. By the book only the table winners go on («Остальные игроки выбывают»), "
        "nobody comes back. What you can do: %(fixes)s.",
        players,
    ) % {
        "n": number,
        "players": players,
        "tables": tables,
        "going": going,
        "next": number + 1,
        "why": problem_words(problem),
        "fixes": "; ".join(fixes) or _("change the number of players per table"),
    }
    return Conflict(text, code="olympic_winners_unseatable")


def draw(event: PulkaEvent, last: PulkaRound | None, number: int, rng: random.Random) -> TablePlan:
    """The tables of Olympic round ``number`` by lot (Code fn9), refused when its players or its winners
    cannot be seated (unless the regulation's refill option is on)."""
    tournament = event.tournament
    per_table = int(tournament.players_per_table)
    ids = field(event, last, rng)
    problem = unseatable(len(ids))
    if problem is not None and not event.olympic_refill:
        raise _field_refusal(problem, number)
    sizes, _byes = split_tables(len(ids), per_table)
    if len(sizes) > 1 and not event.olympic_refill:
        k = event.advance_for(number)
        decision = decision_of(tournament, number)
        chosen = list(decision.tables) if decision else []
        if any(n > len(sizes) for n in chosen):
            raise Conflict(
                ngettext(
                    "The decision for round %(n)s names table %(table)s, but the round has %(t)s table: "
                    "record it again.",
                    "The decision for round %(n)s names table %(table)s, but the round has %(t)s tables: "
                    "record it again.",
                    len(sizes),
                )
                % {"n": number, "table": max(chosen), "t": len(sizes)},
                code="olympic_decision_tables",
            )
        going = going_on(sizes, k, len(chosen))
        problem = unseatable(going)
        if problem is not None:
            raise winners_refusal(number, len(ids), len(sizes), k, len(chosen), going, problem, sizes)
    return draw_tables(sorted(ids), per_table, rng)


def next_field_size(event: PulkaEvent) -> tuple[int, int]:
    """The number of the round to be drawn next and how many will play it (as far as known: a round still
    being played sends on K from each table)."""
    tournament = event.tournament
    last = PulkaRound.objects.filter(tournament=tournament).order_by("-number").first()
    if last is None:
        return 1, Participant.objects.filter(tournament=tournament).count()
    tables = list(last.tables.select_related("round").order_by("number"))
    if len(tables) <= 1 and not last.byes.exists():
        return last.number + 1, 0
    going = sum(t.olympic_advance(event) for t in tables)
    if event.olympic_refill:
        going += last.byes.count()
        going = max(going, 3)
    return last.number + 1, going


def event_bracket(event: PulkaEvent) -> tuple[int, Bracket]:
    """The bracket from the next round on (before round 1: the registered field's), with the regulation's
    advance per round and the decisions recorded."""
    number, players = next_field_size(event)
    decided = {
        d.round_number: len(d.tables) for d in OlympicDecision.objects.filter(tournament=event.tournament)
    }
    return number, bracket(
        players, int(event.tournament.players_per_table), event.advance_for, first=number, decided=decided
    )


@transaction.atomic
def record_decision(
    *,
    event: PulkaEvent,
    round_number: int,
    tables: Sequence[int],
    reason: str,
    expected: Sequence[int] | None,
    user: Any,
    now: dt.datetime,
) -> OlympicDecision | None:
    """A decision of the director for the round to be drawn next: the second-placed also go on at ``tables``
    (empty: the decision is withdrawn). ``expected``: the tables of the decision the director saw (None: none),
    so two directors never overwrite each other. Audited with its reason."""
    tournament = event.tournament
    tournament.ensure_not_locked()
    if tournament.form != "olympic":
        raise UserError(_("Only an Olympic event sends players on."), code="not_olympic")
    reason = (reason or "").strip()
    if not reason or len(reason) > MAX_REASON:
        raise UserError(
            ngettext(
                "Give the reason for the decision (at most %(n)s character).",
                "Give the reason for the decision (at most %(n)s characters).",
                MAX_REASON,
            )
            % {"n": MAX_REASON},
            code="reason",
        )
    number, players = next_field_size(event)
    if round_number != number:
        raise Conflict(
            _("A decision is recorded for the round about to be drawn (round %(n)s).") % {"n": number},
            code="olympic_decision_round",
        )
    if event.advance_for(number) != 1:
        raise UserError(
            _("In round %(n)s the first two go on by the regulation already.") % {"n": number},
            code="olympic_decision_advance",
        )
    sizes, _byes = split_tables(players, int(tournament.players_per_table))
    chosen = sorted(set(int(n) for n in tables))
    if len(sizes) <= 1 or any(not 1 <= n <= len(sizes) for n in chosen):
        raise UserError(
            _("Choose tables from 1 to %(t)s.") % {"t": len(sizes)}
            if len(sizes) > 1
            else _("The final sends nobody on."),
            code="olympic_decision_tables",
        )
    locked = OlympicDecision.objects.select_for_update().filter(tournament=tournament, round_number=number)
    current = locked.first()
    if (list(current.tables) if current else None) != (sorted(expected) if expected is not None else None):
        raise Conflict(
            _("Somebody changed the decision for round %(n)s since you opened the page: check it.")
            % {"n": number},
            code="olympic_decision_changed",
        )
    going = going_on(sizes, 1, len(chosen))
    problem = unseatable(going)
    if chosen and problem is not None:
        raise UserError(
            ngettext(
                "With the second-placed of %(k)s table, %(going)s go on and %(why)s.",
                "With the second-placed of %(k)s tables, %(going)s go on and %(why)s.",
                len(chosen),
            )
            % {"k": len(chosen), "going": going, "why": problem_words(problem)},
            code="olympic_decision_unseatable",
        )
    if current is not None:
        current.delete()
    decision = (
        OlympicDecision.objects.create(
            tournament=tournament, round_number=number, tables=chosen, reason=reason, user=user, at=now
        )
        if chosen
        else None
    )
    log_action(
        tournament=tournament,
        action="pulka_olympic_decision",
        user=user,
        at=now,
        reason=reason,
        data={"round": number, "tables": chosen, "before": list(current.tables) if current else []},
    )
    return decision
