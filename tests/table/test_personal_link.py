"""A participant's own link (``/p/<token>/``, the QR code of his PIN slip): it opens his table of the moment in a
pulka event and in a duplicate event, round after round; without a table it says why and when to come back, in
the player's language; a malformed or forged token is a 404 page; and it identifies nobody."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from duplicate.gaps import round_gaps
from duplicate.rounds import movement_choose, round_end, round_start
from events.participants import participant_delete, participant_save
from pulkas.models import PulkaBye, PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.simulate import play_round
from tests.html import english_phrases, parse, visible_text
from tests.pulkas.factory import pulka_event as factory_event
from tournaments.models import Participant, Round, Seating, Table, Tournament
from tournaments.personal_links import MAX_TOKEN, participant_of, personal_token
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}
EN = {"accept-language": "en"}


def ru(message: str) -> str:
    """The message as a Russian page shows it (whichever catalogue translates it)."""
    with translation.override("ru"):
        return translation.gettext(message)


def register(t: Tournament, director, players: int) -> list[Participant]:
    now = timezone.now()
    return [
        participant_save(now=now, tournament=t, user=director, number=n, name=f"Игрок {n}")
        for n in range(1, players + 1)
    ]


def link(p: Participant) -> str:
    return reverse("table:personal", kwargs={"token": personal_token(p)})


def opens(client: Client, p: Participant) -> str:
    """Where the participant's link sends him (a redirect), or fails the test."""
    response = client.get(link(p), headers=RU)
    assert response.status_code == 302, (p.number, response.status_code)
    return response["Location"]


def waiting_page(client: Client, p: Participant, headers=RU):
    response = client.get(link(p), headers=headers)
    assert response.status_code == 200, (p.number, response.status_code)
    doc = parse(response)
    return doc.one(id="personal").get("data-why"), visible_text(response)


# -- the token ---------------------------------------------------------------------------------------------
def test_the_token_is_short_signed_and_names_the_participant(director) -> None:
    t = tournament_create(name="Кубок", user=director, slug="tok", players_per_table=4, now=timezone.now())
    first, second = register(t, director, 2)
    token = personal_token(first)
    assert len(token) <= MAX_TOKEN and "/" not in token
    assert token == personal_token(Participant.objects.get(pk=first.pk))  # the same for the whole event
    assert participant_of(token) == first and participant_of(personal_token(second)) == second
    assert first.pin not in token  # nothing secret but the signature


def forged_tokens(p: Participant, other: Participant) -> list[str]:
    token = personal_token(p)
    value, signature = token.rsplit(".", 1)
    other_value = personal_token(other).rsplit(".", 1)[0]
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    return [
        f"{value}.{flipped}",  # one character of the signature changed
        f"{other_value}.{signature}",  # another participant's keys under this signature
        f"{value}.{signature[:-1]}",  # cut
        token + "x",  # lengthened
        value,  # no signature
        "x" * (MAX_TOKEN + 1),
        "abc",
        f"{value}.{'A' * 22}",
    ]


def test_a_forged_or_broken_token_is_a_404_page_in_the_players_language(director) -> None:
    t = tournament_create(name="Кубок", user=director, slug="forge", players_per_table=4, now=timezone.now())
    p, other = register(t, director, 2)
    client = Client()
    for token in forged_tokens(p, other):
        assert participant_of(token) is None, token
        response = client.get(reverse("table:personal", kwargs={"token": token}), headers=RU)
        assert response.status_code == 404, token
        text = visible_text(response)
        assert "Ссылка недействительна" in text and "Игрок" not in text, token
        assert not english_phrases(text)
    english = client.get(reverse("table:personal", kwargs={"token": "abc"}), headers=EN)
    assert english.status_code == 404 and "This link is not valid" in visible_text(english)


def test_a_removed_participants_link_names_nobody(director) -> None:
    t = tournament_create(name="Кубок", user=director, slug="gone", players_per_table=4, now=timezone.now())
    p, _other = register(t, director, 2)
    token = personal_token(p)
    participant_delete(now=timezone.now(), participant=p, user=director)
    assert participant_of(token) is None
    assert Client().get(reverse("table:personal", kwargs={"token": token})).status_code == 404


# -- a pulka event -----------------------------------------------------------------------------------------
def pulka_event(director, form: str, players: int, per_table: int, slug: str, **settings) -> Tournament:
    return factory_event(director, form, players, per_table, name=f"Кубок {slug}", slug=slug, **settings)


def draw(t: Tournament, director) -> PulkaRound:
    return rounds.draw_round(tournament=t, user=director, now=timezone.now())


def play_to_the_end(t: Tournament, director, pulka_round: PulkaRound, seed: int) -> None:
    now = timezone.now()
    rounds.start_round(pulka_round=pulka_round, user=director, now=now)
    play_round(pulka_round, random.Random(seed), now=now)
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now, reason="время вышло")
    for table in PulkaTable.objects.filter(round=pulka_round):
        if table.advance and table.advance["tied"]:
            places = t.pulka_event.advance - len(table.advance["seats"])
            rounds.decide_tie(
                table=table, seats=table.advance["tied"][:places], user=director, now=now, reason="lot"
            )
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)


def table_of(pulka_round: PulkaRound, p: Participant) -> PulkaTable | None:
    for table in pulka_round.tables.all():
        if p.pk in table.seat_ids().values():
            return table
    return None


