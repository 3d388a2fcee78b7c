"""An event played in pulkas goes from provisional to official, final and locked as a duplicate event does (rules
§1, §13), through the one service every channel calls: what counts as play over, what is still open, the
correction period and open matters, master points of final results."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from appeals.services import pulka_correction_request
from events.publication import play_finished, publication_gaps, publish, tournament_lock
from players.models import MasterPointAward, Person
from preferans.pulka.simulate import random_pulka
from pulkas.models import PulkaDeal, PulkaRound
from pulkas.services import rounds, sheet
from pulkas.simulate import play_round, play_table
from tests.events.pulka import finish_round, pulka_event
from tournaments.errors import UserError
from tournaments.gaps import DEALS_UNCONFIRMED, PLAYING, TIE
from tournaments.models import Publication, TournamentStatus

pytestmark = pytest.mark.django_db


def refused(code: str, **kwargs) -> str:
    with pytest.raises(UserError) as caught:
        publish(**kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def play_compensation(director, *, rounds_played: int, rounds_total: int = 2):
    t = pulka_event(director, "compensation", players=8, per_table=4, pool=4, rounds=rounds_total)
    rng = random.Random(5)
    now = timezone.now()
    for _ in range(rounds_played):
        r = rounds.draw_round(tournament=t, user=director, now=now, seed=rng.randrange(1000))
        rounds.start_round(pulka_round=r, user=director, now=now)
        play_round(r, rng, now=now, deals=6)
        finish_round(r, director, now)
    t.refresh_from_db()
    return t


def test_official_waits_for_the_last_round_of_a_compensation_event(director) -> None:
    t = play_compensation(director, rounds_played=1)
    now = timezone.now()
    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=now)
    assert not play_finished(t)
    message = refused("play_not_over", tournament=t, to=Publication.OFFICIAL, user=director, now=now)
    assert "every round" in message
    r2 = rounds.draw_round(tournament=t, user=director, now=now, seed=3)
    rounds.start_round(pulka_round=r2, user=director, now=now)
    play_round(r2, random.Random(2), now=now, deals=4)
    finish_round(r2, director, now)
    t.refresh_from_db()
    assert play_finished(t) and t.status == TournamentStatus.FINISHED
    publish(tournament=t, to=Publication.OFFICIAL, user=director, now=now)
    # The correction period (rules §1) runs from the official publication.
    refused("correction_period", tournament=t, to=Publication.FINAL, user=director, now=now)
    later = now + dt.timedelta(minutes=t.correction_minutes + 1)
    publish(tournament=t, to=Publication.FINAL, user=director, now=later)
    tournament_lock(tournament=t, user=director, now=later)
    t.refresh_from_db()
    assert (t.publication, t.is_locked) == (Publication.FINAL, True)
    assert list(
        t.audit_entries.filter(action__startswith="publication.").values_list("action", flat=True)
    ) == [
        "publication.final",
        "publication.official",
        "publication.provisional",
    ]


def test_an_olympic_event_is_over_once_its_final_is_played(director) -> None:
    t = pulka_event(director, "olympic", players=9, per_table=3, pool=4)
    rng, now = random.Random(9), timezone.now()
    r1 = rounds.draw_round(tournament=t, user=director, now=now, seed=7)
    rounds.start_round(pulka_round=r1, user=director, now=now)
    play_round(r1, rng, now=now)
    for table in r1.tables.all():
        if table.advance and table.advance["tied"]:
            keep = t.pulka_event.advance - len(table.advance["seats"])
            rounds.decide_tie(
                table=table, seats=table.advance["tied"][:keep], user=director, now=now, reason="lot"
            )
    rounds.end_round(pulka_round=r1, user=director, now=now)
    assert not play_finished(t)  # the final is still to be drawn
    final = rounds.draw_round(tournament=t, user=director, now=now, seed=8)
    rounds.start_round(pulka_round=final, user=director, now=now)
    play_round(final, rng, now=now, deals=3)
    assert not play_finished(t)  # drawn and playing
    finish_round(final, director, now)
    assert play_finished(t)
    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=now)
    publish(tournament=t, to=Publication.OFFICIAL, user=director, now=now)
    assert t.publication == Publication.OFFICIAL


def test_what_is_open_at_a_pulka_event_is_listed_and_acknowledged(director) -> None:
    t = pulka_event(director, "compensation", players=8, per_table=4, pool=20, rounds=1)
    now = timezone.now()
    r1 = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    rounds.start_round(pulka_round=r1, user=director, now=now)
    one, _two = r1.tables.order_by("number")
    play_table(one, random.Random(1), now=now, deals=2)
    # N writes deal 3 at table 1 and nobody has confirmed it yet; table 2 has not played at all.
    row = random_pulka(random.Random(1), sheet.table_setup(sheet.event_of(t), one), deals=3)[2]
    deal, _new = sheet.enter_deal(table=one, row=row, participant=one.seat_n, now=now)
    assert deal.status == PulkaDeal.Status.ENTERED
    gaps = publication_gaps(t)
    assert [(g.table, g.kind) for g in gaps.items] == [(1, DEALS_UNCONFIRMED), (1, PLAYING), (2, PLAYING)]
    assert gaps.counts() == {DEALS_UNCONFIRMED: 1, PLAYING: 2, TIE: 0}
    assert gaps.lines()[0].startswith("Round 1, table 1 — deals written and not confirmed: ")
    message = refused(
        "gaps_not_acknowledged", tournament=t, to=Publication.PROVISIONAL, user=director, now=now
    )
    assert "tables still playing: 2" in message
    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=now, acknowledged=gaps.token)
    entry = t.audit_entries.get(action="publication.provisional")
    assert entry.data == {DEALS_UNCONFIRMED: 1, PLAYING: 2, TIE: 0}


def test_an_undecided_tie_at_an_olympic_cut_is_open(director) -> None:
    t = pulka_event(director, "olympic", players=9, per_table=3, pool=4)
    now = timezone.now()
    r1 = rounds.draw_round(tournament=t, user=director, now=now, seed=7)
    rounds.start_round(pulka_round=r1, user=director, now=now)
    play_round(r1, random.Random(7), now=now)  # this seed ends table 2 with two players tied at the cut
    tied = [tb for tb in r1.tables.order_by("number") if tb.advance and tb.advance["tied"]]
    assert [tb.number for tb in tied] == [2]
    gaps = publication_gaps(t)
    assert [(g.table, g.kind) for g in gaps.items] == [(2, TIE)]
    assert gaps.lines() == ["Round 1, table 2 — players tied at the cut: nobody has decided who goes on"]
    keep = t.pulka_event.advance - len(tied[0].advance["seats"])
    rounds.decide_tie(
        table=tied[0], seats=tied[0].advance["tied"][:keep], user=director, now=now, reason="lot"
    )
    assert not publication_gaps(t)


def test_open_matters_keep_a_pulka_event_official(director) -> None:
    t = play_compensation(director, rounds_played=1, rounds_total=1)
    now = timezone.now()
    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=now)
    publish(tournament=t, to=Publication.OFFICIAL, user=director, now=now)
    table = PulkaRound.objects.get(tournament=t).tables.order_by("number").first()
    pulka_correction_request(
        tournament=t, table=table, deal=1, description="6 instead of 7", user=director, now=now
    )
    later = now + dt.timedelta(hours=2)
    message = refused("open_matters", tournament=t, to=Publication.FINAL, user=director, now=later)
    assert "corrections 1" in message


def test_final_pulka_results_give_master_points_by_place(director) -> None:
    t = play_compensation(director, rounds_played=1, rounds_total=1)
    for p in t.participants.all():
        p.person = Person.objects.create(name=p.name)
        p.save(update_fields=["person"])
    now = timezone.now()
    for step in (Publication.PROVISIONAL, Publication.OFFICIAL):
        publish(tournament=t, to=step, user=director, now=now)
    publish(tournament=t, to=Publication.FINAL, user=director, now=now + dt.timedelta(hours=1))
    awards = {a.participant.number: a for a in MasterPointAward.objects.filter(tournament=t)}
    assert awards, "a final pulka event awards master points"
    from pulkas.services.standings import event_table

    first = event_table(t).lines[0]
    assert first.place.startswith("1") and awards[first.participant.number].place == first.place
    assert all(a.scheme for a in awards.values())


def test_rounds_played_through_with_every_deal_confirmed_leave_nothing_open(director) -> None:
    t = play_compensation(director, rounds_played=1, rounds_total=1)
    assert play_finished(t) and not publication_gaps(t)
    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=timezone.now())
    assert t.audit_entries.get(action="publication.provisional").data == {}


def test_a_pulka_events_files_say_official_then_final(director) -> None:
    """The pulka standings (workbook and PDF) carry the publication the event has reached."""
    import io
    import subprocess

    import openpyxl

    from results.services import build_file

    t = play_compensation(director, rounds_played=1, rounds_total=1)
    past = timezone.now() - dt.timedelta(hours=2)
    for step in (Publication.PROVISIONAL, Publication.OFFICIAL):
        publish(tournament=t, to=step, user=director, now=past)

    def headline() -> str:
        _name, data = build_file(t.pk, "pulka_standings", "xlsx", {"lang": "ru"})
        sheet = openpyxl.load_workbook(io.BytesIO(data)).worksheets[0]
        return str(sheet.cell(1, 1).value)

    assert "ОФИЦИАЛЬНЫЕ РЕЗУЛЬТАТЫ" in headline()
    publish(tournament=t, to=Publication.FINAL, user=director, now=timezone.now())
    assert "ОКОНЧАТЕЛЬНЫЕ РЕЗУЛЬТАТЫ" in headline()
    _name, pdf = build_file(t.pk, "pulka_standings", "pdf", {"lang": "ru"})
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "ОКОНЧАТЕЛЬНЫЕ РЕЗУЛЬТАТЫ" in text
