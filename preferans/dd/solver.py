"""The fast exact double-dummy solver.

A null-window search ("can the maximising side make the declarer take at least ``target`` of the remaining
tricks?") driven by a binary search on the target, as the best bridge solvers do:

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

from preferans.dd.position import SUIT_MASKS, Position, legal_moves, trick_winner

__all__ = ["Solver", "solve"]


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


class Solver:
    """One search's state: the rules of the position and the transposition table (reused across targets)."""

    def __init__(self, trump: int, declarer: int, goal: str) -> None:
        self.trump = trump
        self.declarer = declarer
        self.maximiser = tuple((p == declarer) == (goal == "max") for p in range(3))
        self.table: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self.nodes = 0

    def at_least(self, hands: tuple[int, int, int], leader: int, target: int) -> bool:
        """Whether the maximising side makes the declarer take ``target`` or more of the remaining tricks."""
        if target <= 0:
            return True
        left = hands[0].bit_count()
        if target > left:
            return False
        key = (hands[0], hands[1], hands[2], leader)
        bounds = self.table.get(key)
        if bounds is None:
            low, high = 0, left
        else:
            low, high = bounds
            if low >= target:
                return True
            if high < target:
                return False
        self.nodes += 1
        in_play = hands[0] | hands[1] | hands[2]
        result = self._play(list(hands), leader, [], in_play, target)
        if result:
            low = target
        else:
            high = target - 1
        self.table[key] = (low, high)
        return result

    def _play(self, hands: list[int], leader: int, trick: list[int], in_play: int, target: int) -> bool:
        count = len(trick)
        if count == 3:
            winner = (leader + trick_winner(trick, self.trump)) % 3
            return self.at_least((hands[0], hands[1], hands[2]), winner, target - (winner == self.declarer))
        player = (leader + count) % 3
        hand = hands[player]
        moves = legal_moves(hand, trick[0] >> 3 if count else -1, self.trump)
        want = self.maximiser[player]
        for card in self._ordered(moves, in_play, trick, player, leader):
            hands[player] = hand ^ (1 << card)
            trick.append(card)
            result = self._play(hands, leader, trick, in_play, target)
            trick.pop()
            if result == want:
                hands[player] = hand
                return want
        hands[player] = hand
        return not want

    def _ordered(self, moves: int, in_play: int, trick: list[int], player: int, leader: int) -> list[int]:
        cards = _representatives(moves, in_play)
        if not trick or len(cards) < 2:
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
        if self.maximiser[player] == self.maximiser[(leader + winning) % 3]:
            return losers + winners
        return winners + losers


def solve(position: Position, solver: Solver | None = None) -> int:
    """The declarer's tricks of the remaining ones with best play by everybody (formats.md §8.1)."""
    search = solver or Solver(position.trump, position.declarer, position.goal)
    low, high = 0, position.tricks_left
    while low < high:
        middle = (low + high + 1) // 2
        if search.at_least(position.hands, position.leader, middle):
            low = middle
        else:
            high = middle - 1
    return low
