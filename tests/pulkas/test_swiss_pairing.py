"""The Swiss and compensation draws of pulka events through the services (docs/pairing.md): the Swiss form seats
the least repeated meetings, then the least displacement, not strictly by rating; compensation keeps the book's
tables; R, D and the proof are on the round, in the audit and on the director's rounds page."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from events.bundles import export_bundle, import_bundle
from preferans.bundle.document import BundleInvalid
from preferans.pairing.enumerate import least_by_enumeration
from preferans.pairing.pair import build_problem
from preferans.pairing.sizes import intervals, split_tables
from pulkas.models import PulkaRound
from pulkas.services import rounds
from pulkas.services.bundle import PART
from tests.pulkas.factory import play_to_the_end, pulka_event
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def drawn_order(pulka_round: PulkaRound) -> list[int]:
    entry = AuditEntry.objects.get(
        tournament=pulka_round.tournament, action="pulka_round_drawn", data__round=pulka_round.number
    )
    return entry.data["ranking"]


def earlier(pulka_round: PulkaRound) -> list[list[list[int]]]:
    before = PulkaRound.objects.filter(tournament=pulka_round.tournament, number__lt=pulka_round.number)
    return [
        [list(t.seat_ids().values()) for t in r.tables.order_by("number")] for r in before.order_by("number")
    ]


def test_swiss_rounds_have_the_least_repeats_then_displacement(director) -> None:
    """Pairing-spec §4: «A Swiss seating is correct when it has the least R of all seatings with the sizes of §1,
    and, among those, the least D» — every round after the first, proved against plain enumeration."""
    t = pulka_event(director, "swiss", 9, 3, pool=4, rounds=4)
    rng = random.Random(4)
    now = timezone.now()
    for number in range(1, 5):
        r = rounds.draw_round(tournament=t, user=director, now=now, seed=number)
        if number > 1:
            ranked = drawn_order(r)
            sizes, _byes = split_tables(len(ranked), 3)
            problem = build_problem(ranked, sizes, earlier(r))
            seat = {p: tb.number - 1 for tb in r.tables.all() for p in tb.seat_ids().values()}
            assert problem.cost([seat[p] for p in ranked]) == (r.repeats, r.displacement)
            assert (r.repeats, r.displacement) == least_by_enumeration(problem)
            assert r.drawn_by == "swiss" and r.pairing_optimal is True
        play_to_the_end(t, director, r, rng, deals=3)
    # after round 1 of tables of 3, nine players can always avoid meeting again in round 2 (R = 0)
    assert PulkaRound.objects.get(tournament=t, number=2).repeats == 0


def test_compensation_keeps_the_books_tables(director) -> None:
    """004 Part III: «Игроки с самым высоким рейтингом занимают первый стол в следующем туре, затем в соответствии с
    рейтингом заполняется второй стол и т. д.» — even when they met before; R is reported, D is 0."""
    t = pulka_event(director, "compensation", 11, 4, pool=4, rounds=2)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=1)
    play_to_the_end(t, director, r, random.Random(1), deals=3)
    second = rounds.draw_round(tournament=t, user=director, now=now, seed=2)
    ranked = drawn_order(second)
    for tb, (a, b) in zip(second.tables.order_by("number"), intervals([4, 4, 3]), strict=True):
        assert set(tb.seat_ids().values()) == set(ranked[a : b + 1])
    assert second.drawn_by == "rating" and second.displacement == 0 and second.pairing_optimal is True
    problem = build_problem(ranked, [4, 4, 3], earlier(second))
    assert second.repeats == problem.cost([0] * 4 + [1] * 4 + [2] * 3)[0]


def test_the_director_reads_the_repeats_in_words(client, director) -> None:
    """The round's R and whether it is proved least, in Russian on the director's rounds page
    (the software's wording: «Повторных встреч: 0 (меньше нельзя)»)."""
    t = pulka_event(director, "swiss", 8, 4, pool=4, rounds=3)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=1)
    play_to_the_end(t, director, r, random.Random(2), deals=3)
    second = rounds.draw_round(tournament=t, user=director, now=now, seed=2)
    client.force_login(director)
    page = client.get(
        reverse("director:pulka_rounds", kwargs={"slug": t.slug}) + "?round=2",
        headers={"accept-language": "ru"},
    ).content.decode()
    assert f"Повторных встреч: {second.repeats} (меньше нельзя)" in page
    assert f"смещение от порядка рейтинга: {second.displacement}" in page
    assert "Рассадка по швейцарской системе" in page
    entry = AuditEntry.objects.get(tournament=t, action="pulka_round_drawn", data__round=2)
    assert entry.data["repeats"] == second.repeats and entry.data["pairing_optimal"] is True


def test_a_swiss_round_survives_the_bundle_round_trip(director) -> None:
    """docs/pulka-bundle.md: ``drawn_by`` is ``lot``, ``rating`` or ``swiss``; an exported Swiss event with a round
    seated by the Swiss imports again with that round as it was."""
    t = pulka_event(director, "swiss", 9, 3, pool=4, rounds=3)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=1)
    play_to_the_end(t, director, r, random.Random(5), deals=3)
    rounds.draw_round(tournament=t, user=director, now=now, seed=2)
    exported = json.loads(json.dumps(export_bundle(t), ensure_ascii=False))
    assert [x["drawn_by"] for x in exported[PART]["rounds"]] == ["lot", "swiss"]
    again = import_bundle(data=exported, slug="swiss-copy", now=now)
    assert list(PulkaRound.objects.filter(tournament=again).values_list("drawn_by", flat=True)) == [
        "lot",
        "swiss",
    ]
    second = PulkaRound.objects.get(tournament=t, number=2)
    assert exported[PART]["rounds"][1]["pairing"] == {
        "repeats": second.repeats,
        "displacement": second.displacement,
        "optimal": second.pairing_optimal,
    }
    assert "pairing" not in exported[PART]["rounds"][0]  # round 1 was drawn by lot: no seating figures
    copy = PulkaRound.objects.get(tournament=again, number=2)
    assert (copy.repeats, copy.displacement, copy.pairing_optimal) == (
        second.repeats,
        second.displacement,
        second.pairing_optimal,
    )
    exported[PART]["rounds"][1]["pairing"] = {"repeats": -1, "displacement": 0, "optimal": "yes"}
    with pytest.raises(BundleInvalid) as caught:
        import_bundle(data=exported, slug="swiss-bad", now=now)
    assert "pairing" in str(caught.value)
