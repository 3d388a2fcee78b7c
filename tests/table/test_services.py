"""Entering, confirming and disputing rows at a table (services), on both databases."""

from __future__ import annotations

import pytest
from django.utils import timezone

from duplicate import at_table, table_rows
from duplicate.at_table import TableRefused
from events.tables import find_table
from scoring.errors import ResultConflict, ResultLocked
from scoring.models import Result
from tests.table.factory import legal_row, make_event, pin_of
from tournaments import ratelimit
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Participant, Round, Table
from tournaments.pins import PER_CLIENT
from tournaments.refusals import ResultRejected

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    return make_event(director=director)


def state_of(code="TAB1TT"):
    return at_table.table_state(Table.objects.get(code=code))


def person(number):
    return Participant.objects.get(number=number, tournament__slug="tt")


def test_the_table_knows_its_round_seats_and_boards_in_play_order(event):
    state = state_of()
    assert state.round.number == 1
    assert [b.number for b in state.boards] == [1, 2, 3, 4]
    assert state.seat_numbers == {"N": 1, "E": 2, "S": 3, "W": 4}
    assert state.confirmers().seats == ("E", "S", "W") and not state.confirmers().one


def test_codes_are_forgiving_and_unknown_codes_are_limited(event):
    assert find_table(" tab1-tt ", client="1.1.1.1").code == "TAB1TT"
    for _ in range(ratelimit.UNKNOWN_CODES_PER_WINDOW):
        with pytest.raises(UserError) as info:
            find_table("NOPE", client="1.1.1.1")
        assert info.value.status == 404
    with pytest.raises(UserError) as info:
        find_table("NOPE", client="1.1.1.1")
    assert info.value.status == 429
    assert find_table("TAB1TT", client="1.1.1.1").code == "TAB1TT"  # a known code always opens
    assert find_table("TAB1TT", client="2.2.2.2").code == "TAB1TT"


def test_wrong_pins_are_refused_and_limited(event):
    state = state_of()
    assert at_table.identify(state=state, number=1, pin=pin_of(1), ip="ip").number == 1
    for _ in range(PER_CLIENT):
        with pytest.raises(TableRefused) as info:
            at_table.identify(state=state, number=1, pin="0000", ip="ip")
        assert info.value.code == "wrong_pin"
    with pytest.raises(TableRefused) as info:
        at_table.identify(state=state, number=1, pin=pin_of(1), ip="ip")
    assert info.value.status == 429


def test_n_enters_the_others_confirm_and_the_row_locks(event):
    state = state_of()
    result, created = table_rows.table_submit(
        state=state,
        participant=person(1),
        board_number=1,
        row=legal_row(4, "N"),
        idempotency_key="k1",
        now=timezone.now(),
    )
    assert created and result.status == Result.Status.ENTERED
    assert sum(int(v) for v in result.vists.values()) == 0
    entry = AuditEntry.objects.get(action="result.create")
    assert entry.actor == "1 Player 1 · 1/N"
    state = state_of()
    for number, seat in ((2, "E"), (3, "S")):
        result = table_rows.table_confirm(
            state=state, result=state.results[1], participant=person(number), now=timezone.now()
        )
        assert result.status == Result.Status.ENTERED and seat in result.confirmed_by
    result = table_rows.table_confirm(
        state=state_of(), result=state.results[1], participant=person(4), now=timezone.now()
    )
    assert result.status == Result.Status.CONFIRMED
    assert AuditEntry.objects.filter(action="result.confirm").count() == 3
    # locked: N can no longer correct it, nobody can dispute it
    with pytest.raises(ResultLocked):
        table_rows.table_submit(
            state=state_of(),
            participant=person(1),
            board_number=1,
            row=legal_row(4, "N", tricks=(7, 2, 1)),
            replace=True,
            now=timezone.now(),
        )
    with pytest.raises(ResultLocked):
        table_rows.table_dispute(
            state=state_of(), result=result, participant=person(2), reason="wrong", now=timezone.now()
        )


def test_confirming_twice_is_harmless_and_n_cannot_confirm_his_own_row(event):
    state = state_of()
    result, _ = table_rows.table_submit(
        state=state, participant=person(1), board_number=1, row=legal_row(4, "N"), now=timezone.now()
    )
    state = state_of()
    table_rows.table_confirm(state=state, result=result, participant=person(2), now=timezone.now())
    again = table_rows.table_confirm(
        state=state_of(), result=result, participant=person(2), now=timezone.now()
    )
    assert again.confirmed_by == ["E"]
    with pytest.raises(TableRefused) as info:
        table_rows.table_confirm(state=state_of(), result=result, participant=person(1), now=timezone.now())
    assert info.value.code == "own_row"


