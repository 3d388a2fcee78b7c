"""The plain reference search: card-by-card minimax with alpha-beta cut-offs and nothing else (no
transposition table, no equivalent cards, no move ordering, no bounds). Slow but simple — the oracle the
fast solver is checked against, and the baseline of ``bench/bench_dd.py``."""

from __future__ import annotations

from preferans.dd.position import Position, legal_moves, trick_winner

__all__ = ["solve_reference"]


def solve_reference(position: Position) -> int:
    """The declarer's tricks of the remaining ones with best play by everybody."""
    trump, declarer = position.trump, position.declarer
    maximiser = tuple((p == declarer) == (position.goal == "max") for p in range(3))
    hands = list(position.hands)

    def search(leader: int, trick: list[int], alpha: int, beta: int) -> int:
        if len(trick) == 3:
            winner = (leader + trick_winner(trick, trump)) % 3
            won = 1 if winner == declarer else 0
            if not hands[0]:
                return won
            return won + search(winner, [], alpha - won, beta - won)
        player = (leader + len(trick)) % 3
        moves = legal_moves(hands[player], trick[0] >> 3 if trick else -1, trump)
        best = -1 if maximiser[player] else 99
        for bit in range(32):
            if not moves >> bit & 1:
                continue
            hands[player] ^= 1 << bit
            trick.append(bit)
            value = search(leader, trick, alpha, beta)
            trick.pop()
            hands[player] ^= 1 << bit
            if maximiser[player]:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    return search(position.leader, [], -1, 99)
