"""The demo event (seed_demo) run to the end by its director through the pages."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from boards.models import Board
from duplicate.gaps import round_gaps
from events.publication import publish
from scoring.models import Result
from tests.html import parse
from tournaments.models import Publication, Tournament

from .conftest import legal_row

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


def test_demo_runs_to_the_end(client, django_capture_on_commit_callbacks):
    call_command("seed_demo", stdout=StringIO())
    assert client.login(username="demo", password="demo-director")
    dash = reverse("director:dashboard", kwargs={"slug": "demo"})
    response = client.get(dash, headers=EN)
    ov = response.context["ov"]
    assert ov.next_action == "end" and ov.round.number == 4  # round 4 is running
    end4 = reverse("director:end_round", kwargs={"slug": "demo", "session": 1, "number": 4})
    assert parse(response).forms(end4) and parse(response).find(class_="countdown", data_ends_at=True)
    t = Tournament.objects.get(slug="demo")
    session = t.sessions.get()
    for number in (4, 5):
        if number == 5:
            client.post(reverse("director:start_round", kwargs={"slug": "demo", "session": 1, "number": 5}))
        for seating in session.seatings.filter(round_number=number):
            for board in Board.objects.filter(session=session, set_number=seating.set_number):
                row = legal_row(board.dealer)
                url = reverse(
                    "director:board_entry",
                    kwargs={
                        "slug": "demo",
                        "session": 1,
                        "round": number,
                        "table": seating.table_number,
                        "board": board.number,
                    },
                )
                with django_capture_on_commit_callbacks(execute=True):
                    response = client.post(
                        url,
                        {
                            "kind": "row",
                            "contract": "6S",
                            "declarer_seat": row["declarer"][0],
                            "declarer_tricks": 6,
                            "w1_tricks": 2,
                            "w2_tricks": 2,
                            "call1": "whist",
                            "call2": "whist",
                        },
                    )
                assert response.status_code == 302
        client.post(
            reverse("director:end_round", kwargs={"slug": "demo", "session": 1, "number": number}),
            {"acknowledged": round_gaps(session.rounds.get(number=number)).token},
        )
    assert Result.objects.filter(session=session).count() == 100
    response = client.get(dash, headers=EN)
    assert response.context["ov"].next_action == "publish"  # play is over, the results are provisional
    publication = reverse("director:publication", kwargs={"slug": "demo"})
    assert parse(response).find("a", href=publication, class_="btn") is not None
    gaps = client.get(publication).context["gaps"]  # the demo's earlier rows were never confirmed
    assert gaps.unconfirmed and not gaps.missing
    client.post(publication, {"action": "official", "acknowledged": gaps.token})
    t.refresh_from_db()
    assert t.publication == Publication.OFFICIAL
    response = client.get(reverse("director:publication", kwargs={"slug": "demo"}), headers=EN)
    ends = response.context["correction_ends"]
    assert ends == t.official_at + dt.timedelta(minutes=t.correction_minutes)
    (final,) = parse(response).buttons(name="action", value="final")
    assert "disabled" in final.attrs  # not before the correction period is over
    publish(
        tournament=t,
        to=Publication.FINAL,
        user=None,
        now=t.official_at + dt.timedelta(minutes=31),
        acknowledged=gaps.token,
    )
    # Locking cannot be undone by a director: without the reason the confirmation asks for, nothing happens.
    refused = client.post(
        reverse("director:publication", kwargs={"slug": "demo"}), {"action": "lock"}, headers=EN, follow=True
    )
    t.refresh_from_db()
    assert not t.is_locked and "Write the reason and confirm" in refused.content.decode()
    client.post(
        reverse("director:publication", kwargs={"slug": "demo"}),
        {"action": "lock", "reason": "Итоги утверждены"},
    )
    t.refresh_from_db()
    assert t.is_locked
    assert t.audit_entries.get(action="tournament.lock").reason == "Итоги утверждены"
    response = client.get(dash, headers=EN)
    assert response.context["ov"].next_action == "" and response.context["tournament"].is_locked
    doc = parse(response)
    assert doc.find(class_="badge-locked") is not None and not doc.find("button", class_="btn-big")
    standings = client.get(reverse("director:standings", kwargs={"slug": "demo"}), headers=EN)
    assert standings.context["current"] is True
    assert parse(standings).one(id="standings-state").find(class_="dot-ok") is not None
