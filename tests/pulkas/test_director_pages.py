"""The director's pages of pulka events through the test client: create, settings, rounds, ties, a table's sheet
(entering and correcting deals, stopping), standings; who may open them; Russian pages in Russian."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from pulkas.models import PulkaCorrection, PulkaDeal, PulkaEvent, PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.services.sheet import event_of, table_setup
from pulkas.simulate import play_round, play_table
from tests.html import english_phrases, lang, parse, visible_text
from tests.pulkas.factory import pulka_event
from tournaments.models import AuditEntry, Participant, Tournament

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def url(name: str, t: Tournament, **kwargs) -> str:
    return reverse(f"director:{name}", kwargs={"slug": t.slug, **kwargs})


def running_table(director, form: str = "compensation", players: int = 3, **settings) -> PulkaTable:
    t = pulka_event(director, form, players, players, **settings)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=5)
    rounds.start_round(pulka_round=r, user=director, now=timezone.now())
    return r.tables.get()


def clockwise(first: str) -> tuple[str, str]:
    """The second and third hands at a table of three."""
    seats = ("N", "E", "S")
    i = seats.index(first)
    return seats[(i + 1) % 3], seats[(i + 2) % 3]


def six_fields(table: PulkaTable, number: int, tricks: int = 6, prefix: str = "enter") -> dict:
    """The row form's fields for «6♠ by the first hand, both defenders whist»."""
    setup = table_setup(event_of(table.round.tournament), table)
    first = setup.first_hand(number)
    return {
        f"{prefix}-{k}": v
        for k, v in {
            "contract": "6S",
            "declarer_seat": first,
            "declarer_tricks": tricks,
            "w1_tricks": 10 - tricks - 2,
            "w2_tricks": 2,
            "call1": "whist",
            "call2": "whist",
        }.items()
    }


# -- create and settings --------------------------------------------------------------------------------------
def test_create_a_pulka_event_on_the_create_page(dclient, director):
    response = dclient.post(
        reverse("director:create"),
        {
            "name": "Олимпийский кубок",
            "form": "olympic",
            "variant": "sochi",
            "players_per_table": 3,
            "deals_per_set": 4,
            "minutes_per_deal": 5,
            "correction_minutes": 30,
            "unequal_results": "neuberg",
            "artificial_minus": 40,
            "artificial_average": 50,
            "artificial_plus": 60,
        },
    )
    t = Tournament.objects.get(name="Олимпийский кубок")
    assert response.status_code == 302
    assert response["Location"] == reverse("director:participants", kwargs={"slug": t.slug})
    assert t.form == "olympic" and t.players_per_table == 3 and not t.sessions.exists()
    assert PulkaEvent.objects.get(tournament=t).pool == 20  # the Olympic defaults
    # the event's dashboard is its rounds page; the tabs lead to the pulka pages
    dash = dclient.get(reverse("director:dashboard", kwargs={"slug": t.slug}))
    assert dash.status_code == 302 and dash["Location"] == url("pulka_rounds", t)
    tabs = parse(dclient.get(url("pulka_rounds", t))).one("nav", class_="d-tabs")
    hrefs = [a.get("href") for a in tabs.find_all("a")]
    assert hrefs[0] == url("pulka_rounds", t) and url("pulka_settings", t) in hrefs
    assert url("pulka_standings", t) in hrefs
    assert not any("/s1/" in (h or "") for h in hrefs)  # no duplicate session tabs
    # a duplicate event is still created as before
    dclient.post(
        reverse("director:create"),
        {
            "name": "Дубликат",
            "variant": "sochi",
            "players_per_table": 4,
            "deals_per_set": 4,
            "minutes_per_deal": 5,
            "correction_minutes": 30,
            "unequal_results": "neuberg",
            "artificial_minus": 40,
            "artificial_average": 50,
            "artificial_plus": 60,
        },
    )
    assert Tournament.objects.get(name="Дубликат").form == "duplicate"


