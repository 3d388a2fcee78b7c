"""Rules §13.2.4, the director's duties and powers:

«поддерживая порядок и дисциплину, налагать дисциплинарные наказания в очках или отстранять участника от игры в
текущей сессии или любой её части (решение судьи по этому вопросу окончательно); при наличии соответствующей
причины дисквалифицировать участника с одобрения турнирного комитета или ОТ»

— to keep order, impose disciplinary penalties in points or suspend a participant from play in the current session
or any part of it (his decision is final); with due cause, disqualify a participant with the approval of the
tournament committee or the organisers.

What the software does (docs/director-guide.md): a suspension is recorded with its session and rounds and changes
no number (the suspended participant has no board-lines for those rounds); a disqualified participant takes no
place — the others are ranked without him, he is listed last and marked, and every result played stands.
"""

from __future__ import annotations

from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from events.sanctions import disqualify, sanction_withdraw, suspend
from preferans.duplicate.standings import Total, out_of_the_ranking, rank_totals
from results.data import load_report
from results.pdf_results import standings_pdf
from results.sheets import standings_sheet
from scoring.models import Standing
from scoring.rescore import rescore_tournament
from tests.html import english_phrases, lang, visible_text
from tests.publishing import publish_to
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Participant, Publication, Sanction, Tournament

RU = {"Accept-Language": "ru"}


# -- the pure rule --------------------------------------------------------------------------------------------
def _t(percent: int) -> Total:
    return Total(Fraction(percent), Fraction(100))


@pytest.mark.parametrize(
    ("totals", "out", "expected"),
    [
        # nobody out: the ranking as before
        ({1: 60, 2: 50, 3: 40}, set(), [(1, "1"), (2, "2"), (3, "3")]),
        # the leader disqualified: everyone moves up, he is last with no place
        ({1: 60, 2: 50, 3: 40}, {1}, [(2, "1"), (3, "2"), (1, "")]),
        # a tie with a disqualified participant is no tie any more
        ({1: 60, 2: 50, 3: 50, 4: 40}, {3}, [(1, "1"), (2, "2"), (4, "3"), (3, "")]),
        # two disqualified: listed last by percent
        ({1: 30, 2: 50, 3: 70, 4: 40}, {1, 3}, [(2, "1"), (4, "2"), (3, ""), (1, "")]),
        # a shared place among the others stays shared
        ({1: 50, 2: 50, 3: 70}, {3}, [(1, "1-2"), (2, "1-2"), (3, "")]),
    ],
)
def test_rule_13_2_4_a_disqualified_participant_takes_no_place(totals, out, expected):
    """«дисквалифицировать участника»: the others are ranked as if he were absent; his numbers stay as earned."""
    rows = rank_totals({n: _t(p) for n, p in totals.items()}, out_of_ranking=out)
    assert [(r.participant, r.rank) for r in rows] == expected
    assert {r.participant: r.matchpoints for r in rows} == {n: Fraction(p) for n, p in totals.items()}
    again = out_of_the_ranking(rank_totals({n: _t(p) for n, p in totals.items()}), out)
    assert again == rows


# -- the service and the stored standings -----------------------------------------------------------------------
@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    rescore_tournament(tournament_id=t.pk)
    return t


def _standings(t):
    return [
        (s.participant.number, s.rank, s.matchpoints, s.max)
        for s in Standing.objects.filter(tournament=t).select_related("participant").order_by("position")
    ]


def test_rule_13_2_4_disqualification_needs_the_approval_and_a_reason(demo):
    """«с одобрения турнирного комитета или ОТ»: no approval, no disqualification; nothing is stored."""
    t = demo
    p = Participant.objects.get(tournament=t, number=1)
    director = t.directors.get()
    for kw, code in (
        ({"approved_by": " ", "reason": "cheating"}, "approval_missing"),
        ({"approved_by": "ОТ", "reason": " "}, "reason_missing"),
    ):
        with pytest.raises(UserError) as info:
            disqualify(tournament=t, participant=p, user=director, now=timezone.now(), **kw)
        assert info.value.code == code
    assert (
        not Sanction.objects.exists()
        and not AuditEntry.objects.filter(action__startswith="participant.").exists()
    )


