"""Whole boards (formats.md §8.2): for each active seat as declarer, the most tricks in each strain and the
fewest at misère after his best discard of two from twelve cards, with one discard that achieves each.

The search over discards keeps one solver per (strain, declarer, goal) for all the discards of a board, so its
transposition table — keyed on the hands in relative ranks — serves every discard. Discards that differ only by
equivalent cards (adjacent in rank among the 32 cards, all of which are in play at the first lead) give the same
position and are tried once. After the first discard each further one is asked only whether it beats the best so
far (a null-window question), which is usually answered quickly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from preferans.cards.deck import DECK, NotationError, parse_card, parse_hand
from preferans.dd.position import (
    NO_TRUMP,
    SEATS,
    SUIT_MASKS,
    card_bit,
    mask_cards,
    parse_items,
)
from preferans.dd.solver import Search, Solver, step_up

__all__ = [
    "KEYS",
    "STRAINS",
    "BoardInput",
    "Search",
    "SearchFactory",
    "SeatAnalysis",
    "analyse_board",
    "analysis_json",
    "distinct_discards",
    "parse_boards",
]

STRAINS: Final = ("S", "C", "D", "H", "NT")
KEYS: Final = (*STRAINS, "misere")
REQUIRED: Final = frozenset({"dealer", "players", "hands", "prikup"})
OPTIONAL: Final = frozenset({"number", "set"})
MAX_BOARDS: Final = 2_000
FULL_DECK: Final = (1 << 32) - 1


@dataclass(frozen=True)
class BoardInput:
    """One board to analyse: the three active seats in playing order, their 10-card masks, the prikup's mask
    and the index (in ``seats``) of the first hand, who leads the first trick."""

    number: int | None
    seats: tuple[str, str, str]
    hands: tuple[int, int, int]
    prikup: int
    first: int


@dataclass(frozen=True)
class SeatAnalysis:
    """One declarer's results: ``tricks[key]`` for the keys of :data:`KEYS`, and ``discards[key]`` the two
    card bits of a discard that achieves it."""

    tricks: Mapping[str, int]
    discards: Mapping[str, tuple[int, int]]


#: Makes the solver for (trump index or -1, declarer index, goal); the pure solver by default. A factory may also
#: have a ``new_board()`` method, called before each board (the kernel clears its shared table there).
SearchFactory = Callable[[int, int, str], Search]


def _pure_factory(trump: int, declarer: int, goal: str) -> Search:
    return Solver(trump, declarer, goal)


# -- reading boards ---------------------------------------------------------------------------------------------
def active_seats(dealer: str, players: int) -> tuple[tuple[str, str, str], str]:
    """The three active seats in playing order and the first hand (formats.md §8.2)."""
    if players == 4:
        seats = tuple(s for s in SEATS if s != dealer)
        first = SEATS[(SEATS.index(dealer) + 1) % 4]
    else:
        seats = ("N", "E", "S")
        first = dealer
    return (seats[0], seats[1], seats[2]), first


def _problems_of(index: int, data: object) -> tuple[BoardInput | None, list[str]]:
    where = f"board {index}"
    if (
        isinstance(data, Mapping)
        and isinstance(data.get("number"), int)
        and not isinstance(data["number"], bool)
    ):
        where = f"board {index} (number {data['number']})"
    if not isinstance(data, Mapping):
        return None, [f"{where}: not an object with dealer, players, hands and prikup"]
    problems: list[str] = []
    missing = sorted(REQUIRED - data.keys())
    unknown = sorted(str(k) for k in data.keys() - REQUIRED - OPTIONAL)
    if missing:
        problems.append(f"{where}: missing key(s) {', '.join(missing)}")
    if unknown:
        problems.append(f"{where}: unknown key(s) {', '.join(unknown)}")
    for key in ("number", "set"):
        value = data.get(key)
        if key in data and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9999):
            problems.append(f"{where}: {key} must be a whole number from 1 to 9999")
    players = data.get("players")
    if "players" in data and (players not in (3, 4) or isinstance(players, bool)):
        problems.append(f"{where}: players must be 3 or 4, not {players!r}")
        players = None
    dealer = data.get("dealer")
    seats: tuple[str, str, str] | None = None
    first = ""
    if "dealer" in data:
        if dealer not in SEATS:
            problems.append(f"{where}: unknown dealer {dealer!r} (use N, E, S or W)")
        elif players == 3 and dealer == "W":
            problems.append(f"{where}: at a 3-player table the dealer is N, E or S (W holds the prikup)")
        elif players in (3, 4):
            assert isinstance(dealer, str) and isinstance(players, int)
            seats, first = active_seats(dealer, players)
    seen: dict[int, str] = {}
    masks: dict[str, int] = {}
    hands = data.get("hands")
    if "hands" in data:
        if not isinstance(hands, Mapping):
            problems.append(f"{where}: hands must be an object of the three active seats and their cards")
        else:
            bad = [str(s) for s in hands if s not in SEATS]
            if bad:
                problems.append(f"{where}: unknown seat(s) {', '.join(bad)} in hands (use N, E, S, W)")
            if seats is not None and set(hands) != set(seats) and not bad:
                problems.append(
                    f"{where}: hands must be those of {', '.join(seats)} (the active seats), "
                    f"not {', '.join(str(s) for s in hands) or 'none'}"
                )
            for seat in (s for s in SEATS if s in hands):
                text = hands[seat]
                if not isinstance(text, str) or len(text) > 200:
                    problems.append(f'{where}: the hand of {seat} must be text such as "SAKQ C7 DJ98 H10"')
                    continue
                try:
                    cards = parse_hand(text, place=seat)
                except NotationError as exc:
                    problems.append(f"{where}: {exc}")
                    continue
                if len(cards) != 10:
                    problems.append(f"{where}: the hand of {seat} holds {len(cards)} cards, not 10")
                for card in cards:
                    _note(seen, masks, card_bit(card), seat, card.notation, where, problems)
    prikup = data.get("prikup")
    if "prikup" in data:
        if not isinstance(prikup, list) or not all(isinstance(c, str) and len(c) <= 4 for c in prikup):
            problems.append(f'{where}: prikup must be a list of two cards such as ["H7", "D8"]')
        else:
            if len(prikup) != 2:
                problems.append(f"{where}: the prikup holds {len(prikup)} cards, not 2")
            for text in prikup:
                try:
                    card = parse_card(text)
                except NotationError as exc:
                    problems.append(f"{where}: prikup: {exc}")
                    continue
                _note(seen, masks, card_bit(card), "prikup", card.notation, where, problems)
    if not problems and len(seen) != len(DECK):
        problems.append(f"{where}: the hands and the prikup must be the 32 cards, not {len(seen)}")
    if problems or seats is None:
        return None, problems
    number = data.get("number")
    return BoardInput(
        number=number if isinstance(number, int) else None,
        seats=seats,
        hands=(masks[seats[0]], masks[seats[1]], masks[seats[2]]),
        prikup=masks["prikup"],
        first=seats.index(first),
    ), []


def _note(
    seen: dict[int, str],
    masks: dict[str, int],
    bit: int,
    place: str,
    name: str,
    where: str,
    problems: list[str],
) -> None:
    if bit in seen:
        other = seen[bit]
        twice = f"twice in {place}" if other == place else f"in {other} and in {place}"
        problems.append(f"{where}: the card {name} appears {twice}")
        return
    seen[bit] = place
    masks[place] = masks.get(place, 0) | 1 << bit


def parse_boards(data: object) -> list[BoardInput]:
    """The input of ``analyse_boards``; :class:`PositionInvalid` lists every problem of every board."""
    return parse_items(data, "boards", MAX_BOARDS, _problems_of)


# -- the analysis -----------------------------------------------------------------------------------------------
def distinct_discards(hand: int, in_play: int = FULL_DECK) -> list[tuple[int, int]]:
    """Every discard of two cards from ``hand`` up to equivalence: cards adjacent in rank among ``in_play`` are
    interchangeable, so of each run only how many are discarded matters (the lowest go)."""
    runs: list[list[int]] = []
    for suit in range(4):
        run: list[int] = []
        for bit in range(8 * suit, 8 * suit + 8):  # low to high
            if hand >> bit & 1:
                run.append(bit)
            elif in_play >> bit & 1:
                if run:
                    runs.append(run)
                run = []
        if run:
            runs.append(run)
    out = [(a[0], b[0]) for a, b in combinations(runs, 2)]
    out.extend((r[0], r[1]) for r in runs if len(r) >= 2)
    return out


def _order(discards: list[tuple[int, int]], hand: int, trump: int, goal: str) -> list[tuple[int, int]]:
    """Likely best discards first: for tricks, low cards of short side suits; for misère, high cards."""

    def length(bit: int) -> int:
        return (hand & SUIT_MASKS[bit >> 3]).bit_count()

    def score(pair: tuple[int, int]) -> tuple[int, ...]:
        if goal == "min":
            return tuple(sorted(-(b & 7) for b in pair))
        trumps = sum(1 for b in pair if b >> 3 == trump)
        return (trumps, sum(length(b) for b in pair), sum(b & 7 for b in pair))

    return sorted(discards, key=score)


def _best(
    search: Search, hands: list[int], seat: int, leader: int, discards: list[tuple[int, int]], goal: str
) -> tuple[int, tuple[int, int]]:
    """The best value over ``discards`` of the declarer's 12 cards (``hands[seat]``) and a discard achieving it."""
    full = hands[seat]
    best = -1
    chosen = discards[0]
    for pair in discards:
        trial = list(hands)
        trial[seat] = full & ~(1 << pair[0]) & ~(1 << pair[1])
        position = (trial[0], trial[1], trial[2])
        if best < 0:
            best, chosen = step_up(search, position, leader, 10), pair
        elif goal == "max":
            while best < 10 and search.at_least(position, leader, best + 1):
                best, chosen = best + 1, pair
        else:
            while best > 0 and not search.at_least(position, leader, best):
                best, chosen = best - 1, pair
        if (goal == "max" and best == 10) or (goal == "min" and best == 0):
            break
    return best, chosen


