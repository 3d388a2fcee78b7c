"""Events played in pulkas, through the browser: an Olympic event of 9 players (3 tables of 3 → a final table) and
a compensation event of 8 players (2 tables of 4, 3 rounds). The director works at a desk, the players write their
deals on phones; the sheet is drawn; the time limit closes pulkas; advancement and re-seating; final standings.
Screenshots go to test-artifacts/ (pulka-*.png)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import screenshot
from tests.e2e.crawl import assert_accessible

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def create_event(page, name: str, form: str, per_table: int) -> str:  # type: ignore[no-untyped-def]
    page.goto("/director/new/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=form]", form)
    page.select_option("select[name=players_per_table]", str(per_table))
    page.click("main form button[type=submit].btn")
    page.wait_for_url("**/participants/")
    from tournaments.models import Tournament

    return Tournament.objects.get(name=name).slug


def register(slug: str, count: int) -> None:
    """Participants 1 … count registered by the event's director (tests/pulkas/factory.py: PIN 1000 + number)."""
    from tests.pulkas.factory import register as register_participants
    from tournaments.models import Tournament

    t = Tournament.objects.get(slug=slug)
    register_participants(t, t.directors.get(), count)


def settings(page, slug: str, **values: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"/director/{slug}/pulka/settings/")
    for name, value in values.items():
        page.fill(f"input[name={name}]", value)
    page.click("main form button[type=submit].btn")
    page.wait_for_load_state()
    assert page.locator(".form-errors, .errorlist").count() == 0, page.content()[:2000]


def round_action(page, slug: str, action: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"/director/{slug}/pulka/")
    if action == "draw":
        page.click("#draw-form button[type=submit]")
    else:
        confirm = page.locator(f"details#confirm-{action}")
        if confirm.count():  # stopping every table: open the confirmation; the reason is proposed
            confirm.locator("summary").click()
        with page.expect_navigation():
            page.click(f"button[name=action][value={action}]")


def tables_of(slug: str, number: int):  # type: ignore[no-untyped-def]
    from pulkas.models import PulkaTable

    return list(
        PulkaTable.objects.filter(round__tournament__slug=slug, round__number=number).order_by("number")
    )


def write_deal(phone, table, contract: str, *, open_page: bool = True) -> None:  # type: ignore[no-untyped-def]
    """The next deal at ``table``: the first hand plays ``contract``, both defenders pass (no play: the deal is
    deemed made); N writes it, the others confirm on the same phone with their PINs. ``open_page=False``: the
    phone is already on the table's page (a player who came by clicks)."""
    from pulkas.services.sheet import load_sheet

    nxt = load_sheet(table).score().next_deal
    seats = table.seats()
    if open_page:
        phone.goto(f"/pulka/{table.code}/")
    if phone.locator("button[name=action][value=show]").count():  # this phone does not know the table's N yet
        phone.select_option("select[name=number]", str(seats["N"].number))
        phone.fill("form:has(button[value=show]) input[name=pin]", seats["N"].pin)
        with phone.expect_navigation():
            phone.click("button[name=action][value=show]")

    def pick(name, value):  # type: ignore[no-untyped-def]
        phone.locator(f"#write input[name={name}][value='{value}']").locator("xpath=..").click()

    pick("contract", contract)
    pick("declarer", nxt.first_hand)
    pick("call1", "pass")
    pick("call2", "pass")
    phone.select_option("#write select[name=writer]", str(seats["N"].number))
    phone.fill("#write input[name=pin]", seats["N"].pin)
    for seat, p in seats.items():
        if seat != "N":
            phone.fill(f"#write input[name=pin_{seat}]", p.pin)
    phone.wait_for_selector("#write [data-role=save]:not([hidden])")
    with phone.expect_navigation():
        phone.click("#write [data-role=save]")
    table.refresh_from_db()
    assert table.deals.count() == nxt.number, phone.content()[:3000]
    assert table.deals.get(number=nxt.number).status == "confirmed"


