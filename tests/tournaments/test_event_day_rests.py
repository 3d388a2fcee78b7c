"""Who sits out a round, and where he comes back, on every page and printout that shows the moves.

Seed 004, the comments to the table of movements: «Буква P означает, что игрок отдыхает в этом туре (для девяти
и тринадцати игроков)» — the letter P means the player rests this round (for nine and thirteen players); and
«такие инструкции необходимо положить на каждый стол» — such instructions must lie on every table.

The expected names and seats are read from the stored seating (who is not seated in a round, and where he sits
in the next one), not from the function under test.
"""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from duplicate.rounds import movement_choose, session_movement
from preferans.movements import plan, rests
from results.pdf_movement import row_of_sets_pdf, table_cards_pdf
from tests.html import english_phrases, parse
from tournaments.models import Participant, Seating
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}
LINES = ("N", "E", "S", "W")


@pytest.fixture
def thirteen(db, director):
    t = tournament_create(
        name="Кубок Сочи", user=director, slug="sochi13", players_per_table=4, now=timezone.now()
    )
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок{n:02d}", pin=f"{2000 + n}") for n in range(1, 14)
    )
    session = t.sessions.get(number=1)
    movement_choose(
        session=session, user=director, spec={"scheme": "book", "participants": 13}, now=timezone.now()
    )
    return t


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def stored_rests(t) -> dict[int, list[int]]:
    """Round -> the participants not seated in it, from the stored seating."""
    everyone = set(t.participants.values_list("number", flat=True))
    seated: dict[int, set[int]] = {}
    for s in Seating.objects.filter(session__tournament=t).select_related(
        "seat_n", "seat_e", "seat_s", "seat_w"
    ):
        seated.setdefault(s.round_number, set()).update(p.number for p in s.seats().values() if p is not None)
    return {r: sorted(everyone - numbers) for r, numbers in seated.items()}


def stored_seat(t, round_number: int, number: int) -> tuple[int, str]:
    """(table, line) of a participant in a round, from the stored seating."""
    for s in Seating.objects.filter(session__tournament=t, round_number=round_number):
        for line in LINES:
            p = getattr(s, f"seat_{line.lower()}")
            if p is not None and p.number == number:
                return s.table_number, line
    raise AssertionError(f"No. {number} is not seated in round {round_number}")


@pytest.mark.parametrize(
    ("participants", "per_table", "resting_per_round"),
    [(13, 4, 1), (9, 4, 1), (10, 3, 1), (12, 4, 0), (9, 3, 0)],
)
def test_rule_P_rests_every_unseated_participant_with_the_seat_he_comes_back_to(
    participants, per_table, resting_per_round
):
    """«Буква P означает, что игрок отдыхает в этом туре»: the one list of rests names exactly those not
    seated in a round, and his return is where the movement seats him next."""
    m = plan(participants, per_table=per_table).movement
    found = rests(m)
    assert sorted(found) == [r.number for r in m.rounds]
    for i, rnd in enumerate(m.rounds):
        seated = set(rnd.where())
        assert sorted(r.participant for r in found[rnd.number]) == sorted(
            set(range(1, participants + 1)) - seated
        )
        assert len(found[rnd.number]) == resting_per_round
        for r in found[rnd.number]:
            later = [(j, m.rounds[j].where().get(r.participant)) for j in range(i + 1, len(m.rounds))]
            first = next(((m.rounds[j].number, seat) for j, seat in later if seat is not None), None)
            if first is None:
                assert r.back is None
            else:
                assert r.back is not None and (r.back.round, r.back.room, r.back.seat) == (
                    first[0],
                    *first[1],
                )
            before = m.rounds[i - 1].where().get(r.participant) if i else None
            assert r.came_from == before


def rest_line(page, selector_class: str, round_number: int | None = None):
    doc = parse(page)
    nodes = [
        n
        for n in doc.find_all("p", class_=selector_class)
        if round_number is None or n.get("data-round") == str(round_number)
    ]
    assert len(nodes) == 1, f"expected one «{selector_class}» line"
    return nodes[0].text()


def test_rule_P_seating_page_names_who_rests_each_round_and_where_he_plays_next(dclient, thirteen):
    """The seating page: under each round «Отдыхает: № 1 Игрок01 → тур 2: стол 2, позиция W»."""
    expected = stored_rests(thirteen)
    assert all(len(v) == 1 for v in expected.values()) and len(expected) == 13
    page = dclient.get(reverse("director:seating", kwargs={"slug": thirteen.slug, "session": 1}), headers=RU)
    for r, (number,) in expected.items():
        text = rest_line(page, "rest-line", r)
        assert f"№ {number} Игрок{number:02d}" in text and "Отдыхает" in text
        if r < 13:
            table, line = stored_seat(thirteen, r + 1, number)
            assert f"тур {r + 1}: стол {table}, позиция {line}" in text
        assert not english_phrases(text)


