"""Typed layouts (duplicate-rules §2) and the entry form."""

from __future__ import annotations

import pytest
from django.utils import translation

from boards.forms import LayoutEntryForm, issue_text
from preferans.cards.deal import BoardError, Seat
from preferans.cards.deck import Issue
from preferans.cards.layout_entry import GENERAL, PRIKUP_BOTTOM, PRIKUP_TOP, board_from_typed, read_layout

N_HAND = "SAKQJ C7 DJ98 HA10"
E_HAND = "S10987 CAKQJ DA10"
S_HAND = "C1098 DKQ7 HKQJ9"
HANDS = {Seat.N: N_HAND, Seat.E: E_HAND, Seat.S: S_HAND}


def test_good_layout_reads() -> None:
    check = read_layout(HANDS, "H8", "h7")
    assert check.ok and check.all_issues == ()
    assert [c.notation for c in check.prikup] == ["H8", "H7"]
    board = board_from_typed(
        number=5, set_number=2, dealer=Seat.W, players=4, hands=HANDS, prikup_top="H8", prikup_bottom="H7"
    )
    assert board.number == 5 and board.set_number == 2 and board.prikup_pocket is Seat.W


def test_duplicate_and_missing_go_to_general() -> None:
    check = read_layout({**HANDS, Seat.E: "S10987 CAKQJ DA H10"}, "H8", "H7")
    assert set(check.issues) == {GENERAL}
    messages = [i.message for i in check.issues[GENERAL]]
    assert messages == ["♥10 is written twice: in N and in E", "missing: ♦10"]


def test_missing_several_cards() -> None:
    check = read_layout({**HANDS, Seat.N: "SAKQJ C DJ98 HA10", Seat.S: "C1098 DKQ HKQJ9"}, "H8", "H7")
    assert "missing: ♣7, ♦7" in [i.message for i in check.all_issues]
    assert [i.code for i in check.issues["N"]] == ["wrong_count"]
    assert [i.code for i in check.issues["S"]] == ["wrong_count"]


def test_notation_errors_are_filed_per_field_and_stop_the_card_check() -> None:
    check = read_layout({**HANDS, Seat.E: "S10987 CAKQJ ZA10"}, "X8", "")
    assert check.issues["E"][0].code == "unknown_rank"
    assert check.issues[PRIKUP_TOP][0].code == "unknown_suit"
    assert check.issues[PRIKUP_BOTTOM][0].code == "prikup_card_missing"
    assert GENERAL not in check.issues  # no "missing" noise from a typo


def test_duplicate_within_one_hand_is_filed_under_it() -> None:
    check = read_layout({**HANDS, Seat.N: "SAKQJ C7 DJ98 HAA"}, "H8", "H7")
    assert [i.message for i in check.issues["N"]] == ["♥A is written twice in N"]
    assert "missing: ♥10" in [i.message for i in check.issues[GENERAL]]


def test_fouled_entry_accepts_wrong_counts_but_not_duplicates() -> None:
    loose = read_layout({**HANDS, Seat.N: N_HAND + " H8"}, "H7", "", exact_counts=False)
    assert loose.ok
    bad = read_layout({**HANDS, Seat.N: N_HAND + " H7"}, "H7", "", exact_counts=False)
    assert [i.code for i in bad.all_issues] == ["duplicate", "missing"]


def test_board_from_typed_checks_the_pockets() -> None:
    with pytest.raises(BoardError) as info:
        board_from_typed(
            number=1, set_number=1, dealer=Seat.N, players=4, hands=HANDS, prikup_top="H8", prikup_bottom="H7"
        )
    assert info.value.issues[0].code == "hand_seats"
    assert "the hands are E, S, W, not N, E, S" in str(info.value)
    with pytest.raises(BoardError) as info:
        board_from_typed(
            number=1,
            set_number=1,
            dealer=Seat.N,
            players=3,
            hands={**HANDS, Seat.S: "C1098"},
            prikup_top="H8",
            prikup_bottom="H7",
        )
    assert "S has 3 cards" in str(info.value)


# --- the form -------------------------------------------------------------------------------------------


def _data(**overrides: str) -> dict[str, str]:
    data = {"hand_n": N_HAND, "hand_e": E_HAND, "hand_s": S_HAND, "prikup_top": "H8", "prikup_bottom": "H7"}
    data.update(overrides)
    return data


def test_form_valid_gives_the_board() -> None:
    form = LayoutEntryForm(_data(), dealer=Seat.W, players=4, number=3, set_number=1)
    assert "hand_w" not in form.fields
    assert form.is_valid(), form.errors
    board = form.cleaned_data["board"]
    assert board.number == 3 and board.dealer is Seat.W
    assert [c.notation for c in board.prikup] == ["H8", "H7"]


def test_form_three_players_has_n_e_s() -> None:
    form = LayoutEntryForm(_data(), dealer=Seat.S, players=3)
    assert set(form.fields) == {"hand_n", "hand_e", "hand_s", "prikup_top", "prikup_bottom"}
    assert form.is_valid(), form.errors
    assert form.cleaned_data["board"].players == 3


def test_form_reports_duplicates_and_missing_in_english() -> None:
    with translation.override("en"):
        form = LayoutEntryForm(_data(hand_e="S10987 CAKQJ DA H10"), dealer=Seat.W, players=4)
        assert not form.is_valid()
        errors = form.non_field_errors()
        assert "♥10 is written twice: in N, in E." in errors
        assert "Missing: ♦10." in errors
        assert [e.code for e in form.errors.as_data()["__all__"]] == ["duplicate", "missing"]


def test_form_reports_field_errors() -> None:
    with translation.override("en"):
        form = LayoutEntryForm(_data(hand_n="SAKQJ C7 DJ98 HA1O", prikup_bottom=""), dealer=Seat.W, players=4)
        assert not form.is_valid()
        assert "hand_n" in form.errors
        assert "is not a card rank" in form.errors["hand_n"][0]
        assert form.errors["prikup_bottom"] == ["The bottom card of the prikup is not written."]


def test_form_fouled_mode_gives_a_played_layout() -> None:
    form = LayoutEntryForm(
        _data(hand_n=N_HAND + " H7", prikup_bottom=""), dealer=Seat.W, players=4, exact_counts=False
    )
    assert form.is_valid(), form.errors
    played = form.cleaned_data["played"]
    assert len(played.hands[Seat.N]) == 11 and len(played.prikup) == 1


def test_form_labels_are_lazy_translations() -> None:
    form = LayoutEntryForm(dealer=Seat.W, players=4)
    with translation.override("en"):
        assert str(form.fields["prikup_top"].label) == "Prikup: top card"
    assert str(form.fields["hand_n"].label).endswith("N")


def test_issue_text_falls_back_to_the_core_message() -> None:
    issue = Issue(code="something_new", message="plain English")
    assert issue_text(issue) == "plain English"
