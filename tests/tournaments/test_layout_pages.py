"""The board's typed layout (rules §2) and the fouled-board comparison (§10): service and pages."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from appeals.services.layouts import board_layout_record
from boards.models import Board
from preferans.cards.board_form import board_to_dict
from preferans.cards.deal import Seat, deal_board, seeded_rng
from preferans.cards.deck import format_hand, parse_card, parse_hand
from scoring.models import Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace
from scoring.rows import result_save as director_result_save
from tests.html import parse
from tournaments.errors import UserError
from tournaments.models import AuditEntry

from .conftest import legal_row

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
FIELD = {"N": "hand_n", "E": "hand_e", "S": "hand_s", "W": "hand_w"}


def dealt(board: Board, seed: int = 7) -> dict:
    return board_to_dict(
        deal_board(
            seeded_rng(seed),
            number=board.number,
            set_number=board.set_number,
            dealer=Seat(board.dealer),
            players=4,
        )
    )


def post_data(layout: dict) -> dict:
    data = {FIELD[seat]: text for seat, text in layout["hands"].items()}
    data["prikup_top"], data["prikup_bottom"] = layout["prikup"]
    return data


def swapped(layout: dict, a: str, b: str) -> dict:
    """The layout with the first card of hand ``a`` and the first card of hand ``b`` exchanged."""
    hands = {seat: list(parse_hand(text)) for seat, text in layout["hands"].items()}
    ca, cb = hands[a][0], hands[b][0]
    hands[a][0], hands[b][0] = cb, ca
    return {
        "hands": {s: format_hand(c) for s, c in hands.items()},
        "prikup": list(layout["prikup"]),
        "moved": (ca, cb),
    }


def url(name, slug, board=1):
    return reverse(f"director:{name}", kwargs={"slug": slug, "session": 1, "board": board})


def results_of_board(session, director, number=1):
    """Enter a row at every table that plays board ``number``."""
    board = Board.objects.get(session=session, number=number)
    out = []
    for s in session.seatings.filter(set_number=board.set_number).order_by("round_number"):
        out.append(
            director_result_save(
                RowCommand(
                    RowPlace(session=session, board=number, round=s.round_number, table=s.table_number),
                    PlayedRow(row=legal_row(board.dealer)),
                    author=RowAuthor(user=director),
                ),
                now=timezone.now(),
            )
        )
    return out


# --- the service -------------------------------------------------------------------------------------------


def test_record_layout_audits_and_needs_a_reason_to_replace(session, director):
    board = Board.objects.get(session=session, number=1)
    first = dealt(board)
    with pytest.raises(TypeError):
        board_layout_record(board, first["hands"], first["prikup"], director, now=timezone.now())  # type: ignore[misc]
    board_layout_record(
        board=board, hands=first["hands"], prikup=first["prikup"], user=director, now=timezone.now()
    )
    board.refresh_from_db()
    assert board.hands == first["hands"] and board.prikup == first["prikup"]
    entry = AuditEntry.objects.get(action="board.layout")
    assert (
        entry.data["before"] == {"hands": {}, "prikup": []} and entry.data["after"]["hands"] == first["hands"]
    )

    second = dealt(board, seed=8)
    with pytest.raises(UserError, match="say why"):
        board_layout_record(
            board=board, hands=second["hands"], prikup=second["prikup"], user=director, now=timezone.now()
        )
    board.refresh_from_db()
    assert board.hands == first["hands"]
    board_layout_record(
        board=board,
        hands=second["hands"],
        prikup=second["prikup"],
        user=director,
        reason="the first table misread the protocol",
        now=timezone.now(),
    )
    board.refresh_from_db()
    assert board.hands == second["hands"]
    entry = AuditEntry.objects.filter(action="board.layout").latest("id")
    assert (
        entry.data["before"]["hands"] == first["hands"]
        and entry.reason == "the first table misread the protocol"
    )
    # the same layout again changes nothing and needs no reason
    board_layout_record(
        board=board, hands=second["hands"], prikup=second["prikup"], user=director, now=timezone.now()
    )
    assert AuditEntry.objects.filter(action="board.layout").count() == 2


def test_record_layout_refuses_a_bad_layout(session, director):
    board = Board.objects.get(session=session, number=1)
    layout = dealt(board)
    hands = dict(layout["hands"])
    seats = list(hands)
    hands[seats[0]] = hands[seats[1]]  # ten cards twice, ten missing
    with pytest.raises(UserError):
        board_layout_record(
            board=board, hands=hands, prikup=layout["prikup"], user=director, now=timezone.now()
        )
    board.refresh_from_db()
    assert not board.has_layout and not AuditEntry.objects.filter(action="board.layout").exists()


# --- the layout page (§2) ----------------------------------------------------------------------------------


def test_enter_layout_through_the_page(dclient, seated):
    board = Board.objects.get(session__tournament=seated, session__number=1, number=1)
    detail = dclient.get(url("board_detail", seated.slug), headers=EN)
    doc = parse(detail)
    assert not detail.context["board"].has_layout and not doc.one(id="board-layout").find(class_="ap-layout")
    assert doc.one("a", id="enter-layout-link").get("href") == url("board_layout", seated.slug)
    assert doc.find(id="compare-link") is None  # nothing to compare with yet
    response = dclient.get(url("board_layout", seated.slug), headers=EN)
    recorded = parse(response).one("section", id="recorded-layout")
    assert recorded.find(class_="warn-box") is not None and recorded.find(class_="ap-layout") is None
    assert "reason" not in response.context["form"].fields and parse(response).find(name="reason") is None

    layout = dealt(board)
    data = post_data(layout)
    seats = list(layout["hands"])
    # one card written in two hands: the form names it, nothing is saved
    card = parse_hand(layout["hands"][seats[0]])[0]
    bad = dict(data)
    bad[FIELD[seats[1]]] = layout["hands"][seats[1]] + f" {card.notation}"
    response = dclient.post(url("board_layout", seated.slug), bad, headers=EN)
    codes = _codes(response.context["form"])
    assert "duplicate" in codes.get(FIELD[seats[1]], set()) | codes.get(None, set())  # the card twice
    assert "wrong_count" in codes.get(FIELD[seats[1]], set()) | codes.get(None, set())  # a hand of 11
    assert card.symbol_text in " ".join(
        str(e) for errors in response.context["form"].errors.values() for e in errors
    )
    board.refresh_from_db()
    assert not board.has_layout

    response = dclient.post(url("board_layout", seated.slug), data, headers=EN)
    assert response.status_code == 302 and response["Location"] == url("board_detail", seated.slug)
    board.refresh_from_db()
    assert board.hands == layout["hands"] and board.prikup == layout["prikup"]
    detail = dclient.get(url("board_detail", seated.slug), headers=EN).content.decode()
    assert 'class="ap-layout"' in detail and "♥" in detail and url("board_fouled", seated.slug) in detail
    assert parse(detail).one("a", id="compare-link").get("href") == url("board_fouled", seated.slug)
    assert parse_card(layout["prikup"][0]).symbol_text in detail


def test_correcting_a_layout_needs_a_reason(dclient, seated, director):
    board = Board.objects.get(session__tournament=seated, session__number=1, number=1)
    first = dealt(board)
    board_layout_record(
        board=board, hands=first["hands"], prikup=first["prikup"], user=director, now=timezone.now()
    )
    response = dclient.get(url("board_layout", seated.slug), headers=EN)
    page = response.content.decode()
    assert response.context["form"].replacing and "reason" in response.context["form"].fields  # a correction
    assert parse(response).one("section", id="recorded-layout").find(class_="ap-layout") is not None
    assert first["hands"][list(first["hands"])[0]] in page  # prefilled
    second = dealt(board, seed=9)
    response = dclient.post(url("board_layout", seated.slug), post_data(second), headers=EN)
    assert set(response.context["form"].errors) == {"reason"}  # only the reason is missing
    board.refresh_from_db()
    assert board.hands == first["hands"]
    response = dclient.post(url("board_layout", seated.slug), post_data(second) | {"reason": "typo"})
    assert response.status_code == 302
    board.refresh_from_db()
    assert board.hands == second["hands"]


# --- the fouled-board comparison (§10) --------------------------------------------------------------------


def test_comparison_needs_a_layout(dclient, seated):
    response = dclient.get(url("board_fouled", seated.slug), headers=EN)
    assert response.status_code == 302 and response["Location"] == url("board_layout", seated.slug)


def test_compare_then_apply_splits_the_results_into_versions(dclient, seated, director):
    session = seated.sessions.get(number=1)
    board = Board.objects.get(session=session, number=1)
    layout = dealt(board)
    board_layout_record(
        board=board, hands=layout["hands"], prikup=layout["prikup"], user=director, now=timezone.now()
    )
    results = results_of_board(session, director)
    assert len(results) >= 3
    seats = list(layout["hands"])
    altered = swapped(layout, seats[0], seats[1])
    first, second = altered["moved"]
    target = url("board_fouled", seated.slug)

    response = dclient.get(f"{target}?result={results[-1].pk}", headers=EN)
    page = response.content.decode()
    assert parse(response).one("section", id="dealt-layout").find(class_="ap-layout") is not None
    assert f'value="{results[-1].pk}" selected' in page and "comparison" not in response.context

    # as dealt: no difference, nothing to apply
    response = dclient.post(
        target, post_data(layout) | {"result": results[0].pk, "action": "compare"}, headers=EN
    )
    page = response.content.decode()
    assert response.context["comparison"]["fouled"] is False and response.context["label"] == "A"
    assert parse(response).one("section", id="comparison").find(class_="ok-box") is not None
    assert 'value="apply"' not in page

    # two cards swapped between the first two hands
    data = post_data(altered) | {"result": results[-1].pk}
    response = dclient.post(target, data | {"action": "compare"}, headers=EN)
    page = response.content.decode()
    assert _moves(response) >= {(first.rank.text, seats[0], seats[1]), (second.rank.text, seats[1], seats[0])}
    assert f"{first.rank.text}: {seats[0]} → {seats[1]}" in page
    assert f"{second.rank.text}: {seats[1]} → {seats[0]}" in page
    assert _version(response) == "B" and 'value="apply"' in page
    assert Result.objects.get(pk=results[-1].pk).version == "A"  # the comparison changes nothing

    # applying with a layout changed since the comparison is refused
    stale = data | {"action": "apply", "version": "B", "note": "swap", "checked": "{}"}
    response = dclient.post(target, stale, headers=EN)
    page = response.content.decode()
    assert response.context["form"].non_field_errors() and not response.context["form"].errors.get("note")
    assert parse(response).find(class_="form-errors", role="alert") is not None
    assert not Board.objects.get(pk=board.pk).fouled

    # the comparison's own form, re-posted with the apply button
    checked = _hidden(page, "checked")
    response = dclient.post(
        target, data | {"action": "apply", "version": "B", "note": "cards swapped", "checked": checked}
    )
    assert response.status_code == 302 and response["Location"] == url("board_detail", seated.slug)
    board.refresh_from_db()
    assert board.fouled and board.fouled_note == "cards swapped"
    assert Result.objects.get(pk=results[-1].pk).version == "B"
    assert Result.objects.get(pk=results[0].pk).version == "A"
    entry = AuditEntry.objects.get(action="board.played_layout")
    assert entry.data["version"] == "B" and entry.data["table"] == results[-1].table_number

    # another table with the same altered layout joins B; a different one gets C
    data2 = post_data(altered) | {"result": results[-2].pk}
    response = dclient.post(target, data2 | {"action": "compare"}, headers=EN)
    assert _version(response) == "B"
    other = swapped(layout, seats[1], seats[2])
    data3 = post_data(other) | {"result": results[-3].pk}
    response = dclient.post(target, data3 | {"action": "compare"}, headers=EN)
    page = response.content.decode()
    assert _version(response) == "C"
    response = dclient.post(
        target,
        data3
        | {"action": "apply", "version": "C", "note": "another swap", "checked": _hidden(page, "checked")},
    )
    assert response.status_code == 302
    assert Result.objects.get(pk=results[-3].pk).version == "C"


def test_comparison_reports_typing_errors_and_a_missing_note(dclient, seated, director):
    session = seated.sessions.get(number=1)
    board = Board.objects.get(session=session, number=1)
    layout = dealt(board)
    board_layout_record(
        board=board, hands=layout["hands"], prikup=layout["prikup"], user=director, now=timezone.now()
    )
    results = results_of_board(session, director)
    target = url("board_fouled", seated.slug)
    seats = list(layout["hands"])
    data = post_data(layout) | {"result": results[0].pk, "action": "compare"}
    data[FIELD[seats[0]]] = "SAX"
    response = dclient.post(target, data, headers=EN)
    assert "comparison" not in response.context
    assert FIELD[seats[0]] in response.context["form"].errors  # the hand with the typing error
    altered = swapped(layout, seats[0], seats[2])
    data = post_data(altered) | {"result": results[0].pk}
    page = dclient.post(target, data | {"action": "compare"}, headers=EN).content.decode()
    response = dclient.post(
        target,
        data | {"action": "apply", "note": "", "version": "B", "checked": _hidden(page, "checked")},
        headers=EN,
    )
    assert set(response.context["form"].errors) == {"note"}  # say what happened to the board
    assert not Board.objects.get(pk=board.pk).fouled
    # a card in the wrong pocket: one hand short, another long
    hands = {seat: list(parse_hand(text)) for seat, text in layout["hands"].items()}
    card = hands[seats[0]].pop()
    hands[seats[1]].append(card)
    data = post_data({"hands": {s: format_hand(c) for s, c in hands.items()}, "prikup": layout["prikup"]})
    response = dclient.post(target, data | {"result": results[0].pk, "action": "compare"}, headers=EN)
    page = response.content.decode()
    assert (card.rank.text, seats[0], seats[1]) in _moves(response)
    assert f"{card.rank.text}: {seats[0]} → {seats[1]}" in page
    counts = {(c["place"], c["count"]) for c in response.context["comparison"]["counts"]}
    assert counts == {(seats[0], 9), (seats[1], 11)}
    assert len(parse(response).one("section", id="comparison").find_all("li", class_="err")) == 2
    assert _version(response) == "B"


def test_board_page_links_to_the_ruling_flow(dclient, seated, director):
    board = Board.objects.get(session__tournament=seated, session__number=1, number=1)
    layout = dealt(board)
    board_layout_record(
        board=board, hands=layout["hands"], prikup=layout["prikup"], user=director, now=timezone.now()
    )
    detail = dclient.get(url("board_detail", seated.slug), headers=EN).content.decode()
    ruling = reverse("appeals:ruling-new", kwargs={"slug": seated.slug})
    assert f"{ruling}?kind=fouled&amp;session=1&amp;board=1" in detail
    assert parse(detail).one("a", id="compare-link").get("href") == url("board_fouled", seated.slug)


def test_new_pages_are_for_directors_only(client, seated, other_user):
    pages = [url("board_layout", seated.slug), url("board_fouled", seated.slug)]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(other_user)
    for page in pages:
        assert client.get(page).status_code == 403
        assert client.post(page, {}).status_code == 403


def _codes(form) -> dict:
    """The error codes of a form, by field (None: the form as a whole)."""
    return {
        (None if field == "__all__" else field): {e.code for e in errors}
        for field, errors in form.errors.as_data().items()
    }


def _moves(response) -> set:
    """The cards the comparison found moved: (rank, from, to)."""
    return {(m["rank"], m["source"], m["target"]) for m in response.context["comparison"]["moves"]}


def _version(response) -> str:
    """The version the compared result belongs to, as the page says it (#version) and as the view chose it."""
    label = response.context["label"]
    assert parse(response).one(id="version").find("strong").text() == label
    return label


def _hidden(page: str, name: str) -> str:
    import html
    import re

    match = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', page)
    assert match, name
    return html.unescape(match.group(1))
