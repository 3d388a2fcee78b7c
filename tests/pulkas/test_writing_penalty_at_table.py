"""Code 4.2.4, 4.2.7, 4.2.10 at the table: the player who GAINS from a wrong row answers for it.

Code 4.2.4 «Каждый игрок сам ведёт запись результатов своей игры»; 4.2.7 «Ошибка в записи может быть поправлена
партнёрами, но безнаказанно – только в первый раз, в виде предупреждения … штраф за приписку должен равняться
величине приписки»; 4.2.10 «Не сделанная вовремя запись (забытая) может быть сделана». On one shared phone the
player who typed the row is not the one who «writes» his own entries; the software's reading: whoever gains from
the wrong row answers for it, whoever typed it. The warning comes first, for each player who answers.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from pulkas.services import rounds, sheet
from tests.pulkas.factory import pulka_event

pytestmark = pytest.mark.django_db

BOTH = {"calls": {"E": "whist", "S": "whist"}, "play": "closed"}


def six(n: int, e: int, s: int) -> dict:
    return {"contract": "6S", "declarer": ["N", n], "w1": ["E", e], "w2": ["S", s], **BOTH}


@pytest.fixture
def table(director):
    t = pulka_event(director, "compensation", 3, 3, pool=30)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    rounds.start_round(pulka_round=r, user=director, now=now)
    return r.tables.get()


def written_and_corrected(table, typed_by: str, row: dict, corrected_by: str, fixed: dict):
    """``typed_by`` writes ``row`` and the others confirm it; ``corrected_by`` corrects it; all confirm again."""
    now = timezone.now()
    seats = table.seats()
    others = [p for s, p in seats.items() if s != typed_by]
    deal, _created = sheet.enter_deal(
        table=table, row=row, participant=seats[typed_by], confirmations=others, now=now
    )
    correction = sheet.correct_deal(
        table=table, number=deal.number, row=fixed, participant=seats[corrected_by], now=now
    )
    for seat, p in seats.items():
        if seat != corrected_by:
            sheet.confirm_deal(table=table, number=deal.number, participant=p, now=now)
    correction.refresh_from_db()  # a correction that makes another answer stands once the others confirmed it
    return correction


def test_the_player_who_gains_answers_whoever_typed_the_row(table) -> None:
    """4.2.4 «Каждый игрок сам ведёт запись результатов своей игры»: E typed that N made his six; N went down
    one. N gained 2 pool points, so N is warned (his first time), not E who typed it. Later E types a row that
    gives E and S whists beyond the due: each of them is warned, his own first time, though N was warned before.
    Then a row that favours N again: N, already warned, pays 4.2.7's penalty, 2 on his mountain."""
    seats = table.seats()
    first = written_and_corrected(table, "E", six(6, 2, 2), "S", six(5, 3, 2))
    assert first.warned == ["N"] and first.writer == seats["N"] and first.penalty == []
    second = written_and_corrected(table, "E", six(5, 3, 2), "N", six(6, 2, 2))
    assert second.warned == ["E", "S"] and second.penalty == []
    third = written_and_corrected(table, "S", six(6, 2, 2), "E", six(5, 3, 2))
    assert third.warned == [] and not third.warning
    assert third.penalty == [{"type": "mountain", "seat": "N", "amount": 2}]
    assert sheet.load_sheet(table).deals[2].row["extra_entries"] == third.penalty
    fourth = written_and_corrected(table, "N", six(5, 3, 2), "N", six(6, 2, 2))
    assert fourth.penalty == [
        {"type": "whist", "from": "N", "to": "E", "amount": 4},
        {"type": "whist", "from": "N", "to": "S", "amount": 2},
    ]


def test_a_forgotten_entry_is_written_late_without_warning_or_penalty(table) -> None:
    """4.2.10 «Не сделанная вовремя запись (забытая) может быть сделана»: the row left off E's whist (a six
    nobody whisted) and was confirmed; adding E's whists later punishes nobody and warns nobody."""
    nobody = {"contract": "6S", "declarer": ["N", 10], "w1": ["E", 0], "w2": ["S", 0]}
    nobody |= {"calls": {"E": "pass", "S": "pass"}, "play": "none"}
    whisted = {"contract": "6S", "declarer": ["N", 6], "w1": ["E", 3], "w2": ["S", 1]}
    whisted |= {"calls": {"E": "whist", "S": "pass"}, "play": "open"}
    correction = written_and_corrected(table, "N", nobody, "E", whisted)
    assert correction.writer is None and not correction.warning and correction.penalty == []
    again = written_and_corrected(table, "N", six(6, 2, 2), "E", six(5, 3, 2))
    assert again.warned == ["N"]  # the forgotten entry was no warning: N's first error is still a warning


def test_the_directors_list_of_corrections_names_who_answered(client, director, table) -> None:
    """4.2.4, 4.2.7: the director's sheet lists each correction with the players warned and penalised by name, as
    the phone page does (one rule: ``PulkaCorrection.answering``)."""
    from django.urls import reverse

    from tests.html import parse

    seats = table.seats()
    written_and_corrected(table, "E", six(6, 2, 2), "S", six(5, 3, 2))  # N gained: N's warning
    written_and_corrected(table, "S", six(6, 2, 2), "E", six(5, 3, 2))  # N again: N's penalty
    client.force_login(director)
    t = table.round.tournament
    page = reverse("director:pulka_table", kwargs={"slug": t.slug, "number": 1, "table": table.number})
    items = [li.text() for li in parse(client.get(page)).one("ul", id="corrections").find_all("li")]
    n = f"{seats['N'].number} {seats['N'].name}"
    assert len(items) == 2, items
    assert items[0].endswith(f"предупреждение: {n}") and items[1].endswith(f"наказание: {n}")
