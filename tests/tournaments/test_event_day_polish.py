"""Issue 17, event-day polish: a dispute settled in two clicks from the dashboard, and the director's pages in
words (audit actions, rows, plurals, «тур»), checked through the Django client."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from scoring.models import Result
from tests.html import english_phrases, lang, parse, visible_text
from tests.table.factory import make_event, pin_of
from tournaments.audit import action_label, object_label
from tournaments.models import AuditEntry
from tournaments.services.event import tournament_create
from ui.display import describe_in_words

pytestmark = pytest.mark.django_db
TABLE = reverse("table:entry", kwargs={"code": "TAB1TT"})
REASON = "W взял 3 взятки, а не 2"


@pytest.fixture
def event(director):
    return make_event(director=director)


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def dispute_from_the_table(client) -> Result:
    """N enters board 1 on the table page, S disputes it there (the players' own channel)."""
    row = {
        "board": 1,
        "key": "polish-1",
        "contract": "6S",
        "declarer": "E",
        "t1": "6",
        "t2": "2",
        "call1": "whist",
        "call2": "whist",
        "play": "closed",
    }
    client.post(TABLE, {**row, "action": "save", "number": 1, "pin": pin_of(1)})
    client.post(TABLE, {"board": 1, "number": 3, "pin": pin_of(3), "action": "dispute", "reason": REASON})
    client.post(TABLE, {"action": "forget"})
    return Result.objects.get(board_number=1)


def test_a_dispute_is_settled_in_two_clicks_from_the_dashboard(client, dclient, event):
    tournament, session = event
    assert dispute_from_the_table(client).status == Result.Status.DISPUTED
    dclient.force_login(tournament.directors.get())
    dash = dclient.get(reverse("director:dashboard", kwargs={"slug": tournament.slug}))
    alert = parse(dash).one("li", class_="alert-error")
    # the alert names who disputed and what he said
    assert "S — 3. Player 3" in alert.text() and REASON in alert.text()
    show = alert.one("a").get("href")
    page = reverse(
        "director:table_round", kwargs={"slug": tournament.slug, "session": 1, "round": 1, "table": 1}
    )
    assert show == f"{page}#board-1"
    # click 1: «show» opens the table's round at the row, marked disputed (amber), with the reason
    response = dclient.get(show)
    row = parse(response).one("tr", id="board-1")
    assert "row-disputed" in row.classes and REASON in row.text()
    form = row.one("form")
    button = form.one("button", name="accept")
    # click 2: «accept as entered»
    response = dclient.post(form.get("action"), {"accept": button.get("value"), "room": "1"})
    assert response.status_code == 302 and response["Location"].endswith("#board-1")
    result = Result.objects.get(board_number=1)
    assert result.status == Result.Status.CONFIRMED
    entry = AuditEntry.objects.filter(action="result.confirm").latest("id")
    assert entry.user is not None and entry.data["seat"] is None and REASON in entry.reason
    dash = dclient.get(reverse("director:dashboard", kwargs={"slug": tournament.slug}))
    assert parse(dash).find("li", class_="alert-error") is None


def test_only_a_disputed_row_is_accepted_and_the_page_says_why(client, dclient, event):
    tournament, _session = event
    row = {
        "board": 1,
        "key": "polish-2",
        "contract": "6S",
        "declarer": "E",
        "t1": "6",
        "t2": "2",
        "call1": "whist",
        "call2": "whist",
        "play": "closed",
    }
    client.post(TABLE, {**row, "action": "save", "number": 1, "pin": pin_of(1)})
    page = reverse(
        "director:table_round", kwargs={"slug": tournament.slug, "session": 1, "round": 1, "table": 1}
    )
    assert parse(dclient.get(page)).one("tr", id="board-1").find("button", name="accept") is None
    response = dclient.post(page, {"accept": "1", "room": "1"}, follow=True)
    assert Result.objects.get().status == Result.Status.ENTERED
    assert "не оспорена" in visible_text(response)
    response = dclient.post(page, {"accept": "2", "room": "1"}, follow=True)  # no row for board 2 yet
    assert "Принимать нечего" in visible_text(response)


def test_the_stored_row_of_a_disputed_board_is_amber_with_the_reason_and_accept(client, dclient, event):
    tournament, _session = event
    dispute_from_the_table(client)
    url = reverse(
        "director:board_entry",
        kwargs={"slug": tournament.slug, "session": 1, "round": 1, "table": 1, "board": 1},
    )
    stored = parse(dclient.get(url)).one(id="stored")
    assert "warn-box" in stored.classes and "ok-box" not in stored.classes
    assert REASON in stored.text() and stored.find("button", name="accept") is not None
    detail = reverse("director:board_detail", kwargs={"slug": tournament.slug, "session": 1, "board": 1})
    row = parse(dclient.get(detail)).one("tr", class_="row-disputed")
    assert REASON in row.text()


def test_the_audit_trail_speaks_words_and_keeps_the_code_in_a_tooltip(client, dclient, event):
    tournament, _session = event
    dispute_from_the_table(client)
    response = dclient.get(reverse("director:audit", kwargs={"slug": tournament.slug}))
    cells = {c.get("data-action"): c for c in parse(response).find_all("td", data_action=True)}
    created = cells["result.create"]
    assert created.text() == "Результат записан" and created.get("title") == "result.create"
    assert cells["result.dispute"].text() == "Результат оспорен"
    words = visible_text(response)
    assert "result.create" not in words and "сдача 1, стол 1, тур 1" in words and "раунд" not in words
    who = [row.find_all("td")[1].text() for row in parse(response).one("tbody").find_all("tr")]
    assert all(w and w != "None" for w in who)
    with translation.override("en"):
        assert action_label("result.create") == "Result recorded"
        assert action_label("something.new") == "something.new"  # a new code is shown as it is
        assert object_label("round.start", "Cup — 1 / 3") == "round 3"


def test_a_row_in_words_has_russian_plurals():
    row = {
        "contract": "6C",
        "declarer": ["N", 5],
        "w1": ["E", 3],
        "w2": ["W", 2],
        "calls": {"E": "whist", "W": "pass"},
        "play": "closed",
    }
    with translation.override("ru"):
        assert describe_in_words(Result(row=row)) == "6♣ · играл N: 5 взяток · E: 3 взятки · W пас: 2 взятки"
    with translation.override("en"):
        assert (
            describe_in_words(Result(row=row)) == "6♣ · N played: 5 tricks · E: 3 tricks · W passed: 2 tricks"
        )


def test_a_new_event_is_not_said_to_be_recomputing(dclient, director):
    t = tournament_create(name="Новый", user=director, slug="fresh", now=timezone.now())
    response = dclient.get(reverse("director:dashboard", kwargs={"slug": t.slug}))
    doc = parse(response)
    assert doc.find(class_="dot-busy") is None and "результатов пока нет" in visible_text(response)
    assert "пересчитыва" not in visible_text(response)


def test_the_appeals_pages_lead_back_to_the_dashboard_and_count_in_russian(dclient, event):
    tournament, _session = event
    response = dclient.get(reverse("appeals:list", kwargs={"slug": tournament.slug}))
    back = parse(response).one("a", class_="ap-back")
    assert back.get("href") == reverse("director:dashboard", kwargs={"slug": tournament.slug})
    assert "0 апелляций" in visible_text(response) and "0 исправлений" in visible_text(response)


def test_the_director_pages_fixed_here_have_no_english_on_the_russian_page(client, dclient, event):
    tournament, _session = event
    dispute_from_the_table(client)
    s = {"slug": tournament.slug, "session": 1}
    pages = [
        reverse("director:dashboard", kwargs={"slug": tournament.slug}),
        reverse("director:table_round", kwargs=s | {"round": 1, "table": 1}),
        reverse("director:board_entry", kwargs=s | {"round": 1, "table": 1, "board": 1}),
        reverse("director:board_detail", kwargs=s | {"board": 1}),
        reverse("director:boards", kwargs=s),
        reverse("director:movement", kwargs=s),
        reverse("director:audit", kwargs={"slug": tournament.slug}),
        reverse("director:participants", kwargs={"slug": tournament.slug}),
        reverse("appeals:list", kwargs={"slug": tournament.slug}),
        reverse("appeals:audit", kwargs={"slug": tournament.slug}),
    ]
    for url in pages:
        response = dclient.get(url)
        assert response.status_code == 200 and lang(response) == "ru", url
        words = visible_text(response)
        assert english_phrases(words, tournament.name) == [], url
        assert "раунд" not in words, url
