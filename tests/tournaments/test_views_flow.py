"""The director's workflows through the pages (POST + redirect, errors shown in the form)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from boards.models import Board
from scoring.models import Penalty, Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from tests.html import english_phrases, lang, parse, visible_text
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Publication, Round, Tournament

from .conftest import legal_row

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


def test_create_then_register_then_import(dclient, director):
    response = dclient.post(
        reverse("director:create"),
        {
            "name": "Осенний турнир",
            "variant": "sochi",
            "players_per_table": 4,
            "deals_per_set": 4,
            "minutes_per_deal": 5,
            "correction_minutes": 30,
            "unequal_results": "neuberg",
            "artificial_minus": 40,
            "artificial_average": 50,
            "artificial_plus": 60,
        },
        headers=EN,
    )
    t = Tournament.objects.get(name="Осенний турнир")
    assert response.status_code == 302 and response["Location"] == reverse(
        "director:participants", kwargs={"slug": t.slug}
    )
    url = reverse("director:participants", kwargs={"slug": t.slug})
    assert dclient.post(url, {"number": 1, "name": "Иванов"}).status_code == 302
    response = dclient.post(url, {"number": 1, "name": "Петров"}, headers=EN)
    assert response.status_code == 200 and response.context["form"].non_field_errors()  # the number is taken
    assert parse(response).find(class_="form-errors", role="alert") is not None
    assert list(t.participants.values_list("number", "name")) == [(1, "Иванов")]
    upload = reverse("director:participants_import", kwargs={"slug": t.slug})
    csv = "№;ФИО;Клуб\n2;Петров;Динамо\n2;Сидоров;\n;Кузнецов;\n".encode()
    response = dclient.post(upload, {"file": SimpleUploadedFile("list.csv", csv)}, headers=EN)
    preview = response.context["preview"]
    assert [line.line for line in preview.bad] == [3]  # number 2 again: the line of Сидоров
    assert [(line.number, line.name) for line in preview.good] == [(2, "Петров"), (3, "Кузнецов")]
    doc = parse(response)
    bad_rows = doc.one("table", id="preview").find_all("tr", class_="row-error")
    assert len(bad_rows) == 1 and bad_rows[0].find("td").text() == "3" and bad_rows[0].find(class_="err")
    assert doc.buttons(name="confirm", value="1")  # register the good lines
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
    response = dclient.post(reverse("director:create"), {"name": ""}, headers=EN)
    assert response.status_code == 200
    assert response.context["form"].errors.as_data()["name"][0].code == "required"
    assert "has-error" in parse(response).one(id="field-name").classes
    assert not Tournament.objects.exists()


def test_movement_page_explains_and_seats(dclient, event):
    url = reverse("director:movement", kwargs={"slug": event.slug, "session": 1})
    response = dclient.get(url, headers=EN)
    offer = response.context["offer"]
    assert offer.participants == 20 and offer.plan is not None and offer.plan.movement.scheme == "basic"
    suggestion = parse(response).one("section", class_="suggestion")
    assert len(suggestion.find_all("li")) >= len(offer.plan.explanation) > 0  # the reasons are listed
    response = dclient.post(url, {"scheme": "auto"})
    assert response.status_code == 302
    assert Round.objects.filter(session__tournament=event).count() == 5
    response = dclient.get(reverse("director:seating", kwargs={"slug": event.slug, "session": 1}), headers=EN)
    codes = [b.text() for b in parse(response).find_all("b", class_="code")]
    assert sorted(codes) == sorted(t.code for t in response.context["tables"]) and len(codes) == 5
    assert len(response.context["rows"]) >= 5  # the director's row of sets, round by round
    assert len(parse(response).one("ul", class_="mono").find_all("li")) == len(response.context["rows"])


def test_basic_scheme_with_wrong_tables_is_explained(dclient, event):
    url = reverse("director:movement", kwargs={"slug": event.slug, "session": 1})
    response = dclient.post(url, {"scheme": "basic", "tables": 7}, headers=EN)
    assert response.status_code == 200 and response.context["form"].non_field_errors()  # 7 tables seat 28
    assert parse(response).find(class_="form-errors", role="alert") is not None
    assert not Round.objects.filter(session__tournament=event).exists()


def start(dclient, t, n=1):
    return dclient.post(reverse("director:start_round", kwargs={"slug": t.slug, "session": 1, "number": n}))


def test_round_start_entry_end_handover(dclient, seated):
    dash = reverse("director:dashboard", kwargs={"slug": seated.slug})
    start_url = reverse("director:start_round", kwargs={"slug": seated.slug, "session": 1, "number": 1})
    end_url = reverse("director:end_round", kwargs={"slug": seated.slug, "session": 1, "number": 1})
    response = dclient.get(dash, headers=EN)
    assert response.context["ov"].next_action == "start" and response.context["ov"].round.number == 1
    assert parse(response).forms(start_url) and not parse(response).forms(end_url)
    assert start(dclient, seated).status_code == 302
    response = dclient.get(dash, headers=EN)
    ov = response.context["ov"]
    assert ov.next_action == "end" and (ov.entered, ov.expected) == (0, 20)
    doc = parse(response)
    assert doc.find(class_="countdown", data_ends_at=True) is not None
    assert doc.forms(end_url) and not doc.forms(start_url)
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
    data = {
        "kind": "row",
        "contract": "6S",
        "declarer_seat": row["declarer"][0],
        "declarer_tricks": 6,
        "w1_tricks": 2,
        "w2_tricks": 2,
        "call1": "whist",
        "call2": "whist",
    }
    response = dclient.post(url, data)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/b{boards[1].number}/?room=1")  # on to the next board
    stored = Result.objects.get(board_number=first.number, table_number=1)
    assert stored.row["w1"][0] == row["w1"][0] and stored.row["play"] == "closed"
    # A retried POST is not a second row: it is a conflict shown in the form, not a duplicate.
    response = dclient.post(url, data, headers=EN)
    assert Result.objects.filter(board_number=first.number).count() == 1
    with pytest.raises(UserError) as refused:  # what the write path says to a replacement without a reason
        result_save(
            RowCommand(
                RowPlace(session=session, board=first.number, round=1, table=1),
                PlayedRow(row=stored.row),
                RowWriting(correction=True),
                RowAuthor(user=seated.directors.get()),
            ),
            now=timezone.now(),
        )
    assert refused.value.code == "reason_missing"
    assert response.context["row_form"].non_field_errors() == [refused.value.message]
    # The core's refusal appears next to the field.
    url2 = reverse(
        "director:board_entry",
        kwargs={"slug": seated.slug, "session": 1, "round": 1, "table": 1, "board": boards[1].number},
    )
    page = dclient.post(url2, data | {"w1_tricks": 3}, headers=EN).content.decode()
    assert "has-error" in page and not Result.objects.filter(board_number=boards[1].number).exists()
    partial = dclient.get(dash + "?partial=1", headers=EN)
    assert (partial.context["ov"].entered, partial.context["ov"].expected) == (1, 20)
    assert "<html" not in partial.content.decode() and parse(partial).find("section", class_="d-top")
    end = reverse("director:end_round", kwargs={"slug": seated.slug, "session": 1, "number": 1})
    # 19 of 20 rows are missing: the director ends the round having ticked «I know» on the dashboard.
    response = dclient.post(end, {"acknowledged": partial.context["end_gaps"].token})
    assert response["Location"] == reverse(
        "director:handover", kwargs={"slug": seated.slug, "session": 1, "number": 1}
    )
    start2 = reverse("director:start_round", kwargs={"slug": seated.slug, "session": 1, "number": 2})
    response = dclient.get(response["Location"], headers=EN)
    items = response.context["items"]
    assert [h.table for h in items] == [1, 2, 3, 4, 5] and all(h.moves for h in items)
    rows = parse(response).one("table", class_="handover").find("tbody").find_all("tr")
    assert [r.find_all("td")[-1].text() for r in rows] == [
        ", ".join(h.moves) for h in items
    ]  # who moves where
    assert parse(response).forms(start2)
    response = dclient.get(dash, headers=EN)
    ov = response.context["ov"]
    assert ov.next_action == "start" and ov.round.number == 2  # late protocols do not hold up the next round…
    assert parse(response).forms(start2)
    late = [a for a in ov.alerts if a.link == "?round=1"]  # …they are an alert that leads to round 1
    assert len(late) == 1 and late[0].level == "warning" and "19" in late[0].text
    response = dclient.get(dash + "?round=1", headers=EN)
    ov = response.context["ov"]
    assert ov.next_action == "enter" and [t.table for t in ov.tables if t.missing] == [1, 2, 3, 4, 5]


def _started_board_entry(dclient, seated):
    """Round 1 started; the first board of table 2 and its director's entry page."""
    start(dclient, seated)
    session = seated.sessions.get(number=1)
    seating = session.seatings.get(round_number=1, table_number=2)
    board = Board.objects.filter(session=session, set_number=seating.set_number).first()
    url = reverse(
        "director:board_entry",
        kwargs={"slug": seated.slug, "session": 1, "round": 1, "table": 2, "board": board.number},
    )
    return board, url