def test_rule_P_dashboard_shows_the_current_rounds_resting_player(dclient, thirteen):
    """The dashboard of round 1 says who sits out round 1 and where he comes back."""
    ((number,),) = [stored_rests(thirteen)[1]]
    page = dclient.get(reverse("director:dashboard", kwargs={"slug": thirteen.slug}), headers=RU)
    assert page.context["ov"].round.number == 1
    text = rest_line(page, "resting", 1)
    table, line = stored_seat(thirteen, 2, number)
    assert f"№ {number} Игрок{number:02d}" in text and f"тур 2: стол {table}, позиция {line}" in text
    assert not english_phrases(text)


def test_rule_P_handover_says_who_comes_back_from_rest_and_who_goes_to_rest(dclient, thirteen):
    """«Такие инструкции необходимо положить на каждый стол»: at the end of round 1 the hand-over names the
    player back from his rest with his seat, and the player leaving his seat to rest in round 2."""
    rested = stored_rests(thirteen)
    (back,), (leaving,) = rested[1], rested[2]
    url = reverse("director:handover", kwargs={"slug": thirteen.slug, "session": 1, "number": 1})
    page = dclient.get(url, headers=RU)
    text = rest_line(page, "back")
    table, line = stored_seat(thirteen, 2, back)
    assert f"№ {back} Игрок{back:02d} → тур 2: стол {table}, позиция {line}" in text
    text = rest_line(page, "to")
    left_table, left_line = stored_seat(thirteen, 1, leaving)
    table, line = stored_seat(thirteen, 3, leaving)
    assert f"№ {leaving} Игрок{leaving:02d}" in text and f"{left_table}{left_line}" in text
    assert f"тур 3: стол {table}, позиция {line}" in text and "Отдыхает в туре 2" in text
    moves = " ".join(parse(page).one("table", class_="handover").text().split())
    assert "stays" not in moves and "(отдых)" in moves  # the table cards' moves in Russian too
    assert not english_phrases(text)


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize("kind", ["table_cards", "row_of_sets"])
def test_rule_P_printed_cards_and_row_of_sets_carry_a_line_per_round_of_who_rests(thirteen, kind):
    """Every table card and the director's row of sets print, round by round, «№ 13 → 2W»."""
    m = session_movement(thirteen.sessions.get(number=1))
    if kind == "table_cards":
        data = table_cards_pdf(m, tournament=thirteen.name, publication="", session=1, lang="ru")
    else:
        data = row_of_sets_pdf(m, tournament=thirteen.name, session=1, lang="ru")
    text = pdf_text(data)
    assert "Отдыхает" in text
    for r, (number,) in stored_rests(thirteen).items():
        if r < 13:
            table, line = stored_seat(thirteen, r + 1, number)
            assert f"№ {number} → {table}{line}" in text
        else:
            assert f"№ {number}" in text


def test_rule_P_table_page_tells_each_player_his_next_seat_or_his_rest(client, thirteen, director):
    """The players' own table page (their phones): after the round, each of them reads where he sits next, and
    the one going to rest reads that he rests and where he comes back."""
    from duplicate.rounds import round_start
    from tournaments.models import Round, Table

    session = thirteen.sessions.get(number=1)
    round_start(rnd=Round.objects.get(session=session, number=1), user=director, now=timezone.now())
    leaving = stored_rests(thirteen)[2][0]
    table, _line = stored_seat(thirteen, 1, leaving)
    code = Table.objects.get(session=session, number=table).code
    page = client.get(reverse("table:entry", kwargs={"code": code}), headers=RU)
    items = parse(page).one("section", class_="tb-next").find_all("li")
    seating = Seating.objects.get(session=session, round_number=1, table_number=table)
    assert len(items) == len(seating.seats())
    for li, (line, p) in zip(items, seating.seats().items(), strict=True):
        text = " ".join(li.text().split())
        assert f"{p.number} {p.name}" in text
        if p.number == leaving:
            back_table, back_line = stored_seat(thirteen, 3, leaving)
            assert f"отдыхает в туре 2, затем тур 3: стол {back_table}, позиция {back_line}" in text
        else:
            to_table, to_line = stored_seat(thirteen, 2, p.number)
            stays = (to_table, to_line) == (table, line)
            assert ("остаётся на месте" if stays else f"стол {to_table}, позиция {to_line}") in text
        assert not english_phrases(text)


@pytest.mark.parametrize(("participants", "per_table"), [(27, 4), (10, 3)])
def test_rule_P_printouts_name_every_resting_player_when_several_rest_or_tables_seat_three(
    participants, per_table
):
    """Three resting per round (27 at six 4-player tables) and 3-player tables: every resting player of every
    round is printed with the seat he takes next round, on the cards and on the row of sets."""
    m = plan(participants, per_table=per_table).movement
    cards = pdf_text(table_cards_pdf(m, tournament="T", publication="", session=1, lang="ru"))
    row = pdf_text(row_of_sets_pdf(m, tournament="T", session=1, lang="ru"))
    for i, rnd in enumerate(m.rounds[:-1]):
        nxt = m.rounds[i + 1].where()
        unseated = set(range(1, participants + 1)) - set(rnd.where())
        assert unseated
        for p in unseated:
            if p in nxt:
                assert f"№ {p} → {nxt[p][1]}" in cards and f"№ {p} → {nxt[p][1]}" in row