def test_only_the_player_at_n_enters_and_only_seated_players_act(event):
    state = state_of()
    with pytest.raises(TableRefused) as info:
        table_rows.table_submit(
            state=state, participant=person(2), board_number=1, row=legal_row(4, "N"), now=timezone.now()
        )
    assert info.value.code == "not_entry_seat"
    with pytest.raises(TableRefused) as info:
        table_rows.table_submit(
            state=state, participant=person(5), board_number=1, row=legal_row(4, "N"), now=timezone.now()
        )
    assert info.value.code == "not_seated"
    # The board-in-set rule is the write path's (scoring.rows), the same for every channel.
    with pytest.raises(UserError) as info:
        table_rows.table_submit(
            state=state, participant=person(1), board_number=5, row=legal_row(4, "N"), now=timezone.now()
        )
    assert info.value.code == "board_not_here"


def test_n_corrects_until_someone_confirms(event):
    state = state_of()
    table_rows.table_submit(
        state=state, participant=person(1), board_number=1, row=legal_row(4, "N"), now=timezone.now()
    )
    fixed, created = table_rows.table_submit(
        state=state_of(),
        participant=person(1),
        board_number=1,
        row=legal_row(4, "N", tricks=(7, 2, 1)),
        replace=True,
        now=timezone.now(),
    )
    assert not created and fixed.row["declarer"][1] == 7
    assert AuditEntry.objects.filter(action="result.update").count() == 1
    assert Result.objects.count() == 1


def test_a_dispute_waits_for_the_director(event):
    state = state_of()
    result, _ = table_rows.table_submit(
        state=state, participant=person(1), board_number=1, row=legal_row(4, "N"), now=timezone.now()
    )
    with pytest.raises(TableRefused):
        table_rows.table_dispute(
            state=state_of(), result=result, participant=person(3), reason="  ", now=timezone.now()
        )
    disputed = table_rows.table_dispute(
        state=state_of(), result=result, participant=person(3), reason="W took 3", now=timezone.now()
    )
    assert disputed.status == Result.Status.DISPUTED and disputed.dispute == "S: W took 3"
    with pytest.raises(ResultLocked):
        table_rows.table_confirm(state=state_of(), result=result, participant=person(2), now=timezone.now())


def test_an_invalid_row_is_refused_with_the_cores_reasons(event):
    with pytest.raises(ResultRejected) as info:
        table_rows.table_submit(
            state=state_of(),
            participant=person(1),
            board_number=1,
            row=legal_row(4, "N", tricks=(6, 3, 2)),
            now=timezone.now(),
        )
    assert info.value.refusals[0].code == "tricks_total"
    assert not Result.objects.exists()


def test_retries_and_second_devices(event):
    state = state_of()
    first, created = table_rows.table_submit(
        state=state,
        participant=person(1),
        board_number=1,
        row=legal_row(4, "N"),
        idempotency_key="same",
        now=timezone.now(),
    )
    again, created_again = table_rows.table_submit(
        state=state_of(),
        participant=person(1),
        board_number=1,
        row=legal_row(4, "N"),
        idempotency_key="same",
        now=timezone.now(),
    )
    assert created and not created_again and again.pk == first.pk
    with pytest.raises(ResultConflict):
        table_rows.table_submit(
            state=state_of(),
            participant=person(1),
            board_number=1,
            row=legal_row(4, "N"),
            idempotency_key="other device",
            now=timezone.now(),
        )
    with pytest.raises(TableRefused) as info:
        table_rows.table_submit(
            state=state_of(),
            participant=person(1),
            board_number=2,
            row=legal_row(4, "E"),
            idempotency_key="same",
            now=timezone.now(),
        )
    assert info.value.code == "idempotency_key_reused"
    assert Result.objects.count() == 1


def test_keys_are_scoped_to_the_table(event):
    """The same client key at another table is another submission, never a replay of this table's row."""
    table_rows.table_submit(
        state=state_of(),
        participant=person(1),
        board_number=1,
        row=legal_row(4, "N"),
        idempotency_key="abc",
        now=timezone.now(),
    )
    other, created = table_rows.table_submit(
        state=state_of("TAB2TT"),
        participant=person(5),
        board_number=5,
        row=legal_row(4, "N"),
        idempotency_key="abc",
        now=timezone.now(),
    )
    assert created and other.table_number == 2


def test_nothing_is_entered_outside_a_running_round(event):
    _t, session = event
    Round.objects.filter(session=session, number=1).update(status=Round.Status.ENDED, ended_at=timezone.now())
    with pytest.raises(TableRefused) as info:
        table_rows.table_submit(
            state=state_of(), participant=person(1), board_number=1, row=legal_row(4, "N"), now=timezone.now()
        )
    assert info.value.code == "no_round"
