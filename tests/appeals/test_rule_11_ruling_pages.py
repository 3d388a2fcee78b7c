"""The ruling pages of seed 004 §11 as a director uses them, in Russian (the default) and English."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from appeals.models import Irregularity
from scoring.models import Result
from tests.html import english_phrases, visible_text

pytestmark = pytest.mark.django_db
EN = {"headers": {"accept-language": "en"}}


@pytest.mark.parametrize(
    "kind, extra, russian",
    [
        ("wrong_hand", {"fault_E": "offending"}, "Игра неправильной рукой: сдача аннулируется"),
        (
            "missing_card",
            {"found": "not_found"},
            "реконструирует расклад, насколько это возможно, на другой колоде",
        ),
        ("missing_card", {"found": "hand"}, "считается всегда принадлежавшей этой руке"),
        ("wrong_board", {"play_later": "on"}, "результат остаётся в силе (§11.6 А.1)"),
        (
            "wrong_cards",
            {"play_completed": "on", "keep_non_offenders": "on", "fault_E": "offending"},
            "им — искусственный результат A- (40 % от макса; частично виновной стороне — A, 50 %) (§11.3 В вместе с §11.2 Б.1",
        ),
    ],
)
def test_rule_11_proposals_are_shown_in_the_pages_language(client, demo, director_user, kind, extra, russian):
    """The proposal of §11 («судья назначает …») is the rule's wording in the page's language: a Russian page has
    no English sentence of the core (§11.4 «Карта не найдена ... реконструирует расклад» included)."""
    t, _session = demo
    client.force_login(director_user)
    r = client.post(
        reverse("appeals:ruling-new", kwargs={"slug": t.slug}),
        {"session": 1, "kind": kind, "round": 1, "table": 1, "board": 2, **extra},
    )
    assert r.status_code == 302, visible_text(r)[:500]
    page = client.get(r["Location"])
    text = visible_text(page)
    assert russian in text
    irr = Irregularity.objects.get()
    assert irr.proposal["text"] not in text and not english_phrases(text, t.name)
    english = visible_text(client.get(r["Location"], **EN))
    assert irr.proposal["code"] and "(§1" in english


def test_rule_11_2_B1_non_offender_above_A_plus_from_the_page(client, demo, director_user):
    """§11.2 Б.1 «по меньшей мере 60% (средний плюс) для невиновной стороны»: the page offers a non-offender's
    session percentage when it is above A+, takes a higher percentage with its reason and shows it on the ruling."""
    t, _session = demo
    client.force_login(director_user)
    r = client.post(
        reverse("appeals:ruling-new", kwargs={"slug": t.slug}),
        {"session": 1, "kind": "wrong_hand", "round": 1, "table": 1, "board": 2, "fault_S": "offending"},
    )
    url = r["Location"]
    page = client.get(url)
    assert "Процент за сессию" in visible_text(page) or not page.context["suggested"]
    client.post(
        url,
        {"action": "revise", "fault_S": "offending", "percent_N": "72.5", "percent_reason": "его процент"},
    )
    irr = Irregularity.objects.get()
    assert irr.changes.get().values["percent"] == {"N": "72.5"}
    text = visible_text(client.get(url))
    assert "N 72.5 %" in text and "его процент" in text and "по меньшей мере 60 %" in text
    client.post(url, {"action": "revise", "fault_S": "offending", "percent_S": "80", "percent_reason": "x"})
    assert Irregularity.objects.get().changes.get().values["percent"] == {"N": "72.5"}, (
        "an offender is refused"
    )


def test_rule_11_6_A1_the_row_as_played_is_entered_on_the_ruling_page(client, demo, director_user):
    """§11.6 А.1 «Судья обычно разрешает держать результат»: the director enters the row the table could not
    store (a board outside its set), and applying the ruling stores it."""
    t, session = demo
    client.force_login(director_user)
    deal = next(
        r.row for r in Result.objects.filter(session=session, board_number=5) if r.row.get("contract")
    )
    Result.objects.filter(session=session, board_number=5).delete()
    r = client.post(
        reverse("appeals:ruling-new", kwargs={"slug": t.slug}),
        {"session": 1, "kind": "wrong_board", "round": 4, "table": 1, "board": 5, "row": json.dumps(deal)},
    )
    assert r.status_code == 302
    bad = client.post(
        reverse("appeals:ruling-new", kwargs={"slug": t.slug}),
        {
            "session": 1,
            "kind": "wrong_board",
            "round": 4,
            "table": 2,
            "board": 5,
            "row": json.dumps({"contract": "6Z"}),
        },
    )
    assert bad.status_code == 200 and "Сыгранная строка неверна" in visible_text(bad)
    client.post(r["Location"], {"action": "apply", "ruling": ""})
    stored = Result.objects.get(session=session, board_number=5, round_number=4, table_number=1)
    assert stored.row == deal
    irr = Irregularity.objects.get()
    assert irr.ruling.startswith(
        "Никто из игроков ранее не играл эту сдачу"
    )  # the ruling in the event's language
