"""Results pages: content, publication and board-visibility rules, pictures, exports (director only)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from results.models import ExportJob
from scoring.models import Standing
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
    assert "badge-provisional" in html and "Provisional results" in html
    assert 'http-equiv="refresh"' in html  # the no-script fallback while the session runs
    assert 'data-live="1"' in html
    for st in Standing.objects.filter(tournament=demo).select_related("participant"):
        assert st.participant.name in html
        assert f">{st.percent}<" in html
    assert reverse("results:player", kwargs={"slug": demo.slug, "number": 11}) in html


def test_official_and_final_are_marked_and_finished_sessions_do_not_refresh(three, en_client):
    html = en_client.get(_url("standings", three)).content.decode()
    assert "badge-official" in html and 'http-equiv="refresh"' not in html
    three.publication = Publication.FINAL
    three.save()
    assert "Final results." in en_client.get(_url("standings", three)).content.decode()


def test_unpublished_results_only_for_directors(demo, en_client, director):
    demo.publication = Publication.DRAFT
    demo.save()
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
    html = en_client.get(_url("board", demo, number=1)).content.decode()
    assert "once every table that plays it has entered" in html
    assert 'id="protocol"' not in html
    assert en_client.get(_url("board-chart", demo, number=1)).status_code == 404
    en_client.force_login(director)
    html = en_client.get(_url("board", demo, number=1)).content.decode()
    assert 'id="protocol"' in html and "Layout" in html and "Visible to directors only" in html


def test_finished_board_shows_protocol_layout_frequencies_and_chart(three, en_client):
    response = en_client.get(_url("board", three, number=2) + "?session=2")
    html = response.content.decode()
    assert 'id="protocol"' in html and "Contracts played" in html and "<svg" in html
    assert "Prikup" in html  # the layout, once the session is over
    assert html.count('class="kind-') == 5  # five tables play each board
    svg = en_client.get(_url("board-chart", three, number=2) + "?session=2")
    assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
    assert en_client.get(_url("board", three, number=99)).status_code == 404
    assert en_client.get(_url("board", three, number=1) + "?session=9").status_code == 404


def test_player_card(three, en_client):
    html = en_client.get(_url("player", three, number=4)).content.decode()
    st = Standing.objects.get(tournament=three, participant__number=4)
    assert "Player 4" in html and "Session 1" in html and "Session 2" in html
    assert "Procedural penalty" in html and "12.2.1 lateness" in html
    assert st.percent in html.replace(",", ".")
    assert "chart-running" in html
    svg = en_client.get(_url("player-chart", three, number=4))
    assert svg.status_code == 200 and "<polyline" in svg.content.decode()
    assert en_client.get(_url("player", three, number=99)).status_code == 404


def test_frequencies_page(three, en_client):
    html = en_client.get(_url("frequencies", three) + "?session=1").content.decode()
    assert html.count('class="freq-board"') == 15
    assert "Line N" in html and "Line S" in html and "Line W" not in html
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
    assert download["Content-Disposition"] == 'attachment; filename="demo-table-cards-s1.pdf"'
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    html = en_client.get(_url("exports", demo)).content.decode()
    assert f'id="job-{job.pk}"' in html and "Download" in html
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
    assert "cannot be made" in response.content.decode()