def test_artificial_adjustment_through_the_page(dclient, seated):
    board, url = _started_board_entry(dclient, seated)
    response = dclient.post(url, {"kind": "artificial", "n": "A+", "e": "A-", "s": "A", "w": "A"}, headers=EN)
    assert response.status_code == 200 and not Result.objects.exists()
    assert response.context["art_form"].errors.as_data()["reason"][0].code == "required"  # the reason
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

    table = next(s.table_number for s in session.seatings.filter(round_number=1) if s.set_number == 1)
    r = director_result_save(
        RowCommand(
            RowPlace(session=session, board=1, round=1, table=table),
            PlayedRow(row=legal_row(board.dealer)),
            author=RowAuthor(user=director),
        ),
        now=timezone.now(),
    )
    url = reverse("director:board_detail", kwargs={"slug": seated.slug, "session": 1, "board": 1})
    dclient.post(url, {"foul": "1", "note": "two cards swapped", f"version-{r.pk}": "B"})
    board.refresh_from_db()
    r.refresh_from_db()
    assert board.fouled and r.version == "B"
    assert "two cards swapped" in dclient.get(url).content.decode()


def test_penalty_pages(dclient, seated):
    url = reverse("director:penalties", kwargs={"slug": seated.slug, "session": 1})
    response = dclient.post(url, {"participant": 99, "deduct": "2", "kind": "12.2.2"}, headers=EN)
    assert response.status_code == 200 and set(response.context["form"].errors) == {"participant"}
    assert "has-error" in parse(response).one(id="field-participant").classes
    assert not Penalty.objects.exists()
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
    response = dclient.get(url, headers=EN)
    assert response.context["play_finished"] is False  # no round has been played yet…
    (official,) = parse(response).buttons(name="action", value="official")
    assert "disabled" in official.attrs  # …so the official results wait
    audit = dclient.get(
        reverse("director:audit", kwargs={"slug": seated.slug}) + "?action=publication", headers=EN
    )
    assert "publication.provisional" in audit.content.decode()


