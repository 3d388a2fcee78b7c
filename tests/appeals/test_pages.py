"""The pages: permissions, the player's number + PIN, filing from the web, every director page renders."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from appeals import services as svc
from appeals.models import Appeal, Correction, Irregularity, ScoreChange
from tests.html import english_phrases, lang, parse, visible_text
from tournaments.models import Session

from .conftest import ENDED

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


@pytest.fixture
def open_session(demo):
    """The session ended a minute ago: filing is open now."""
    t, session = demo
    Session.objects.filter(pk=session.pk).update(ended_at=timezone.now() - dt.timedelta(minutes=1))
    session.refresh_from_db()
    return t, session


def test_director_pages_need_a_director(client, demo, other_user):
    t, _ = demo
    url = reverse("appeals:list", kwargs={"slug": t.slug})
    assert client.get(url).status_code == 302
    client.force_login(other_user)
    assert client.get(url).status_code == 403
    assert client.get(reverse("appeals:audit", kwargs={"slug": t.slug})).status_code == 403


def test_every_director_page_renders(client, demo, director_user, committee):
    t, session = demo
    client.force_login(director_user)
    appeal = svc.appeal_file(
        session=session, appellant=t.participants.get(number=1), round=1, board=1, claim="c", now=ENDED
    )
    irr = svc.irregularity_record(
        session=session, kind="wrong_hand", round=1, table=1, board=2, user=director_user, now=ENDED
    )
    corr = svc.correction_request(session=session, description="d", board=1, round=1, table=1, now=ENDED)
    s = t.slug
    for name, kw in [
        ("appeals:list", {}),
        ("appeals:appeal-new", {}),
        ("appeals:appeal", {"number": appeal.number}),
        ("appeals:appeal-form", {"number": appeal.number}),
        ("appeals:ruling-new", {}),
        ("appeals:ruling", {"pk": irr.pk}),
        ("appeals:correction-new", {}),
        ("appeals:correction", {"pk": corr.pk}),
        ("appeals:audit", {}),
        ("appeals:settings", {}),
    ]:
        response = client.get(reverse(name, kwargs={"slug": s, **kw}), headers=EN)
        assert response.status_code == 200, name
    response = client.get(reverse("appeals:appeal", kwargs={"slug": s, "number": appeal.number}), headers=EN)
    assert response.context["appeal"] == appeal
    # Appendix B: the twelve items of the appeal form, each with its value.
    form = parse(response).one("dl", class_="ap-b")
    assert len(form.find_all("dt")) == 12
    values = [dd.text() for dd in form.find_all("dd")]
    assert values[0] == str(appeal.appellant)  # 1. the player filing the appeal
    assert (values[2], values[7], values[8]) == (
        str(appeal.board_number),
        "c",
        "—",
    )  # 3. board, 8. claim, 9. comment


def test_a_full_appeal_through_the_pages(client, open_session, director_user, committee):
    t, session = open_session
    s = t.slug
    # The player warned the director before the next deal (rules §1: the notice is required).
    started = svc.next_deal_started_at(session=session, board=1, round=1, table=1)
    svc.appeal_notice(
        session=session,
        appellant=session.tournament.participants.get(number=6),
        round=1,
        board=1,
        user=director_user,
        now=started - dt.timedelta(seconds=1),
    )
    # The player identifies and files.
    player = client.post(reverse("appeals:player", kwargs={"slug": s}), {"number": 6, "pin": "1006"})
    assert player.status_code == 302
    response = client.get(reverse("appeals:player", kwargs={"slug": s}), headers=EN)
    assert response.context["player"].number == 6
    assert "1-1-1-1" in dict(
        response.context["appeal_form"].fields["deal"].choices
    )  # session, round, board, table
    filing = next(
        f for f in parse(response).find_all("form") if f.find("input", name="action", value="appeal")
    )
    assert filing.find("select", name="deal").find("option", value="1-1-1-1") is not None
    assert filing.find("textarea", name="claim") is not None
    r = client.post(
        reverse("appeals:player", kwargs={"slug": s}),
        {"action": "appeal", "deal": "1-1-1-1", "claim": "Claim", "bidding": "", "play": ""},
    )
    appeal = Appeal.objects.get()
    assert r.url == reverse("appeals:player-appeal", kwargs={"slug": s, "number": appeal.number})
    assert appeal.status == "filed" and appeal.filed_via == "player" and appeal.appellant.number == 6
    # The director and the committee.
    client.force_login(director_user)

    def act(a, data=None):
        return client.post(
            reverse("appeals:appeal-action", kwargs={"slug": s, "number": appeal.number, "action": a}),
            data or {},
        )  # noqa: E731

    act("comment", {"comment": "Ruled on the spot."})
    act("hear", {"members": [m.pk for m in committee], "notes": ""})
    act(
        "decide",
        {
            "outcome": "adjusted",
            "decision": "A+ to NS",
            "kind": "artificial",
            "grade_N": "A+",
            "grade_E": "A-",
            "grade_S": "A+",
            "grade_W": "A-",
        },
    )
    appeal.refresh_from_db()
    assert appeal.status == "decided"
    for m in committee:
        act("sign", {"member": m.pk})
    act("apply")
    act("close")
    appeal.refresh_from_db()
    assert appeal.status == "closed"
    # The player sees what changed on his board and why.
    client.logout()
    client.post(reverse("appeals:player", kwargs={"slug": s}), {"number": 6, "pin": "1006"})
    response = client.get(reverse("appeals:player", kwargs={"slug": s}), headers=EN)
    page = response.content.decode()
    kinds = [c["change"].kind for c in response.context["changes"] if c["change"]]
    assert ScoreChange.Kind.ARTIFICIAL in kinds and "A+ to NS" in page
    assert len(parse(response).one("section", id="changes").find_all("li")) == len(
        response.context["changes"]
    )
    # Another player of that board (not at the table) sees it too.
    client.post(reverse("appeals:player-logout", kwargs={"slug": s}))
    other = next(
        n
        for n in range(1, 21)
        if n not in appeal.seats.values()
        and t.participants.get(number=n)
        and svc.changes_for_participant(t.participants.get(number=n))
    )
    client.post(reverse("appeals:player", kwargs={"slug": s}), {"number": other, "pin": str(1000 + other)})
    assert (
        "A+ to NS" in client.get(reverse("appeals:player", kwargs={"slug": s}), headers=EN).content.decode()
    )


def test_player_pin_is_checked_and_attempts_limited(client, demo):
    t, _ = demo
    url = reverse("appeals:player", kwargs={"slug": t.slug})
    wrong = client.post(url, {"number": 1, "pin": "9999"}, headers=EN)
    assert wrong.status_code == 200 and wrong.context["form"].non_field_errors()  # refused, and said so
    assert not any(k.startswith("appeals.player") for k, _v in client.session.items())
    for _ in range(10):
        client.post(url, {"number": 1, "pin": "9999"})
    limited = client.post(url, {"number": 1, "pin": "1001"}, headers=EN)  # the right PIN, too late
    assert limited.status_code == 200 and limited.context["form"].non_field_errors()
    assert list(limited.context["form"].non_field_errors()) != list(wrong.context["form"].non_field_errors())
    assert not any(k.startswith("appeals.player") for k, _v in client.session.items())
    from tournaments.models import Strike

    Strike.objects.all().delete()  # the window is over: the same PIN lets him in
    assert client.post(url, {"number": 1, "pin": "1001"}).status_code == 302


def test_a_player_sees_only_his_own_appeals(client, demo):
    t, session = demo
    appeal = svc.appeal_file(
        session=session, appellant=t.participants.get(number=1), round=1, board=1, claim="c", now=ENDED
    )
    client.post(reverse("appeals:player", kwargs={"slug": t.slug}), {"number": 6, "pin": "1006"})
    assert (
        client.get(
            reverse("appeals:player-appeal", kwargs={"slug": t.slug, "number": appeal.number})
        ).status_code
        == 404
    )


def test_late_player_filing_shows_the_reason(client, demo):
    t, _ = demo  # the session ended at ENDED, long ago
    client.post(reverse("appeals:player", kwargs={"slug": t.slug}), {"number": 6, "pin": "1006"})
    r = client.post(
        reverse("appeals:player", kwargs={"slug": t.slug}),
        {"action": "appeal", "deal": "1-1-1-1", "claim": "x"},
        headers=EN,
        follow=True,
    )
    appeal = Appeal.objects.get()
    assert appeal.status == "refused" and "30" in appeal.refusal  # the filing period (rules §1)
    shown = [m for m in r.context["messages"] if m.level_tag == "error"]
    assert [m.message for m in shown] == [appeal.refusal]  # the reason is shown to the player
    assert appeal.refusal in visible_text(r)


def test_ruling_pages_record_revise_and_apply(client, demo, director_user):
    t, session = demo
    client.force_login(director_user)
    r = client.post(
        reverse("appeals:ruling-new", kwargs={"slug": t.slug}),
        {"session": 1, "kind": "wrong_hand", "round": 1, "table": 1, "board": 2, "fault_E": "offending"},
    )
    irr = Irregularity.objects.get()
    assert r.status_code == 302 and irr.changes.get().values["E"] == "A-"
    url = reverse("appeals:ruling", kwargs={"slug": t.slug, "pk": irr.pk})
    client.post(url, {"action": "revise", "remedy": "none"})
    assert not irr.changes.exists()
    client.post(url, {"action": "revise", "remedy": "", "fault_E": "partly"})
    assert irr.changes.get().values["E"] == "A"
    client.post(url, {"action": "apply", "ruling": "As proposed"})
    irr.refresh_from_db()
    assert irr.status == "applied" and irr.ruling == "As proposed"


def test_fouled_layout_from_the_form(client, demo, director_user):
    t, session = demo
    client.force_login(director_user)
    board = session.boards.get(number=3)
    from .test_rulings_db import _swap_one_card

    played = _swap_one_card(board)
    data = {
        "session": 1,
        "kind": "fouled",
        "round": 1,
        "table": 1,
        "board": 3,
        "played_top": played["prikup"][0],
        "played_bottom": played["prikup"][1],
    }
    for seat, text in played["hands"].items():
        data[f"played_{seat.lower()}"] = text
    r = client.post(reverse("appeals:ruling-new", kwargs={"slug": t.slug}), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Irregularity.objects.get().facts["version"] == "B"
    bad = {**data, "played_top": "HZ"}
    r = client.post(reverse("appeals:ruling-new", kwargs={"slug": t.slug}), bad)
    assert r.status_code == 200 and Irregularity.objects.count() == 1


def test_correction_pages(client, demo, director_user):
    t, session = demo
    client.force_login(director_user)
    client.post(
        reverse("appeals:correction-new", kwargs={"slug": t.slug}),
        {"session": 1, "kind": "entry", "round": 1, "table": 1, "board": 1, "description": "N and S swapped"},
    )
    c = Correction.objects.get()
    url = reverse("appeals:correction", kwargs={"slug": t.slug, "pk": c.pk})
    client.post(url, {"action": "apply", "row": "", "seat_N": 11, "seat_E": 6, "seat_S": 1, "seat_W": 16})
    c.refresh_from_db()
    assert c.status == "applied"
    assert c.changes.get().result.seats() == {"N": 11, "E": 6, "S": 1, "W": 16}


def test_settings_and_committee(client, demo, director_user):
    t, _ = demo
    client.force_login(director_user)
    url = reverse("appeals:settings", kwargs={"slug": t.slug})
    client.post(
        url, {"action": "settings", "filing_minutes": 45, "correction_minutes": 20, "online_filing": "on"}
    )
    t.refresh_from_db()
    assert svc.settings_for(t).filing_minutes == 45 and t.correction_minutes == 20
    assert not svc.settings_for(t).notice_required
    client.post(url, {"action": "member", "name": "Chair", "participant": 5, "is_chair": "on"})
    assert t.committee.get().participant.number == 5


def test_the_filled_appeal_form_prints_as_pdf(client, demo, director_user):
    t, session = demo
    appeal = svc.appeal_file(
        session=session,
        appellant=t.participants.get(number=1),
        round=1,
        board=1,
        claim="c",
        bidding="пас 6♠ вист пас",
        now=ENDED,
    )
    client.force_login(director_user)
    url = reverse("appeals:appeal-form", kwargs={"slug": t.slug, "number": appeal.number})
    response = client.get(url + "?format=pdf")
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")


def test_appeals_pages_are_translated(client, demo):
    """Russian by default, English on request: the player's page of the appeals (number and PIN)."""
    t, _ = demo
    url = reverse("appeals:player", kwargs={"slug": t.slug})
    ru = client.get(url)
    assert ru.status_code == 200 and lang(ru) == "ru"
    words = visible_text(ru)
    assert "Апелляции и исправления" in parse(ru).one("h1").text()
    assert english_phrases(words, t.name) == []  # no interface words left in English
    en = client.get(url, headers=EN)
    assert lang(en) == "en" and parse(en).one("h1").text() == "Appeals and corrections"
    assert english_phrases(visible_text(en), t.name)  # the check above would see English words
    assert set(english_phrases(visible_text(en), t.name)).isdisjoint(english_phrases(words, t.name))
