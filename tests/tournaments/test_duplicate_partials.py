"""The duplicate side's last partials (issue 28), on an event of 20 seated by the basic movement on 5 tables
(boards 1–20 in sets of 4): each test quotes the rule of seed 004 it enforces, or says the choice is the software's.

* General provisions: a missing protocol row gets a proposed assigned result, accepted by the director in one step.
* §4: a row written out of the boards' order is flagged on the dashboard, not refused.
* §2: a table that only duplicates its boards in a round owes no row there.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from director.dashboard import overview
from duplicate import at_table, table_rows
from duplicate.duplication import set_duplicating
from duplicate.gaps import publication_gaps, round_gaps
from duplicate.late_boards import late_board_record
from duplicate.missing_rows import REASON, missing_row_assign, missing_rows
from duplicate.play_order import order_flags
from duplicate.rounds import round_end, round_start
from preferans.duplicate.play_order import OutOfOrder, out_of_order
from scoring.models import Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace
from scoring.rows import result_save
from tournaments.audit import entry_words
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Table

from .conftest import legal_row

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)


def _set_boards(session, rnd, table):
    seating = session.seatings.get(round_number=rnd, table_number=table)
    return list(seating.set_boards())


def _enter_as_player(session, table, board):
    """The player at N writes the board's row on the table's phone (the running round)."""
    state = at_table.table_state(Table.objects.get(session=session, number=table))
    n = state.seating.seat_n
    result, _ = table_rows.table_submit(
        state=state, participant=n, board_number=board.number, row=legal_row(board.dealer), now=T0
    )
    return result


def _start(session, director, number=1):
    rnd = session.rounds.get(number=number)
    round_start(rnd=rnd, user=director, now=T0)
    return rnd


def _end(rnd, director):
    rnd.refresh_from_db()
    round_end(rnd=rnd, user=director, now=T0 + dt.timedelta(minutes=30), acknowledged=round_gaps(rnd).token)


# -- §4 ------------------------------------------------------------------------------------------------------
def test_core_rule_4_deals_strictly_in_order_of_numbers():
    """§4 «Сдачи разыгрываются строго в порядке их номеров»: a board written while a lower-numbered board of the
    set had no row is out of order; in order is not."""
    assert out_of_order([1, 2, 3, 4], {1: 1, 2: 2, 3: 3}) == []
    assert out_of_order([5, 6, 7, 8], {6: 1, 5: 2}) == [OutOfOrder(6, (5,))]
    assert out_of_order([5, 6, 7, 8], {8: 1}) == [OutOfOrder(8, (5, 6, 7))]


def test_rule_4_out_of_order_entry_is_flagged_on_the_dashboard_not_refused(session, director):
    """§4 «Сдачи разыгрываются строго в порядке их номеров»: the player at N writes the set's second board first;
    the row is stored (not refused) and the dashboard flags it to the director, also once the first is written."""
    _start(session, director)
    first, second = _set_boards(session, 1, 1)[:2]
    stored = _enter_as_player(session, 1, second)
    assert stored.pk is not None
    flags = order_flags(session)
    assert [(f.round, f.table, f.board, f.skipped) for f in flags] == [(1, 1, second.number, (first.number,))]
    _enter_as_player(session, 1, first)
    assert [f.board for f in order_flags(session)] == [second.number]
    ov = overview(session.tournament, session, now=T0)
    texts = [a.text for a in ov.alerts if a.level == "warning"]
    assert any(f"board {second.number}" in t and "§4" in t for t in texts)


def test_rule_4_director_rows_typed_from_paper_are_not_flagged(session, director):
    """§4, the software's choice: a row the director types from a paper protocol says nothing of the order of play,
    so the director's rows out of order are not flagged."""
    _start(session, director)
    boards = _set_boards(session, 1, 2)
    result_save(
        RowCommand(
            RowPlace(session=session, board=boards[3].number, round=1, table=2),
            PlayedRow(row=legal_row(boards[3].dealer)),
            author=RowAuthor(user=director),
        ),
        now=T0,
    )
    assert order_flags(session) == []


# -- General provisions: a missing row -------------------------------------------------------------------------
def test_general_provisions_missing_row_gets_a_proposed_assigned_result(session, director):
    """Общие положения: «При отсутствии записей в протоколе судья … назначает присужденный результат»: once the
    round ended, each missing row is proposed an artificial result (A for every seat: the software's choice, the
    whole table keeps the protocol); the director accepts it in one step with who is at fault (§11.2 Б.1: A− at
    fault, A+ not at fault); the row is written and audited with its reason, and is no longer missing."""
    rnd = _start(session, director)
    boards = _set_boards(session, 1, 1)
    for b in boards[:3]:
        _enter_as_player(session, 1, b)
    assert missing_rows(session) == []  # the round runs: the table may still write it
    _end(rnd, director)
    proposals = [m for m in missing_rows(session) if m.table == 1]
    assert [(m.round, m.board) for m in proposals] == [(1, boards[3].number)]
    assert proposals[0].grades == {"N": "A", "E": "A", "S": "A", "W": "A"}
    assert len(missing_rows(session)) == 1 + 4 * 4  # table 1's last board; tables 2–5 wrote nothing
    row = missing_row_assign(
        session=session,
        round=1,
        table=1,
        board=boards[3].number,
        fault={"N": "offending", "E": "none"},
        user=director,
        now=T0 + dt.timedelta(hours=1),
    )
    assert row.adjusted == {"N": "A-", "E": "A+", "S": "A", "W": "A"}
    assert row.status == Result.Status.DIRECTOR
    entry = AuditEntry.objects.filter(action="result.create", reason=REASON).get()
    assert entry.reason == REASON and entry.user == director
    assert entry.data["after"]["adjusted"] == row.adjusted
    assert "protocol had no record" in entry_words(entry).why
    assert all(m.table != 1 for m in missing_rows(session))
    with pytest.raises(UserError) as err:  # accepted twice (a second tab): refused, nothing written
        missing_row_assign(session=session, round=1, table=1, board=boards[3].number, user=director, now=T0)
    assert err.value.code == "row_not_missing"
    with pytest.raises(UserError):
        missing_row_assign(
            session=session,
            round=1,
            table=2,
            board=_set_boards(session, 1, 2)[0].number,
            fault={"N": "guilty"},
            user=director,
            now=T0,
        )
    assert not Result.objects.filter(session=session, table_number=2).exists()


