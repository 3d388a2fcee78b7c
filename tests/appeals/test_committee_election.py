"""Rules, general provisions (seed 004, «Общие положения»): decisions of the director «могут быть обжалованы в
установленном порядке в Апелляционном комитете турнира (АКТ), выбранном голосованием из наиболее авторитетных
участников турнира» — the appeals committee is elected by vote.

The director records the vote on the «Deadlines and committee» page (when, how many votes were cast, who was
elected with his votes); bad input is refused in the director's words with nothing saved; the vote is audited;
the committee's decision shows each member with the vote that elected him, on the page and in its PDF.
"""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from appeals import services as svc
from appeals.models import CommitteeElection, CommitteeMember
from tests.html import english_phrases, lang, visible_text
from tournaments.models import AuditEntry, Participant

from .conftest import ENDED

pytestmark = pytest.mark.django_db
RU = {"headers": {"accept-language": "ru"}}
IN_TIME = ENDED + dt.timedelta(minutes=10)


def _url(t) -> str:
    return reverse("appeals:settings", kwargs={"slug": t.slug})


def _vote(**extra) -> dict:
    """The election form as a director fills it: 20 votes cast; three members elected, № 2 chairs."""
    data = {
        "action": "election",
        "held_at": "14.03.2026 10:30",
        "voters": "20",
        "note": "Поднятием рук на открытии турнира",
        "name_1": "Петров Пётр",
        "participant_1": "2",
        "votes_1": "15",
        "name_2": "Сидоров Сидор",
        "participant_2": "3",
        "votes_2": "12",
        "name_3": "Кузнецов Кузьма",
        "votes_3": "9",
        "chair": "1",
    }
    data.update(extra)
    return data


def test_rule_general_the_committee_elected_by_vote_is_recorded_with_the_votes(client, demo, director_user):
    """«Апелляционном комитете турнира (АКТ), выбранном голосованием»: the vote is recorded with who was elected,
    the votes each received and its date (in the event's zone); a member already listed is linked to it."""
    t, _session = demo
    already = CommitteeMember.objects.create(
        tournament=t, name="Сидоров С.", participant=Participant.objects.get(tournament=t, number=3)
    )
    client.force_login(director_user)
    page = client.post(_url(t), _vote(), follow=True, **RU)
    election = CommitteeElection.objects.get()
    assert timezone.localtime(election.held_at, t.time_zone).strftime("%d.%m.%Y %H:%M") == "14.03.2026 10:30"
    assert election.voters == 20 and election.recorded_by == director_user
    members = {m.name: m for m in CommitteeMember.objects.filter(tournament=t)}
    assert set(members) == {"Петров Пётр", "Сидоров Сидор", "Кузнецов Кузьма"}  # № 3 linked, not added twice
    assert members["Сидоров Сидор"].pk == already.pk and members["Сидоров Сидор"].votes == 12
    assert members["Петров Пётр"].is_chair and members["Петров Пётр"].participant.number == 2
    assert all(m.election == election for m in members.values())
    entry = AuditEntry.objects.get(action="committee.elect")
    assert entry.data["voters"] == 20 and entry.user == director_user
    assert [(m["name"], m["votes"]) for m in entry.data["members"]] == [
        ("Петров Пётр", 15),
        ("Сидоров Сидор", 12),
        ("Кузнецов Кузьма", 9),
    ]
    words = visible_text(page)
    assert "избран голосованием 14.03.2026 10:30: 15 из 20 голосов" in words
    assert lang(page) == "ru" and english_phrases(words, t.name) == []


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"votes_2": "21"}, "от 0 до 20 поданных голосов"),
        ({"participant_3": "999"}, "Нет участника с номером 999"),
        ({"held_at": "01.01.2999 10:00"}, "ещё не наступило"),
        ({"name_1": "", "participant_1": "", "votes_1": "", "chair": ""}, None),  # two rows still elect
        ({"name_2": "Петров Пётр"}, "назван дважды"),
        ({"votes_3": ""}, "сколько голосов получил"),
        ({"voters": "0"}, None),
    ],
)
def test_rule_general_a_wrong_vote_is_refused_in_words_and_nothing_is_saved(
    client, demo, director_user, extra, words
):
    """«выбранном голосованием»: votes above those cast, an unknown participant, a vote still to come, a name
    twice or a member without his votes are refused in the director's words; nothing is half-saved."""
    t, _session = demo
    client.force_login(director_user)
    page = client.post(_url(t), _vote(**extra), follow=True, **RU)
    if extra.get("name_1") == "":
        assert CommitteeElection.objects.count() == 1 and CommitteeMember.objects.count() == 2
        return
    assert CommitteeElection.objects.count() == 0 and CommitteeMember.objects.count() == 0
    assert not AuditEntry.objects.filter(action="committee.elect").exists()
    if words:
        assert words in visible_text(page)


