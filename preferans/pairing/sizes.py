"""Table sizes and the book's tables (pairing §1–§3): how many tables of 3 and 4, who has a bye, and the rank
interval each table holds when the tables are filled in ranking order."""

from __future__ import annotations

__all__ = ["book_tables", "intervals", "split_tables"]


def split_tables(players: int, per_table: int) -> tuple[list[int], int]:
    """Pairing §1: the table sizes, tables of 4 first, and the number of byes for ``players`` active players at
    preferred tables of ``per_table``: ``t = ⌈n/4⌉`` tables when 4, ``⌊n/3⌋`` when 3, ``n − 3t`` of them of 4;
    where no ``t`` seats everyone (n = 1, 2, 5) as few byes as possible, the rest seated by the same rule."""
    if per_table not in (3, 4):
        raise ValueError(f"a table has 3 or 4 players, not {per_table}")
    for byes in range(players + 1):
        m = players - byes
        low, high = -(-m // 4), m // 3  # t tables hold 3t…4t players
        if m >= 3 and low <= high:
            t = low if per_table == 4 else high
            fours = m - 3 * t
            return [4] * fours + [3] * (t - fours), byes
    return [], players


def intervals(sizes: list[int]) -> list[tuple[int, int]]:
    """Pairing §2: the rank interval ``[a_k, b_k]`` of every table (ranks from 0, the best first)."""
    out: list[tuple[int, int]] = []
    start = 0
    for size in sizes:
        out.append((start, start + size - 1))
        start += size
    return out


def book_tables(sizes: list[int]) -> list[int]:
    """Pairing §2: the book table (from 0) of every seated rank."""
    return [k for k, size in enumerate(sizes) for _ in range(size)]
