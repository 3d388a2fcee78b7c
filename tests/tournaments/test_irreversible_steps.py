"""Nothing irreversible by accident (issue 30): making the results final and locking the event ask for a
confirmation that says what will happen, and the reason goes into the audit; an organiser can unlock, audited.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from events.publication import publish
from tests.html import parse
from tournaments.models import AuditEntry, Publication

from .test_event_day_publication import play_all

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}


@pytest.fixture
def official(seated, director):
    play_all(seated.sessions.get(number=1), director, complete=True)
    publish(tournament=seated, to=Publication.PROVISIONAL, user=director, now=timezone.now())
    publish(
        tournament=seated, to=Publication.OFFICIAL, user=director, now=timezone.now() - dt.timedelta(hours=1)
    )
    seated.refresh_from_db()
    return seated


def test_final_asks_for_a_confirmation_with_a_reason(dclient, official):
    url = reverse("director:publication", kwargs={"slug": official.slug})
    page = parse(dclient.get(url, headers=RU))
    confirm = page.one(id="confirm-final")
    assert "нельзя будет снять" in confirm.text()
    # One click on the button without the reason: nothing happens, the page says why.
    refused = dclient.post(url, {"action": "final"}, headers=RU, follow=True).content.decode()
    official.refresh_from_db()
    assert official.publication == Publication.OFFICIAL
    assert "Напишите причину и подтвердите" in refused
    dclient.post(url, {"action": "final", "reason": "срок исправлений истёк"})
    official.refresh_from_db()
    assert official.publication == Publication.FINAL
    assert AuditEntry.objects.get(action="publication.final").reason == "срок исправлений истёк"


def test_a_locked_event_opens_again_only_by_an_organiser_with_a_reason(
    client, dclient, official, director, django_user_model
):
    url = reverse("director:publication", kwargs={"slug": official.slug})
    dclient.post(url, {"action": "final", "reason": "срок исправлений истёк"})
    dclient.post(url, {"action": "lock", "reason": "итоги утверждены"})
    official.refresh_from_db()
    assert official.is_locked
    # The director has no unlock: the page offers nothing that would be refused.
    page = parse(dclient.get(url, headers=RU))
    assert not page.buttons(name="action")
    dclient.post(url, {"action": "unlock", "reason": "ошибка"})
    official.refresh_from_db()
    assert official.is_locked
    # An organiser (the permission) who directs the event: a confirmation, a reason, audited.
    organiser = django_user_model.objects.create_user("org", password="pw-org-12345")
    organiser.user_permissions.add(Permission.objects.get(codename="unlock_tournament"))
    official.directors.add(organiser)
    client.force_login(organiser)
    page = parse(client.get(url, headers=RU))
    assert page.one(id="confirm-unlock")
    refused = client.post(url, {"action": "unlock"}, headers=RU, follow=True).content.decode()
    official.refresh_from_db()
    assert official.is_locked and "Напишите причину и подтвердите" in refused
    client.post(url, {"action": "unlock", "reason": "апелляционный комитет вернул дело"})
    official.refresh_from_db()
    assert not official.is_locked and official.publication == Publication.FINAL
    entry = AuditEntry.objects.get(action="tournament.unlock")
    assert entry.reason == "апелляционный комитет вернул дело" and entry.user == organiser


def test_stopping_every_pulka_table_is_confirmed_with_a_reason(client, director):
    """«Время вышло: остановить все столы» stops the tables for good: the page asks, the reason is audited."""
    from pulkas.models import PulkaTable
    from tests.pulkas.factory import pulka_event, running_round

    t = pulka_event(director, players=8)
    pulka_round = running_round(director, t)
    client.force_login(director)
    page = parse(client.get(reverse("director:pulka_rounds", kwargs={"slug": t.slug}), headers=RU))
    assert "не смогут" in page.one(id="confirm-stop").text()
    url = reverse("director:pulka_round_action", kwargs={"slug": t.slug, "number": pulka_round.number})
    refused = client.post(url, {"action": "stop", "status": "running"}, headers=RU, follow=True)
    assert "Напишите причину и подтвердите" in refused.content.decode()
    assert not PulkaTable.objects.filter(round=pulka_round, stopped_at__isnull=False).exists()
    client.post(url, {"action": "stop", "status": "running", "reason": "время тура вышло"})
    assert not PulkaTable.objects.filter(round=pulka_round, stopped_at__isnull=True).exists()
    reasons = AuditEntry.objects.filter(action="pulka_table_stopped").values_list("reason", flat=True)
    assert list(reasons) == ["время тура вышло"] * 2


def test_new_pins_for_everyone_during_play_warn_and_need_a_reason(dclient, seated, director):
    """«Новые PIN всем» makes every printed slip stop working: during play the page says so, asks for a reason."""
    from duplicate.rounds import round_start
    from events.participants import pins_assign

    pins_assign(tournament=seated, user=director, now=timezone.now())
    round_start(rnd=seated.sessions.get(number=1).rounds.get(number=1), user=director, now=timezone.now())
    before = dict(seated.participants.values_list("number", "pin"))
    url = reverse("director:pins", kwargs={"slug": seated.slug})
    confirm = parse(dclient.get(url, headers=RU)).one(id="confirm-pins")
    assert "Идёт игра" in confirm.text() and "перестанут действовать" in confirm.text()
    refused = dclient.post(url, {"everyone": "1"}, headers=RU, follow=True).content.decode()
    assert "Напишите причину и подтвердите" in refused
    assert dict(seated.participants.values_list("number", "pin")) == before
    dclient.post(url, {"everyone": "1", "reason": "листки со столов 2 и 3 потеряны"})
    after = dict(seated.participants.values_list("number", "pin"))
    assert after.keys() == before.keys() and after != before
    entry = AuditEntry.objects.get(action="participants.pins", data__everyone=True)
    assert entry.reason == "листки со столов 2 и 3 потеряны"


def test_the_next_step_does_not_say_end_the_round_above_a_disputed_row(dclient, seated, director):
    """«Все результаты тура 1 введены: закончите тур» stood above «оспорено: 1»: one rule, one message."""
    from boards.models import Board
    from duplicate.rounds import round_start
    from scoring.confirmation import result_dispute
    from scoring.models import Result
    from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace, RowWriting
    from scoring.rows import result_save

    from .conftest import legal_row
    from .test_event_day_publication import boards_at

    session = seated.sessions.get(number=1)
    round_start(rnd=session.rounds.get(number=1), user=director, now=timezone.now())
    for seating in session.seatings.filter(round_number=1):  # each table's N writes its rows on the phone
        for board in boards_at(session, 1, seating.table_number):
            dealer = Board.objects.get(session=session, number=board).dealer
            place = RowPlace(session=session, board=board, round=1, table=seating.table_number)
            author = RowAuthor(actor=f"N, table {seating.table_number}")
            writing = RowWriting(status=Result.Status.ENTERED)
            command = RowCommand(place, PlayedRow(row=legal_row(dealer)), writing=writing, author=author)
            result_save(command, now=timezone.now())
    url = reverse("director:dashboard", kwargs={"slug": seated.slug})
    assert "закончите тур" in parse(dclient.get(url, headers=RU)).one(id="next-step").text()
    row = Result.objects.filter(session=session, round_number=1).first()
    result_dispute(result=row, seat="E", reason="не тот контракт", now=timezone.now())
    page = parse(dclient.get(url, headers=RU))
    assert "не все улажены" in page.one(id="next-step").text()
