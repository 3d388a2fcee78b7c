"""The irregularity rulings of seed 004 §11 end to end: recorded, proposed, applied through the one write path,
rescored — on the demo event (5 tables of 4, 5 rounds, boards 1–20 in sets of 4; rounds 1–3 entered). Each test
quotes the rule it enforces, in Russian (seed 004) and English."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.utils import translation

from appeals import services as svc
from appeals.services.irregularities import session_percentages
from director.forms import TournamentForm
from events.bundles import import_bundle, tournament_to_bundle
from results.data import load_report
from scoring.models import Result
from scoring.row_command import ArtificialAdjustment, PlayedRow, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from tournaments.models import AuditEntry
from tournaments.refusals import ResultRejected

from .conftest import ENDED
from .test_appeal_flow import core_standings, db_standings

pytestmark = pytest.mark.django_db


def round_trip(t):
    """Export → import → rescore gives the same standings as the event (the per-seat adjustments survive)."""
    copy = import_bundle(
        data=json.loads(json.dumps(tournament_to_bundle(t))), now=ENDED, slug=f"{t.slug}-copy"
    )
    rows = Result.objects.filter(session__tournament=copy)
    assert {(r.board_number, r.round_number, r.table_number): (r.annulled, r.percent) for r in rows} == {
        (r.board_number, r.round_number, r.table_number): (r.annulled, r.percent)
        for r in Result.objects.filter(session__tournament=t)
    }
    return db_standings(copy)


def record(session, user, **kw):
    return svc.irregularity_record(session=session, user=user, now=ENDED, **kw)


def apply(irr, user, capture):
    with capture(execute=True):
        svc.irregularity_apply(irregularity=irr, user=user, now=ENDED)


def _row(session, board, rnd=None, table=None):
    rows = Result.objects.filter(session=session, board_number=board)
    if rnd is not None:
        rows = rows.filter(round_number=rnd, table_number=table)
    return rows.order_by("round_number").first()


def _seats(session, rnd, table):
    return {
        k: p.number for k, p in session.seatings.get(round_number=rnd, table_number=table).seats().items()
    }


def _forget(session, board, numbers):
    """Rows of the board where any of these participants sat are removed (as if those tables had not played it)."""
    for r in Result.objects.filter(session=session, board_number=board):
        if set(r.seats().values()) & set(numbers):
            r.delete()


def test_rule_11_6_A1_result_stands_when_nobody_played_it(
    demo, director_user, django_capture_on_commit_callbacks
):
    """§11.6 А.1: «Судья обычно разрешает держать результат, если никто из игроков ранее не играл эту сдачу» — the
    result stands: the table's row on the wrong board is stored, and the board's other rows are scored with it."""
    t, session = demo
    seats = _seats(session, 4, 1)  # table 1 plays set 4 in round 4; it played board 5 (set 2) by mistake
    deals = [r.row for r in Result.objects.filter(session=session, board_number=5) if r.row.get("contract")]
    played, other = deals[0], deals[-1]
    _forget(session, 5, range(1, 21))  # nobody had played board 5 yet
    with pytest.raises(Exception, match="not in set"):  # the table itself cannot store it
        result_save(
            RowCommand(RowPlace(session=session, board=5, round=4, table=1), PlayedRow(row=played)), now=ENDED
        )
    irr = record(
        session,
        director_user,
        kind="wrong_board",
        round=4,
        table=1,
        board=5,
        facts={"row": played, "intended_board": 13},
    )
    assert irr.facts["played_before"] == [] and irr.proposal["code"] == "wrong_board_stands"
    assert [c.kind for c in irr.changes.order_by("id")] == ["row"]
    apply(irr, director_user, django_capture_on_commit_callbacks)
    stored = _row(session, 5, 4, 1)
    assert stored is not None and stored.row == played and stored.seats() == seats
    # Later rows of board 5 (two other tables) are scored with it: three results share 2 + 2 + 2 on each line.
    with django_capture_on_commit_callbacks(execute=True):
        for table, row in ((2, other), (3, played)):
            result_save(
                RowCommand(
                    RowPlace(session=session, board=5, round=4, table=table),
                    PlayedRow(row=row),
                    RowWriting(board_outside_set=True),
                ),
                now=ENDED,
            )
    rows = list(Result.objects.filter(session=session, board_number=5))
    assert len(rows) == 3
    for seat in ("N", "E", "S", "W"):
        assert sum(Fraction(r.matchpoints[seat]) for r in rows) == 6
    assert (
        Result.objects.get(pk=stored.pk).matchpoints
        == Result.objects.get(session=session, board_number=5, table_number=3).matchpoints
    ), "the ruling's row ties with the same result at table 3"
    assert db_standings(t) == core_standings(t)


def test_rule_11_6_B_only_the_repeaters_second_result_is_annulled(
    demo, director_user, django_capture_on_commit_callbacks
):
    """§11.6 Б: «его второй результат в сдаче аннулируется. Судье надлежит назначить искусственный присужденный
    результат участникам соревнования, которым обстоятельства помешали получить нормальный результат» — only the
    repeater's second result is annulled; the other three keep their result on the board and are compared; the
    table's intended board gets artificial results."""
    t, session = demo
    seats = _seats(session, 4, 1)  # N = 1 played board 1 in round 1; so had S and W — forget their tables
    _forget(session, 1, [n for s, n in seats.items() if s != "N"])
    first = _row(session, 1, 1, 1)
    with pytest.raises(ResultRejected, match="already played board 1"):
        result_save(
            RowCommand(
                RowPlace(session=session, board=1, round=4, table=1),
                PlayedRow(row=first.row),
                RowWriting(board_outside_set=True),
            ),
            now=ENDED,
        )
    irr = record(
        session,
        director_user,
        kind="wrong_board",
        round=4,
        table=1,
        board=1,
        fault={"N": "offending"},
        facts={"row": first.row, "intended_board": 13},
    )
    assert irr.facts["played_before"] == ["N"]
    assert [(c.kind, c.values.get("annulled")) for c in irr.changes.order_by("id")] == [
        ("row", ["N"]),
        ("artificial", None),
    ]
    apply(irr, director_user, django_capture_on_commit_callbacks)
    second = _row(session, 1, 4, 1)
    assert second.annulled == ["N"] and second.matchpoints["N"] == "0" and second.top["N"] == "0"
    assert all(Fraction(second.top[s]) > 0 for s in ("E", "S", "W")), "the other three are compared"
    first.refresh_from_db()
    assert first.annulled == [], "his first result stands"
    assert _row(session, 13, 4, 1).adjusted == {"N": "A-", "E": "A+", "S": "A+", "W": "A+"}
    assert db_standings(t) == core_standings(t) == round_trip(t)
    shown = next(r for r in load_report(t.pk).session(1).results if (r.board, r.round, r.table) == (1, 4, 1))
    assert shown.seats["N"].adjusted == "×" and shown.seats["E"].adjusted is None  # the protocol marks it