def test_standings_page_shows_whether_current(dclient, seated):
    url = reverse("director:standings", kwargs={"slug": seated.slug})
    response = dclient.get(url, headers=EN)
    assert response.context["current"] is False  # never scored yet
    assert parse(response).one(id="standings-state").find(class_="dot-busy") is not None
    dclient.post(reverse("director:rescore", kwargs={"slug": seated.slug}))
    response = dclient.get(url, headers=EN)
    assert response.context["current"] is True
    assert parse(response).one(id="standings-state").find(class_="dot-ok") is not None


def test_director_pages_are_translated(dclient, seated):
    """Russian by default, English on request: the dashboard's button, its headings and the tabs."""
    dash = reverse("director:dashboard", kwargs={"slug": seated.slug})
    ru = dclient.get(dash)
    assert ru.status_code == 200 and lang(ru) == "ru"
    words = visible_text(ru)
    assert "Начать тур 1" in words and "Пульт" in words
    assert english_phrases(words) == []  # no interface words left in English
    assert "Start round" not in words and "Dashboard" not in words
    en = dclient.get(dash, headers=EN)
    assert lang(en) == "en"
    assert "Start round 1" in visible_text(en) and "Начать тур" not in visible_text(en)


def test_rule_11_2_B1_the_directors_adjustment_page_gives_a_non_offender_more_than_A_plus(dclient, seated):
    """§11.2 Б.1 «по меньшей мере 60 % (средний плюс) для невиновной стороны»: on the director's own adjustment
    page (not only in a ruling) a non-offender may get more than A+, by the write path's one rule: never an
    offender, never below A+; the reason is the row's; the page shows what is stored."""
    board, url = _started_board_entry(dclient, seated)
    grades = {
        "kind": "artificial",
        "n": "A+",
        "e": "A-",
        "s": "A",
        "w": "A",
        "reason": "11.6 A.2: session 71 %",
    }
    for percent in ({"percent_e": "70"}, {"percent_n": "55"}, {"percent_n": "lots"}):
        refused = dclient.post(url, grades | percent, headers=EN)
        assert refused.status_code == 200 and not Result.objects.exists(), percent
        assert refused.context["art_form"].errors
    dclient.post(url, grades | {"percent_n": "71"})
    r = Result.objects.get(board_number=board.number, table_number=2)
    assert r.adjusted == {"N": "A+", "E": "A-", "S": "A", "W": "A"} and r.percent == {"N": "71"}
    page = dclient.get(url, headers=EN)
    assert page.context["art_form"].initial == {"n": "A+", "e": "A-", "s": "A", "w": "A", "percent_n": "71"}