def test_olympic_nine_players_to_the_final(page, phone, django_user_model):
    from pulkas.models import PulkaTable
    from pulkas.services.standings import event_table
    from tournaments.models import Tournament

    django_user_model.objects.create_user("olga", password="pw-olga-12345")
    log_in(page, "olga", "pw-olga-12345")
    slug = create_event(page, "Олимпийский кубок", "olympic", 3)
    register(slug, 9)
    settings(page, slug, pool="10", max_deals="2", round_minutes="60")
    screenshot(page, "pulka-olympic-settings")

    round_action(page, slug, "draw")
    assert [t.players for t in tables_of(slug, 1)] == [3, 3, 3]
    round_action(page, slug, "start")
    t1, t2, t3 = tables_of(slug, 1)
    for table in (t1, t2):  # two tables play their two deals: the deal limit ends them
        write_deal(phone, table, "7S")
        write_deal(phone, table, "6S")
    screenshot(phone, "pulka-olympic-phone-sheet")
    assert_accessible(phone)
    assert phone.locator("svg").count() >= 1  # the sheet is drawn
    write_deal(phone, t3, "8S")  # table 3 plays one deal; then time is up
    round_action(page, slug, "stop")
    t3.refresh_from_db()
    assert t3.stopped_at is not None and t3.reason == "stopped"
    phone.goto(f"/pulka/{t3.code}/")
    screenshot(phone, "pulka-olympic-phone-stopped")
    assert_accessible(phone)
    for table in PulkaTable.objects.filter(round__tournament__slug=slug, round__number=1):
        assert table.finished and len(table.advance["seats"]) == 1 and not table.advance["tied"]
    round_action(page, slug, "end")
    screenshot(page, "pulka-olympic-round1-ended")

    round_action(page, slug, "draw")  # the final: the three winners
    (final,) = tables_of(slug, 2)
    winners = {t.seat_ids()[t.advance["seats"][0]] for t in tables_of(slug, 1)}
    assert set(final.seat_ids().values()) == winners
    round_action(page, slug, "start")
    write_deal(phone, final, "6H")
    round_action(page, slug, "stop")
    round_action(page, slug, "end")
    page.goto(f"/director/{slug}/pulka/standings/")
    screenshot(page, "pulka-olympic-standings")
    lines = event_table(Tournament.objects.get(slug=slug)).lines
    assert {line.participant.pk for line in lines[:3]} == winners
    assert lines[0].place == "1"
    page.goto(f"/t/{slug}/pulka/bracket/")
    screenshot(page, "pulka-olympic-bracket")
    for line in lines[:3]:
        assert line.participant.name in page.content()


def test_compensation_eight_players_three_rounds(page, phone, django_user_model):
    from pulkas.services.standings import event_table
    from tournaments.models import Tournament

    django_user_model.objects.create_user("igor", password="pw-igor-12345")
    log_in(page, "igor", "pw-igor-12345")
    slug = create_event(page, "Компенсационный турнир", "compensation", 4)
    register(slug, 8)
    settings(page, slug, pool="10", rounds="3", round_minutes="45")
    t = Tournament.objects.get(slug=slug)
    contracts = ("7S", "6C", "8D")
    for number in (1, 2, 3):
        round_action(page, slug, "draw")
        tables = tables_of(slug, number)
        assert [tb.players for tb in tables] == [4, 4]
        if number > 1:  # re-seating: table 1 takes the four top-rated players (equal ratings by lot)
            total = {line.participant.pk: line.total for line in event_table(t).lines}
            top = [total[pk] for pk in tables[0].seat_ids().values()]
            rest = [total[pk] for pk in tables[1].seat_ids().values()]
            assert min(top) >= max(rest) and max(top) > min(rest)
            page.goto(f"/t/{slug}/pulka/round/{number - 1}/")
            screenshot(page, f"pulka-compensation-reseating-{number}")
        round_action(page, slug, "start")
        for table in tables:
            write_deal(phone, table, contracts[number - 1])
        if number == 1:
            screenshot(phone, "pulka-compensation-phone-4")
        round_action(page, slug, "stop")  # the time limit closes both pulkas
        round_action(page, slug, "end")
    page.goto(f"/director/{slug}/pulka/standings/")
    screenshot(page, "pulka-compensation-standings")
    lines = event_table(t).lines
    assert len(lines) == 8 and all(len([r for r in line.ratings if r is not None]) == 3 for line in lines)
    totals = [line.total for line in lines]
    assert totals == sorted(totals, reverse=True)
    for line in lines:
        assert line.participant.name in page.content()