def test_rule_11_6_B_the_later_round_is_annulled_even_when_filed_on_the_first(
    demo, director_user, django_capture_on_commit_callbacks
):
    """§11.6 Б «его второй результат»: which result is the second is decided by the time of play (the order of the
    rounds), not by the row the director opened: filed on the round-1 row (refused at the table because the round-4
    row was entered first), the ruling annuls the round-4 row's seat and stores the round-1 row."""
    t, session = demo
    seats = _seats(session, 4, 1)
    _forget(session, 1, [n for s, n in seats.items() if s != "N"])
    first = _row(session, 1, 1, 1)
    first_row, first_seats = dict(first.row), first.seats()
    first.delete()  # round 1 not entered yet ...
    Result.objects.create(  # ... while round 4's (the same player, board 1 again) was
        session=session,
        board_number=1,
        round_number=4,
        table_number=1,
        dealer=first.dealer,
        row=first_row,
        position=999,
        **{
            f"seat_{k.lower()}": p
            for k, p in session.seatings.get(round_number=4, table_number=1).seats().items()
        },
    )
    with pytest.raises(ResultRejected, match="already played board 1"):
        result_save(
            RowCommand(RowPlace(session=session, board=1, round=1, table=1), PlayedRow(row=first_row)),
            now=ENDED,
        )
    irr = record(
        session, director_user, kind="wrong_board", round=1, table=1, board=1, facts={"row": first_row}
    )
    planned = [
        (c.kind, c.round_number, c.table_number, c.values.get("annulled")) for c in irr.changes.order_by("id")
    ]
    assert planned == [("row", 4, 1, ["N"]), ("row", 1, 1, None)]
    apply(irr, director_user, django_capture_on_commit_callbacks)
    assert _row(session, 1, 4, 1).annulled == ["N"]
    restored = _row(session, 1, 1, 1)
    assert restored.annulled == [] and restored.seats() == first_seats and restored.matchpoints["N"] != "0"
    assert db_standings(t) == core_standings(t)


