"""The appeals pages at an event played in pulkas: the player files with number and PIN choosing his table and
the deal, the director files for him or records a notice, the committee decides with the deal's corrected row,
rulings and corrections name the round, table and deal; hostile input is refused; Russian pages speak Russian.
(The services' rules are tests/appeals/test_pulka_appeals.py.)"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from appeals import services as svc
from appeals.models import Appeal, Correction, Irregularity, ScoreChange
from pulkas.models import PulkaDeal, PulkaTable, PulkaTableResult
from tests.html import english_phrases, lang, parse, visible_text
from tournaments.models import AuditEntry
from ui.row_form import PulkaRowForm

from .pulka_event import committee, event_with_round_one, six

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


@pytest.fixture
def e(director):
    """Round 1 ended a minute ago: appeals are open now."""
    return event_with_round_one(director, ended=timezone.now() - dt.timedelta(minutes=1))


def url(name, e, **kw):
    return reverse(name, kwargs={"slug": e.t.slug, **kw})


def as_player(client, e, seat="E", table=None):
    p = e.seat(table or e.table, seat)
    assert client.post(url("appeals:player", e), {"number": p.number, "pin": p.pin}).status_code == 302
    return p


def row_post(table, number, tricks):
    """The row form's fields (prefix «row») for 6♠ with ``tricks`` on deal ``number``, from the sheet as it is."""
    initial = PulkaRowForm.initial_of_row(six(table, number, tricks))
    data = {f"row-{k}": v for k, v in initial.items() if v is not None and v is not False}
    return data | {"row-version": PulkaTable.objects.get(pk=table.pk).version}


def test_the_player_files_about_a_deal_of_his_table(client, e):
    player = as_player(client, e)
    page = client.get(url("appeals:player", e))
    form = parse(page).one("form", id="file-form")
    assert [o.get("value") for o in form.one("select", name="table").find_all("option")] == ["1-1"]
    assert form.one("input", name="deal").get("max") == "500"
    claim = "<script>alert(1)</script> N claimed"
    r = client.post(
        url("appeals:player", e), {"action": "appeal", "table": "1-1", "deal": "2", "claim": claim}
    )
    appeal = Appeal.objects.get()
    assert r.url == url("appeals:player-appeal", e, number=appeal.number)
    assert (appeal.pulka_table_id, appeal.deal_number, appeal.appellant, appeal.filed_via) == (
        e.table.pk,
        2,
        player,
        Appeal.Via.PLAYER,
    )
    shown = client.get(r.url)
    assert b"<script>alert(1)" not in shown.content and b"&lt;script&gt;" in shown.content
    assert lang(shown) == "ru" and english_phrases(visible_text(shown), e.t.name, claim, "N claimed") == []
    assert "сдача 2, тур 1, стол 1" in visible_text(shown)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"table": "1-2", "deal": "1"}, "choice"),  # a table he did not sit at
        ({"table": "1-1", "deal": "0"}, "deal"),
        ({"table": "1-1", "deal": "abc"}, "deal"),
        ({"table": "1-1", "deal": "99999999999"}, "deal"),
        ({"table": "1-1", "deal": "2", "claim": "x" * 4001}, "claim"),
        ({"table": "1-1", "deal": "2", "claim": "   "}, "claim"),
        ({"table": "1-1", "deal": "99"}, "Нет сдачи 99"),  # a number the sheet does not have
        ({"session": "1", "board": "2", "round": "1"}, "table"),  # a duplicate «where»
    ],
)
def test_hostile_filings_are_refused_with_a_reason(client, e, data, why):
    as_player(client, e)
    r = client.post(url("appeals:player", e), {"action": "appeal", "claim": "c", **data}, follow=True)
    assert r.status_code == 200 and not Appeal.objects.exists()
    text = visible_text(r)
    if why == "Нет сдачи 99":
        assert "На листе стола 1 в туре 1 нет сдачи 99." in text
    else:
        assert r.context["appeal_form"].errors.get(why if why != "choice" else "table")


