"""The time limit enforced (R5: 004 fn 32, Code fn 94) and breaks in the dealing order written by the director (R6:
Code 3.2.14, 3.2.17, 4.2.10), through the services, the director's sheet page, the phone page and the API."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from pulkas.models import PulkaDeal, PulkaTable
from pulkas.services import sheet, table_control
from tests.api.test_pulkas import client as api_client
from tests.api.test_pulkas import error
from tests.html import english_phrases, parse, visible_text
from tests.pulkas.test_director_pages import running_table, six_fields, url
from tests.pulkas.test_sheet_authority import six
from tournaments.errors import Conflict, NotAllowed, UserError

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def row_for(table: PulkaTable) -> dict:
    """A six by the next deal's first hand at a table of three (after any break in the order)."""
    nxt = sheet.load_sheet(table).score().next_deal
    assert nxt is not None
    seats = ("N", "E", "S")
    i = seats.index(nxt.first_hand)
    return six(nxt.first_hand, 6, (seats[(i + 1) % 3], seats[(i + 2) % 3]))


def test_after_the_time_limit_only_the_deal_in_progress_is_written(director) -> None:
    """004 fn 32 «Для всех столов устанавливается лимит времени»; Code fn 94 «И то сдачу необходимо доиграть при
    любых обстоятельствах»: after the limit the deal in progress is written, then the table waits for the
    director, who extends the time (audited, with a reason) or stops the table."""
    table = running_table(director)
    seats = table.seats()
    limit = table.round.ends_at
    late = limit + dt.timedelta(minutes=3)
    writer = seats["N"]
    confirm = [seats["E"], seats["S"]]
    sheet.enter_deal(table=table, row=row_for(table), participant=writer, confirmations=confirm, now=limit)
    table.refresh_from_db()
    assert table.overtime_deal == 1  # the deal in progress when the time ran out
    with pytest.raises(Conflict) as refused:
        sheet.enter_deal(table=table, row=row_for(table), participant=writer, confirmations=confirm, now=late)
    assert refused.value.code == "time_limit"
    assert PulkaDeal.objects.filter(table=table).count() == 1
    with pytest.raises(UserError):
        table_control.extend_time(table=table, user=director, now=late, minutes=10, reason=" ")
    with pytest.raises(UserError):
        table_control.extend_time(table=table, user=director, now=late, minutes=601, reason="x")
    table_control.extend_time(table=table, user=director, now=late, minutes=10, reason="долгая сдача")
    table.refresh_from_db()
    assert table.time_limit == late + dt.timedelta(minutes=10) and table.overtime_deal is None
    assert table.round.tournament.audit_entries.filter(
        action="pulka_time_extended", reason="долгая сдача"
    ).exists()
    sheet.enter_deal(table=table, row=row_for(table), participant=writer, confirmations=confirm, now=late)
    # the director's own entry is not refused by the limit
    later = late + dt.timedelta(minutes=30)
    sheet.enter_deal(table=table, row=row_for(table), participant=writer, confirmations=confirm, now=later)
    with pytest.raises(Conflict):
        sheet.enter_deal(
            table=table, row=row_for(table), participant=writer, confirmations=confirm, now=later
        )
    sheet.enter_deal(table=table, row=row_for(table), user=director, now=later)
    assert PulkaDeal.objects.filter(table=table).count() == 4


def test_the_time_limit_in_words_on_the_phone_and_the_directors_page(client, dclient, director) -> None:
    """The phone page and the director's page say the limit has passed and what follows, in Russian."""
    table = running_table(director)
    seats = table.seats()
    t = table.round.tournament
    past = timezone.now() - dt.timedelta(minutes=1)
    table.round.ends_at = past  # the round's limit, as start_round set it, already passed (a test's clock)
    table.round.save(update_fields=["ends_at"])
    phone = client.get(f"/pulka/{table.code}/")
    assert "Лимит времени истёк" in visible_text(
        phone
    ) and "доиграйте и запишите текущую сдачу" in visible_text(phone)
    sheet.enter_deal(
        table=table,
        row=row_for(table),
        participant=seats["N"],
        confirmations=[seats["E"], seats["S"]],
        now=timezone.now(),
    )
    phone = client.get(f"/pulka/{table.code}/")
    assert "Новые сдачи — только после того, как судья продлит время" in visible_text(phone)
    page = dclient.get(url("pulka_table", t, number=1, table=1))
    doc = parse(page)
    assert "Новые сдачи" in doc.one(id="time-words").text()
    assert doc.find("form", id="extend-form") is not None
    assert doc.one(id="table-state").get("data-state") == "time_up"
    rounds_page = visible_text(dclient.get(reverse("director:pulka_rounds", kwargs={"slug": t.slug})))
    assert "время вышло: стол ждёт судью" in rounds_page
    assert english_phrases(visible_text(page), t.name, *[p.name for p in seats.values()]) == []
    answer = dclient.post(
        url("pulka_table", t, number=1, table=1),
        {
            "action": "extend",
            "extend-version": table.version + 1,
            "extend-minutes": 20,
            "extend-reason": "спор",
        },
    )
    table.refresh_from_db()
    assert answer.status_code == 302 and table.ends_at is not None


