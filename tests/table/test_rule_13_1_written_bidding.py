"""§13.1: the organisers «устанавливают специальные условия торговли и розыгрыша (такие, как запись торговли)»:
with written bidding set for the event, a played row carries the bidding as the table wrote it (bounded text),
entered on the phone or the director's form, shown on the protocol, kept in the bundle as an optional field."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from director.forms import TournamentForm
from events.bundles import import_bundle, tournament_to_bundle
from events.settings import tournament_update
from scoring.models import BIDDING_MAX, Result
from scoring.row_command import ArtificialAdjustment, PlayedRow, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from tests.table.factory import make_event, pin_of
from tests.table.test_page import row_post
from tournaments.errors import UserError

pytestmark = pytest.mark.django_db
EN = {"headers": {"accept-language": "en"}}
URL = reverse("table:entry", kwargs={"code": "TAB1TT"})
ROW = {
    "contract": "6S",
    "declarer": ["E", 6],
    "w1": ["S", 2],
    "w2": ["W", 2],
    "calls": {"S": "whist", "W": "whist"},
}


@pytest.fixture
def event(director):
    return make_event(director=director)[0]


def _set(event, director, on=True):
    tournament_update(tournament=event, user=director, changes={"bidding_record": on}, now=timezone.now())
    event.refresh_from_db()


def _save(event, bidding, board=1):
    session = event.sessions.get()
    return result_save(
        RowCommand(
            RowPlace(session=session, board=board, round=1, table=1), PlayedRow(row=ROW, bidding=bidding)
        ),
        now=timezone.now(),
    )


def test_rule_13_1_bidding_only_where_the_organisers_set_it(event, director):
    """§13.1 «…специальные условия торговли и розыгрыша (такие, как запись торговли)»: without the organisers'
    condition a row with a bidding is refused in words and nothing is stored; the phone page asks for none."""
    with pytest.raises(UserError) as err:
        _save(event, "6♠ пас 7♣")
    assert err.value.code == "bidding_not_recorded"
    assert not Result.objects.exists()


def test_rule_13_1_bidding_is_bounded_and_stored(event, director):
    """§13.1 «запись торговли», the software's bound: one line of at most 200 characters; longer is refused."""
    _set(event, director)
    with pytest.raises(UserError) as err:
        _save(event, "x" * (BIDDING_MAX + 1))
    assert err.value.code == "bidding_too_long"
    assert not Result.objects.exists()
    row = _save(event, "  6♠  пас\n7♣ пас пас ")
    assert row.bidding == "6♠ пас 7♣ пас пас"


def test_rule_13_1_the_phone_asks_for_the_bidding_and_the_protocol_shows_it(client, event, director):
    """§13.1 «запись торговли»: the player at N writes the bidding with the row on the phone; the protocol of the
    board shows it; on the director's form it is asked for too."""
    assert 'name="bidding"' not in client.get(URL, **EN).content.decode()
    _set(event, director)
    assert 'name="bidding"' in client.get(URL, **EN).content.decode()
    r = client.post(
        URL,
        {**row_post(), "bidding": "6♠ пас 7♣ пас пас", "action": "save", "number": 1, "pin": pin_of(1)},
        **EN,
    )
    assert r.status_code in (200, 302)
    assert Result.objects.get().bidding == "6♠ пас 7♣ пас пас"
    client.force_login(director)  # the director sees the protocol before publication
    page = client.get(reverse("results:board", args=[event.slug, 1]), **EN).content.decode()
    assert "6♠ пас 7♣ пас пас" in page
    entry = reverse("director:board_entry", args=[event.slug, 1, 1, 1, 2])
    assert 'name="bidding"' in client.get(entry, **EN).content.decode()


def test_rule_13_1_the_director_sets_it_and_the_bundle_keeps_it(client, event, director):
    """§13.1 «запись торговли»: the organisers' condition is a setting of the event (the settings form); the bundle
    carries it and the rows' bidding as optional fields, through an export and an import."""
    assert "bidding_record" in TournamentForm.base_fields
    assert TournamentForm.initial_of(event)["bidding_record"] is False
    _set(event, director)
    _save(event, "6♠ пас пас")
    data = json.loads(json.dumps(tournament_to_bundle(event)))
    assert data["tournament"]["bidding_record"] is True
    assert data["sessions"][0]["results"][0]["bidding"] == "6♠ пас пас"
    copy = import_bundle(data=data, now=timezone.now(), slug="tt-copy")
    assert copy.bidding_record is True
    assert Result.objects.get(session__tournament=copy).bidding == "6♠ пас пас"
    _set(event, director, on=False)
    assert "bidding_record" not in tournament_to_bundle(event)["tournament"]


def test_rule_13_1_a_correction_that_does_not_name_the_bidding_keeps_it(event, director):
    """§13.1 «запись торговли», the software's choice: a correction from a form without the bidding field (the
    organisers turned written bidding off meanwhile) keeps the row's written bidding; an adjustment clears it."""
    _set(event, director)
    row = _save(event, "6♠ пас пас")
    _set(event, director, on=False)
    session = event.sessions.get()
    place = RowPlace(session=session, board=1, round=1, table=1)
    fixed = result_save(
        RowCommand(
            place,
            PlayedRow(row={**ROW, "declarer": ["E", 7], "w1": ["S", 1], "w2": ["W", 2]}),
            RowWriting(correction=True, reason="взятки", revision=row.revision),
        ),
        now=timezone.now(),
    )
    assert fixed.bidding == "6♠ пас пас" and fixed.row["declarer"] == ["E", 7]
    adjusted = result_save(
        RowCommand(
            place,
            ArtificialAdjustment(grades={"N": "A", "E": "A", "S": "A", "W": "A"}),
            RowWriting(correction=True, reason="присуждённый", revision=fixed.revision),
        ),
        now=timezone.now(),
    )
    assert adjusted.bidding == ""
