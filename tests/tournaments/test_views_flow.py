"""The director's workflows through the pages (POST + redirect, errors shown in the form)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from boards.models import Board
from scoring.models import Penalty, Result
from tournaments.models import AuditEntry, Publication, Round, Tournament

from .conftest import legal_row

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


def test_create_then_register_then_import(dclient, director):
    response = dclient.post(reverse("director:create"), {
        "name": "Осенний турнир", "variant": "sochi", "players_per_table": 4, "deals_per_set": 4,
        "minutes_per_deal": 5, "correction_minutes": 30, "unequal_results": "neuberg",
        "artificial_minus": 40, "artificial_average": 50, "artificial_plus": 60,
    }, headers=EN)  # fmt: skip
    t = Tournament.objects.get(name="Осенний турнир")
    assert response.status_code == 302 and response["Location"] == reverse(
        "director:participants", kwargs={"slug": t.slug}
    )
    url = reverse("director:participants", kwargs={"slug": t.slug})
    assert dclient.post(url, {"number": 1, "name": "Иванов"}).status_code == 302
    page = dclient.post(url, {"number": 1, "name": "Петров"}, headers=EN).content.decode()
    assert "already registered" in page
    upload = reverse("director:participants_import", kwargs={"slug": t.slug})
    csv = "№;ФИО;Клуб\n2;Петров;Динамо\n2;Сидоров;\n;Кузнецов;\n".encode()
    page = dclient.post(upload, {"file": SimpleUploadedFile("list.csv", csv)}, headers=EN).content.decode()
    assert "number 2 is also on line 2" in page
    assert "Register the 2 correct lines" in page
    assert t.participants.count() == 1  # nothing saved by the preview
    response = dclient.post(upload, {"confirm": "1"})
    assert response.status_code == 302
    assert sorted(t.participants.values_list("number", "name")) == [
        (1, "Иванов"),
        (2, "Петров"),
        (3, "Кузнецов"),
    ]
    assert (
        dclient.post(upload, {"confirm": "1"}).status_code == 302
    )  # a retried confirm does not import twice
    assert t.participants.count() == 3


def test_create_shows_errors_in_the_form(dclient):
    page = dclient.post(reverse("director:create"), {"name": ""}, headers=EN).content.decode()
    assert "This field is required" in page
    assert not Tournament.objects.exists()


def test_movement_page_explains_and_seats(dclient, event):
    url = reverse("director:movement", kwargs={"slug": event.slug, "session": 1})
    page = dclient.get(url, headers=EN).content.decode()
    assert "Suggested for 20 participants" in page and "basic movement" in page
    response = dclient.post(url, {"scheme": "auto"})
    assert response.status_code == 302
    assert Round.objects.filter(session__tournament=event).count() == 5
    page = dclient.get(
        reverse("director:seating", kwargs={"slug": event.slug, "session": 1}), headers=EN
    ).content.decode()
    assert "Table codes" in page and "row of sets" in page


def test_basic_scheme_with_wrong_tables_is_explained(dclient, event):
    url = reverse("director:movement", kwargs={"slug": event.slug, "session": 1})
    page = dclient.post(url, {"scheme": "basic", "tables": 7}, headers=EN).content.decode()
    assert "but 20 are registered" in page


def start(dclient, t, n=1):
    return dclient.post(reverse("director:start_round", kwargs={"slug": t.slug, "session": 1, "number": n}))


def test_round_start_entry_end_handover(dclient, seated):
    dash = reverse("director:dashboard", kwargs={"slug": seated.slug})
    page = dclient.get(dash, headers=EN).content.decode()
    assert "Start round 1" in page
    assert start(dclient, seated).status_code == 302
    page = dclient.get(dash, headers=EN).content.decode()
    assert "data-ends-at" in page and "End round 1" in page and "0 of 20 results entered" in page
    session = seated.sessions.get(number=1)
    seating = session.seatings.get(round_number=1, table_number=1)
    boards = list(Board.objects.filter(session=session, set_number=seating.set_number))
    first = boards[0]
    url = reverse(
        "director:board_entry",
        kwargs={"slug": seated.slug, "session": 1, "round": 1, "table": 1, "board": first.number},
    )
    row = legal_row(first.dealer)
    # Seats left on "auto": the defenders are found clockwise after the declarer.
    data = {"kind": "row", "contract": "6S", "declarer_seat": row["declarer"][0], "declarer_tricks": 6,
            "w1_tricks": 2, "w2_tricks": 2, "call1": "whist", "call2": "whist"}  # fmt: skip
    response = dclient.post(url, data)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/b{boards[1].number}/?room=1")  # on to the next board
    stored = Result.objects.get(board_number=first.number, table_number=1)
    assert stored.row["w1"][0] == row["w1"][0] and stored.row["play"] == "closed"
    # A retried POST is not a second row: it is a conflict shown in the form, not a duplicate.
    page = dclient.post(url, data, headers=EN).content.decode()
    assert Result.objects.filter(board_number=first.number).count() == 1
    assert "Say why the result is changed" in page
    # The core's refusal appears next to the field.
    url2 = reverse(
        "director:board_entry",
        kwargs={"slug": seated.slug, "session": 1, "round": 1, "table": 1, "board": boards[1].number},
    )
    page = dclient.post(url2, data | {"w1_tricks": 3}, headers=EN).content.decode()
    assert "has-error" in page and not Result.objects.filter(board_number=boards[1].number).exists()
    dash_page = dclient.get(dash + "?partial=1", headers=EN).content.decode()
    assert "1 of 20 results entered" in dash_page and "<html" not in dash_page
    end = reverse("director:end_round", kwargs={"slug": seated.slug, "session": 1, "number": 1})
    response = dclient.post(end)
    assert response["Location"] == reverse(
        "director:handover", kwargs={"slug": seated.slug, "session": 1, "number": 1}
    )
    page = dclient.get(response["Location"], headers=EN).content.decode()
    assert "1N stays" in page and "Start round 2" in page
    page = dclient.get(dash, headers=EN).content.decode()
    assert "Start round 2" in page  # late protocols do not hold up the next round…
    assert "Round 1 has ended with 19 results missing" in page  # …they are an alert
    page = dclient.get(dash + "?round=1", headers=EN).content.decode()
    assert "Enter the missing results of round 1 (tables 1, 2, 3, 4, 5)" in page


def test_artificial_adjustment_through_the_page(dclient, seated):
    start(dclient, seated)
    session = seated.sessions.get(number=1)
    seating = session.seatings.get(round_number=1, table_number=2)
    board = Board.objects.filter(session=session, set_number=seating.set_number).first()
    url = reverse(
        "director:board_entry",
        kwargs={"slug": seated.slug, "session": 1, "round": 1, "table": 2, "board": board.number},
    )
    page = dclient.post(
        url, {"kind": "artificial", "n": "A+", "e": "A-", "s": "A", "w": "A"}, headers=EN
    ).content.decode()
    assert "This field is required" in page  # the reason
    dclient.post(url, {"kind": "artificial", "n": "A+", "e": "A-", "s": "A", "w": "A", "reason": "11.3 B2"})
    r = Result.objects.get(board_number=board.number, table_number=2)
    assert r.adjusted == {"N": "A+", "E": "A-", "S": "A", "W": "A"}
    assert AuditEntry.objects.filter(action="result.create").exists()
    dclient.post(url, {"kind": "assigned", "n": "5,5", "e": "-5.5", "s": "0", "w": "0", "reason": "11.2 B2"})
    r.refresh_from_db()
    assert r.assigned == {"N": "11/2", "E": "-11/2", "S": "0", "W": "0"} and r.adjusted is None


def test_fouled_board_page(dclient, seated, director):
    session = seated.sessions.get(number=1)
    board = Board.objects.get(session=session, number=1)
    from scoring.rows import result_save as director_result_save

    r = director_result_save(session=session, board=1, round=1, table=next(
        s.table_number for s in session.seatings.filter(round_number=1) if s.set_number == 1),
        user=director, row=legal_row(board.dealer), now=timezone.now())  # fmt: skip
    url = reverse("director:board_detail", kwargs={"slug": seated.slug, "session": 1, "board": 1})
    dclient.post(url, {"foul": "1", "note": "two cards swapped", f"version-{r.pk}": "B"})
    board.refresh_from_db()
    r.refresh_from_db()
    assert board.fouled and r.version == "B"
    assert "two cards swapped" in dclient.get(url).content.decode()


def test_penalty_pages(dclient, seated):
    url = reverse("director:penalties", kwargs={"slug": seated.slug, "session": 1})
    page = dclient.post(
        url, {"participant": 99, "deduct": "2", "kind": "12.2.2"}, headers=EN
    ).content.decode()
    assert "No participant with this number" in page
    assert (
        dclient.post(
            url, {"participant": 7, "deduct": "1/2", "kind": "12.2.2", "note": "round 2"}
        ).status_code
        == 302
    )
    pen = Penalty.objects.get()
    assert pen.matchpoints == "-1/2" and pen.reason.startswith("12.2.2")
    delete = reverse("director:penalty_delete", kwargs={"slug": seated.slug, "session": 1, "pk": pen.pk})
    dclient.post(delete, {"reason": ""})
    assert Penalty.objects.exists()
    dclient.post(delete, {"reason": "appeal"})
    assert not Penalty.objects.exists()


def test_publication_page(dclient, seated, client):
    url = reverse("director:publication", kwargs={"slug": seated.slug})
    dclient.post(url, {"action": "official"})
    seated.refresh_from_db()
    assert seated.publication == Publication.DRAFT
    dclient.post(url, {"action": "provisional"})
    seated.refresh_from_db()
    assert seated.publication == Publication.PROVISIONAL
    page = dclient.get(url, headers=EN).content.decode()
    assert "when every round has ended" in page
    audit = dclient.get(
        reverse("director:audit", kwargs={"slug": seated.slug}) + "?action=publication", headers=EN
    )
    assert "publication.provisional" in audit.content.decode()


def test_standings_page_shows_whether_current(dclient, seated):
    url = reverse("director:standings", kwargs={"slug": seated.slug})
    page = dclient.get(url, headers=EN).content.decode()
    assert "being recomputed" in page  # never scored yet
    dclient.post(reverse("director:rescore", kwargs={"slug": seated.slug}))
    page = dclient.get(url, headers=EN).content.decode()
    assert "The standings are current" in page