def test_a_deal_dealt_out_of_turn_on_the_directors_page(dclient, director) -> None:
    """Code 3.2.14: «сдача считается законной ... Следующая сдача в этом случае принадлежит игроку, сидящему слева
    от сдавшего»: the director records who dealt; the order goes on from him."""
    table = running_table(director)
    t = table.round.tournament
    page = url("pulka_table", t, number=1, table=1)
    setup = sheet.load_sheet(table).setup
    other = setup.dealer(2)  # deal 1 is dealt by the player who should deal deal 2
    shown = dclient.get(page + f"?dealt_by={other}")
    assert parse(shown).find("p", id="dealt-by-note") is not None
    fields = six_fields(table, 2)  # so its first hand is deal 2's in the plain order
    response = dclient.post(page, {"action": "enter", "dealt_by": other, "enter-version": 0, **fields})
    assert response.status_code == 302, visible_text(response)[:2000]
    deal = PulkaDeal.objects.get(table=table, number=1)
    assert deal.row["dealt_by"] == other and deal.status == "director"
    nxt = sheet.load_sheet(table).score().next_deal
    assert nxt is not None and nxt.dealer == setup.dealer(3)  # the order goes on from who dealt
    assert f"сдавал {other} вне очереди" in visible_text(dclient.get(page))


def test_a_deal_not_written_on_the_directors_page_and_the_api(dclient, director) -> None:
    """Code 3.2.17: «мера взыскания за первую ошибку – замечание, а за вторую – условленный ремиз (например, пять
    в гору) и переход сдачи»: the director records the deal not written, with the penalty."""
    table = running_table(director)
    t = table.round.tournament
    page = url("pulka_table", t, number=1, table=1)
    refused = dclient.post(
        page, {"action": "pass", "pass-version": 0, "pass-seat": "E", "pass-reason": "вторая ошибка сдачи"}
    )
    assert refused.status_code == 400 and not PulkaDeal.objects.filter(table=table).exists()
    done = dclient.post(
        page,
        {
            "action": "pass",
            "pass-version": 0,
            "pass-seat": "E",
            "pass-mountain": 5,
            "pass-reason": "вторая ошибка сдачи",
        },
    )
    assert done.status_code == 302
    deal = PulkaDeal.objects.get(table=table, number=1)
    assert deal.row == {
        "not_written": True,
        "extra_entries": [{"type": "mountain", "seat": "E", "amount": 5}],
    }
    assert t.audit_entries.filter(action="pulka_deal_entered", reason="вторая ошибка сдачи").exists()
    score = sheet.load_sheet(table).score()
    assert score.sheet.mountain["E"] == 5 and score.next_deal is not None
    assert score.next_deal.dealer == sheet.load_sheet(table).setup.dealer(
        2
    )  # the deal passed to the next dealer
    assert "Сдача не записана" in visible_text(dclient.get(page))
    # the API writes the same row for a director, and refuses it from a player
    table.refresh_from_db()
    body = {"not_written": True, "version": table.version}
    player = api_client(player=(table, table.seats()["N"].number)).post(
        f"/api/pulka/tables/{table.code}/deals/", body, format="json"
    )
    assert player.status_code == 403 and error(player)["code"] == "director_only", player.json()
    answer = api_client(director).post(f"/api/pulka/tables/{table.code}/deals/", body, format="json")
    assert answer.status_code in (200, 201), answer.json()
    assert PulkaDeal.objects.get(table=table, number=2).row == {"not_written": True}


def test_players_cannot_write_breaks_in_the_order(director) -> None:
    """The software's rule: a break in the dealing order is the director's record (3.2.14, 3.2.17 are rulings)."""
    table = running_table(director)
    with pytest.raises(NotAllowed):
        sheet.enter_deal(
            table=table, row={"not_written": True}, participant=table.seats()["N"], now=timezone.now()
        )
    with pytest.raises(NotAllowed):
        sheet.enter_deal(
            table=table,
            row={**row_for(table), "dealt_by": "E"},
            participant=table.seats()["N"],
            now=timezone.now(),
        )