def analyse_board(
    board: BoardInput,
    factory: SearchFactory | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, SeatAnalysis]:
    """Every active seat's six results (formats.md §8.2), by seat name. ``progress(done, total)`` is called
    after each of the 18 (declarer, key) searches."""
    make = factory or _pure_factory
    new_board = getattr(make, "new_board", None)
    if new_board is not None:  # a factory whose searches share a table may start each board afresh
        new_board()
    results: dict[str, SeatAnalysis] = {}
    done = 0
    for seat in range(3):
        hands = list(board.hands)
        hands[seat] |= board.prikup
        discards = distinct_discards(hands[seat])
        tricks: dict[str, int] = {}
        chosen: dict[str, tuple[int, int]] = {}
        for key in KEYS:
            trump = STRAINS.index(key) if key in ("S", "C", "D", "H") else NO_TRUMP
            goal = "min" if key == "misere" else "max"
            search = make(trump, seat, goal)
            ordered = _order(discards, hands[seat], trump, goal)
            tricks[key], chosen[key] = _best(search, hands, seat, board.first, ordered, goal)
            done += 1
            if progress is not None:
                progress(done, 3 * len(KEYS))
        results[board.seats[seat]] = SeatAnalysis(tricks=tricks, discards=chosen)
    return results


def analysis_json(board: BoardInput, seats: Mapping[str, SeatAnalysis]) -> dict[str, object]:
    """One board's output object of formats.md §8.2."""
    out: dict[str, object] = {}
    if board.number is not None:
        out["number"] = board.number
    out["seats"] = {
        seat: {
            **{key: result.tricks[key] for key in KEYS},
            "discards": {
                key: [
                    c.notation
                    for c in mask_cards(1 << result.discards[key][0] | 1 << result.discards[key][1])
                ]
                for key in KEYS
            },
        }
        for seat, result in seats.items()
    }
    return out


def discard_cards(pair: Sequence[int]) -> list[str]:
    """A discard's two card bits in the §2 notation."""
    return [c.notation for c in mask_cards(1 << pair[0] | 1 << pair[1])]