def test_rule_11_3_C_the_annulled_offender_gets_the_artificial_A_minus(
    demo, director_user, django_capture_on_commit_callbacks
):
    """§11.3 В: «результат должен быть аннулирован. Но возможно сохранение результата ненарушивших игроков, если
    его получение не зависело от игры оппонентов» — the non-offenders keep their result; the offender's is
    annulled and he gets §11.2 Б.1's «40% от макса (средний минус)» (not his vists): the software's reading."""
    t, session = demo
    irr = record(
        session,
        director_user,
        kind="wrong_cards",
        round=1,
        table=1,
        board=2,
        fault={"E": "offending"},
        facts={"play_completed": True, "keep_non_offenders": True},
    )
    assert irr.proposal["code"] == "wrong_cards_keep"
    apply(irr, director_user, django_capture_on_commit_callbacks)
    row = _row(session, 2, 1, 1)
    assert row.percent == {"E": "40"} and Fraction(row.matchpoints["E"]) == Fraction(row.top["E"]) * 2 / 5
    assert row.top["E"] != "0"
    assert row.row, "the played deal is kept: the non-offenders' vists are compared"
    assert db_standings(t) == core_standings(t) == round_trip(t)
    # A later correction of the row's facts keeps the ruling's per-seat result; an artificial result replaces it.
    place = RowPlace(session=session, board=2, round=1, table=1)
    again = result_save(
        RowCommand(place, PlayedRow(row=row.row), RowWriting(correction=True, reason="typo")), now=ENDED
    )
    assert again.percent == {"E": "40"}
    grades = {"N": "A", "E": "A", "S": "A", "W": "A"}
    again = result_save(
        RowCommand(place, ArtificialAdjustment(grades=grades), RowWriting(correction=True, reason="x")),
        now=ENDED,
    )
    assert again.percent is None and again.annulled == []


def test_rule_11_2_B1_a_non_offender_may_get_more_than_A_plus(
    demo, director_user, django_capture_on_commit_callbacks
):
    """§11.2 Б.1: «по меньшей мере 60% (средний плюс) для невиновной стороны» — at least 60 %: the director may give
    a non-offender more on one row (e.g. his session percentage), with the reason; never an offender, never less."""
    t, session = demo
    irr = record(
        session, director_user, kind="wrong_hand", round=1, table=1, board=2, fault={"S": "offending"}
    )
    suggested = session_percentages(session, irr.seats)
    assert set(suggested) == {"N", "E", "S", "W"} and all(0 <= v <= 100 for v in suggested.values())
    for facts, words in (
        ({"percent": {"N": "75"}}, "Say why"),
        ({"percent": {"N": "55"}, "percent_reason": "x"}, "at least 60"),
        ({"percent": {"S": "75"}, "percent_reason": "x"}, "only a non-offender"),
        ({"percent": {"N": "lots"}, "percent_reason": "x"}, "65 or 62.5"),
    ):
        with translation.override("en"), pytest.raises(svc.AppealsError, match=words):
            svc.irregularity_revise(irregularity=irr, facts=facts, user=director_user, now=ENDED)
    irr = svc.irregularity_revise(
        irregularity=irr,
        facts={"percent": {"N": "75"}, "percent_reason": "his session percentage is 75 %"},
        user=director_user,
        now=ENDED,
    )
    change = irr.changes.get()
    assert change.values == {"N": "A+", "E": "A+", "S": "A-", "W": "A+", "percent": {"N": "75"}}
    audited = AuditEntry.objects.filter(action="irregularity.revise").latest("id").data
    assert (audited["percent"], audited["percent_reason"]) == ({"N": "75"}, "his session percentage is 75 %")
    apply(irr, director_user, django_capture_on_commit_callbacks)
    row = _row(session, 2, 1, 1)
    top = Fraction(row.top["N"])
    assert (
        Fraction(row.matchpoints["N"]) == top * 75 / 100 and Fraction(row.matchpoints["E"]) == top * 60 / 100
    )
    irr.refresh_from_db()
    assert "75" in irr.ruling and "his session percentage" in irr.ruling  # recorded on the ruling
    shown = next(r for r in load_report(t.pk).session(1).results if (r.board, r.round, r.table) == (2, 1, 1))
    assert (shown.seats["N"].adjusted, shown.seats["E"].adjusted) == ("75 %", "A+")  # and on the protocol
    assert db_standings(t) == core_standings(t) == round_trip(t)


@pytest.mark.parametrize(
    "minus, average, plus, field",
    [
        (40, 50, 60, None),
        (40, 50, 70, None),
        (45, 50, 60, "artificial_minus"),
        (35, 50, 60, "artificial_minus"),
        (40, 50, 55, "artificial_plus"),
        (40, 45, 65, "artificial_average"),
    ],
)
def test_rule_11_2_B1_settings_refuse_artificial_results_outside_the_book(demo, minus, average, plus, field):
    """§11.2 Б.1: «40% ... 50% ... и по меньшей мере 60%» — the settings page refuses an A- other than 40 %, an A
    other than 50 % (both fixed by the book) and an A+ below 60 %."""
    t, _session = demo
    data = {
        **TournamentForm.initial_of(t),
        "artificial_minus": minus,
        "artificial_average": average,
        "artificial_plus": plus,
        "starts_on": "2026-03-14",
        "rules": "",
    }
    data = {k: v for k, v in data.items() if v is not None}
    form = TournamentForm(data)
    form.is_valid()
    errors = {k for k in form.errors if k.startswith("artificial")}
    assert errors == ({field} if field else set())