def test_pulka_link_before_the_draw_then_the_table_then_the_bye(director) -> None:
    t = pulka_event(director, "compensation", 5, 4, "bye-cup", pool=4, rounds=2)
    people = list(t.participants.order_by("number"))
    client = Client()
    for p in people:
        why, text = waiting_page(client, p)
        assert why == "not_drawn"
        assert ru("No round has been drawn yet.") in text and f"№ {p.number} Игрок {p.number}" in text
        assert not english_phrases(text)
    why, text = waiting_page(client, people[0], EN)
    assert why == "not_drawn" and "No round has been drawn yet." in text
    first = draw(t, director)
    (bye,) = PulkaBye.objects.filter(round=first)
    for p in people:
        table = table_of(first, p)
        if p.pk == bye.participant_id:
            assert table is None
            why, text = waiting_page(client, p)
            assert why == "bye" and "У вас в туре 1 нет стола: вы пропускаете тур" in text
            assert not english_phrases(text)
        else:
            assert opens(client, p) == f"/pulka/{table.code}/"
    seated = next(p for p in people if p.pk != bye.participant_id)
    rounds.start_round(pulka_round=first, user=director, now=timezone.now())
    assert opens(client, seated) == f"/pulka/{table_of(first, seated).code}/"  # running: the same table
    # the page it opens asks for the number and PIN before the sheet: the link identified nobody
    assert not client.get(link(seated)).cookies  # the link sets nothing on the phone
    page = client.get(opens(client, seated), headers=RU)
    assert page.status_code == 200 and parse(page).find("input", name="pin") is not None


def test_olympic_link_follows_the_winner_and_tells_the_others_they_are_out(director) -> None:
    t = pulka_event(director, "olympic", 12, 4, "olymp", pool=4)  # three winners make the final (004-II)
    first = draw(t, director)
    people = list(t.participants.order_by("number"))
    client = Client()
    old = {p.pk: table_of(first, p).code for p in people}
    play_to_the_end(t, director, first, seed=3)
    for p in people:  # the round has ended and none is drawn: his last table stays his
        assert opens(client, p) == f"/pulka/{old[p.pk]}/"
    final = draw(t, director)
    (final_table,) = final.tables.all()
    playing = set(final_table.seat_ids().values())
    assert 0 < len(playing) < len(people)
    for p in people:
        if p.pk in playing:
            assert opens(client, p) == f"/pulka/{final_table.code}/"
        else:
            why, text = waiting_page(client, p)
            assert why == "no_table" and f"У вас нет стола в туре {final.number}." in text
            assert not english_phrases(text)


# -- a duplicate event -------------------------------------------------------------------------------------
@pytest.fixture
def thirteen(director) -> Tournament:
    """13 participants at tables of 4 by the book: one rests every round."""
    t = tournament_create(
        name="Кубок Сочи", user=director, slug="sochi13", players_per_table=4, now=timezone.now()
    )
    register(t, director, 13)
    return t


def seated_at(t: Tournament, round_number: int, p: Participant) -> str | None:
    """The code of the participant's table in round ``round_number`` of session 1 (None: he rests)."""
    session = t.sessions.get(number=1)
    for s in Seating.objects.filter(session=session, round_number=round_number):
        if p in s.seats().values():
            return Table.objects.get(session=session, room=s.room, number=s.table_number).code
    return None


def end(rnd: Round, director) -> None:
    round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)


def test_duplicate_link_before_the_movement_then_round_by_round(thirteen, director) -> None:
    t = thirteen
    people = list(t.participants.order_by("number"))
    client = Client()
    why, text = waiting_page(client, people[0])
    assert why == "not_drawn" and "Рассадка ещё не составлена" in text and not english_phrases(text)
    session = t.sessions.get(number=1)
    movement_choose(
        session=session, user=director, spec={"scheme": "book", "participants": 13}, now=timezone.now()
    )
    rounds_of = list(session.rounds.order_by("number"))
    assert len(rounds_of) > 2

    def check(round_number: int, *, ended: bool = False) -> None:
        resting = 0
        for p in people:
            code = seated_at(t, round_number, p)
            if code is None:
                resting += 1
                why, text = waiting_page(client, p)
                assert why == "no_table"
                assert f"У вас нет стола в туре {round_number} сессии 1." in text
                assert ("отдыхаете" in text) != ended
                assert not english_phrases(text)
                _why, english = waiting_page(client, p, EN)
                assert f"You have no table in round {round_number} of session 1." in english
            else:
                assert opens(client, p) == f"/table/{code}/"
        assert resting == 1

    check(1)  # seated, round 1 not started: the table where he starts
    round_start(rnd=rounds_of[0], user=director, now=timezone.now())
    check(1)  # round 1 running
    end(rounds_of[0], director)
    check(2)  # round 1 over: the table of the next round
    round_start(rnd=rounds_of[1], user=director, now=timezone.now())
    check(2)
    for rnd in rounds_of[1:]:
        rnd.refresh_from_db()
        if rnd.status == Round.Status.PENDING:
            round_start(rnd=rnd, user=director, now=timezone.now())
        end(rnd, director)
    check(rounds_of[-1].number, ended=True)  # all over: his last table, or a note that nothing is running


def test_the_same_link_serves_either_form(director, thirteen) -> None:
    """One token shape and one address for both forms: the link is made the same way and read the same way."""
    pulka = pulka_event(director, "swiss", 4, 4, "swiss-one", pool=4, rounds=1)
    for p in (thirteen.participants.first(), pulka.participants.first()):
        assert link(p) == f"/p/{personal_token(p)}/"
        assert participant_of(personal_token(p)) == p
