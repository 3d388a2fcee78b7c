"""Who sees what and when, asked of every channel at every state of both forms (``visibility``).

One duplicate event (two tables of four, a basic movement) and one compensation pulka event (eight players, two
rounds) are played through the services, state by state: a round in play with rows (deals) written, the round
ended, provisional results between rounds, provisional results while the next round is played, official results
once play is over, final results after the correction period. At each state every viewer asks every channel he
has — the table's own player (his phone page, his device identified with his number and PIN; the API with
``Authorization: Player code:number:PIN``), another table's player (the same), the public (the web pages, the API
anonymously), the projector (``results:projector-data``) and a director (the pages logged in, the API with his
token) — whether he sees

* a duplicate event's **row** (table 1, round 1), its board's **layout**, the **standings**;
* a pulka event's **sheet** of table 1 in round 1 (its deals, its figures on the round page), the **standings**.

The answers must be the rules' table below (``DUPLICATE``, ``PULKA``: one line per state and viewer), on every
channel alike. A channel that does not carry a thing at a state answers ``None`` (the duplicate phone page lists
the round in play only; the projector carries the standings only); ``CARRIED`` says where that is expected, so a
missing answer fails too.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from appeals.services.layouts import board_layout_record
from boards.models import Board
from duplicate.gaps import round_gaps
from duplicate.rounds import movement_choose, round_end, round_start
from events.publication import publication_gaps, publish
from preferans.cards.board_form import board_to_dict
from preferans.cards.deal import deal_boards
from pulkas.models import PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.simulate import play_table
from scoring.models import Result
from tests.events.pulka import finish_round, pulka_event
from tests.html import parse
from tests.permissions.world import counts, tear_down
from tests.tournaments.conftest import legal_row
from tournaments.models import Participant, Round, Seating, Tournament
from tournaments.services.event import tournament_create

STATES = (
    "running",  # draft; round 1 in play, rows (deals) written at table 1
    "round ended",  # draft; round 1 ended
    "provisional",  # published provisionally between rounds
    "provisional, in play",  # still provisional; round 2 in play with a row (deal) written
    "official",  # play over; official results
    "final",  # the correction period over; final results
)
Y, N = True, False

# -- the rules' table --------------------------------------------------------------------------------------
# (state, viewer): (the row of table 1 in round 1, its board's layout, the standings)
DUPLICATE: dict[tuple[str, str], tuple[bool, bool, bool]] = {
    ("running", "director"): (Y, Y, Y),
    ("running", "table player"): (Y, N, N),  # his own row at once (§12.2.4 is about the others)
    ("running", "other player"): (N, N, N),
    ("running", "public"): (N, N, N),
    ("running", "projector"): (N, N, N),
    ("round ended", "director"): (Y, Y, Y),
    ("round ended", "table player"): (Y, N, N),
    ("round ended", "other player"): (N, N, N),
    ("round ended", "public"): (N, N, N),
    ("round ended", "projector"): (N, N, N),
    ("provisional", "director"): (Y, Y, Y),
    ("provisional", "table player"): (Y, N, Y),  # between rounds: the standings, not the session's rows
    ("provisional", "other player"): (N, N, Y),
    ("provisional", "public"): (N, N, Y),
    ("provisional", "projector"): (N, N, Y),
    ("provisional, in play", "director"): (Y, Y, Y),
    ("provisional, in play", "table player"): (Y, N, N),  # a round in play: no standings
    ("provisional, in play", "other player"): (N, N, N),
    ("provisional, in play", "public"): (N, N, N),
    ("provisional, in play", "projector"): (N, N, N),
    ("official", "director"): (Y, Y, Y),
    ("official", "table player"): (Y, Y, Y),
    ("official", "other player"): (Y, Y, Y),
    ("official", "public"): (Y, Y, Y),
    ("official", "projector"): (N, N, Y),  # the projector carries the standings only
    ("final", "director"): (Y, Y, Y),
    ("final", "table player"): (Y, Y, Y),
    ("final", "other player"): (Y, Y, Y),
    ("final", "public"): (Y, Y, Y),
    ("final", "projector"): (N, N, Y),
}
DUPLICATE_THINGS = ("row", "layout", "standings")

# (state, viewer): (the sheet of table 1 in round 1, the sheet of a table of round 2 neither player sits at,
# the standings); the round-2 sheet exists from «provisional, in play» on (before: not carried, see DRAWN)
PULKA: dict[tuple[str, str], tuple[bool, bool, bool]] = {
    ("running", "director"): (Y, N, Y),
    ("running", "table player"): (Y, N, N),  # his own sheet at once
    ("running", "other player"): (N, N, N),
    ("running", "public"): (N, N, N),
    ("running", "projector"): (N, N, N),
    ("round ended", "director"): (Y, N, Y),
    ("round ended", "table player"): (Y, N, N),
    ("round ended", "other player"): (N, N, N),
    ("round ended", "public"): (N, N, N),
    ("round ended", "projector"): (N, N, N),
    ("provisional", "director"): (Y, N, Y),
    ("provisional", "table player"): (Y, N, Y),  # round 1 has ended and the results are published
    ("provisional", "other player"): (Y, N, Y),
    ("provisional", "public"): (Y, N, Y),
    ("provisional", "projector"): (N, N, Y),
    ("provisional, in play", "director"): (Y, Y, Y),
    ("provisional, in play", "table player"): (Y, N, N),  # round 2 in play: not its sheets, no standings
    ("provisional, in play", "other player"): (Y, N, N),
    ("provisional, in play", "public"): (Y, N, N),
    ("provisional, in play", "projector"): (N, N, N),
    ("official", "director"): (Y, Y, Y),
    ("official", "table player"): (Y, Y, Y),
    ("official", "other player"): (Y, Y, Y),
    ("official", "public"): (Y, Y, Y),
    ("official", "projector"): (N, N, Y),
    ("final", "director"): (Y, Y, Y),
    ("final", "table player"): (Y, Y, Y),
    ("final", "other player"): (Y, Y, Y),
    ("final", "public"): (Y, Y, Y),
    ("final", "projector"): (N, N, Y),
}
PULKA_THINGS = ("sheet", "sheet in play", "standings")

# Every viewer's channels, each with the things it carries (at the states it carries them: None is every state).
DUPLICATE_CHANNELS: dict[str, dict[str, dict[str, tuple[str, ...] | None]]] = {
    "director": {
        "web": {"row": None, "layout": None, "standings": None},
        "api": {"row": None, "layout": None, "standings": None},
    },
    "table player": {
        "phone page": {"row": ("running",)},  # the page lists the round in play only
        "api": {"row": None, "layout": None, "standings": None},
    },
    "other player": {
        "phone page": {"row": ("running",)},  # table 1's page, where he is not seated
        "api": {"row": None, "layout": None, "standings": None},
    },
    "public": {
        "web": {"row": None, "layout": None, "standings": None},
        "event page": {"standings": None},
        "api": {"row": None, "layout": None, "standings": None},
    },
    "projector": {"projector": {"standings": None}},
}
DRAWN = ("provisional, in play", "official", "final")  # the states where round 2 exists
PULKA_CHANNELS: dict[str, dict[str, dict[str, tuple[str, ...] | None]]] = {
    "director": {
        "phone page": {"sheet": None, "sheet in play": DRAWN},
        "web": {"sheet": None, "sheet in play": DRAWN, "standings": None},
        "api": {"sheet": None, "sheet in play": DRAWN, "standings": None},
    },
    "table player": {
        "phone page": {"sheet": None, "sheet in play": DRAWN},  # round 2's table: not his, not identified
        "api": {"sheet": None, "sheet in play": DRAWN, "standings": None},
    },
    "other player": {
        "phone page": {"sheet": None, "sheet in play": DRAWN},
        "api": {"sheet": None, "sheet in play": DRAWN, "standings": None},
    },
    "public": {
        "phone page": {"sheet": None, "sheet in play": DRAWN},
        "web": {"sheet": None, "sheet in play": DRAWN, "standings": None},
        "event page": {"standings": None},
        "api": {"sheet": None, "sheet in play": DRAWN, "standings": None},
    },
    "projector": {"projector": {"standings": None}},
}

Seen = dict[tuple[str, str, str], dict[str, bool | None]]  # (state, viewer, channel) → thing → answer


def carried(
    channels: dict[str, dict[str, dict[str, Any]]], viewer: str, channel: str, thing: str, state: str
):
    states = channels[viewer][channel].get(thing, ())
    return thing in channels[viewer][channel] and (states is None or state in states)


def cases(form: str) -> Iterator[Any]:
    table, things, channels = (
        (DUPLICATE, DUPLICATE_THINGS, DUPLICATE_CHANNELS)
        if form == "duplicate"
        else (PULKA, PULKA_THINGS, PULKA_CHANNELS)
    )
    for state in STATES:
        for viewer, by_channel in channels.items():
            for channel in by_channel:
                for i, thing in enumerate(things):
                    expected = (
                        table[(state, viewer)][i]
                        if carried(channels, viewer, channel, thing, state)
                        else None
                    )
                    yield pytest.param(
                        state, viewer, channel, thing, expected, id=f"{state}|{viewer}|{channel}|{thing}"
                    )


# -- asking the channels -----------------------------------------------------------------------------------
def api_client(auth: str = "") -> Client:
    return Client(HTTP_AUTHORIZATION=auth) if auth else Client()


def standings_page(client: Client, url: str) -> bool:
    response = client.get(url)
    if response.status_code == 403:
        return False
    assert response.status_code == 200, url
    doc = parse(response.content.decode())
    shown = doc.find(id="standings") is not None
    assert shown != (doc.find(id="standings-hidden") is not None), "a table or the reason why not"
    return shown


def event_page_standings(client: Client, t: Tournament) -> bool:
    doc = parse(client.get(reverse("tournament-detail", kwargs={"slug": t.slug})).content.decode())
    if t.plays_pulkas:
        return doc.find(id="pulka-standings") is not None
    return doc.find(id="event-standings") is not None


def api_standings(client: Client, url: str) -> bool:
    status = client.get(url).status_code
    assert status in (200, 404), url
    return status == 200


def projector_standings(t: Tournament) -> bool:
    data = Client().get(reverse("results:projector-data", kwargs={"slug": t.slug})).json()
    return data["standings"] is not None and len(data["standings"]) > 0


# -- the duplicate event -----------------------------------------------------------------------------------
class DuplicateEvent:
    def __init__(self, director: Any) -> None:
        now = timezone.now()
        self.director = director
        self.t = tournament_create(name="Кубок видимости", user=director, slug="vis-dup", now=now)
        Participant.objects.bulk_create(
            Participant(tournament=self.t, number=n, name=f"Игрок {n}", pin=f"{1000 + n}")
            for n in range(1, 9)
        )
        self.session = self.t.sessions.get(number=1)
        movement = movement_choose(
            session=self.session, user=director, spec={"scheme": "basic", "tables": 2}, now=now
        )
        seating = Seating.objects.get(session=self.session, round_number=1, table_number=1)
        self.board = Board.objects.filter(session=self.session, set_number=seating.set_number).order_by(
            "number"
        )[0]
        dealt = {b.number: b for b in deal_boards(random.Random(3), sets=movement.sets, per_set=4, players=4)}
        layout = board_to_dict(dealt[self.board.number])
        board_layout_record(
            board=self.board, hands=layout["hands"], prikup=layout["prikup"], user=director, now=now
        )
        self.player = seating.seat_n  # table 1's player at N in round 1
        other = Seating.objects.get(session=self.session, round_number=1, table_number=2)
        self.other = other.seat_n
        self.code = self.session.tables.get(number=1).code
        self.token = Token.objects.create(user=director).key
        self.phones = {"table player": Client(), "other player": Client()}

    def code_of(self, participant: Participant) -> str:
        """The table where he sits in the round in play (any table between rounds): his Player header's code."""
        running = Round.objects.filter(session=self.session, status=Round.Status.RUNNING).first()
        if running is None:
            return self.code
        for seating in Seating.objects.filter(session=self.session, round_number=running.number):
            if participant.pk in {p.pk for p in seating.seats().values()}:
                return self.session.tables.get(number=seating.table_number, room=seating.room).code
        raise AssertionError(f"participant {participant.number} does not play round {running.number}")

    # the steps, through the services
    def enter(self, rnd: int, table: int, board: Board) -> Result:
        """The director enters a row through the API, as his scoring software would."""
        response = api_client(f"Token {self.token}").post(
            "/api/results/",
            {
                "session": self.session.pk,
                "round": rnd,
                "table": table,
                "board": board.number,
                **legal_row(board.dealer),
            },
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
        return Result.objects.get(pk=response.json()["id"])

    def start(self, number: int) -> None:
        round_start(rnd=self.session.rounds.get(number=number), user=self.director, now=timezone.now())

    def end(self, number: int) -> None:
        rnd = self.session.rounds.get(number=number)
        round_end(rnd=rnd, user=self.director, now=timezone.now(), acknowledged=round_gaps(rnd).token)

    def publish(self, to: str, now: dt.datetime | None = None) -> None:
        gaps = publication_gaps(self.t)  # the director saw what is missing and said «I know»
        publish(
            tournament=self.t, to=to, user=self.director, now=now or timezone.now(), acknowledged=gaps.token
        )
        self.t.refresh_from_db()

    # the channels
    def phone_row(self, client: Client) -> bool | None:
        doc = parse(client.get(reverse("table:entry", kwargs={"code": self.code})).content.decode())
        card = doc.find(id=f"board-{self.board.number}")
        if card is None:
            return None
        shown = card.find(class_="tb-rowtext") is not None
        assert shown != (card.find(class_="tb-hidden") is not None), "the row, or the note that it is hidden"
        return shown

    def web(self, client: Client) -> dict[str, bool | None]:
        board = client.get(
            reverse("results:board", kwargs={"slug": self.t.slug, "number": self.board.number}) + "?session=1"
        )
        html = board.content.decode()
        doc = parse(html)
        return {
            "row": board.status_code == 200 and 'id="protocol"' in html,
            "layout": board.status_code == 200 and doc.find(class_="compass") is not None,
            "standings": standings_page(client, reverse("results:standings", kwargs={"slug": self.t.slug})),
        }

    def api(self, auth: str) -> dict[str, bool | None]:
        client = api_client(auth)
        rows = client.get(f"/api/results/?session={self.session.pk}").json()
        boards = client.get(f"/api/boards/?session={self.session.pk}").json()
        (board,) = [b for b in boards if b["number"] == self.board.number]
        return {
            "row": any(r["id"] == self.row.pk for r in rows),
            "layout": board["hands"] is not None,
            "standings": api_standings(client, f"/api/tournaments/{self.t.slug}/standings/"),
        }

    def player_auth(self, participant: Participant) -> str:
        return f"Player {self.code_of(participant)}:{participant.number}:{participant.pin}"

    def ask(self, state: str, seen: Seen) -> None:
        boss = Client()
        boss.force_login(self.director)
        seen[(state, "director", "web")] = self.web(boss)
        seen[(state, "director", "api")] = self.api(f"Token {self.token}")
        for viewer, who in (("table player", self.player), ("other player", self.other)):
            seen[(state, viewer, "phone page")] = {"row": self.phone_row(self.phones[viewer])}
            seen[(state, viewer, "api")] = self.api(self.player_auth(who))
        seen[(state, "public", "web")] = self.web(Client())
        seen[(state, "public", "event page")] = {"standings": event_page_standings(Client(), self.t)}
        seen[(state, "public", "api")] = self.api("")
        seen[(state, "projector", "projector")] = {"standings": projector_standings(self.t)}

    def walk(self) -> Seen:
        seen: Seen = {}
        rounds_total = self.session.rounds.count()
        self.start(1)
        self.row = self.enter(1, 1, self.board)
        # the table's player identifies himself on his phone («Show the rows»)
        response = self.phones["table player"].post(
            reverse("table:entry", kwargs={"code": self.code}),
            {"action": "show", "number": self.player.number, "pin": self.player.pin},
        )
        assert response.status_code in (200, 302)
        self.ask("running", seen)
        self.end(1)
        self.ask("round ended", seen)
        self.publish("provisional")
        self.ask("provisional", seen)
        self.start(2)
        second = Seating.objects.get(session=self.session, round_number=2, table_number=1)
        self.enter(2, 1, Board.objects.filter(session=self.session, set_number=second.set_number)[0])
        self.ask("provisional, in play", seen)
        self.end(2)
        for number in range(3, rounds_total + 1):
            self.start(number)
            self.end(number)
        past = timezone.now() - dt.timedelta(minutes=self.t.correction_minutes + 5)
        self.publish("official", now=past)
        self.ask("official", seen)
        self.publish("final")
        self.ask("final", seen)
        return seen


# -- the pulka event ---------------------------------------------------------------------------------------
class PulkaEvent:
    def __init__(self, director: Any) -> None:
        self.director = director
        self.t = pulka_event(director, "compensation", players=12, per_table=4, pool=4, rounds=2)
        self.token = Token.objects.get_or_create(user=director)[0].key
        self.phones = {"table player": Client(), "other player": Client(), "public": Client()}
        self.in_play: PulkaTable | None = None

    def publish(self, to: str, now: dt.datetime | None = None) -> None:
        gaps = publication_gaps(self.t)  # the director saw what is missing and said «I know»
        publish(
            tournament=self.t, to=to, user=self.director, now=now or timezone.now(), acknowledged=gaps.token
        )
        self.t.refresh_from_db()

    def tables(self) -> dict[str, PulkaTable]:
        """The sheets asked about: table 1 of round 1, and (once drawn) a table of round 2 neither player sits at."""
        return {"sheet": self.table, **({"sheet in play": self.in_play} if self.in_play else {})}

    def phone(self, client: Client) -> dict[str, bool | None]:
        out: dict[str, bool | None] = {}
        for thing, table in self.tables().items():
            response = client.get(reverse("table:pulka", kwargs={"code": table.code}))
            assert response.status_code == 200
            doc = parse(response.content.decode())
            out[thing] = doc.find(class_="pk-side") is not None
            assert out[thing] != (doc.find(id="unlock") is not None), (
                "the sheet, or the form asking who you are"
            )
        return out

    def round_page_figures(self, client: Client, table: PulkaTable) -> bool:
        number = table.round.number
        response = client.get(reverse("results:pulka-round", kwargs={"slug": self.t.slug, "number": number}))
        if response.status_code == 403:
            return False
        doc = parse(response.content.decode())
        (card,) = [s for s in doc.find_all("section") if s.get("data-table") == str(table.number)]
        ranks = [td.text().strip() for td in card.find_all("td", class_="rank")]
        assert all(ranks) or not any(ranks)
        return all(ranks)

    def web(self, client: Client) -> dict[str, bool | None]:
        out: dict[str, bool | None] = {
            thing: self.round_page_figures(client, table) for thing, table in self.tables().items()
        }
        out["standings"] = standings_page(
            client, reverse("results:pulka-standings", kwargs={"slug": self.t.slug})
        )
        return out

    def api(self, auth: str) -> dict[str, bool | None]:
        client = api_client(auth)
        out: dict[str, bool | None] = {}
        for thing, table in self.tables().items():
            sheet = client.get(f"/api/pulka/tables/{table.code}/").json()
            rnd = client.get(f"/api/tournaments/{self.t.slug}/pulka/rounds/{table.round.number}/").json()
            (found,) = [t for t in rnd["tables"] if t["number"] == table.number]
            assert (sheet["deals"] is not None) == (found["results"] is not None), (
                "the sheet and the round agree"
            )
            out[thing] = sheet["deals"] is not None
        out["standings"] = api_standings(client, f"/api/tournaments/{self.t.slug}/pulka/standings/")
        return out

    def ask(self, state: str, seen: Seen) -> None:
        boss = Client()
        boss.force_login(self.director)
        seen[(state, "director", "phone page")] = self.phone(boss)
        seen[(state, "director", "web")] = self.web(boss)
        seen[(state, "director", "api")] = self.api(f"Token {self.token}")
        for viewer, (who, table) in (
            ("table player", (self.player, self.table)),
            ("other player", (self.other, self.other_table)),
        ):
            seen[(state, viewer, "phone page")] = self.phone(self.phones[viewer])
            seen[(state, viewer, "api")] = self.api(f"Player {table.code}:{who.number}:{who.pin}")
        seen[(state, "public", "phone page")] = self.phone(self.phones["public"])
        seen[(state, "public", "web")] = self.web(Client())
        seen[(state, "public", "event page")] = {"standings": event_page_standings(Client(), self.t)}
        seen[(state, "public", "api")] = self.api("")
        seen[(state, "projector", "projector")] = {"standings": projector_standings(self.t)}

    def walk(self) -> Seen:
        seen: Seen = {}
        rng, now = random.Random(8), timezone.now()
        r1 = rounds.draw_round(tournament=self.t, user=self.director, now=now, seed=21)
        rounds.start_round(pulka_round=r1, user=self.director, now=now)
        self.table, self.other_table = r1.tables.order_by("number")[:2]
        self.player, self.other = self.table.seat_n, self.other_table.seat_n
        play_table(self.table, rng, now=now, deals=3)
        for viewer, (who, table) in (  # each player identifies himself on his own table's phone page
            ("table player", (self.player, self.table)),
            ("other player", (self.other, self.other_table)),
        ):
            response = self.phones[viewer].post(
                reverse("table:pulka", kwargs={"code": table.code}),
                {"action": "show", "number": who.number, "pin": who.pin},
            )
            assert response.status_code in (200, 302)
        self.ask("running", seen)
        finish_round(r1, self.director, now)
        self.ask("round ended", seen)
        self.publish("provisional")
        self.ask("provisional", seen)
        r2 = rounds.draw_round(tournament=self.t, user=self.director, now=now, seed=22)
        rounds.start_round(pulka_round=r2, user=self.director, now=now)
        viewers = {self.player.pk, self.other.pk}
        self.in_play = next(
            t for t in r2.tables.order_by("number") if not viewers & set(t.seat_ids().values())
        )
        play_table(self.in_play, rng, now=now, deals=2)
        self.ask("provisional, in play", seen)
        finish_round(PulkaRound.objects.get(pk=r2.pk), self.director, now)
        past = timezone.now() - dt.timedelta(minutes=self.t.correction_minutes + 5)
        self.publish("official", now=past)
        self.ask("official", seen)
        self.publish("final")
        self.ask("final", seen)
        return seen


# -- the walks, once a module ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def seen(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[dict[str, Seen]]:
    """Both events walked through their states once, every answer kept; the data removed after the module."""
    media = override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media"))
    media.enable()
    before: dict[str, int] | None = None
    try:
        with django_db_blocker.unblock():
            before = counts()
            try:
                director = get_user_model().objects.create_user("vis-director", password="x")
                walked = {"duplicate": DuplicateEvent(director).walk(), "pulka": PulkaEvent(director).walk()}
            except BaseException:
                tear_down(before)
                raise
        yield walked
    finally:
        if before is not None:
            with django_db_blocker.unblock():
                tear_down(before)
        media.disable()


@pytest.mark.django_db
@pytest.mark.parametrize(("state", "viewer", "channel", "thing", "expected"), list(cases("duplicate")))
def test_duplicate_event(seen: dict[str, Seen], state, viewer, channel, thing, expected) -> None:
    assert seen["duplicate"][(state, viewer, channel)].get(thing) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(("state", "viewer", "channel", "thing", "expected"), list(cases("pulka")))
def test_pulka_event(seen: dict[str, Seen], state, viewer, channel, thing, expected) -> None:
    assert seen["pulka"][(state, viewer, channel)].get(thing) == expected
