"""Results published the way a director publishes them, for the tests that need an event whose play is over and
whose results are provisional, official or final: the rounds started and ended through the form's service, then
each step through ``events.publication.publish`` (what is still open acknowledged, as the director does on the
publication page). No test writes ``publication``, ``published_at``, ``official_at`` or ``final_at`` by hand
(``tests/test_architecture.py`` checks it): a test only reaches states the product can reach."""

from __future__ import annotations

import datetime as dt
from typing import Any

from duplicate.gaps import round_gaps
from duplicate.rounds import movement_choose, round_end, round_start
from events.publication import ORDER, publication_gaps, publish
from pulkas.models import PulkaRound
from pulkas.services import rounds as pulka_rounds
from tests.pulkas.factory import register
from tournaments.models import Publication, Round, Tournament
from tournaments.services.event import tournament_create

# How long ago the director published the official results when a test wants them final now: past the
# correction period (rules §1, 30 minutes unless the organisers set another time).
OFFICIAL_BEFORE_FINAL = dt.timedelta(hours=2)


def end_every_round(tournament: Tournament, director: Any, now: dt.datetime) -> Tournament:
    """Play is over, as the director ends it. A duplicate event: every round of every session started and ended
    in order (what is missing acknowledged, as the end-round prompt lets him). A pulka event: every drawn round
    started, its tables still playing stopped (time is up) and the round ended; the rounds still to come drawn
    and ended the same way until the event is over (the Olympic final played, every round of a compensation or
    Swiss event)."""
    if tournament.plays_pulkas:
        _end_pulka_rounds(tournament, director, now)
    else:
        for session in tournament.sessions.order_by("number"):
            for rnd in session.rounds.order_by("number"):
                if rnd.status == Round.Status.PENDING:
                    rnd = round_start(rnd=rnd, user=director, now=now)
                if rnd.status == Round.Status.RUNNING:
                    round_end(rnd=rnd, user=director, now=now, acknowledged=round_gaps(rnd).token)
    tournament.refresh_from_db()
    return tournament


def played_event(
    director: Any,
    *,
    slug: str,
    now: dt.datetime,
    name: str = "",
    starts_on: dt.date | None = None,
) -> Tournament:
    """A duplicate event its director ran to the end with nothing entered: created, six participants (numbers 1-6,
    the smallest field a movement seats: two tables of three) seated by the basic movement, both rounds started
    and ended. For the tests that give an event's standings themselves (the players' series, master points and
    ratings read only the standings) and need its play over to publish it."""
    t = tournament_create(
        name=name or slug, slug=slug, user=director, players_per_table=3, starts_on=starts_on, now=now
    )
    register(t, director, 6, now=now)  # as the director registers them (tests/pulkas/factory.py)
    session = t.sessions.get(number=1)
    movement_choose(session=session, user=director, spec={"scheme": "basic", "tables": 2}, now=now)
    return end_every_round(t, director, now)


def _end_pulka_round(pulka_round: PulkaRound, director: Any, now: dt.datetime) -> None:
    if pulka_round.status == PulkaRound.Status.PENDING:
        pulka_rounds.start_round(pulka_round=pulka_round, user=director, now=now)
    if pulka_round.status == PulkaRound.Status.RUNNING:
        pulka_rounds.stop_round(pulka_round=pulka_round, user=director, now=now, reason="время вышло")
        pulka_rounds.end_round(pulka_round=pulka_round, user=director, now=now)


def _end_pulka_rounds(tournament: Tournament, director: Any, now: dt.datetime) -> None:
    for pulka_round in PulkaRound.objects.filter(tournament=tournament).order_by("number"):
        _end_pulka_round(pulka_round, director, now)
    while not pulka_rounds.play_over(tournament):
        number = PulkaRound.objects.filter(tournament=tournament).count() + 1
        drawn = pulka_rounds.draw_round(tournament=tournament, user=director, now=now, seed=number)
        _end_pulka_round(drawn, director, now)


def publish_to(
    tournament: Tournament,
    step: str,
    director: Any,
    now: dt.datetime,
    *,
    official_at: dt.datetime | None = None,
) -> Tournament:
    """Publish the results step by step up to ``step`` (provisional, official or final), each step acknowledging
    what is still open. Official results need play to be over (:func:`end_every_round` first). Final results
    come after the correction period: the earlier steps are taken at ``official_at`` (by default two hours
    before ``now``), the final one at ``now`` — as a director who published the official results then."""
    if official_at is None:
        official_at = now - OFFICIAL_BEFORE_FINAL if step == Publication.FINAL else now
    tournament.refresh_from_db()
    current, target = ORDER.index(tournament.publication), ORDER.index(step)
    for to in ORDER[current + 1 : target + 1]:
        publish(
            tournament=tournament,
            to=to,
            user=director,
            now=now if to == Publication.FINAL else official_at,
            acknowledged=publication_gaps(tournament).token,
        )
    tournament.refresh_from_db()
    return tournament