def test_the_general_settings_page_of_a_pulka_event_has_no_duplicate_fields(dclient, director):
    t = pulka_event(director, "swiss", 8, 4)
    response = dclient.get(reverse("director:settings", kwargs={"slug": t.slug}))
    assert set(response.context["form"].fields) == {
        "name",
        "starts_on",
        "venue",
        "zone",
        "correction_minutes",
    }
    response = dclient.post(
        reverse("director:settings", kwargs={"slug": t.slug}), {"name": "Новое имя", "correction_minutes": 20}
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.name == "Новое имя" and t.correction_minutes == 20


def settings_post(response, **changes) -> dict:
    """The settings form as the page filled it, with ``changes``."""
    form = response.context["form"]
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        data[name] = "" if value is None else value
    data.update(changes)
    return data


def test_settings_saved_and_refused(dclient, director):
    t = pulka_event(director, "swiss", 12, 4)
    page = url("pulka_settings", t)
    response = dclient.get(page)
    assert response.status_code == 200
    assert {"advance"}.isdisjoint(response.context["form"].fields)  # Olympic only
    assert {"cut_after", "cut_to", "rounds"} <= set(response.context["form"].fields)
    ok = settings_post(
        response,
        pool=12,
        raspasy_exit="7, 8,9",
        tiebreak_1="remizes",
        tiebreak_2="raspasy_won",
        compensation_x=2,
        compensation_y=-1,
        cut_after=2,
        cut_to=8,
        rounds=5,
        round_minutes=90,
    )
    assert dclient.post(page, ok).status_code == 302
    event = PulkaEvent.objects.get(tournament=t)
    assert (event.pool, event.raspasy_exit, event.tiebreaks) == (12, [7, 8, 9], ["remizes", "raspasy_won"])
    assert (event.compensation_x, event.compensation_y, event.cut_after, event.cut_to) == (2, -1, 2, 8)
    assert AuditEntry.objects.filter(tournament=t, action="pulka_settings_changed").exists()

    fresh = dclient.get(page)
    for bad, field in (
        ({"raspasy_exit": "11"}, "raspasy_exit"),
        ({"tiebreak_1": "", "tiebreak_2": "remizes"}, "tiebreak_1"),
        ({"tiebreak_2": "remizes"}, "tiebreak_2"),  # twice
        ({"compensation_y": ""}, "compensation_y"),  # x without y
        ({"cut_after": 5}, "cut_after"),  # not before the last round
        ({"pool": 0}, "pool"),
        ({"rules": '{"pool_weight": 2}'}, "rules"),  # refused by the core, shown next to the rules
    ):
        response = dclient.post(page, settings_post(fresh, **bad))
        assert response.status_code == 400, bad
        assert response.context["form"].errors.get(field), (bad, response.context["form"].errors)
    event.refresh_from_db()
    t.refresh_from_db()
    assert event.pool == 12 and event.raspasy_exit == [7, 8, 9] and t.rule_overrides == {}

    # a form made before somebody else saved is refused, nothing is saved
    stale = settings_post(fresh, pool=30)
    dclient.post(page, settings_post(fresh, round_minutes=60))
    response = dclient.post(page, stale, follow=True)
    event.refresh_from_db()
    assert event.pool == 12 and event.round_minutes == 60
    assert [m.level_tag for m in response.context["messages"]][-1] == "error"


def test_settings_fixed_once_a_round_is_drawn(dclient, director):
    t = pulka_event(director, "olympic", 9, 3, pool=6)
    rounds.draw_round(tournament=t, user=director, now=timezone.now())
    page = url("pulka_settings", t)
    response = dclient.get(page)
    form = response.context["form"]
    assert (
        form.fields["pool"].disabled and form.fields["variant"].disabled and form.fields["advance"].disabled
    )
    assert not form.fields["round_minutes"].disabled
    assert parse(response).by_id("settings-fixed") is not None
    # a changed pool is not taken (the field is fixed); the time limit is
    assert (
        dclient.post(page, settings_post(response, pool=40, variant="rostov", round_minutes=45)).status_code
        == 302
    )
    event = PulkaEvent.objects.get(tournament=t)
    t.refresh_from_db()
    assert event.pool == 6 and t.variant == "sochi" and event.round_minutes == 45


# -- rounds ---------------------------------------------------------------------------------------------------
def action(dclient, t: Tournament, number: int, what: str, follow: bool = False):
    status = PulkaRound.objects.get(tournament=t, number=number).status
    # Stopping every table is confirmed with a reason (the page proposes «Время тура вышло»).
    data = {"action": what, "status": status} | ({"reason": "Время тура вышло"} if what == "stop" else {})
    return dclient.post(url("pulka_round_action", t, number=number), data, follow=follow)


def test_draw_start_stop_end_through_the_rounds_page(dclient, director):
    t = pulka_event(director, "compensation", 8, 4, pool=6, rounds=2)
    page = url("pulka_rounds", t)
    doc = parse(dclient.get(page))
    assert doc.one("form", id="draw-form").find("input", name="number").get("value") == "1"
    response = dclient.post(url("pulka_draw", t), {"number": 1, "seed": 12345}, follow=True)
    r1 = PulkaRound.objects.get(tournament=t, number=1)
    assert r1.seed == 12345 and r1.status == "pending" and r1.tables.count() == 2
    doc = parse(response)
    assert doc.one(id="round-seed").text() == "12345"
    assert len(doc.find_all(class_="pk-table")) == 2
    codes = {tb.code for tb in r1.tables.all()}
    assert {a.get("data-players") for a in doc.find_all("a", data_players=True)} == codes
    assert {a.get("href") for a in doc.find_all("a", data_players=True)} == {f"/pulka/{c}/" for c in codes}
    # a second click on the same draw draws nothing more
    dclient.post(url("pulka_draw", t), {"number": 1, "seed": 1})
    assert PulkaRound.objects.filter(tournament=t).count() == 1
    # draw again: the pending round is taken back, then drawn with another seed
    action(dclient, t, 1, "undraw")
    assert not PulkaRound.objects.filter(tournament=t).exists()
    dclient.post(url("pulka_draw", t), {"number": 1, "seed": 99})
    assert PulkaRound.objects.get(tournament=t, number=1).seed == 99
    response = action(dclient, t, 1, "start", follow=True)
    r1 = PulkaRound.objects.get(tournament=t, number=1)
    assert r1.status == "running" and r1.ends_at is not None
    assert parse(response).one(class_="countdown").get("data-ends-at")
    # ending while tables play is refused and says so
    response = action(dclient, t, 1, "end", follow=True)
    assert PulkaRound.objects.get(pk=r1.pk).status == "running"
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    play_table(r1.tables.get(number=1), random.Random(1), now=timezone.now(), deals=3)
    action(dclient, t, 1, "stop")
    assert all(tb.stopped_at is not None for tb in r1.tables.all())
    response = action(dclient, t, 1, "end", follow=True)
    assert PulkaRound.objects.get(pk=r1.pk).status == "ended"
    assert parse(response).one("form", id="draw-form").find("input", name="number").get("value") == "2"
    # a stale button (the round changed since the page was made) does nothing
    dclient.post(url("pulka_round_action", t, number=1), {"action": "start", "status": "pending"})
    assert PulkaRound.objects.get(pk=r1.pk).status == "ended"
    # the last round: afterwards the page offers no draw, and a draw sent anyway is refused
    dclient.post(url("pulka_draw", t), {"number": 2})
    for what in ("start", "stop", "end"):
        action(dclient, t, 2, what)
    doc = parse(dclient.get(page))
    assert doc.find("form", id="draw-form") is None and doc.by_id("event-over") is not None
    response = dclient.post(url("pulka_draw", t), {"number": 3}, follow=True)
    assert PulkaRound.objects.filter(tournament=t).count() == 2
    assert [m.level_tag for m in response.context["messages"]][-1] == "error"


def test_olympic_tie_decided_on_the_rounds_page(dclient, director):
    t = pulka_event(director, "olympic", 9, 3, pool=6)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=3)
    rounds.start_round(pulka_round=r, user=director, now=timezone.now())
    # Before a deal is played every sheet is level: nobody is marked tied at the cut (issue 30).
    for page in (url("pulka_rounds", t), url("pulka_table", t, number=1, table=1)):
        assert parse(dclient.get(page)).find(class_="tied") is None, page
    rounds.stop_round(
        pulka_round=r, user=director, now=timezone.now(), reason="время вышло"
    )  # no deals: all three tied at the cut
    rounds.end_round(pulka_round=r, user=director, now=timezone.now())
    table = r.tables.get(number=1)
    assert table.advance["tied"] == ["N", "E", "S"]
    doc = parse(dclient.get(url("pulka_rounds", t)))
    assert doc.find("form", data_tie="1") is not None
    assert len(doc.find_all("span", class_="tied")) == 9  # the three tables are over: now the tie is marked
    tie = url("pulka_tie", t, number=1, table=1)
    # two chosen where one place is open: refused
    dclient.post(tie, {"t1-seats": ["N", "E"], "t1-reason": "жребий", "t1-decided": ""})
    table.refresh_from_db()
    assert table.tie_decision is None
    dclient.post(tie, {"t1-seats": ["E"], "t1-reason": "жребий", "t1-decided": ""})
    table.refresh_from_db()
    assert table.tie_decision == ["E"]
    # a form made before that decision does not overwrite it
    dclient.post(tie, {"t1-seats": ["S"], "t1-reason": "жребий", "t1-decided": ""})
    table.refresh_from_db()
    assert table.tie_decision == ["E"]
    entry = AuditEntry.objects.get(tournament=t, action="pulka_tie_decided")
    assert entry.reason == "жребий"


