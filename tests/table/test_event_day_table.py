"""Speed at the table (issue 17): who confirms a row, «Confirm all», the next board after saving, the tricks refusal.

The flow a phone without JavaScript goes through (Django client); the offline outbox is in tests/e2e.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from duplicate import at_table, table_rows
from scoring.confirmation import confirmers
from scoring.models import Result
from tests.html import english_phrases, parse, visible_text
from tests.table.factory import make_event, pin_of
from tests.table.test_page import EN, card, row_post
from tournaments.models import AuditEntry, Participant, Table
from tournaments.refusals import Refusal, ResultRejected, refusal_message

pytestmark = pytest.mark.django_db
URL = reverse("table:entry", kwargs={"code": "TAB1TT"})
ROWS = {1: "E", 2: "S", 3: "W"}  # board → a declarer who plays it (board 2's dealer is E, board 3's S)


@pytest.fixture
def event(director):
    return make_event(director=director)


def one_opponent(event) -> None:
    t = event[0]
    t.confirmation = "one"
    t.save(update_fields=["confirmation"])


def shared_phone(*boards: int) -> Client:
    """The player at N saves these boards on the phone the table passes round (his PIN typed once)."""
    phone = Client()
    for i, board in enumerate(boards):
        pin = {"number": 1, "pin": pin_of(1)} if i == 0 else {}
        declarer = {1: "E", 2: "S", 3: "E", 4: "E"}[board]
        r = phone.post(
            URL, {**row_post(board=board, key=f"k{board}", declarer=declarer), "action": "save", **pin}
        )
        assert r.status_code == 302, r.content.decode()[:400]
    return phone


def stamps(client: Client) -> list[str]:
    form = parse(client.get(URL, **EN)).one("form", class_="tb-all")
    return [i.get("value") for i in form.find_all("input", name="read")]


# -- 1. who confirms: every opponent, or one is enough --------------------------------------------------
def test_every_opponent_confirms_by_default(event):
    assert event[0].confirmation == "all"  # events made before the setting keep the stricter rule
    phone = shared_phone(1)
    for n in (2, 3):
        phone.post(URL, {"board": 1, "number": n, "pin": pin_of(n), "action": "confirm"})
    assert Result.objects.get().status == "entered"
    phone.post(URL, {"board": 1, "number": 4, "pin": pin_of(4), "action": "confirm"})
    assert Result.objects.get().status == "confirmed"


def test_one_opponent_closes_the_row_when_the_event_says_so(event):
    one_opponent(event)
    phone = shared_phone(1)
    page = phone.get(URL, {"saved": 1}, **EN)
    assert "Now one of E Player 2, S Player 3, W Player 4 confirms it." in visible_text(page)
    phone.post(URL, {"board": 1, "number": 3, "pin": pin_of(3), "action": "confirm"})
    result = Result.objects.get()
    assert result.status == "confirmed" and result.confirmed_by == ["S"]
    # the others can no longer confirm a closed row; the page offers nothing more to confirm
    late = phone.post(URL, {"board": 1, "number": 4, "pin": pin_of(4), "action": "confirm"})
    assert late.status_code == 302 and Result.objects.get().confirmed_by == ["S"]
    assert card(phone.get(URL, **EN), 1)["awaiting"] == []


def test_the_rule_is_the_same_for_a_row_sent_already_agreed(event):
    """The table's device sends a row with one opponent's PIN (the API's path): one is enough in «one» mode."""
    one_opponent(event)
    state = at_table.table_state(Table.objects.get(code="TAB1TT"))
    people = {p.number: p for p in Participant.objects.all()}
    result, _created = table_rows.table_submit(
        state=state,
        participant=people[1],
        board_number=1,
        row=services_row(),
        now=timezone.now(),
        confirmed_by=[people[2]],
    )
    assert result.status == "confirmed"
    event[0].confirmation = "all"
    assert not confirmers(event[0]).complete(["E"]) and confirmers(event[0]).complete(["E", "S", "W"])


def services_row() -> dict:
    return {
        "contract": "6S",
        "declarer": ["E", 6],
        "w1": ["S", 2],
        "w2": ["W", 2],
        "calls": {"S": "whist", "W": "whist"},
        "play": "closed",
    }


def test_the_director_sets_the_rule_on_the_settings_page(client, director, event):
    client.force_login(director)
    url = reverse("director:settings", kwargs={"slug": "tt"})
    page = client.get(url)
    assert parse(page).find("select", name="confirmation") is not None
    assert "Подтверждение результата" in visible_text(page) and "один соперник" in page.content.decode()
    data = {
        "name": "Table test",
        "variant": "sochi",
        "players_per_table": 4,
        "deals_per_set": 4,
        "minutes_per_deal": 5,
        "correction_minutes": 30,
        "unequal_results": "neuberg",
        "artificial_minus": 40,
        "artificial_average": 50,
        "artificial_plus": 60,
        "rules": "",
        "confirmation": "one",
    }
    assert client.post(url, data).status_code == 302
    event[0].refresh_from_db()
    assert event[0].confirmation == "one"
    assert AuditEntry.objects.filter(action="tournament.settings", data__after__confirmation="one").exists()


# -- 2. «Confirm all»: the PIN typed once for every row of the round ------------------------------------
def test_confirm_all_on_a_shared_phone(event):
    phone = shared_phone(1, 2)
    page = parse(phone.get(URL, **EN))
    panel = page.one("form", class_="tb-all")
    assert panel.buttons(name="action", value="confirm_all")[0].text().strip() == "Confirm all (2)"
    assert (
        panel.find("input", name="pin") is not None
    )  # the phone remembers N: E chooses himself, types his PIN
    r = phone.post(URL, {"action": "confirm_all", "number": 2, "pin": pin_of(2), "read": stamps(phone)}, **EN)
    assert r.status_code == 302
    assert [r.confirmed_by for r in Result.objects.order_by("board_number")] == [["E"], ["E"]]
    # each row audited on its own
    assert AuditEntry.objects.filter(action="result.confirm").count() == 2
    done = [str(m) for m in phone.get(URL, **EN).context["messages"]]
    assert done == ["Player 2: boards 1, 2 confirmed."]


def test_confirm_all_skips_rows_disputed_or_changed_and_names_them(event):
    phone = shared_phone(1, 2, 3)
    read = stamps(phone)
    Client().post(URL, {"board": 1, "number": 4, "pin": pin_of(4), "action": "dispute", "reason": "W took 3"})
    Result.objects.filter(board_number=3).update(updated_at=timezone.now())  # N corrected it meanwhile
    phone.post(URL, {"action": "confirm_all", "number": 3, "pin": pin_of(3), "read": read}, **EN)
    rows = {r.board_number: r for r in Result.objects.all()}
    assert rows[2].confirmed_by == ["S"] and rows[1].confirmed_by == [] and rows[3].confirmed_by == []
    said = [str(m) for m in phone.get(URL, **EN).context["messages"]]
    assert said == [
        "Player 3: board 2 confirmed.",
        "Board 1 is not confirmed: it is disputed: the director decides.",
        "Board 3 is not confirmed: the row was changed after you read it: open it and read it again.",
    ]


def test_confirm_all_on_his_own_phone_needs_the_pin_once(event):
    shared_phone(1, 2)
    own = Client()
    own.post(URL, {"action": "show", "number": 3, "pin": pin_of(3)})  # the one PIN he types
    panel = parse(own.get(URL, **EN)).one("form", class_="tb-all")
    assert panel.find("input", name="pin") is None and "Confirming as 3 Player 3" in panel.text()
    own.post(URL, {"action": "confirm_all", "number": 3, "read": stamps(own)})
    assert [r.confirmed_by for r in Result.objects.order_by("board_number")] == [["S"], ["S"]]


def test_confirm_all_refuses_the_player_at_n_and_a_wrong_pin(event):
    phone = shared_phone(1)
    mine = phone.post(URL, {"action": "confirm_all", "number": 1, "read": stamps(phone)}, **EN)
    assert (
        mine.status_code == 403
        and "the other players of the table confirm them" in mine.context["confirm_all_error"]
    )
    wrong = phone.post(
        URL, {"action": "confirm_all", "number": 2, "pin": "9999", "read": stamps(phone)}, **EN
    )
    assert (
        wrong.status_code == 403 and parse(wrong).one("form", class_="tb-all").find(role="alert") is not None
    )
    assert Result.objects.get().confirmed_by == []


def test_the_panel_speaks_russian(event):
    phone = shared_phone(1, 2)
    page = phone.get(URL, {"saved": 2})
    words = visible_text(page)
    assert "Подтвердить все (2)" in words and "Сдача 2 записана" in words
    assert english_phrases(words, event[0].name) == []


# -- 3. after saving, the next board opens with «saved» right above it ----------------------------------
def test_after_saving_the_next_board_opens_with_the_message_above_it(event):
    phone = Client()
    r = phone.post(URL, {**row_post(), "action": "save", "number": 1, "pin": pin_of(1)})
    assert r.url == f"{URL}?board=2&saved=1#tb-now"
    page = phone.get(URL, {"board": 2, "saved": 1}, **EN)
    assert card(page, 2)["open"] and "form" in card(page, 2)
    doc = parse(page)
    now = doc.one(id="tb-now")
    assert "Board 1 saved. Now E Player 2, S Player 3, W Player 4 confirm it." in now.text()
    # the section sits just before board 2's card (nothing of board 1 between them)
    html = page.content.decode()
    assert html.index('id="tb-now"') < html.index('id="board-2"') and html.index('id="board-1"') < html.index(
        'id="tb-now"'
    )


def test_the_message_is_not_shown_for_a_board_without_a_row(event):
    page = Client().get(URL, {"saved": 3}, **EN)
    assert "saved" not in parse(page).one(id="tb-now").text()


# -- 4. impossible tricks: the words speak of what the player typed -------------------------------------
@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "8 + 5 = 13 tricks, more than 10."), ("ru", "8 + 5 = 13 взяток, больше 10.")],
)
def test_impossible_tricks_speak_of_what_was_typed(event, lang, expected):
    data = {**row_post(t1="8", t2="5"), "action": "check"}
    page = Client().post(URL, data, headers={"accept-language": lang})
    assert page.status_code == 400
    tricks = parse(page).one(id="board-1").one("fieldset", class_="tb-tricks")
    assert tricks.one("p", class_="tb-err").text().strip() == expected
    preview = (
        Client()
        .get(
            reverse("table:preview", kwargs={"code": "TAB1TT"}),
            row_post(t1="8", t2="5"),
            headers={"accept-language": lang},
        )
        .json()
    )
    assert preview["errors"] == [expected] and not preview["incomplete"]
    assert not Result.objects.exists()


def test_the_director_and_the_api_say_the_same_words(event):
    """Three columns typed on the director's form or sent by the API: the same message, with the three numbers."""
    with translation.override("ru"):
        three = refusal_message(Refusal("tricks_total", "declarer", "", {"total": 11, "tricks": [6, 3, 2]}))
        few = refusal_message(Refusal("tricks_total", "declarer", "", {"total": 4, "tricks": [2, 1, 1]}))
    assert three == "6 + 3 + 2 = 11 взяток, больше 10." and few == "2 + 1 + 1 = 4 взятки, меньше 10."
    state = at_table.table_state(Table.objects.get(code="TAB1TT"))
    with pytest.raises(ResultRejected) as caught:
        table_rows.table_submit(
            state=state,
            participant=Participant.objects.get(number=1),
            board_number=1,
            row={**services_row(), "w1": ["S", 3]},
            now=timezone.now(),
        )
    assert caught.value.refusals[0].params["tricks"] == [6, 3, 2]
