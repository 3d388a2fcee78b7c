"""§11.6 А.2 «Судья может потребовать, чтобы позднее все игроки сыграли правильную сдачу друг против друга»: the
ruling makes a tracked board to play later at that table, not only a sentence (issue 28). On the demo event (5
tables of 4, boards 1–20 in sets of 4; table 1 plays set 4, boards 13–16, in round 4)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from appeals import services as svc
from director.dashboard import overview
from duplicate.late_boards import late_board_record, late_boards
from duplicate.missing_rows import missing_rows
from scoring.models import LateBoard, Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace
from scoring.rows import result_save
from tournaments.errors import UserError
from tournaments.models import AuditEntry

from .conftest import ENDED

pytestmark = pytest.mark.django_db


def _forget(session, board):
    Result.objects.filter(session=session, board_number=board).delete()


def test_rule_11_6_A2_ruling_makes_a_tracked_late_board(
    demo, director_user, django_capture_on_commit_callbacks
):
    """§11.6 А.2 «…позднее все игроки сыграли правильную сдачу друг против друга»: table 1 played board 5 instead of
    13 in round 4; the director's ruling says the correct board is played later. Applying it records board 13 as
    a board to play later at table 1 of round 4 (audited); the dashboard lists it and proposes no assigned result
    for it; once its row is entered (by the director, on the table's page of that round) it is played."""
    t, session = demo
    deals = [r.row for r in Result.objects.filter(session=session, board_number=5) if r.row.get("contract")]
    _forget(session, 5)
    _forget(session, 13)
    irr = svc.irregularity_record(
        session=session,
        user=director_user,
        now=ENDED,
        kind="wrong_board",
        round=4,
        table=1,
        board=5,
        facts={"row": deals[0], "intended_board": 13, "play_later": True},
    )
    assert irr.proposal["code"] == "wrong_board_stands"
    with django_capture_on_commit_callbacks(execute=True):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
    late = LateBoard.objects.get(session=session)
    assert (late.round_number, late.table_number, late.board_number) == (4, 1, 13)
    assert AuditEntry.objects.filter(action="round.late_board", data__board=13).exists()
    assert [s.played for s in late_boards(session)] == [False]
    assert not any((m.round, m.table, m.board) == (4, 1, 13) for m in missing_rows(session))
    ov = overview(t, session, round_number=4, now=ENDED)
    assert any("§11.6" in a.text and "13" in a.text for a in ov.alerts)
    result_save(
        RowCommand(
            RowPlace(session=session, board=13, round=4, table=1),
            PlayedRow(row=deals[-1]),
            author=RowAuthor(user=director_user),
        ),
        now=ENDED,
    )
    assert [s.played for s in late_boards(session)] == [True]
    ov = overview(t, session, round_number=4, now=ENDED)
    assert not any("§11.6" in a.text for a in ov.alerts)


def test_rule_11_6_A2_without_the_requirement_nothing_is_tracked(
    demo, director_user, django_capture_on_commit_callbacks
):
    """§11.6 А.1 «Судья обычно разрешает держать результат…»: without А.2's requirement no late board is made."""
    _t, session = demo
    deals = [r.row for r in Result.objects.filter(session=session, board_number=5) if r.row.get("contract")]
    _forget(session, 5)
    irr = svc.irregularity_record(
        session=session,
        user=director_user,
        now=ENDED,
        kind="wrong_board",
        round=4,
        table=1,
        board=5,
        facts={"row": deals[0], "intended_board": 13},
    )
    with django_capture_on_commit_callbacks(execute=True):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
    assert not LateBoard.objects.exists()


def test_rule_11_6_A2_director_records_a_late_board_on_the_table_page(demo, director_user, client):
    """§11.6 А.2, recorded by hand on the table's page: only a board of the table's set with no row yet, once."""
    t, session = demo
    _forget(session, 14)
    client.force_login(director_user)
    url = reverse("director:late_board", args=[t.slug, session.number, 4, 1])
    assert client.post(url, {"board": "14", "reason": "сыграли 6-ю вместо 14-й"}).status_code == 302
    assert LateBoard.objects.filter(board_number=14, round_number=4, table_number=1).exists()
    page = client.get(reverse("director:table_round", args=[t.slug, session.number, 4, 1])).content.decode()
    assert "board-14" in page
    with pytest.raises(UserError) as err:
        late_board_record(session=session, round=4, table=1, board=14, user=director_user, now=ENDED)
    assert err.value.code == "late_board_twice"
    with pytest.raises(UserError) as err:  # board 2 is not one of the set table 1 plays in round 4
        late_board_record(session=session, round=4, table=1, board=2, user=director_user, now=ENDED)
    assert err.value.code == "board_not_in_set"
    played = Result.objects.filter(session=session, round_number=3, table_number=1).first()
    with pytest.raises(UserError) as err:  # round 3's boards at table 1 already have their rows
        late_board_record(
            session=session, round=3, table=1, board=played.board_number, user=director_user, now=ENDED
        )
    assert err.value.code == "late_board_played"
    assert LateBoard.objects.count() == 1