# -- a table's sheet ------------------------------------------------------------------------------------------
def test_the_director_enters_a_deal_refused_then_accepted(dclient, director):
    table = running_table(director)
    t = table.round.tournament
    page = url("pulka_table", t, number=1, table=1)
    response = dclient.get(page)
    form = response.context["forms"]["enter"]
    base = {"action": "enter", "enter-version": table.version, "enter-key": form.initial["key"]}
    # the core refuses 6♠ with 6 + 3 + 2 tricks; nothing is stored, the reason is next to the fields
    bad = base | six_fields(table, 1) | {"enter-w1_tricks": 3}
    response = dclient.post(page, bad)
    assert response.status_code == 400 and response.context["forms"]["enter"].errors
    assert not PulkaDeal.objects.filter(table=table).exists()
    ok = base | six_fields(table, 1)
    assert dclient.post(page, ok).status_code == 302
    deal = PulkaDeal.objects.get(table=table)
    assert deal.status == "director" and deal.row["contract"] == "6S" and deal.entered_by is None
    # the same request again (a retry) writes nothing twice
    dclient.post(page, ok)
    assert PulkaDeal.objects.filter(table=table).count() == 1
    # a form made before deal 1 was written (old version, new key) is refused
    stale = ok | {"enter-key": ""} | six_fields(table, 2)
    response = dclient.post(page, stale)
    assert response.status_code == 400 and response.context["forms"]["enter"].non_field_errors()
    assert PulkaDeal.objects.filter(table=table).count() == 1
    # the JSON form
    table.refresh_from_db()
    setup = table_setup(event_of(t), table)
    first = setup.first_hand(2)
    second, third = clockwise(first)
    row = f'{{"contract": "-", "declarer": ["{first}", 3], "w1": ["{second}", 4], "w2": ["{third}", 3]}}'
    response = dclient.post(page, {"action": "enter_json", "json-row": "[1]", "json-version": table.version})
    assert response.status_code == 400 and response.context["forms"]["enter_json"].errors.get("row")
    response = dclient.post(page, {"action": "enter_json", "json-row": row, "json-version": table.version})
    assert response.status_code == 302, response.context["forms"]["enter_json"].errors
    doc = parse(dclient.get(page))
    assert [tr.get("data-deal") for tr in doc.one("table", id="deals").find_all("tr", data_deal=True)] == [
        "1",
        "2",
    ]