def test_the_director_files_for_a_player_and_records_a_notice(client, e):
    client.force_login(e.director)
    page = client.get(url("appeals:appeal-new", e))
    fields = {i.get("name") for i in parse(page).find_all("input")}
    assert (
        {"participant", "round", "table", "deal"} <= fields
        and "session" not in fields
        and "board" not in fields
    )
    p = e.seat(e.table, "S")
    r = client.post(
        url("appeals:appeal-new", e),
        {"participant": p.number, "round": 1, "deal": 3, "claim": "c", "file": "1"},
    )
    appeal = Appeal.objects.get()
    assert r.url == url("appeals:appeal", e, number=appeal.number)
    assert (appeal.table_number, appeal.deal_number, appeal.filed_via) == (1, 3, Appeal.Via.DIRECTOR)
    # The player did not sit at that table: refused, with the reason.
    r = client.post(
        url("appeals:appeal-new", e),
        {"participant": e.outsider().number, "round": 1, "table": 1, "deal": 1, "notice": "1"},
        follow=True,
    )
    assert "не играл за столом 1 в туре 1" in visible_text(r) and Appeal.objects.count() == 1
    # A duplicate «where» names nothing here.
    r = client.post(
        url("appeals:appeal-new", e), {"participant": p.number, "session": 1, "board": 2, "round": 1}
    )
    assert r.status_code == 200 and r.context["form"].errors.get("deal") and Appeal.objects.count() == 1
    # A notice: the table is found from where the player sat.
    r = client.post(
        url("appeals:appeal-new", e),
        {"participant": p.number, "round": 1, "deal": 3, "late_note": "warned at once", "notice": "1"},
    )
    assert Appeal.objects.filter(status=Appeal.Status.NOTICE, deal_number=3, table_number=1).exists()


def test_the_committee_decides_on_the_page_and_the_deal_changes(client, e):
    appeal = svc.pulka_appeal_file(
        tournament=e.t, table=e.table, deal=2, appellant=e.seat(e.table, "E"), claim="c", now=timezone.now()
    )
    svc.appeal_comment(appeal=appeal, comment="c", user=e.director, now=timezone.now())
    members = committee(e)
    svc.appeal_hear(appeal=appeal, members=members, user=e.director, now=timezone.now())
    client.force_login(e.director)
    page = client.get(url("appeals:appeal", e, number=appeal.number))
    decide = parse(page).one("form", **{"data-step": "decide"})
    assert (
        decide.find("select", name="row-declarer_tricks") is not None
        and decide.find("select", name="kind") is None
    )
    assert parse(page).one("section", id="pulka-deal") is not None
    act = url("appeals:appeal-action", e, number=appeal.number, action="decide")
    bad = row_post(e.table, 2, 5) | {"row-w1_tricks": "8"}  # ten tricks and more
    client.post(act, {"outcome": "adjusted", "decision": "d", **bad})
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.HEARD and not appeal.changes.exists()
    client.post(act, {"outcome": "adjusted", "decision": "N went down one.", **row_post(e.table, 2, 5)})
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.DECIDED and appeal.changes.get().values["declarer"][1] == 5
    for m in members:
        client.post(url("appeals:appeal-action", e, number=appeal.number, action="sign"), {"member": m.pk})
    before = dict(PulkaTableResult.objects.filter(table=e.table).values_list("seat", "vists"))
    client.post(url("appeals:appeal-action", e, number=appeal.number, action="apply"))
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.APPLIED
    assert PulkaDeal.objects.get(table=e.table, number=2).row["declarer"][1] == 5
    assert dict(PulkaTableResult.objects.filter(table=e.table).values_list("seat", "vists")) != before
    shown = client.get(url("appeals:appeal", e, number=appeal.number))
    assert "сдача 2, стол 1, тур 1" in visible_text(shown)