def test_rule_13_2_4_a_disqualified_participant_leaves_the_ranking_and_nothing_else_changes(demo):
    """Disqualified: out of the ranking, listed last, marked; every matchpoint stays as played; audited;
    withdrawn (a mistake), he is ranked again."""
    t = demo
    before = _standings(t)
    leader = before[0][0]
    director = t.directors.get()
    sanction = disqualify(
        tournament=t,
        participant=Participant.objects.get(tournament=t, number=leader),
        reason="Repeated discussion of results",
        approved_by="Турнирный комитет",
        user=director,
        now=timezone.now(),
    )
    rescore_tournament(tournament_id=t.pk)
    after = _standings(t)
    assert after[-1] == (leader, "", before[0][2], before[0][3])
    assert {n: (mp, mx) for n, _r, mp, mx in after} == {n: (mp, mx) for n, _r, mp, mx in before}
    assert after[0][1] == "1" and after[0][0] == before[1][0]
    entry = AuditEntry.objects.get(action="participant.disqualify")
    assert (
        entry.reason == "Repeated discussion of results" and entry.data["approved_by"] == "Турнирный комитет"
    )
    with pytest.raises(UserError):
        disqualify(
            tournament=t,
            participant=sanction.participant,
            reason="x",
            approved_by="ОТ",
            user=director,
            now=timezone.now(),
        )
    sanction_withdraw(sanction=sanction, reason="Wrong participant number", user=director, now=timezone.now())
    rescore_tournament(tournament_id=t.pk)
    assert _standings(t) == before
    assert AuditEntry.objects.filter(action="sanction.withdraw").count() == 1


@pytest.mark.parametrize(
    ("first", "last", "ok"),
    [(None, None, True), (2, 3, True), (3, 3, True), (3, 2, False), (0, 1, False), (1, 99, False)],
)
def test_rule_13_2_4_suspension_from_a_session_or_part_of_it(demo, first, last, ok):
    """«отстранять участника от игры в текущей сессии или любой её части»: rounds within the session; recorded,
    audited; the numbers do not change (he has no board-lines for the rounds he did not play)."""
    t = demo
    before = _standings(t)
    p = Participant.objects.get(tournament=t, number=5)
    session = t.sessions.get(number=1)
    call = dict(
        tournament=t,
        participant=p,
        session=session,
        first_round=first,
        last_round=last,
        reason="Noise at the table",
        user=t.directors.get(),
        now=timezone.now(),
    )
    if not ok:
        with pytest.raises(UserError) as info:
            suspend(**call)
        assert info.value.code == "rounds"
        assert not Sanction.objects.exists()
        return
    sanction = suspend(**call)
    assert (sanction.kind, sanction.session, sanction.first_round, sanction.last_round) == (
        "suspension",
        session,
        first,
        last,
    )
    assert AuditEntry.objects.get(action="participant.suspend").data["participant"] == 5
    rescore_tournament(tournament_id=t.pk)
    assert _standings(t) == before


# -- the pages and the export ---------------------------------------------------------------------------------
def test_rule_13_2_4_director_page_public_standings_and_export_mark_the_disqualified(demo, client):
    """The director disqualifies on his page (Russian); the public standings and the export mark him «дискв.»."""
    t = demo
    director = t.directors.get()
    client.force_login(director)
    url = reverse("director:sanctions", kwargs={"slug": t.slug})
    page = client.get(url, headers=RU)
    assert page.status_code == 200 and lang(page) == "ru"
    assert english_phrases(visible_text(page), t.name) == []
    refused = client.post(
        url, {"action": "disqualify", "d-participant": 3, "d-approved_by": "", "d-reason": "x"}, headers=RU
    )
    assert refused.status_code == 200 and "has-error" in refused.content.decode()
    assert not Sanction.objects.exists()
    client.post(
        url,
        {
            "action": "suspend",
            "s-participant": 4,
            "s-session": 1,
            "s-first_round": 2,
            "s-last_round": 3,
            "s-reason": "Шум за столом",
        },
        headers=RU,
    )
    client.post(
        url,
        {"action": "disqualify", "d-participant": 3, "d-approved_by": "ОТ", "d-reason": "Подсказки партнёру"},
        headers=RU,
    )
    assert sorted(Sanction.objects.values_list("participant__number", "kind")) == [
        (3, "disqualification"),
        (4, "suspension"),
    ]
    rescore_tournament(tournament_id=t.pk)
    listed = client.get(url, headers=RU)
    assert english_phrases(visible_text(listed), t.name, "Подсказки партнёру", "Шум за столом") == []

    publish_to(t, Publication.PROVISIONAL, director, timezone.now())
    public = client.get(reverse("results:standings", kwargs={"slug": t.slug}), headers=RU)
    text = visible_text(public)
    assert "дискв." in text and "Подсказки партнёру" in text and "туры 2–3" in text
    assert english_phrases(text, t.name, "Подсказки партнёру", "Шум за столом") == []

    report = load_report(t.pk, now=timezone.now())
    for lang_code, mark in (("ru", "дискв."), ("en", "disq.")):
        rows = list(standings_sheet(report, lang_code).rows)
        assert [r[0] for r in rows if r[1] == 3] == [mark]  # the place column of every export (xlsx, csv)
        assert rows[-1][1] == 3
    pdf = standings_pdf(report, lang="ru")
    assert pdf.startswith(b"%PDF")

    api = client.get(f"/api/tournaments/{t.slug}/standings/").json()
    marked = {row["participant"]: (row["rank"], row["disqualified"]) for row in api}
    assert marked[3] == ("", True) and api[-1]["participant"] == 3  # the API says why he has no rank
    assert not any(flag for number, (_rank, flag) in marked.items() if number != 3)
