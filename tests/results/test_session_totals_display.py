"""The standings say how an event totals (issue 20; docs/players/series.md).

* ``session_totals = "percent"``: the page says the percentage is the mean of the sessions' percentages (not
  matchpoints / maximum), and the personal card's percentage and running chart end on the standings' figure;
* a final with a carry-over: a «перенесено» / «Carried» column (c·Q, ``scoring.session_totals.carried``) and the
  formula in one line, on the page and in the standings sheet; the sheet's percentage is the standings' own.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events.bundles import import_bundle
from preferans.numbers import format_percent
from results.data import load_report
from results.derived import running_percentages, score_cards
from results.sheets import standings_sheet
from scoring.models import Standing
from scoring.session_totals import carried
from tests.html import english_phrases, parse, visible_text
from tests.publishing import end_every_round, publish_to
from tournaments.models import Publication

pytestmark = pytest.mark.django_db
SMALL = Path(__file__).resolve().parents[1] / "data" / "small_bundle.json"
AVERAGED_RU = "Процент — среднее процентов сессий"
RATIO_EN = "Percentage of the maximum possible"


def two_sessions(**tournament) -> dict:
    """small_bundle with a second, shorter session (its first five rows): the sessions weigh differently."""
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    second = copy.deepcopy(data["sessions"][0])
    second["number"] = 2
    second["results"] = second["results"][:5]
    second.pop("movement", None)
    data["sessions"].append(second)
    data["tournament"] |= tournament
    return data


def event(slug: str, data: dict, director):
    now = timezone.now()
    t = import_bundle(data=data, now=now, user=director, slug=slug)
    end_every_round(t, director, now)
    return publish_to(t, Publication.OFFICIAL, director, now)


def page(t, lang: str = "ru") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(reverse("results:standings", kwargs={"slug": t.slug}))
    assert response.status_code == 200
    return response.content.decode()


def published(t) -> dict[int, str]:
    return dict(Standing.objects.filter(tournament=t).values_list("participant__number", "percent"))


@pytest.fixture
def averaged(director):
    return event("avg", two_sessions(session_totals="percent"), director)


@pytest.fixture
def final(director):
    event("qual", json.loads(SMALL.read_text(encoding="utf-8")), director)
    return event("final", two_sessions(qualification="qual", carry_over="1/2"), director)


def test_an_averaged_event_says_so_in_both_languages(averaged, director):
    ru = visible_text(page(averaged))
    assert AVERAGED_RU in ru and "матчпункты и максимум — суммы по сессиям" in ru
    assert not english_phrases(ru, averaged.name, "slow play")
    en = visible_text(page(averaged, "en"))
    assert "the mean of the percentages of the sessions the participant played" in en
    assert RATIO_EN not in en  # the matchpoints / maximum identity is not claimed
    plain = event("sum", two_sessions(), director)
    assert RATIO_EN in visible_text(page(plain, "en")) and AVERAGED_RU not in visible_text(page(plain))
    assert 'class="num carried"' not in page(plain)  # no carried column without a carry-over


@pytest.mark.parametrize("which", ["averaged", "final", "plain"])
def test_the_card_and_its_running_percentage_end_on_the_standings_figure(which, averaged, final, director):
    t = {"averaged": averaged, "final": final}.get(which) or event("sum", two_sessions(), director)
    report = load_report(t.pk)
    shown = published(t)
    for card in score_cards(report):
        points = running_percentages(card)
        assert format_percent(card.percent) == shown[card.person.number]
        assert format_percent(points[-1].percent) == shown[card.person.number]
    if which != "plain":  # the identity 100 · matchpoints / maximum does not hold here, and is not used
        assert not report.percent_is_ratio
        assert any(
            format_percent(100 * Fraction(mp) / Fraction(mx)) != p
            for mp, mx, p in Standing.objects.filter(tournament=t).values_list(
                "matchpoints", "max", "percent"
            )
        )


def test_a_final_shows_the_carried_part_and_the_formula(final):
    parts = {n: format_percent(v) for n, v in carried(final).items()}
    assert parts and len(parts) == final.participants.count()  # every finalist matched by name
    for lang, header, formula in (
        ("ru", "Перенесено", "Финал с переносом из «Кубок клуба»: процент = (c·Q + F) / (1 + c), c = 1/2"),
        (
            "en",
            "Carried",
            "A final with a carry-over from «Кубок клуба»: percentage = (c·Q + F) / (1 + c), c = 1/2",
        ),
    ):
        html = page(final, lang)
        doc = parse(html)
        assert formula in doc.one(id="carry-formula").text()
        assert doc.one("th", class_="carried").text() == header
        for tr in doc.one(id="standings").find_all("tr", data_participant=True):
            number = int(tr.get("data-participant"))
            cell = tr.one("td", class_="carried").text()
            assert cell.replace(",", ".") == parts[number]
    assert not english_phrases(visible_text(page(final)), final.name, "slow play")


def test_the_standings_sheet_carries_the_column_and_the_published_percent(final, averaged):
    report = load_report(final.pk)
    sheet = standings_sheet(report, "ru")
    titles = [c.title for c in sheet.columns]
    assert "Перенесено" in titles
    rows = list(sheet.rows)
    at, pct = titles.index("Перенесено"), titles.index("%")
    number = titles.index("№")
    shown, parts = published(final), carried(final)
    for row in rows:
        assert row[at] == parts[row[number]]
        assert format_percent(row[pct]) == shown[row[number]]
    # An averaged event: no carried column, the percent is the standings' average (not matchpoints / maximum).
    sheet = standings_sheet(load_report(averaged.pk), "en")
    titles = [c.title for c in sheet.columns]
    assert "Carried" not in titles
    shown = published(averaged)
    for row in sheet.rows:
        assert format_percent(row[titles.index("%")]) == shown[row[titles.index(sheet.columns[1].title)]]


def test_the_directors_standings_say_it_too(final, averaged, director):
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(director)
    html = client.get(reverse("director:standings", kwargs={"slug": final.slug})).content.decode()
    doc = parse(html)
    assert "процент = (c·Q + F) / (1 + c), c = 1/2" in doc.one(id="carry-formula").text()
    assert doc.one("th", class_="carried").text() == "Перенесено"
    parts = {n: format_percent(v) for n, v in carried(final).items()}
    cells = [td.text().replace(",", ".") for td in doc.one(id="standings").find_all("td", class_="carried")]
    assert sorted(cells) == sorted(parts.values())
    html = client.get(reverse("director:standings", kwargs={"slug": averaged.slug})).content.decode()
    assert AVERAGED_RU in parse(html).one(id="totals-mode").text()
    assert 'class="num wide-only carried"' not in html
    assert not english_phrases(visible_text(html), averaged.name, "slow play")