def test_a_ruling_and_a_correction_on_the_pages(client, e):
    client.force_login(e.director)
    r = client.post(
        url("appeals:ruling-new", e),
        {"kind": "procedural", "round": 1, "table": 1, "deal": 3, "description": "looked at the prikup"},
    )
    irr = Irregularity.objects.get()
    assert r.url == url("appeals:ruling", e, pk=irr.pk) and (irr.deal_number, irr.pulka_table) == (3, e.table)
    assert client.get(url("appeals:ruling-new", e) + "?round=1&table=2").context["form"].initial == {
        "round": "1",
        "table": "2",
    }
    client.post(url("appeals:ruling", e, pk=irr.pk), {"action": "revise_row", **row_post(e.table, 3, 5)})
    assert irr.changes.get().kind == ScoreChange.Kind.ROW
    client.post(url("appeals:ruling", e, pk=irr.pk), {"action": "apply", "ruling": "N went down"})
    assert PulkaDeal.objects.get(table=e.table, number=3).row["declarer"][1] == 5
    # The player asks for a correction on his page; the director corrects the deal on the correction's page.
    client.logout()
    as_player(client, e, "S")
    client.post(
        url("appeals:player", e), {"action": "correction", "table": "1-1", "deal": "1", "description": "d"}
    )
    c = Correction.objects.get()
    assert (c.deal_number, c.requested_by, c.status) == (1, e.seat(e.table, "S"), Correction.Status.REQUESTED)
    client.force_login(e.director)
    page = client.get(url("appeals:correction", e, pk=c.pk))
    assert parse(page).find("select", name="row-contract") is not None
    stale = row_post(e.table, 1, 8) | {"row-version": 0}
    r = client.post(url("appeals:correction", e, pk=c.pk), {"action": "apply", **stale}, follow=True)
    assert "Пулька изменилась, пока страница была открыта" in visible_text(r)
    c.refresh_from_db()
    assert c.status == Correction.Status.REQUESTED  # the sheet changed since: nothing overwritten
    client.post(url("appeals:correction", e, pk=c.pk), {"action": "apply", **row_post(e.table, 1, 8)})
    c.refresh_from_db()
    assert c.status == Correction.Status.APPLIED
    assert PulkaDeal.objects.get(table=e.table, number=1).row["declarer"][1] == 8
    listed = client.get(url("appeals:list", e))
    assert english_phrases(visible_text(listed), e.t.name) == []


def test_russian_pages_speak_russian_and_english_ones_english(client, e):
    ruling = svc.pulka_irregularity_record(
        tournament=e.t,
        table=e.table,
        kind="procedural",
        deal=2,
        description="Заглянул в прикуп",
        user=e.director,
        now=timezone.now(),
    )
    appeal = svc.pulka_appeal_file(
        tournament=e.t,
        table=e.table,
        deal=2,
        appellant=e.seat(e.table, "E"),
        claim="Претензия",
        ruling=ruling,
        now=timezone.now(),
    )
    as_player(client, e)
    client.force_login(e.director)
    for name, kw in (
        ("appeals:player", {}),
        ("appeals:player-appeal", {"number": appeal.number}),
        ("appeals:appeal", {"number": appeal.number}),
        ("appeals:appeal-new", {}),
        ("appeals:ruling-new", {}),
        ("appeals:correction-new", {}),
        ("appeals:list", {}),
        ("appeals:ruling", {"pk": ruling.pk}),
    ):
        ru = client.get(url(name, e, **kw))
        assert ru.status_code == 200 and lang(ru) == "ru", name
        words = visible_text(ru)
        # The audit trail shows what was recorded as it was (the services ran in English here).
        recorded = AuditEntry.objects.values_list("object_repr", flat=True)
        assert english_phrases(words, e.t.name, *recorded) == [], name
        if name == "appeals:appeal":  # the ruling appealed against, in the page's words
            assert "Процедурное нарушение · Тур 1, стол 1, сдача 2" in words
        en = client.get(url(name, e, **kw), headers=EN)
        assert english_phrases(visible_text(en), e.t.name), name


def test_the_appeal_form_to_print_names_the_deal(client, e):
    appeal = svc.pulka_appeal_file(
        tournament=e.t, table=e.table, deal=3, appellant=e.seat(e.table, "W"), claim="c", now=timezone.now()
    )
    client.force_login(e.director)
    page = client.get(url("appeals:appeal-form", e, number=appeal.number))
    values = [dd.text() for dd in parse(page).one("dl", class_="ap-b").find_all("dd")]
    assert values[1].startswith("1") and values[2] == "3"  # 2. round (table 1), 3. the deal
    pdf = client.get(url("appeals:appeal-form", e, number=appeal.number) + "?format=pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