def test_rule_general_no_member_elected_is_refused_by_the_service(demo, director_user):
    """«выбранном голосованием»: a vote that elected nobody is not a committee's election."""
    t, _session = demo
    with pytest.raises(svc.AppealsError):
        svc.committee_elect(
            tournament=t, held_at=ENDED, voters=10, elected=[], user=director_user, now=IN_TIME
        )
    assert not CommitteeElection.objects.exists()


def _decided(t, session, director_user):
    """An appeal heard by the elected committee and decided, through the services a director uses."""
    svc.committee_elect(
        tournament=t,
        held_at=ENDED - dt.timedelta(hours=6),
        voters=20,
        elected=[
            svc.Elected(name="Петров Пётр", participant=2, votes=15, is_chair=True),
            svc.Elected(name="Сидоров Сидор", participant=3, votes=12),
        ],
        user=director_user,
        now=ENDED - dt.timedelta(hours=5),
    )
    appointed = CommitteeMember.objects.create(tournament=t, name="Назначенный Н.")
    appeal = svc.appeal_file(
        session=session,
        appellant=Participant.objects.get(tournament=t, number=1),
        round=1,
        board=1,
        claim="Заявка была неверной",
        now=IN_TIME,
        via="director",
        user=director_user,
        late_note="Судья был у стола",
    )
    appeal = svc.appeal_comment(appeal=appeal, comment="Решение судьи", user=director_user, now=IN_TIME)
    members = [*CommitteeMember.objects.filter(tournament=t, election__isnull=False), appointed]
    appeal = svc.appeal_hear(appeal=appeal, members=members, user=director_user, now=IN_TIME)
    return svc.appeal_decide(
        appeal=appeal, outcome="upheld", decision="Решение судьи остаётся.", user=director_user, now=IN_TIME
    )


def test_rule_general_the_committees_decision_shows_the_vote_that_elected_it(client, demo, director_user):
    """«АКТ, выбранном голосованием»: the decision's page and its printed form (Appendix B, item 11) name each
    member with the vote that elected him; a member without a recorded vote is marked so."""
    t, session = demo
    appeal = _decided(t, session, director_user)
    client.force_login(director_user)
    page = client.get(reverse("appeals:appeal", kwargs={"slug": t.slug, "number": appeal.number}), **RU)
    words = visible_text(page)
    assert "Петров Пётр (председатель) (избран голосованием 14.03.2026" in words
    assert "15 из 20 голосов" in words and "12 из 20 голосов" in words
    assert "Назначенный Н. (не избран голосованием, голосование не записано)" in words
    assert lang(page) == "ru" and english_phrases(words, t.name) == []
    pdf = client.get(
        reverse("appeals:appeal-form", kwargs={"slug": t.slug, "number": appeal.number}) + "?format=pdf", **RU
    )
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages))
    assert "Петров Пётр — избран голосованием" in text and "15 из 20 голосов" in text
    assert "Назначенный Н. — не избран голосованием" in text
