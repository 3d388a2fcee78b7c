"""The compiled double-dummy kernel: the same exact null-window search as :mod:`preferans.dd.solver`, compiled by
numba (a wheel from the registry: no compiler is needed on the machine).

The algorithm is the pure solver's, line for line where it can be — a transposition table keyed on the hands in
relative ranks with lower and upper bounds, equivalent cards, move ordering, the trump and cashing bounds and a
remembered best lead — with the data in flat integer arrays instead of Python objects:

- one transposition table per process (open addressing, 2^20 entries). Its key holds the three hands in relative
  ranks, the leader and the rules (trump, declarer, goal), so an entry stays valid for every position, board and
  solver; a lock serialises searches of one process, since an entry is written in several stores;
- the per-suit tables (relative ranks, run representatives, bit counts, highest bits) computed once.

Compiled functions are cached on disk next to this file (numba ``cache=True``); the first search of a fresh
checkout compiles them (a few seconds).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numba import njit

__all__ = ["KernelSearch", "TABLE_BITS"]

TABLE_BITS = 20
_SIZE = 1 << TABLE_BITS
_PROBES = 8


def _suit_tables() -> tuple[Any, Any, Any, Any]:
    rel = np.zeros((256, 256), np.int64)  # rel[union, mask]: mask's cards as their places among union
    rep = np.zeros((256, 256), np.int64)  # rep[union, moves]: the highest card of each run of moves in union
    pop = np.zeros(256, np.int64)
    high = np.full(256, -1, np.int64)
    for u in range(256):
        places = [b for b in range(8) if u >> b & 1]
        for m in range(256):
            r = 0
            for i, b in enumerate(places):
                if m >> b & 1:
                    r |= 1 << i
            rel[u, m] = r
            reps = 0
            previous = False
            for b in range(7, -1, -1):
                if u >> b & 1:
                    inside = bool(m >> b & 1)
                    if inside and not previous:
                        reps |= 1 << b
                    previous = inside
            rep[u, m] = reps
    for m in range(256):
        pop[m] = bin(m).count("1")
        high[m] = m.bit_length() - 1
    return rel, rep, pop, high


REL, REP, POP, HIGH = _suit_tables()


@njit(cache=True, inline="always")
def _count(mask: int, pop: Any) -> int:
    return pop[mask & 255] + pop[(mask >> 8) & 255] + pop[(mask >> 16) & 255] + pop[(mask >> 24) & 255]


@njit(cache=True, inline="always")
def _only(hand: int, high: Any) -> int:
    """The highest card of a hand."""
    for suit in range(3, -1, -1):
        top = high[(hand >> (8 * suit)) & 255]
        if top >= 0:
            return top + 8 * suit
    return -1


@njit(cache=True, inline="always")
def _beats(card: int, best: int, trump: int) -> bool:
    suit, best_suit = card >> 3, best >> 3
    if suit == best_suit:
        return card > best
    return suit == trump


@njit(cache=True, inline="always")
def _run(hand: int, in_play: int, suit: int, high: Any) -> int:
    """How many of the top cards in play of ``suit`` the hand holds in a row."""
    union = (in_play >> (8 * suit)) & 255
    mine = (hand >> (8 * suit)) & 255
    run = 0
    while union:
        top = high[union]
        if not (mine >> top) & 1:
            break
        run += 1
        union ^= 1 << top
    return run


@njit(cache=True)
def _cashable(hand: int, other1: int, other2: int, trump: int, pop: Any, high: Any) -> int:
    """Tricks the leader wins in a row by leading his top cards, whatever the others do."""
    in_play = hand | other1 | other2
    total = 0
    for suit in range(4):
        total += _run(hand, in_play, suit, high)
    if trump < 0:
        return total
    shift = 8 * trump
    t1 = pop[(other1 >> shift) & 255]
    t2 = pop[(other2 >> shift) & 255]
    best = _run(hand, in_play, trump, high)
    if max(t1, t2) <= best:
        return total  # drawing their trumps first, nobody can ruff the rest
    for suit in range(4):
        run = _run(hand, in_play, suit, high)
        if suit != trump and run:
            safe = run
            if t1:
                safe = min(safe, pop[(other1 >> (8 * suit)) & 255])
            if t2:
                safe = min(safe, pop[(other2 >> (8 * suit)) & 255])
            best = max(best, safe)
    return best


@njit(cache=True)
def _legal(hand: int, led: int, trump: int) -> int:
    follow = hand & (255 << (8 * led))
    if follow:
        return follow
    if trump >= 0:
        ruff = hand & (255 << (8 * trump))
        if ruff:
            return ruff
    return hand


@njit(cache=True)
def _reps(moves: int, in_play: int, rep: Any) -> int:
    out = 0
    for suit in range(4):
        shift = 8 * suit
        m = (moves >> shift) & 255
        if m:
            out |= rep[(in_play >> shift) & 255, m] << shift
    return out


@njit(cache=True)
def _order_follow(
    cards: int, best: int, trump: int, losers_first: bool, high_first: bool, out: Any, row: int
) -> int:
    """A follower's representatives in the order to try: cards that beat ``best`` cheapest first and then the
    others lowest first, or the losers first when ``losers_first``; from the highest when ``high_first``."""
    n = 0
    for wanted in range(2):
        winners = (wanted == 1) == losers_first
        for i in range(32):
            bit = 31 - i if high_first else i
            if (cards >> bit) & 1 and _beats(bit, best, trump) == winners:
                out[row, n] = bit
                n += 1
    return n


@njit(cache=True)
def _at_least(
    h0: int,
    h1: int,
    h2: int,
    leader: int,
    target: int,
    cfg: Any,
    keys1: Any,
    keys2: Any,
    bounds: Any,
    rel: Any,
    rep: Any,
    pop: Any,
    high: Any,
    buf: Any,
) -> bool:
    """Whether the maximising side makes the declarer take ``target`` or more of the remaining tricks.

    ``h0``, ``h1``, ``h2`` are the current hands by seat; ``cfg`` = [trump, declarer, maximiser of seats 0, 1, 2,
    rules code, nodes, goal min, the table's generation]; ``bounds[i]`` = [low, high, hint]; ``buf`` is scratch space per trick depth."""
    if target <= 0:
        return True
    hands = (h0, h1, h2)
    left = _count(h0, pop)
    if target > left:
        return False
    trump, declarer = cfg[0], cfg[1]
    if left == 1:  # the one-card ending: play it out
        c0 = _only(hands[leader], high)
        c1 = _only(hands[(leader + 1) % 3], high)
        c2 = _only(hands[(leader + 2) % 3], high)
        best, winner = c0, 0
        if _beats(c1, best, trump):
            best, winner = c1, 1
        if _beats(c2, best, trump):
            winner = 2
        return (leader + winner) % 3 == declarer
    # the key: the hands in relative ranks, the leader, the rules
    r0 = 0
    r1 = 0
    r2 = 0
    for suit in range(4):
        shift = 8 * suit
        a = (h0 >> shift) & 255
        b = (h1 >> shift) & 255
        c = (h2 >> shift) & 255
        u = a | b | c
        r0 |= rel[u, a] << shift
        r1 |= rel[u, b] << shift
        r2 |= rel[u, c] << shift
    k1 = r0 | (r1 << 32)
    k2 = r2 | ((leader + 1) << 32) | (cfg[5] << 36) | (cfg[8] << 41)
    slot = ((k1 * -7046029254386353131) ^ (k2 * -4658895280553007687)) >> 20
    slot &= keys1.shape[0] - 1
    found = -1
    empty = -1
    for probe in range(8):
        i = (slot + probe) & (keys1.shape[0] - 1)
        if keys2[i] == k2 and keys1[i] == k1:
            found = i
            break
        if (keys2[i] >> 41) != cfg[8] and empty < 0:  # empty, or left by an earlier board
            empty = i
            break
    if found >= 0:
        low = bounds[found, 0]
        hi = bounds[found, 1]
        hint = bounds[found, 2]
        if low >= target:
            return True
        if hi < target:
            return False
    else:
        hint = -1
        # sound bounds without search
        low = 0
        hi = left
        if trump >= 0:
            shift = 8 * trump
            own = (hands[declarer] >> shift) & 255
            first = (hands[(declarer + 1) % 3] >> shift) & 255
            second = (hands[(declarer + 2) % 3] >> shift) & 255
            low = pop[own >> (high[first | second] + 1)]
            hi = left - max(pop[first >> (high[own] + 1)], pop[second >> (high[own] + 1)])
        if cfg[2 + declarer] == 1 and low < hi:
            cashed = _cashable(
                hands[leader], hands[(leader + 1) % 3], hands[(leader + 2) % 3], trump, pop, high
            )
            if leader == declarer:
                low = max(low, cashed)
            else:
                hi = min(hi, left - cashed)
        if cfg[7] == 1 and trump < 0 and leader != declarer and low < 1:
            # misère: a defender may lead a suit in which every card of the declarer is above every card of
            # theirs; the declarer must follow and takes the trick (no trump can beat him)
            own = hands[declarer]
            theirs = hands[(declarer + 1) % 3] | hands[(declarer + 2) % 3]
            for suit in range(4):
                shift = 8 * suit
                mine = (own >> shift) & 255
                if mine and (hands[leader] >> shift) & 255 and (mine & -mine) > ((theirs >> shift) & 255):
                    low = 1
                    break
        if low >= target or hi < target:
            _store(keys1, keys2, bounds, slot, k1, k2, low, hi, -1, cfg[8])
            return low >= target
    cfg[6] += 1
    misere = cfg[7] == 1
    in_play = h0 | h1 | h2
    second_seat = (leader + 1) % 3
    third_seat = (leader + 2) % 3
    want0 = cfg[2 + leader] == 1
    want1 = cfg[2 + second_seat] == 1
    want2 = cfg[2 + third_seat] == 1
    hl = hands[leader]
    g1 = hands[second_seat]
    g2 = hands[third_seat]
    # the leads: the hinted card, then the top card in play of each suit, then the others from the lowest
    reps = _reps(hl, in_play, rep)
    row0 = 3 * left
    n0 = 0
    hinted = -1
    if hint >= 0:
        suit = hint >> 3
        cards = (in_play >> (8 * suit)) & 255
        for _ in range(hint & 7):
            cards ^= 1 << high[cards]
        if cards:
            card = high[cards] + 8 * suit
            if (reps >> card) & 1:
                hinted = card
                buf[row0, n0] = card
                n0 += 1
    if misere:  # at misère everybody leads low first
        for bit in range(32):
            if (reps >> bit) & 1 and bit != hinted:
                buf[row0, n0] = bit
                n0 += 1
    else:
        for suit in range(4):
            shift = 8 * suit
            mine = (reps >> shift) & 255
            if mine:
                top = high[(in_play >> shift) & 255]
                if (mine >> top) & 1 and top + shift != hinted:
                    buf[row0, n0] = top + shift
                    n0 += 1
        for bit in range(32):
            if (reps >> bit) & 1 and bit != hinted:
                suit = bit >> 3
                if high[(in_play >> (8 * suit)) & 255] + 8 * suit != bit:
                    buf[row0, n0] = bit
                    n0 += 1
    result = not want0
    chosen = -1
    for i0 in range(n0):
        c0 = buf[row0, i0]
        led = c0 >> 3
        rest0 = hl ^ (1 << c0)
        cards1 = _reps(_legal(g1, led, trump), in_play, rep)
        # second hand: own side winning so far (never: the leader is the other side or himself), or his partner
        # plays third
        # at misère everybody ducks first, the highest card that loses first (the declarer sheds his dangerous
        # cards, a defender keeps his low ones to put the declarer in later)
        losers1 = misere or want1 == want0 or want1 == want2  # noqa: SIM109 (numba)
        n1 = _order_follow(cards1, c0, trump, losers1, misere, buf, row0 + 1)
        result1 = not want1
        for i1 in range(n1):
            c1 = buf[row0 + 1, i1]
            rest1 = g1 ^ (1 << c1)
            best01 = c1 if _beats(c1, c0, trump) else c0
            winner01 = second_seat if best01 == c1 else leader
            cards2 = _reps(_legal(g2, led, trump), in_play, rep)
            losers2 = misere or want2 == (cfg[2 + winner01] == 1)
            n2 = _order_follow(cards2, best01, trump, losers2, misere, buf, row0 + 2)
            result2 = not want2
            for i2 in range(n2):
                c2 = buf[row0 + 2, i2]
                rest2 = g2 ^ (1 << c2)
                winner = third_seat if _beats(c2, best01, trump) else winner01
                if leader == 0:
                    n_0, n_1, n_2 = rest0, rest1, rest2
                elif leader == 1:
                    n_0, n_1, n_2 = rest2, rest0, rest1
                else:
                    n_0, n_1, n_2 = rest1, rest2, rest0
                need = target - 1 if winner == declarer else target
                if (
                    _at_least(
                        n_0, n_1, n_2, winner, need, cfg, keys1, keys2, bounds, rel, rep, pop, high, buf
                    )
                    == want2
                ):
                    result2 = want2
                    break
            if result2 == want1:
                result1 = want1
                break
        if result1 == want0:
            result = want0
            chosen = c0
            break
    if result:
        low = target
    else:
        hi = target - 1
    new_hint = -1
    if chosen >= 0:
        suit = chosen >> 3
        above = (in_play >> (8 * suit)) & 255 & ~((2 << (chosen & 7)) - 1)
        new_hint = (suit << 3) | pop[above]
    elif found >= 0:
        new_hint = hint
    _store(keys1, keys2, bounds, slot, k1, k2, low, hi, new_hint, cfg[8])
    return result


@njit(cache=True)
def _store(
    keys1: Any,
    keys2: Any,
    bounds: Any,
    slot: int,
    k1: int,
    k2: int,
    low: int,
    hi: int,
    hint: int,
    generation: int,
) -> None:
    mask = keys1.shape[0] - 1
    target = slot
    for probe in range(8):
        i = (slot + probe) & mask
        if (keys2[i] == k2 and keys1[i] == k1) or (keys2[i] >> 41) != generation:
            target = i
            break
    keys1[target] = k1
    keys2[target] = k2
    bounds[target, 0] = low
    bounds[target, 1] = hi
    bounds[target, 2] = hint


_LOCK = threading.Lock()
_TABLE: dict[str, Any] = {}
_GENERATION = [1]  # entries of other generations count as empty: clearing the table is one increment


def _table() -> tuple[Any, Any, Any]:
    if not _TABLE:
        _TABLE["k1"] = np.zeros(_SIZE, np.int64)
        _TABLE["k2"] = np.zeros(_SIZE, np.int64)
        _TABLE["b"] = np.zeros((_SIZE, 3), np.int64)
    return _TABLE["k1"], _TABLE["k2"], _TABLE["b"]


def clear_table() -> None:
    """Forget every stored bound (before each board, and for the benchmark's cold searches)."""
    with _LOCK:
        _GENERATION[0] += 1
        if _GENERATION[0] >= 1 << 22:  # the key holds 22 bits of it
            _GENERATION[0] = 1
            if _TABLE:
                _TABLE["k2"].fill(0)


class KernelSearch:
    """The compiled null-window search for one rule set (trump index or -1, declarer index, goal). As a search
    factory (``preferans.dd.engine``), its ``new_board`` clears the shared table before each board."""

    new_board = staticmethod(clear_table)

    def __init__(self, trump: int, declarer: int, goal: str) -> None:
        maximiser = [int((p == declarer) == (goal == "max")) for p in range(3)]
        rules = (trump + 1) * 6 + declarer * 2 + (goal == "min")  # < 32: fits the key's 5 bits
        self.rules = (trump, declarer, goal)
        self.cfg = np.array([trump, declarer, *maximiser, rules, 0, int(goal == "min"), 0], np.int64)
        self.buf = np.zeros((3 * 11 + 3, 12), np.int64)

    @property
    def nodes(self) -> int:
        return int(self.cfg[6])

    def at_least(self, hands: tuple[int, int, int], leader: int, target: int) -> bool:
        with _LOCK:
            keys1, keys2, bounds = _table()
            self.cfg[8] = _GENERATION[0]
            return bool(
                _at_least(
                    hands[0],
                    hands[1],
                    hands[2],
                    leader,
                    target,
                    self.cfg,
                    keys1,
                    keys2,
                    bounds,
                    REL,
                    REP,
                    POP,
                    HIGH,
                    self.buf,
                )
            )
