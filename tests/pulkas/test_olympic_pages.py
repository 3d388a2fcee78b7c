"""The director sees the Olympic bracket before round 1 (004-II «Остальные игроки выбывают»): the rounds and
settings pages in Russian and English, the regulation's advance per round on the settings page, and the
director's decision recorded through the rounds page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from pulkas.models import OlympicDecision, PulkaRound
from pulkas.services import rounds
from tests.html import english_phrases, lang, parse, visible_text
from tests.pulkas.factory import pulka_event
from tests.pulkas.test_director_pages import settings_post
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def url(name: str, t, **kwargs) -> str:
    return reverse(f"director:{name}", kwargs={"slug": t.slug, **kwargs})


def test_the_bracket_before_round_1_flags_the_rounds_that_cannot_seat(dclient, director) -> None:
    """«Остальные игроки выбывают»: before round 1 the rounds page of 20 players at tables of 4 shows every
    round (players, tables, who goes on) and flags rounds 1 and 2, whose winners cannot be seated, with the
    fixes — in Russian without English words, and in English."""
    t = pulka_event(director, "olympic", 20, 4, pool=4)
    for page in (url("pulka_rounds", t), url("pulka_settings", t)):
        response = dclient.get(page)
        assert response.status_code == 200 and lang(response) == "ru"
        doc = parse(response)
        box = doc.by_id("olympic-bracket")
        assert box is not None
        flagged = [tr.get("data-round") for tr in box.find_all("tr", data_flagged="1")]
        assert flagged == ["1", "2"]
        words = visible_text(response)
        assert english_phrases(words, t.name) == [], english_phrases(words, t.name)
        assert "Остальные игроки выбывают" in words and "решение судьи" in words
    assert "Тур 1 в нынешнем виде не разыграть" in visible_text(dclient.get(url("pulka_rounds", t)))
    en = visible_text(dclient.get(url("pulka_rounds", t), headers=EN))
    assert "the winners cannot be seated" in en


def test_the_regulation_advance_per_round_on_the_settings_page(dclient, director) -> None:
    """«или еще и второй игрок, по регламенту»: the settings page sets the advance of round 1 to 2; the bracket
    then seats every round, and the draw goes through."""
    t = pulka_event(director, "olympic", 20, 4, pool=4)
    page = url("pulka_settings", t)
    response = dclient.get(page)
    assert "advance_round_1" in response.context["form"].fields
    assert dclient.post(page, settings_post(response, advance_round_1="2")).status_code == 302
    t.pulka_event.refresh_from_db()
    assert t.pulka_event.advance_by_round == {"1": 2}
    doc = parse(dclient.get(url("pulka_rounds", t)))
    assert doc.by_id("olympic-bracket").find("tr", data_flagged="1") is None
    drawn = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    assert drawn.tables.count() == 5
    response = dclient.get(page)
    assert response.context["form"].fields["advance_round_1"].disabled
    assert response.context["form"].fields["olympic_refill"].disabled


def test_the_decision_recorded_on_the_rounds_page_is_audited(dclient, director) -> None:
    """The software's choice, the book being silent: the director records on the rounds page, with a reason,
    that table 2's second-placed go on too; then the draw of 6 players at tables of 3 goes through. A form made
    before somebody else's decision does not overwrite it."""
    t = pulka_event(director, "olympic", 6, 3, pool=4)
    rounds_page = url("pulka_rounds", t)
    doc = parse(dclient.get(rounds_page))
    assert doc.by_id("olympic-decision") is not None
    decision = url("pulka_olympic_decision", t)
    dclient.post(decision, {"od-tables": ["2"], "od-reason": "", "od-expected": "-"})
    assert not OlympicDecision.objects.exists()  # no reason: nothing saved
    dclient.post(decision, {"od-tables": ["2"], "od-reason": "регламент, п. 5", "od-expected": "-"})
    assert OlympicDecision.objects.get(tournament=t).tables == [2]
    dclient.post(decision, {"od-tables": ["1"], "od-reason": "иначе", "od-expected": "-"})  # stale form
    assert OlympicDecision.objects.get(tournament=t).tables == [2]
    assert AuditEntry.objects.get(tournament=t, action="pulka_olympic_decision").reason == "регламент, п. 5"
    dclient.post(url("pulka_draw", t), {"number": 1, "seed": 3})
    assert PulkaRound.objects.filter(tournament=t).count() == 1
