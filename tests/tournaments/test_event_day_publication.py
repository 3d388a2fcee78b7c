"""Ending a round and publishing with gaps (issue 17, «Trust»): the director sees what is missing, unconfirmed
or disputed and says «I know» before it goes through; official results can be withdrawn until they are final.

Rules §1 («ОБЩИЕ ПОЛОЖЕНИЯ»): «Любое исправление результата допускается в установленное время коррекции (если
особо не оговорено, то в течение 30 минут после обнародования официального результата)» — any correction is
allowed within the correction time, by default 30 minutes after the official result is published. The gap check
itself is the software's safeguard, not the book's.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from boards.models import Board
from duplicate.gaps import publication_gaps, round_gaps
from duplicate.rounds import movement_choose, round_end, round_start
from events.publication import publish, unpublish
from scoring.models import Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace
from scoring.rows import result_save
from tests.html import parse, visible_text
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Participant, Publication, Round

from .conftest import legal_row

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}


def enter(session, director, *, round, table, board):
    dealer = Board.objects.get(session=session, number=board).dealer
    return result_save(
        RowCommand(
            RowPlace(session=session, board=board, round=round, table=table),
            PlayedRow(row=legal_row(dealer)),
            author=RowAuthor(user=director),
        ),
        now=timezone.now(),
    )


def boards_at(session, round, table):
    s = session.seatings.get(round_number=round, table_number=table).set_number
    return sorted(Board.objects.filter(session=session, set_number=s).values_list("number", flat=True))


def enter_round(session, director, number):
    for seating in session.seatings.filter(round_number=number):
        for b in boards_at(session, number, seating.table_number):
            enter(session, director, round=number, table=seating.table_number, board=b)


def end_url(t, number):
    return reverse("director:end_round", kwargs={"slug": t.slug, "session": 1, "number": number})


def test_ending_a_round_with_missing_results_asks_first(dclient, seated, director):
    session = seated.sessions.get(number=1)
    r1 = session.rounds.get(number=1)
    round_start(rnd=r1, user=director, now=timezone.now())
    first = boards_at(session, 1, 1)[0]
    enter(session, director, round=1, table=1, board=first)
    # One click is not enough: the round stays running and the dashboard says what is missing, in Russian.
    page = dclient.post(end_url(seated, 1), headers=RU, follow=True).content.decode()
    assert Round.objects.get(pk=r1.pk).status == Round.Status.RUNNING
    assert "В туре 1 не все результаты: не введено: 19." in page
    assert "Тур 1, стол 1 — не введены сдачи " + ", ".join(map(str, boards_at(session, 1, 1)[1:])) in page
    box = parse(dclient.get(reverse("director:dashboard", kwargs={"slug": seated.slug}), headers=RU))
    (tick,) = box.find_all("input", name="acknowledged")
    assert tick.attrs["value"] == round_gaps(r1).token and "required" in tick.attrs
    assert "Я знаю: не введено: 19 — всё равно завершить тур" in box.text()
    # Ticked: the round ends, and the audit says what was missing when it did.
    response = dclient.post(end_url(seated, 1), {"acknowledged": tick.attrs["value"]})
    assert response.status_code == 302 and Round.objects.get(pk=r1.pk).status == Round.Status.ENDED
    entry = AuditEntry.objects.get(action="round.end")
    assert entry.data["missing"] == 19 and entry.data["unconfirmed"] == 0


def test_the_dashboard_names_each_ended_round_with_results_missing_in_a_fixed_number_of_queries(
    dclient, seated, director
):
    session = seated.sessions.get(number=1)
    dashboard = reverse("director:dashboard", kwargs={"slug": seated.slug})

    def play(number, *, boards):
        rnd = session.rounds.get(number=number)
        round_start(rnd=rnd, user=director, now=timezone.now())
        for b in boards_at(session, number, 1)[:boards]:
            enter(session, director, round=number, table=1, board=b)
        round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)

    def shown():
        with CaptureQueriesContext(connection) as queries:
            page = dclient.get(dashboard, headers=RU)
        return " ".join(visible_text(page).split()), len(queries)

    play(1, boards=1)  # 19 of the round's 20 boards never entered
    text, one_round = shown()
    assert "Тур 1 закончен, не хватает 19 результатов." in text
    play(2, boards=0)
    r3 = session.rounds.get(number=3)
    round_start(rnd=r3, user=director, now=timezone.now())
    enter_round(session, director, 3)
    round_end(rnd=r3, user=director, now=timezone.now())
    text, three_rounds = shown()
    assert "Тур 1 закончен, не хватает 19 результатов." in text
    assert "Тур 2 закончен, не хватает 20 результатов." in text and "Тур 3 закончен" not in text
    assert three_rounds == one_round  # no query per ended round


def test_ending_a_complete_round_goes_straight_through(dclient, seated, director):
    session = seated.sessions.get(number=1)
    r1 = session.rounds.get(number=1)
    round_start(rnd=r1, user=director, now=timezone.now())
    enter_round(session, director, 1)
    page = parse(dclient.get(reverse("director:dashboard", kwargs={"slug": seated.slug}), headers=RU))
    assert not page.find_all("input", name="acknowledged")
    assert dclient.post(end_url(seated, 1)).status_code == 302
    assert Round.objects.get(pk=r1.pk).status == Round.Status.ENDED
    assert "missing" not in AuditEntry.objects.get(action="round.end").data


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (None, "missing"),
        (Result.Status.ENTERED, "unconfirmed"),
        (Result.Status.DISPUTED, "disputed"),
        (Result.Status.CONFIRMED, ""),
        (Result.Status.DIRECTOR, ""),
    ],
)
def test_a_gap_is_a_missing_unconfirmed_or_disputed_board(session, director, status, kind):
    """Missing: no row; unconfirmed: entered, the opponents have not confirmed; disputed: an opponent disputes."""
    r1 = session.rounds.get(number=1)
    round_start(rnd=r1, user=director, now=timezone.now())
    enter_round(session, director, 1)
    b = boards_at(session, 1, 2)[1]
    row = Result.objects.filter(session=session, round_number=1, table_number=2, board_number=b)
    if status is None:
        row.delete()
    else:
        row.update(status=status)
    gaps = round_gaps(r1)
    counts = {"missing": gaps.missing, "unconfirmed": gaps.unconfirmed, "disputed": gaps.disputed}
    assert counts == {k: int(k == kind) for k in counts}
    assert [(g.table, g.kind, g.numbers) for g in gaps.items] == ([(2, kind, (b,))] if kind else [])
    if kind:
        with pytest.raises(UserError) as refused:
            round_end(rnd=r1, user=director, now=timezone.now())
        assert refused.value.code == "gaps_not_acknowledged"
    round_end(rnd=r1, user=director, now=timezone.now(), acknowledged=gaps.token)


def test_an_acknowledgement_of_other_gaps_asks_again(session, director):
    """The token names the gaps the director saw: when the results change meanwhile, the page asks again."""
    r1 = session.rounds.get(number=1)
    round_start(rnd=r1, user=director, now=timezone.now())
    seen = round_gaps(r1).token
    enter(session, director, round=1, table=3, board=boards_at(session, 1, 3)[0])
    with pytest.raises(UserError):
        round_end(rnd=r1, user=director, now=timezone.now(), acknowledged=seen)
    assert Round.objects.get(pk=r1.pk).status == Round.Status.RUNNING
    round_end(rnd=r1, user=director, now=timezone.now(), acknowledged=round_gaps(r1).token)


def play_all(session, director, *, complete):
    for rnd in session.rounds.order_by("number"):
        round_start(rnd=rnd, user=director, now=timezone.now())
        if complete:
            enter_round(session, director, rnd.number)
        round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)


def test_publishing_with_missing_rows_needs_acknowledgement(dclient, seated, director):
    session = seated.sessions.get(number=1)
    url = reverse("director:publication", kwargs={"slug": seated.slug})
    dclient.post(url, {"action": "provisional"})  # nothing has ended yet: no gaps, straight through
    seated.refresh_from_db()
    assert seated.publication == Publication.PROVISIONAL
    play_all(session, director, complete=True)
    gone = boards_at(session, 2, 4)[:2]
    Result.objects.filter(session=session, round_number=2, table_number=4, board_number__in=gone).delete()
    Result.objects.filter(session=session, round_number=3, table_number=1).update(
        status=Result.Status.ENTERED
    )
    page = dclient.post(url, {"action": "official"}, headers=RU, follow=True).content.decode()
    seated.refresh_from_db()
    assert seated.publication == Publication.PROVISIONAL
    assert "Не все результаты готовы: не введено: 2, не подтверждено: 4." in page
    assert f"Тур 2, стол 4 — не введены сдачи {gone[0]}, {gone[1]}" in page
    assert "Тур 3, стол 1 — не подтверждены сдачи" in page
    assert "Я знаю: не введено: 2, не подтверждено: 4 — всё равно опубликовать" in page
    token = publication_gaps(seated).token
    dclient.post(url, {"action": "official", "acknowledged": token})
    seated.refresh_from_db()
    assert seated.publication == Publication.OFFICIAL
    entry = AuditEntry.objects.get(action="publication.official")
    assert (entry.data["missing"], entry.data["unconfirmed"]) == (2, 4)


def test_publishing_complete_results_goes_straight_through(seated, director):
    session = seated.sessions.get(number=1)
    play_all(session, director, complete=True)
    assert not publication_gaps(seated)
    for step in (Publication.PROVISIONAL, Publication.OFFICIAL):
        assert publish(tournament=seated, to=step, user=director, now=timezone.now()).publication == step


def test_official_results_can_be_withdrawn_until_final(dclient, seated, director):
    session = seated.sessions.get(number=1)
    play_all(session, director, complete=True)
    t0 = timezone.now() - dt.timedelta(hours=1)
    publish(tournament=seated, to=Publication.PROVISIONAL, user=director, now=t0)
    publish(tournament=seated, to=Publication.OFFICIAL, user=director, now=t0)
    url = reverse("director:publication", kwargs={"slug": seated.slug})
    page = parse(dclient.get(url, headers=RU))
    assert "Снять официальные результаты (вернуть в предварительные)" in page.text()
    page = dclient.post(url, {"action": "withdraw", "reason": ""}, headers=RU, follow=True).content.decode()
    seated.refresh_from_db()
    assert seated.publication == Publication.OFFICIAL  # no reason, no withdrawal
    dclient.post(url, {"action": "withdraw", "reason": "стол 3 перепутал сдачи"})
    seated.refresh_from_db()
    assert (seated.publication, seated.official_at, seated.published_at) == (
        Publication.PROVISIONAL,
        None,
        t0,
    )
    entry = AuditEntry.objects.filter(action="publication.provisional").latest("id")
    assert entry.reason == "стол 3 перепутал сдачи" and entry.data == {"withdrawn": True}
    # Published again: the correction period starts again from the new official publication.
    publish(tournament=seated, to=Publication.OFFICIAL, user=director, now=t0)
    publish(tournament=seated, to=Publication.FINAL, user=director, now=timezone.now())
    page = dclient.post(
        url, {"action": "withdraw", "reason": "поздно"}, headers=RU, follow=True
    ).content.decode()
    seated.refresh_from_db()
    assert seated.publication == Publication.FINAL
    assert "окончательные остаются окончательными" in page
    with pytest.raises(UserError):
        unpublish(tournament=seated, user=director, reason="поздно", now=timezone.now())


def test_a_disabled_make_final_says_why(dclient, seated, director):
    session = seated.sessions.get(number=1)
    play_all(session, director, complete=True)
    publish(tournament=seated, to=Publication.PROVISIONAL, user=director, now=timezone.now())
    publish(tournament=seated, to=Publication.OFFICIAL, user=director, now=timezone.now())
    seated.refresh_from_db()
    url = reverse("director:publication", kwargs={"slug": seated.slug})
    page = parse(dclient.get(url, headers=RU))
    (final,) = page.buttons(name="action", value="final")
    assert "disabled" in final.attrs and final.attrs["aria-describedby"] == "final-blockers"
    why = page.one(id="final-blockers").text()
    with translation.override("ru"):  # as the page writes the time (e.g. «0:10» just after midnight)
        ends = date_format(timezone.localtime(seated.correction_ends_at, seated.time_zone), "TIME_FORMAT")
    assert "Исправления принимаются до" in why
    assert ends in why


def test_gaps_name_the_room_when_there_are_rooms(event, director):
    """Two rooms play the same boards (rules §5, procedure 2): «стол 1» alone would not say which table."""
    Participant.objects.bulk_create(
        Participant(tournament=event, number=n, name=f"Игрок {n}", pin=f"{1000 + n}") for n in range(21, 25)
    )
    session = event.sessions.get(number=1)
    movement_choose(
        session=session, user=director, spec={"scheme": "basic", "tables": 3, "rooms": 2}, now=timezone.now()
    )
    r1 = session.rounds.get(number=1)
    round_start(rnd=r1, user=director, now=timezone.now())
    gaps = round_gaps(r1)
    assert gaps.rooms and {(g.room, g.table) for g in gaps.items} == {
        (r, t) for r in (1, 2) for t in (1, 2, 3)
    }
    with translation.override("ru"):
        assert "Тур 1, стол 2 (зал 2) — не введены сдачи" in "\n".join(gaps.lines())