def raspasy(table: PulkaTable, number: int) -> dict:
    first = table_setup(event_of(table.round.tournament), table).first_hand(number)
    second, third = clockwise(first)
    return {"contract": "-", "declarer": [first, 3], "w1": [second, 4], "w2": [third, 3]}


def test_the_director_corrects_a_deal_with_a_reason(dclient, director):
    table = running_table(director, pool=20)
    t = table.round.tournament
    page = url("pulka_table", t, number=1, table=1)
    first = table_setup(event_of(t), table).first_hand(1)
    d1, d2 = clockwise(first)
    six = {
        "contract": "6S",
        "declarer": [first, 6],
        "w1": [d1, 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "whist"},
        "play": "closed",
    }
    for row in (six, raspasy(table, 2)):
        table.refresh_from_db()
        dclient.post(
            page, {"action": "enter_json", "json-row": json.dumps(row), "json-version": table.version}
        )
    assert PulkaDeal.objects.filter(table=table).count() == 2
    response = dclient.get(page + "?correct=1")
    assert response.context["correct_number"] == 1
    assert response.context["forms"]["correct"].initial["declarer_tricks"] == 6  # the stored row, to change
    table.refresh_from_db()
    data = {"action": "correct", "deal": 1, "correct-version": table.version, "correct-reason": ""}
    data |= six_fields(table, 1, tricks=5, prefix="correct")
    response = dclient.post(page, data)  # no reason: refused
    assert response.status_code == 400 and response.context["forms"]["correct"].errors.get("reason")
    assert not PulkaCorrection.objects.filter(table=table).exists()
    assert dclient.post(page, data | {"correct-reason": "ошибка в записи"}).status_code == 302
    correction = PulkaCorrection.objects.get(table=table, deal_number=1)
    assert correction.reason == "ошибка в записи" and correction.user == director
    deal = PulkaDeal.objects.get(table=table, number=1)
    assert deal.status == "director" and deal.row["declarer"] == [first, 5]
    doc = parse(dclient.get(page))
    assert doc.one("ul", id="corrections").text()
    # the same form again: the sheet has changed since it was made
    response = dclient.post(page, data | {"correct-reason": "ещё раз", "correct-declarer_tricks": 7})
    assert response.status_code == 400 and response.context["forms"]["correct"].non_field_errors()
    assert PulkaDeal.objects.get(table=table, number=1).row["declarer"] == [first, 5]


