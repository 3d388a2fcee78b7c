"""Results pages: content, publication and board-visibility rules, pictures, exports (director only)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events.publication import unpublish
from results.models import ExportJob
from scoring.models import Penalty, Standing
from tests.html import english_phrases, lang, parse, visible_text
from tests.publishing import publish_to
from tournaments.models import Publication, Session

pytestmark = pytest.mark.django_db


@pytest.fixture
def en_client() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


def _url(name: str, t, **kw) -> str:
    return reverse(f"results:{name}", kwargs={"slug": t.slug, **kw})


def test_standings_page_lists_everyone_with_the_core_percent(demo, en_client):
    response = en_client.get(_url("standings", demo))
    assert response.status_code == 200
    html = response.content.decode()
    assert "badge-provisional" in html
    assert parse(html).one(class_="status-badge").get("data-publication") == "provisional"
    assert 'http-equiv="refresh"' in html  # the no-script fallback while the session runs
    assert 'data-live="1"' in html
    for st in Standing.objects.filter(tournament=demo).select_related("participant"):
        assert st.participant.name in html
        assert f">{st.percent}<" in html
    assert reverse("results:player", kwargs={"slug": demo.slug, "number": 11}) in html


def test_official_and_final_are_marked_and_finished_sessions_do_not_refresh(three, en_client):
    html = en_client.get(_url("standings", three)).content.decode()
    assert "badge-official" in html and 'http-equiv="refresh"' not in html
    director = three.directors.get()
    publish_to(
        three, Publication.FINAL, director, timezone.now() + dt.timedelta(hours=2)
    )  # after corrections
    final = en_client.get(_url("standings", three))
    assert parse(final).one(class_="status-badge").get("data-publication") == "final"
    assert "badge-final" in final.content.decode() and final.context["tournament"].publication == "final"


def test_unpublished_results_only_for_directors(demo, en_client, director):
    unpublish(tournament=demo, user=director, reason="published by mistake", now=timezone.now())
    for name, kw in (
        ("standings", {}),
        ("board", {"number": 1}),
        ("player", {"number": 3}),
        ("frequencies", {}),
    ):
        assert en_client.get(_url(name, demo, **kw)).status_code == 403
    en_client.force_login(director)
    assert en_client.get(_url("standings", demo)).status_code == 200


def test_board_hidden_from_public_until_every_table_played_it(demo, en_client, director):
    response = en_client.get(_url("board", demo, number=1))
    html = response.content.decode()
    assert response.context["visible"] is False and response.context["rows"] == []
    assert parse(html).find(id="board-pending") is not None  # shown once every table has entered it
    assert 'id="protocol"' not in html
    assert en_client.get(_url("board-chart", demo, number=1)).status_code == 404
    en_client.force_login(director)
    response = en_client.get(_url("board", demo, number=1))
    html = response.content.decode()
    assert response.context["show_layout"] and response.context["layout_hidden_for_public"]
    doc = parse(html)
    assert 'id="protocol"' in html and doc.find(class_="compass") is not None  # the layout…
    assert doc.find(id="layout-directors-only") is not None  # …for the directors' eyes while the session runs


def test_finished_board_shows_protocol_layout_frequencies_and_chart(three, en_client):
    response = en_client.get(_url("board", three, number=2) + "?session=2")
    html = response.content.decode()
    assert 'id="protocol"' in html and "<svg" in html
    doc = parse(html)
    contracts = response.context["contracts"]
    assert contracts and len(doc.one("table", id="contracts").find("tbody").find_all("tr")) == len(contracts)
    assert sum(c["count"] for c in contracts) == 5  # every table's contract
    # the layout, once the session is over, with the prikup in its pocket
    assert not response.context["layout_hidden_for_public"] and doc.find(id="layout-directors-only") is None
    (pocket,) = doc.one(class_="compass").find_all(data_prikup=True)
    assert (
        pocket.get("data-prikup") == "2" and "hand-" + response.context["layout"]["pocket"] in pocket.classes
    )
    assert html.count('class="kind-') == 5  # five tables play each board
    svg = en_client.get(_url("board-chart", three, number=2) + "?session=2")
    assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
    assert en_client.get(_url("board", three, number=99)).status_code == 404
    assert en_client.get(_url("board", three, number=1) + "?session=9").status_code == 404


def test_player_card(three, en_client):
    response = en_client.get(_url("player", three, number=4))
    html = response.content.decode()
    st = Standing.objects.get(tournament=three, participant__number=4)
    assert "Player 4" in html and response.context["many"]
    assert [item["s"].number for item in response.context["card_sessions"]] == [1, 2]
    doc = parse(html)
    assert len(doc.find_all("table", class_="score-card")) == 2  # one per session
    (penalty,) = doc.find_all("tr", class_="penalty")  # participant 4's penalty is in session 1
    assert "12.2.1 lateness" in penalty.text() and penalty.find(class_="strong").text() == "-3"
    assert st.percent in html.replace(",", ".")
    assert "chart-running" in html
    svg = en_client.get(_url("player-chart", three, number=4))
    assert svg.status_code == 200 and "<polyline" in svg.content.decode()
    assert en_client.get(_url("player", three, number=99)).status_code == 404


def test_frequencies_page(three, en_client):
    html = en_client.get(_url("frequencies", three) + "?session=1").content.decode()
    assert html.count('class="freq-board"') == 15
    lines = {t.get("data-line") for t in parse(html).find_all("table", data_line=True)}
    assert {"N", "S"} <= lines and "W" not in lines  # three players: no line W
    assert en_client.get(_url("boards", three)).status_code == 200


def test_exports_page_is_for_directors(
    demo, en_client, other_user, director, django_capture_on_commit_callbacks
):
    response = en_client.get(_url("exports", demo))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    en_client.force_login(other_user)
    assert en_client.get(_url("exports", demo)).status_code == 404
    en_client.force_login(director)
    html = en_client.get(_url("exports", demo)).content.decode()
    for kind in ("results", "workbook", "pack", "table_cards", "row_of_sets", "cost_table", "appeal_form"):
        assert f'data-kind="{kind}"' in html
    with django_capture_on_commit_callbacks(execute=True):
        response = en_client.post(
            _url("exports", demo), {"kind": "table_cards", "format": "pdf", "session": "1"}
        )
    assert response.status_code == 302
    job = ExportJob.objects.get(tournament=demo)
    assert (job.status, job.progress, job.created_by) == ("done", 100, director)
    assert job.options["base_url"] == "http://testserver/"
    status = en_client.get(_url("export-status", demo, pk=job.pk)).json()
    assert status["status"] == "done" and status["download"]
    download = en_client.get(status["download"])
    assert download["Content-Disposition"] == 'attachment; filename="demo-table-cards-s1-ru.pdf"'
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    html = en_client.get(_url("exports", demo)).content.decode()
    row = parse(html).one("tr", id=f"job-{job.pk}")
    assert row.get("data-status") == "done"
    assert row.one(class_="job-link").one("a").get("href") == status["download"]  # the download link
    en_client.force_login(other_user)
    assert en_client.get(status["download"]).status_code == 404


def test_a_failed_export_is_shown_on_the_job(demo, en_client, director, django_capture_on_commit_callbacks):
    Session.objects.filter(tournament=demo).update(movement=None)
    en_client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        en_client.post(_url("exports", demo), {"kind": "row_of_sets", "format": "pdf"})
    job = ExportJob.objects.get(tournament=demo)
    assert job.status == "failed" and "no movement" in job.message
    response = en_client.post(_url("exports", demo), {"kind": "row_of_sets", "format": "docx"}, follow=True)
    assert response.redirect_chain == [(_url("exports", demo), 302)]
    assert [m.level_tag for m in response.context["messages"]] == ["error"]  # no such format: said, not made
    assert ExportJob.objects.filter(tournament=demo).count() == 1


def test_results_pages_are_translated(demo, client, en_client):
    """Russian by default, English on request: the standings' heading, columns and status line."""
    ru = client.get(_url("standings", demo))
    assert ru.status_code == 200 and lang(ru) == "ru"
    words = visible_text(ru)
    assert "Итоговая таблица" in words and "Место" in words
    reasons = [
        p.reason for p in Penalty.objects.filter(session__tournament=demo)
    ]  # data: typed by the director
    assert english_phrases(words, demo.name, *reasons) == []  # no interface words left in English
    assert "Standings" not in words and "Provisional" not in words
    en = en_client.get(_url("standings", demo))
    assert lang(en) == "en"
    assert "Standings" in visible_text(en) and "Итоговая таблица" not in visible_text(en)
    assert english_phrases(visible_text(en), demo.name)  # the check above would see English words
