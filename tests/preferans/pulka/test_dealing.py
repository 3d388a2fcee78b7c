"""Breaks in the dealing order on a pulka row (``preferans.pulka.dealing``, formats §7.1's optional ``dealt_by`` and
``not_written``): the engine and the pulka document replay them."""

from __future__ import annotations

from fractions import Fraction

from preferans.pulka import PulkaGame, PulkaSetup, play_pulka
from preferans.pulka.document import read_pulka, result_document, score_document


def setup(players: int = 3, **kw: object) -> PulkaSetup:
    return PulkaSetup.create(variant="sochi", players=players, pool=10, first_dealer="N", **kw)  # type: ignore[arg-type]


def six(game: PulkaGame, number: int) -> dict[str, object]:
    """A six made by the deal's first hand, the next whists (2 tricks), the other passes."""
    nxt = game.score().next_deal
    assert nxt is not None and nxt.number == number
    seats = game.setup.seats
    active = [s for s in seats if game.setup.players == 3 or s != nxt.dealer]
    i = active.index(nxt.first_hand)
    dec, d1, d2 = (active[(i + k) % 3] for k in range(3))
    return {
        "contract": "6S",
        "declarer": [dec, 6],
        "w1": [d1, 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "pass"},
        "play": "closed",
    }


def test_dealt_out_of_turn_the_order_goes_on_from_who_dealt() -> None:
    """Code 3.2.14: «Если же сдача окончена и хотя бы один из участников игры поднял карты, сдача считается
    законной и игра продолжается своим чередом. Следующая сдача в этом случае принадлежит игроку, сидящему слева
    от сдавшего»."""
    for players in (3, 4):
        game = PulkaGame(setup(players))
        assert game.score().next_deal.dealer == "N"  # type: ignore[union-attr]
        # deal 1 should be N's; S dealt it and the cards were picked up: it stands, dealt by S
        row = six(game, 1)
        game_s = PulkaGame(setup(players))
        assert game_s.add({"dealt_by": "S"} | _for_dealer(game_s, "S", players)) == ()
        assert game_s.deals[0].dealer == "S"
        nxt = game_s.score().next_deal
        assert nxt is not None and nxt.dealer == ("W" if players == 4 else "N")  # the seat left of S
        assert row  # the plain deal 1 is N's
    refused = PulkaGame(setup(3)).add({"dealt_by": "W", "contract": "-"})
    assert [p.code for p in refused] == ["dealt_by"]


def _for_dealer(game: PulkaGame, dealer: str, players: int) -> dict[str, object]:
    seats = game.setup.seats
    first = seats[(seats.index(dealer) + 1) % len(seats)]
    active = [s for s in seats if players == 3 or s != dealer]
    i = active.index(first)
    dec, d1, d2 = (active[(i + k) % 3] for k in range(3))
    return {
        "contract": "6S",
        "declarer": [dec, 6],
        "w1": [d1, 2],
        "w2": [d2, 2],
        "calls": {d1: "whist", d2: "pass"},
        "play": "closed",
    }


def test_a_deal_not_written_passes_with_only_the_directors_extra_entries() -> None:
    """Code 3.2.17: «за вторую – условленный ремиз (например, пять в гору) и переход сдачи»; 4.2.10: a forgotten
    entry a partner refuses to «вспомнить» stays unwritten. The deal passes (the next dealer deals), only extra
    entries; the software's choices: it counts as a deal, keeps the raspasy chain, writes no column entry."""
    s = setup(3, compensation=None)
    game = PulkaGame(s)
    assert game.add({"contract": "-", "declarer": ["E", 4], "w1": ["S", 3], "w2": ["N", 3]}) == ()
    fine = [{"type": "mountain", "seat": "E", "amount": 5}]
    assert game.add({"not_written": True, "extra_entries": fine}) == ()
    passed = game.deals[1]
    assert passed.dealer == "E" and passed.raspasy_step is None
    assert passed.sheet["E"].mountain == game.deals[0].sheet["E"].mountain + 5
    nxt = game.score().next_deal
    assert nxt is not None and nxt.number == 3 and nxt.dealer == "S"
    assert nxt.chain == 1  # the raspasy chain stays as it was before the deal not written
    assert [p.code for p in game.add({"not_written": True, "contract": "6S"})] == ["not_written_field"]
    assert [p.code for p in game.add({"not_written": False})] == ["not_written"]
    half = [{"type": "mountain", "seat": "E", "amount": "1/2"}]
    assert [p.code for p in game.add({"not_written": True, "extra_entries": half})] == ["extra_whole"]
    assert len(game.deals) == 2  # nothing refused was written


def test_no_column_entry_for_a_deal_not_written() -> None:
    """The software's choice (P-19 names a deal won or not): a deal not written was not played — no column entry."""
    from preferans.pulka import Compensation

    game = PulkaGame(setup(3, compensation=Compensation(3, -1)))
    game.add({"not_written": True})
    assert all(game.deals[0].sheet[s].column == Fraction(0) for s in "NES")


def test_the_pulka_document_replays_both_breaks() -> None:
    """Formats §7.1 extended by two optional row fields: a document with them scores as the engine plays it."""
    s = setup(3)
    game = PulkaGame(s)
    rows: list[dict[str, object]] = [{"not_written": True, "extra_entries": []}]
    rows.append({"dealt_by": "N"} | _for_dealer(game, "N", 3))
    for row in rows:
        assert game.add(row) == ()
    doc = {
        "format": "preferans-pulka",
        "version": 1,
        "variant": "sochi",
        "players": [{"seat": x} for x in "NES"],
        "pool": 10,
        "first_dealer": "N",
        "deals": rows,
    }
    document = read_pulka(doc)
    score = play_pulka(document.setup, document.rows)
    assert [d.dealer for d in score.deals] == ["N", "N"]
    assert score.next_deal is not None and score.next_deal.dealer == "E"
    assert score.settlement == game.score().settlement
    result = result_document(*score_document(doc))
    assert result["format"] == "preferans-pulka-result"
    assert [d["dealer"] for d in result["deals"]] == ["N", "N"]  # type: ignore[index]