def test_stop_and_reopen_a_table(dclient, director):
    table = running_table(director)
    t = table.round.tournament
    page = url("pulka_table", t, number=1, table=1)
    response = dclient.post(page, {"action": "stop", "stop-version": table.version, "stop-reason": ""})
    assert response.status_code == 400
    table.refresh_from_db()
    assert table.stopped_at is None
    dclient.post(page, {"action": "stop", "stop-version": table.version, "stop-reason": "время"})
    table.refresh_from_db()
    assert table.stopped_at is not None and table.reason == "stopped"
    doc = parse(dclient.get(page))
    assert (
        doc.one(id="table-state").get("data-state") == "stopped" and doc.find("form", id="enter-form") is None
    )
    dclient.post(page, {"action": "reopen", "reopen-version": table.version, "reopen-reason": "ошибка"})
    table.refresh_from_db()
    assert table.stopped_at is None and table.reason == "in_progress"


def test_the_sheet_escapes_hostile_names(dclient, director):
    table = running_table(director)
    Participant.objects.filter(pk=table.seat_n_id).update(name='<script>alert(1)</script>&"')
    response = dclient.get(url("pulka_table", table.round.tournament, number=1, table=1))
    assert b"<script>alert(1)" not in response.content
    assert parse(response).one("svg")


# -- standings --------------------------------------------------------------------------------------------------
def test_rating_standings_by_round_with_byes_and_cut(dclient, director):
    t = pulka_event(director, "swiss", 13, 4, pool=4, rounds=3, cut_after=1, cut_to=8)
    rng = random.Random(4)
    for _ in range(2):
        r = rounds.draw_round(tournament=t, user=director, now=timezone.now())
        rounds.start_round(pulka_round=r, user=director, now=timezone.now())
        play_round(r, rng, now=timezone.now(), deals=3)
        rounds.stop_round(pulka_round=r, user=director, now=timezone.now(), reason="время вышло")
        rounds.end_round(pulka_round=r, user=director, now=timezone.now())
    response = dclient.get(url("pulka_standings", t))
    doc = parse(response)
    rows = doc.one("table", id="standings").find_all("tr", data_participant=True)
    assert len(rows) == 13
    assert len([tr for tr in rows if tr.get("data-cut")]) == 13 - 8
    assert doc.one("table", id="standings").find_all("th")[2].text()  # a column per round


def test_a_bye_is_marked_in_the_rating_table(dclient, director):
    t = pulka_event(director, "compensation", 5, 4, pool=4, rounds=2)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    assert r.byes.count() == 1
    doc = parse(dclient.get(url("pulka_rounds", t)))
    assert doc.one(id="byes").text()
    doc = parse(dclient.get(url("pulka_standings", t)))
    byes = doc.find_all("span", data_bye="1")
    assert len(byes) == 1
    bye = r.byes.get().participant
    (row,) = [
        tr
        for tr in doc.find_all("tr", data_participant=True)
        if tr.get("data-participant") == str(bye.number)
    ]
    assert row.find("span", data_bye="1") is not None


