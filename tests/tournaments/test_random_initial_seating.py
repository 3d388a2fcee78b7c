"""The random draw of the initial seating, recorded with its seed.

Seed 004, general provisions: «Первоначальная рассадка определяется судьей случайным образом или методом,
изложенным ОТ.» — "The initial seating is set by the director at random or by the method the tournament
regulations state." The movement seats by starting number, so the director draws the numbers; the seed is stored
(audit trail) and shown, and the same seed repeats the same draw.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from boards.models import Board
from duplicate.seating import draw_initial_seating, last_draw
from preferans.movements import draw_starting_numbers
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace
from scoring.rows import result_save as director_result_save
from tests.html import visible_text
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Participant, Seating

from .conftest import legal_row

pytestmark = pytest.mark.django_db


# (numbers, seed): the same seed gives the same draw, whatever order the numbers come in
DRAWS = [(range(1, 21), 0), (range(1, 21), 2026), ([1, 2, 5, 9], 7), (range(1, 89), 2**63 - 1)]


@pytest.mark.parametrize(("numbers", "seed"), DRAWS)
def test_general_provisions_random_initial_seating_same_seed_same_draw(numbers, seed):
    drawn = draw_starting_numbers(numbers, seed)
    assert drawn == draw_starting_numbers(sorted(numbers, reverse=True), seed)
    assert sorted(drawn) == sorted(drawn.values()) == sorted(numbers)  # a permutation of the same numbers


def test_general_provisions_random_initial_seating_differs_with_the_seed():
    draws = {tuple(sorted(draw_starting_numbers(range(1, 21), seed).items())) for seed in range(20)}
    assert len(draws) == 20
    assert any(old != new for old, new in draw_starting_numbers(range(1, 21), 1).items())
    with pytest.raises(ValueError):
        draw_starting_numbers(range(1, 5), -1)


def test_general_provisions_random_initial_seating_renumbers_and_reseats(seated, director):
    session = seated.sessions.get(number=1)
    before = {p.pk: p.number for p in Participant.objects.filter(tournament=seated)}
    pins = {p.pk: p.pin for p in Participant.objects.filter(tournament=seated)}
    codes = set(session.tables.values_list("code", flat=True))
    done = draw_initial_seating(tournament=seated, user=director, now=timezone.now(), seed=12345)
    expected = draw_starting_numbers(before.values(), 12345)
    after = {p.pk: p.number for p in Participant.objects.filter(tournament=seated)}
    assert after == {pk: expected[old] for pk, old in before.items()}
    assert after != before
    assert {p.pk: p.pin for p in Participant.objects.filter(tournament=seated)} == pins  # PINs stay
    assert set(session.tables.values_list("code", flat=True)) == codes  # table codes stay
    # the movement seats by number: table 1 N in round 1 is now the participant drawn number 1
    first = Seating.objects.get(session=session, round_number=1, table_number=1)
    assert first.seat_n.number == 1
    # recorded with its seed and repeatable
    entry = AuditEntry.objects.get(tournament=seated, action="participants.draw")
    assert entry.data["seed"] == 12345
    assert done.reproduced and last_draw(seated) == done
    assert {n.old: n.new for n in done.numbers} == expected


def test_general_provisions_random_initial_seating_refused_once_results_exist(seated, director):
    session = seated.sessions.get(number=1)
    dealer = Board.objects.get(session=session, number=1).dealer
    director_result_save(
        RowCommand(
            RowPlace(session=session, board=1, round=1, table=1),
            PlayedRow(row=legal_row(dealer)),
            author=RowAuthor(user=director),
        ),
        now=timezone.now(),
    )
    before = list(Participant.objects.filter(tournament=seated).values_list("pk", "number"))
    with pytest.raises(UserError) as info:
        draw_initial_seating(tournament=seated, user=director, now=timezone.now(), seed=1)
    assert info.value.code == "draw_has_results"
    assert list(Participant.objects.filter(tournament=seated).values_list("pk", "number")) == before
    assert not AuditEntry.objects.filter(action="participants.draw").exists()


def test_general_provisions_random_initial_seating_director_page_shows_the_seed(seated, dclient):
    url = reverse("director:draw", args=[seated.slug])
    page = dclient.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    assert "Жеребьёвки ещё не было" in visible_text(page.content.decode())
    response = dclient.post(url, {"seed": "777"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 302
    text = visible_text(dclient.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert "777" in text and "Проверено" in text
    assert last_draw(seated).seed == 777
    # a random seed when none is given, recorded too
    dclient.post(url, {"seed": ""}, HTTP_ACCEPT_LANGUAGE="ru")
    assert AuditEntry.objects.filter(action="participants.draw").count() == 2
    assert last_draw(seated).reproduced