def test_breaks_in_the_order_show_on_the_players_pages_and_files(client, dclient, director) -> None:
    """A deal not written and a deal dealt out of turn are drawn and listed wherever a sheet is shown: the phone
    page, the sheet's PDF, the director's page, the public round page."""
    table = running_table(director)
    t = table.round.tournament
    now = timezone.now()
    setup = sheet.load_sheet(table).setup
    sheet.enter_deal(table=table, row={"not_written": True}, user=director, now=now, reason="3.2.17")
    other = setup.dealer(3)  # deal 2 dealt by the one who should deal deal 3
    first = setup.first_hand(3)
    seats = ("N", "E", "S")
    i = seats.index(first)
    sheet.enter_deal(
        table=table,
        row={**six(first, 6, (seats[(i + 1) % 3], seats[(i + 2) % 3])), "dealt_by": other},
        user=director,
        now=now,
    )
    p = table.seats()["N"]
    client.post(f"/pulka/{table.code}/", {"action": "show", "number": p.number, "pin": p.pin})
    phone = client.get(f"/pulka/{table.code}/")
    text = visible_text(phone)
    assert "Сдача не записана" in text and f"сдавал {other} вне очереди" in text
    nxt = sheet.load_sheet(table).score().next_deal
    assert nxt is not None and nxt.dealer == setup.dealer(4)
    pdf = client.get(f"/pulka/{table.code}/sheet.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert dclient.get(url("pulka_table", t, number=1, table=1)).status_code == 200
    assert dclient.get(f"/t/{t.slug}/pulka/round/1/").status_code == 200


def test_the_director_corrects_a_deal_dealt_out_of_turn_and_opens_a_deal_not_written(
    dclient, director
) -> None:
    """Correcting a deal dealt out of turn keeps who dealt it (Code 3.2.14), so the later deals keep their dealers;
    the correction form opens on a deal not written too."""
    table = running_table(director)
    t = table.round.tournament
    page = url("pulka_table", t, number=1, table=1)
    setup = sheet.load_sheet(table).setup
    other = setup.dealer(2)
    fields = six_fields(table, 2)
    dclient.post(page, {"action": "enter", "dealt_by": other, "enter-version": 0, **fields})
    sheet.enter_deal(table=table, row={"not_written": True}, user=director, now=timezone.now())
    table.refresh_from_db()
    fixed = {k.replace("enter-", "correct-"): v for k, v in six_fields(table, 2, tricks=7).items()}
    response = dclient.post(
        page,
        {
            "action": "correct",
            "deal": 1,
            "correct-version": table.version,
            "correct-reason": "взятки",
            **fixed,
        },
    )
    assert response.status_code == 302, visible_text(response)[:1500]
    deal = PulkaDeal.objects.get(table=table, number=1)
    assert deal.row["dealt_by"] == other and deal.row["declarer"][1] == 7
    assert dclient.get(page + "?correct=2").status_code == 200


def test_the_bundle_carries_the_time_limit_a_waiting_penalty_and_the_breaks(director) -> None:
    """Export → import keeps a table's extension and its deal written after the limit, a correction's warning
    that waits for the others, and the rows with ``dealt_by`` / ``not_written`` (optional bundle fields)."""
    import json

    from events.bundles import export_bundle, import_bundle
    from pulkas.models import PulkaCorrection
    from pulkas.services.bundle import PART

    table = running_table(director)
    t = table.round.tournament
    seats = table.seats()
    now = table.round.ends_at + dt.timedelta(minutes=1)
    sheet.enter_deal(table=table, row={"not_written": True}, user=director, now=now)
    n, e, s = seats["N"], seats["E"], seats["S"]
    writer = seats[sheet.load_sheet(table).score().next_deal.first_hand]
    others = [p for p in (n, e, s) if p != writer]
    table_control.extend_time(table=table, user=director, now=now, minutes=30, reason="спор")
    sheet.enter_deal(table=table, row=row_for(table), participant=writer, confirmations=others, now=now)
    wrong = dict(PulkaDeal.objects.get(table=table, number=2).row)
    wrong["declarer"] = [wrong["declarer"][0], 5]
    wrong["w1"] = [wrong["w1"][0], 3]
    sheet.correct_deal(table=table, number=2, row=wrong, participant=others[0], now=now)
    table_control.extend_time(table=table, user=director, now=now, minutes=1, reason="ещё")
    sheet.enter_deal(table=table, row={"not_written": True}, user=director, now=now + dt.timedelta(minutes=2))
    exported = json.loads(json.dumps(export_bundle(t), ensure_ascii=False))
    part = exported[PART]
    assert part["rounds"][0]["tables"][0]["overtime_deal"] == 3 and part["rounds"][0]["tables"][0]["ends_at"]
    pending = part["corrections"][0]["pending"]
    assert pending["warning"] and pending["penalty"] == [] and pending["writer"] == writer.number
    again = import_bundle(data=exported, slug="copy", now=timezone.now())
    copy = PulkaTable.objects.get(round__tournament=again)
    assert copy.overtime_deal == 3 and copy.ends_at == PulkaTable.objects.get(pk=table.pk).ends_at
    waiting = PulkaCorrection.objects.get(table=copy)
    assert waiting.pending["writer"] == copy.seats()[next(k for k, v in seats.items() if v == writer)].pk
