"""The fast exact double-dummy solver.

A null-window search ("can the maximising side make the declarer take at least ``target`` of the remaining
tricks?") asked for the targets 1, 2, … in turn (each answer's bounds stay in the table), with what the best
bridge solvers do:

- positions at the start of a trick are kept in a transposition table keyed on the three remaining hands and
  the leader, with a lower and an upper bound on the declarer's remaining tricks — valid for every target;
- equivalent cards: cards of one hand adjacent in rank among the cards still in play (including those already
  on the table in the current trick) win the same tricks, so only the highest of each run is tried;
- move ordering: a player who can win the trick tries his winners first;
- quick bounds: the search stops at once when the target is 0 or above the tricks left, and a one-card
  ending is played out directly.

The maximising side is the declarer for goal ``max`` and the two defenders for goal ``min``; the value is
always the declarer's tricks.
"""

from __future__ import annotations

from typing import Protocol

from preferans.dd.position import SUIT_MASKS, Position, legal_moves, trick_winner

__all__ = ["Search", "Solver", "solve", "step_up"]


class Search(Protocol):
    """A search for one rule set: the null-window question at a trick's start (this module's :class:`Solver`, or
    the compiled ``preferans.dd.kernel.KernelSearch``)."""

    rules: tuple[int, int, str]

    def at_least(self, hands: tuple[int, int, int], leader: int, target: int) -> bool: ...


def _representatives(moves: int, in_play: int) -> list[int]:
    """The highest card of each run of ``moves`` adjacent in rank among ``in_play``, high cards first."""
    out: list[int] = []
    while moves:
        card = moves.bit_length() - 1
        out.append(card)
        moves ^= 1 << card
        suit_mask = SUIT_MASKS[card >> 3]
        while True:
            below = in_play & ((1 << card) - 1) & suit_mask
            if not below:
                break
            card = below.bit_length() - 1
            if not moves >> card & 1:
                break
            moves ^= 1 << card
    return out


_ROWS: list[list[int] | None] = [None] * 256


def _row(union: int) -> list[int]:
    """For one suit's cards in play ``union`` (8 bits): each subset written in relative ranks (bit i = the
    i-th lowest card in play)."""
    row = _ROWS[union]
    if row is None:
        place = {b: i for i, b in enumerate(b for b in range(8) if union >> b & 1)}
        row = [0] * 256
        for mask in range(1, 256):
            low = mask & -mask
            bit = low.bit_length() - 1
            row[mask] = row[mask ^ low] | (1 << place[bit] if bit in place else 0)
        _ROWS[union] = row
    return row


def _key(h0: int, h1: int, h2: int, leader: int) -> int:
    """The table's key: the hands in relative ranks (cards played earlier do not matter) and the leader."""
    key = leader
    for shift in (0, 8, 16, 24):
        a, b, c = h0 >> shift & 255, h1 >> shift & 255, h2 >> shift & 255
        row = _ROWS[a | b | c] or _row(a | b | c)
        key = key << 24 | row[a] << 16 | row[b] << 8 | row[c]
    return key


def _hint_of(card: int, in_play: int) -> int:
    """A card as its suit and the number of cards in play above it (valid for every equal position)."""
    suit = card >> 3
    return suit << 3 | (in_play & SUIT_MASKS[suit] & ~((2 << card) - 1)).bit_count()


def _card_of(hint: int, in_play: int) -> int:
    suit_cards = in_play & SUIT_MASKS[hint >> 3]
    for _ in range(hint & 7):
        suit_cards ^= 1 << (suit_cards.bit_length() - 1)
    return suit_cards.bit_length() - 1