def test_general_provisions_missing_row_accepted_on_the_dashboard(session, director, dclient):
    """Общие положения «…назначает присужденный результат»: the dashboard lists the proposals and one POST accepts
    one, with the fault chosen per seat."""
    rnd = _start(session, director)
    _end(rnd, director)
    page = reverse("director:session_dashboard", args=[session.tournament.slug, session.number])
    html = dclient.get(page + "?round=1").content.decode()
    assert 'id="proposals"' in html
    board = _set_boards(session, 1, 3)[0].number
    url = reverse("director:missing_row", args=[session.tournament.slug, session.number, 1, 3, board])
    response = dclient.post(url, {"room": "1", "fault_S": "offending"})
    assert response.status_code == 302
    row = Result.objects.get(session=session, round_number=1, table_number=3, board_number=board)
    assert row.adjusted == {"N": "A", "E": "A", "S": "A-", "W": "A"}


# -- §2 duplication only -----------------------------------------------------------------------------------
def test_rule_2_a_table_duplicates_boards_without_playing_them(session, director):
    """§2 «…игроки распределяют карты в соответствии с предложенным ОТ раскладом и сами ее же не играют»: the
    director sets table 2 to only duplicate its boards in round 1; no row is expected from it (the gaps and the
    dashboard do not count it, no assigned result is proposed), a row there is refused, the change is audited."""
    set_duplicating(session=session, round=1, table=2, on=True, user=director, now=T0)
    assert AuditEntry.objects.filter(action="round.duplication", data__table=2).exists()
    rnd = _start(session, director)
    ov = overview(session.tournament, session, round_number=1, now=T0)
    table2 = next(t for t in ov.tables if t.table == 2)
    assert table2.state == "duplicating" and table2.boards == ()
    assert ov.expected == 4 * 4
    board = _set_boards(session, 1, 2)[0]
    with pytest.raises(UserError) as err:
        _enter_as_player(session, 2, board)
    assert err.value.code == "table_duplicates_only"
    assert not Result.objects.filter(session=session, table_number=2).exists()
    assert {g.table for g in round_gaps(rnd).items} == {1, 3, 4, 5}
    _end(rnd, director)
    assert 2 not in {g.table for g in publication_gaps(session.tournament).items}
    assert all(m.table != 2 for m in missing_rows(session))
    with pytest.raises(UserError) as err:  # the round has ended: it can no longer be changed
        set_duplicating(session=session, round=1, table=2, on=False, user=director, now=T0)
    assert err.value.code == "round_ended"


def test_rule_2_a_table_that_wrote_rows_plays_its_boards(session, director, dclient):
    """§2, the software's choice: a table that already has a row in the round plays its boards; the director's
    button (a POST on the dashboard) is refused with the reason, and nothing changes."""
    _start(session, director)
    _enter_as_player(session, 3, _set_boards(session, 1, 3)[0])
    url = reverse("director:duplication", args=[session.tournament.slug, session.number, 1, 3])
    response = dclient.post(url, {"room": "1", "on": "1"}, follow=True)
    assert not session.seatings.get(round_number=1, table_number=3).duplicates_only
    assert "already has results" in response.content.decode() or "уже есть" in response.content.decode()
    response = dclient.post(
        reverse("director:duplication", args=[session.tournament.slug, session.number, 1, 4]), {"on": "1"}
    )
    assert (
        response.status_code == 302 and session.seatings.get(round_number=1, table_number=4).duplicates_only
    )


def test_rule_2_and_11_6_the_tables_phone_page_says_what_the_table_owes(session, director, client):
    """§2 «…сами ее же не играют»: the phone page of a table that only duplicates its boards offers no row to write
    and says why; §11.6 А.2 «…позднее все игроки сыграли правильную сдачу друг против друга»: the phone page of the
    table names the board to be played later."""
    set_duplicating(session=session, round=1, table=2, on=True, user=director, now=T0)
    _start(session, director)
    board = _set_boards(session, 1, 1)[3]
    late_board_record(session=session, round=1, table=1, board=board.number, user=director, now=T0)
    page2 = client.get(
        f"/table/{Table.objects.get(session=session, number=2).code}/", HTTP_ACCEPT_LANGUAGE="en"
    )
    html2 = page2.content.decode()
    assert "only duplicates the boards" in html2 and 'name="contract"' not in html2
    page1 = client.get(
        f"/table/{Table.objects.get(session=session, number=1).code}/", HTTP_ACCEPT_LANGUAGE="en"
    )
    html1 = page1.content.decode()
    assert f"Board {board.number} of round 1 is to be played later" in html1 and 'name="contract"' in html1