def test_olympic_standings_and_bracket(dclient, director):
    t = pulka_event(director, "olympic", 9, 3, pool=4)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=2)
    rounds.start_round(pulka_round=r, user=director, now=timezone.now())
    play_round(r, random.Random(9), now=timezone.now())
    for table in PulkaTable.objects.filter(round=r):
        if table.advance["tied"]:
            places = t.pulka_event.advance - len(table.advance["seats"])
            rounds.decide_tie(
                table=table,
                seats=table.advance["tied"][:places],
                user=director,
                now=timezone.now(),
                reason="lot",
            )
    rounds.end_round(pulka_round=r, user=director, now=timezone.now())
    doc = parse(dclient.get(url("pulka_standings", t)))
    bracket = doc.one(id="bracket")
    boxes = bracket.find_all(class_="box", data_table=True)
    assert len(boxes) == 3
    assert len(bracket.find_all("li", data_goes_on="1")) == 3  # one goes on from each table
    rows = doc.one("table", id="standings").find_all("tr", data_participant=True)
    assert len(rows) == 9


# -- who may open the pages; the language ----------------------------------------------------------------------
def test_only_directors_open_the_pulka_pages(client, director, other_user):
    table = running_table(director)
    t = table.round.tournament
    pages = [
        url("pulka_rounds", t),
        url("pulka_settings", t),
        url("pulka_standings", t),
        url("pulka_table", t, number=1, table=1),
    ]
    posts = [
        url("pulka_draw", t),
        url("pulka_round_action", t, number=1),
        url("pulka_tie", t, number=1, table=1),
        url("pulka_table", t, number=1, table=1),
        url("pulka_settings", t),
    ]
    login = reverse("login")
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302 and response["Location"].startswith(login), page
    for page in posts:
        response = client.post(page, {"action": "stop", "status": "running"})
        assert response.status_code == 302 and response["Location"].startswith(login), page
    client.force_login(other_user)
    for page in pages:
        assert client.get(page).status_code == 403, page
    for page in posts:
        assert (
            client.post(
                page, {"action": "stop", "status": "running", "stop-reason": "x", "stop-version": 0}
            ).status_code
            == 403
        ), page
    table.refresh_from_db()
    assert table.stopped_at is None and PulkaRound.objects.get(tournament=t).status == "running"
    # a duplicate tournament has no pulka pages
    duplicate = Tournament.objects.create(name="Дубль", slug="dubl")
    duplicate.directors.add(director)
    client.force_login(director)
    assert client.get(reverse("director:pulka_rounds", kwargs={"slug": "dubl"})).status_code == 404


def test_russian_pages_have_no_english_words(dclient, director):
    t = pulka_event(director, "compensation", 7, 4, pool=6, rounds=2, compensation_x=1, compensation_y=0)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    rounds.start_round(pulka_round=r, user=director, now=timezone.now())
    play_table(r.tables.get(number=1), random.Random(2), now=timezone.now(), deals=4)
    o = pulka_event(director, "olympic", 9, 3, pool=4)
    ro = rounds.draw_round(tournament=o, user=director, now=timezone.now(), seed=1)
    rounds.start_round(pulka_round=ro, user=director, now=timezone.now())
    rounds.stop_round(pulka_round=ro, user=director, now=timezone.now(), reason="время вышло")
    pages = [
        url("pulka_rounds", t),
        url("pulka_settings", t),
        url("pulka_standings", t),
        url("pulka_table", t, number=1, table=1),
        url("pulka_table", t, number=1, table=1) + "?correct=1",
        url("pulka_rounds", o),
        url("pulka_standings", o),
        url("pulka_settings", o),
        url("pulka_table", o, number=1, table=1),
    ]
    for page in pages:
        response = dclient.get(page)
        assert response.status_code == 200 and lang(response) == "ru", page
        words = visible_text(response)
        assert english_phrases(words, t.name, o.name) == [], (page, english_phrases(words, t.name, o.name))
    en = visible_text(dclient.get(url("pulka_rounds", t), headers=EN))
    assert english_phrases(en, t.name)  # the check above would see English words
    # a refused row is explained in Russian too
    table = r.tables.get(number=2)
    page = url("pulka_table", t, number=1, table=2)
    bad = {"action": "enter", "enter-version": table.version} | six_fields(table, 1) | {"enter-w1_tricks": 3}
    words = visible_text(dclient.post(page, bad))
    assert english_phrases(words, t.name) == []