class Solver:
    """One search's state: the rules of the position and the transposition table (reused across targets)."""

    def __init__(self, trump: int, declarer: int, goal: str) -> None:
        self.trump = trump
        self.declarer = declarer
        self.rules = (trump, declarer, goal)
        self.goal = goal
        self.maximiser = tuple((p == declarer) == (goal == "max") for p in range(3))
        self.table: dict[int, tuple[int, int]] = {}
        self.hints: dict[int, int] = {}  # the lead that decided a position last time, in relative rank
        self.nodes = 0
        self.last_lead = -1

    def at_least(self, hands: tuple[int, int, int], leader: int, target: int) -> bool:
        """Whether the maximising side makes the declarer take ``target`` or more of the remaining tricks."""
        if target <= 0:
            return True
        left = hands[0].bit_count()
        if target > left:
            return False
        if left == 1:
            trick = [hands[(leader + i) % 3].bit_length() - 1 for i in range(3)]
            return (leader + trick_winner(trick, self.trump)) % 3 == self.declarer
        key = _key(hands[0], hands[1], hands[2], leader)
        bounds = self.table.get(key)
        if bounds is None:
            low, high = self._sure_tricks(hands, leader, left)
            if low >= target or high < target:
                self.table[key] = (low, high)
                return low >= target
        else:
            low, high = bounds
            if low >= target:
                return True
            if high < target:
                return False
        self.nodes += 1
        in_play = hands[0] | hands[1] | hands[2]
        hand = hands[leader]
        leads = self._leads(hand, in_play)
        hint = self.hints.get(key)
        if hint is not None:
            card = _card_of(hint, in_play)
            if card != leads[0] and card in leads:
                leads.remove(card)
                leads.insert(0, card)
        result = self._trick(hands, leader, leads, in_play, target)
        if result == self.maximiser[leader]:
            self.hints[key] = _hint_of(self.last_lead, in_play)
        if result:
            low = target
        else:
            high = target - 1
        self.table[key] = (low, high)
        return result

    def _sure_tricks(self, hands: tuple[int, int, int], leader: int, left: int) -> tuple[int, int]:
        """Sound bounds (low, high) on the declarer's remaining tricks, without search.

        - Trumps above every trump of the other side win whenever they are played, and every card is played:
          the declarer takes at least his trumps above the defenders' highest, and the defenders at least those
          of either one of them above the declarer's highest.
        - Goal max: the leader's side takes at least the tricks the leader can cash from the top (top cards in
          play, nobody able to ruff them), since cashing them is one of its choices.
        """
        declarer, trump = self.declarer, self.trump
        low, high = 0, left
        if trump >= 0:
            shift = 8 * trump
            own = hands[declarer] >> shift & 255
            first = hands[(declarer + 1) % 3] >> shift & 255
            second = hands[(declarer + 2) % 3] >> shift & 255
            low = (own >> (first | second).bit_length()).bit_count()
            high = left - max(
                (first >> own.bit_length()).bit_count(), (second >> own.bit_length()).bit_count()
            )
        if self.goal == "min" and trump < 0 and leader != declarer and low < 1:
            # misère: a defender may lead a suit in which every card of the declarer is above every card of
            # theirs; the declarer must follow and takes the trick (no trump can beat him)
            theirs = hands[(declarer + 1) % 3] | hands[(declarer + 2) % 3]
            for suit in range(4):
                mine = hands[declarer] >> 8 * suit & 255
                if mine and hands[leader] >> 8 * suit & 255 and mine & -mine > theirs >> 8 * suit & 255:
                    low = 1
                    break
        if not self.maximiser[declarer] or low >= high:
            return low, high
        cashed = self._cashable(hands, leader)
        if leader == declarer:
            low = max(low, cashed)
        else:
            high = min(high, left - cashed)
        return low, high

    def _cashable(self, hands: tuple[int, int, int], leader: int) -> int:
        """Tricks the leader wins in a row by leading his top cards, whatever the others do."""
        trump = self.trump
        hand = hands[leader]
        others = (hands[(leader + 1) % 3], hands[(leader + 2) % 3])
        in_play = hand | others[0] | others[1]
        runs = []
        for suit in range(4):
            shift = 8 * suit
            union, mine = in_play >> shift & 255, hand >> shift & 255
            run = 0
            while union:
                top = union.bit_length() - 1
                if not mine >> top & 1:
                    break
                run += 1
                union ^= 1 << top
            runs.append(run)
        if trump < 0:
            return sum(runs)
        shift = 8 * trump
        their_trumps = [(h >> shift & 255).bit_count() for h in others]
        if max(their_trumps) <= runs[trump]:
            return sum(runs)  # drawing their trumps first, nobody can ruff the rest
        best = runs[trump]
        for suit in range(4):
            if suit != trump and runs[suit]:
                safe = runs[suit]
                for h, trumps in zip(others, their_trumps, strict=True):
                    if trumps:
                        safe = min(safe, (h >> 8 * suit & 255).bit_count())
                best = max(best, safe)
        return best

    def _trick(
        self, hands: tuple[int, int, int], leader: int, leads: list[int], in_play: int, target: int
    ) -> bool:
        """Play out one trick card by card (the three seats' choices), then the rest by :meth:`at_least`."""
        trump, declarer, maximiser = self.trump, self.declarer, self.maximiser
        second, third = (leader + 1) % 3, (leader + 2) % 3
        want0, want1, want2 = maximiser[leader], maximiser[second], maximiser[third]
        h0, h1, h2 = hands[leader], hands[second], hands[third]
        replies: dict[int, tuple[list[int], list[int]]] = {}  # by led suit: the two followers' choices
        for c0 in leads:
            led = c0 >> 3
            if led not in replies:
                replies[led] = (
                    _representatives(legal_moves(h1, led, trump), in_play),
                    _representatives(legal_moves(h2, led, trump), in_play),
                )
            cards1, cards2 = replies[led]
            r0 = h0 ^ (1 << c0)
            result1 = not want1
            for c1 in self._ordered(cards1, [c0], second, leader):
                r1 = h1 ^ (1 << c1)
                result2 = not want2
                for c2 in self._ordered(cards2, [c0, c1], third, leader):
                    r2 = h2 ^ (1 << c2)
                    winner = (leader + trick_winner((c0, c1, c2), trump)) % 3
                    rest = (r0, r1, r2) if leader == 0 else (r2, r0, r1) if leader == 1 else (r1, r2, r0)
                    if self.at_least(rest, winner, target - (winner == declarer)) == want2:
                        result2 = want2
                        break
                if result2 == want1:
                    result1 = want1
                    break
            if result1 == want0:
                self.last_lead = c0
                return want0
        return not want0

    @staticmethod
    def _leads(hand: int, in_play: int) -> list[int]:
        """The leader's choices: the top card in play of a suit first, then the others from the lowest."""
        cards = _representatives(hand, in_play)
        tops = [c for c in cards if not in_play & SUIT_MASKS[c >> 3] >> (c + 1)]
        rest = [c for c in reversed(cards) if in_play & SUIT_MASKS[c >> 3] >> (c + 1)]
        return tops + rest

    def _ordered(self, cards: list[int], trick: list[int], player: int, leader: int) -> list[int]:
        """A follower's choices (``cards``: the representatives, high first) in the order to try them."""
        if len(cards) < 2:
            return cards
        # Cards that beat the trick so far first, the cheapest first; then the others, lowest first.
        # When the trick is being won by one's own side, the low cards come first instead.
        winning = trick_winner(trick, self.trump)
        best = trick[winning]
        trump, best_suit = self.trump, best >> 3
        winners: list[int] = []
        losers: list[int] = []
        for card in reversed(cards):
            suit = card >> 3
            if (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                winners.append(card)
            else:
                losers.append(card)
        side = self.maximiser[player]
        if side == self.maximiser[(leader + winning) % 3] or (
            len(trick) == 1 and side == self.maximiser[(player + 1) % 3]
        ):
            return losers + winners
        return winners + losers


def solve(position: Position, solver: Search | None = None) -> int:
    """The declarer's tricks of the remaining ones with best play by everybody (formats.md §8.1).

    ``solver`` may be shared by positions with the same trump, declarer and goal (its table stays valid: it is
    keyed on the hands), e.g. the positions of one board; a solver made for other rules is refused.
    """
    search: Search = solver or Solver(position.trump, position.declarer, position.goal)
    if search.rules != (position.trump, position.declarer, position.goal):
        raise ValueError("this solver was made for another trump, declarer or goal")
    return step_up(search, position.hands, position.leader, position.tricks_left)


def step_up(search: Search, hands: tuple[int, int, int], leader: int, most: int, low: int = 0) -> int:
    """The exact value by null-window questions from ``low`` upwards ("at least low + 1?", …): measured faster
    than a binary search here (bench/README.md), as a question about a low target is answered quickly and the
    answers' bounds stay in the table for the next question."""
    while low < most and search.at_least(hands, leader, low + 1):
        low += 1
    return low
