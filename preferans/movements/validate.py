"""The validator every movement passes before it is offered, and the properties a director weighs.

Rules checked (each problem names its rule):
  M1  rounds are numbered 1, 2, 3, … and every table of every room appears once per round;
  M2  every seat is filled every round (N, E, S and, at 4-player tables, W) by a participant 1…N;
  M3  every participant is seated or resting in each round, exactly once;
  M4  nobody plays a set twice;
  M5  every board is played at least twice in each line (results are compared within a line, rules §8);
  M6  rests are spread evenly: no participant rests more than one round more than another;
  M7  sets are numbered 1…sets, and in a full (not shortened) session every set is played.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .model import Line, Movement, MovementError, lines_for


@dataclass(frozen=True)
class Properties:
    """What a director weighs when choosing a movement."""

    meetings: tuple[tuple[int, int], ...]  # (times two participants sit at one table, number of pairs)
    results_per_board_line: int  # the fewest results any played board gets in any line
    results_per_board_line_max: int
    rests: tuple[int, ...]  # rests[p-1] = rounds participant p sits out
    sets_played: tuple[int, ...]  # sets_played[p-1] = sets participant p plays
    copies: int  # the most tables of one room playing the same set in one round
    unused_sets: tuple[int, ...]

    def meetings_dict(self) -> dict[str, int]:
        return {str(times): pairs for times, pairs in self.meetings}

    @property
    def pairs(self) -> int:
        return sum(n for _, n in self.meetings)

    def meeting_mean_var(self) -> tuple[float, float]:
        total = self.pairs
        if total == 0:
            return 0.0, 0.0
        mean = sum(t * n for t, n in self.meetings) / total
        var = sum(n * (t - mean) ** 2 for t, n in self.meetings) / total
        return mean, var

    def rest_counts(self) -> dict[int, int]:
        return dict(sorted(Counter(self.rests).items()))


@dataclass(frozen=True)
class ValidationReport:
    problems: tuple[str, ...]
    properties: Properties

    @property
    def ok(self) -> bool:
        return not self.problems


def validate(m: Movement) -> ValidationReport:
    """Check every rule and compute the properties; never raises for a broken movement."""
    problems: list[str] = []
    n = m.participants
    try:
        lines = lines_for(m.per_table)
    except MovementError as exc:
        return ValidationReport((f"M2: {exc}",), _empty())
    if n < 1:
        problems.append(f"M3: the number of participants must be positive, not {n}")
    if m.tables < 1 or m.rooms < 1 or m.sets < 1:
        problems.append("M1: a movement needs at least one room, one table and one set")
    played: dict[int, set[int]] = {p: set() for p in range(1, n + 1)}
    rests = Counter[int]()
    results: Counter[tuple[int, Line]] = Counter()
    meet: Counter[tuple[int, int]] = Counter()
    copies = 0
    for index, rnd in enumerate(m.rounds, start=1):
        where = f"round {rnd.number}"
        if rnd.number != index:
            problems.append(
                f"M1: rounds must be numbered 1, 2, 3, …; the {index}th round is numbered {rnd.number}"
            )
        keys = [(ta.room, ta.table) for ta in rnd.tables]
        want = [(room, t) for room in range(1, m.rooms + 1) for t in range(1, m.tables + 1)]
        if sorted(keys) != want:
            problems.append(
                f"M1: {where}: every table 1…{m.tables} of every room 1…{m.rooms} must play once "
                f"(got {len(keys)} table entries)"
            )
        seen: Counter[int] = Counter()
        per_set: Counter[tuple[int, int]] = Counter()
        for ta in rnd.tables:
            tw = f"{where}, table {ta.table}" + (f", room {ta.room}" if m.rooms > 1 else "")
            seat_lines = [ln for ln, _ in ta.seats]
            if sorted(seat_lines) != sorted(lines):
                problems.append(
                    f"M2: {tw}: seats must be exactly {', '.join(lines)}, got {', '.join(seat_lines) or 'none'}"
                )
            if not 1 <= ta.set <= m.sets:
                problems.append(f"M7: {tw}: set {ta.set} is not in the row of sets 1…{m.sets}")
            per_set[(ta.room, ta.set)] += 1
            members = [p for _, p in ta.seats]
            for line, p in ta.seats:
                if not 1 <= p <= n:
                    problems.append(f"M2: {tw}: seat {line} holds {p}, not a participant 1…{n}")
                    continue
                seen[p] += 1
                if ta.set in played[p]:
                    problems.append(f"M4: {tw}: participant {p} plays set {ta.set} a second time")
                played[p].add(ta.set)
                results[(ta.set, line)] += 1
            valid = sorted(p for p in members if 1 <= p <= n)
            for i, a in enumerate(valid):
                for b in valid[i + 1 :]:
                    meet[(a, b)] += 1
        for p in rnd.resting:
            if not 1 <= p <= n:
                problems.append(f"M3: {where}: resting list holds {p}, not a participant 1…{n}")
                continue
            seen[p] += 1
            rests[p] += 1
        for p in range(1, n + 1):
            if seen[p] == 0:
                problems.append(f"M3: {where}: participant {p} is neither seated nor resting")
            elif seen[p] > 1:
                problems.append(f"M3: {where}: participant {p} is placed {seen[p]} times")
        if per_set:
            copies = max(copies, max(per_set.values()))
    used = sorted({s for s, _ in results})
    unused = tuple(s for s in range(1, m.sets + 1) if s not in used)
    if unused and not m.full_rounds:
        problems.append(f"M7: set(s) {_ranges(unused)} are in the row but never played")
    counts = [results[(s, ln)] for s in used for ln in lines]
    low = min(counts) if counts else 0
    high = max(counts) if counts else 0
    for s in used:
        for ln in lines:
            if results[(s, ln)] < 2:
                problems.append(
                    f"M5: set {s} is played only {results[(s, ln)]} time(s) in line {ln}; "
                    "every board needs at least two results in each line to be compared"
                )
    rest_list = tuple(rests[p] for p in range(1, n + 1))
    if rest_list and max(rest_list) - min(rest_list) > 1:
        most = max(rest_list)
        least = min(rest_list)
        problems.append(
            f"M6: rests are uneven: participant {rest_list.index(most) + 1} rests {most} rounds, "
            f"participant {rest_list.index(least) + 1} rests {least}"
        )
    dist: Counter[int] = Counter(meet.values())
    total_pairs = n * (n - 1) // 2
    never = total_pairs - sum(dist.values())
    if never:
        dist[0] += never
    props = Properties(
        meetings=tuple(sorted(dist.items())),
        results_per_board_line=low,
        results_per_board_line_max=high,
        rests=rest_list,
        sets_played=tuple(len(played[p]) for p in range(1, n + 1)),
        copies=copies,
        unused_sets=unused,
    )
    return ValidationReport(tuple(problems), props)


def unmet_line_pairs(m: Movement) -> tuple[int, int]:
    """The pairs the basic movement is meant to bring together, and how many of them never meet.

    A pair counts when its two participants start (round 1) in different lines of the same room; it meets when
    both sit at one table in some round. Returns ``(never, pairs)``. A full basic movement on a prime number of
    tables gives ``(0, pairs)``; a shortened one leaves some pairs apart (``manage.py movement``, §5).
    """
    start: dict[int, tuple[int, Line]] = {}
    if m.rounds:
        for ta in m.rounds[0].tables:
            for line, p in ta.seats:
                start[p] = (ta.room, line)
    met: set[tuple[int, int]] = set()
    for _, ta in m.seatings():
        members = sorted(p for _, p in ta.seats)
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                met.add((a, b))
    people = sorted(start)
    pairs = never = 0
    for i, a in enumerate(people):
        for b in people[i + 1 :]:
            if start[a][0] == start[b][0] and start[a][1] != start[b][1]:
                pairs += 1
                never += (a, b) not in met
    return never, pairs


def nobody_moves(m: Movement) -> bool:
    """Every table seats the same players in every round (the basic movement on 2 tables a room does): a
    movement in which nobody meets a new opponent, only the sets move."""
    groups = [
        {(ta.room, ta.table): frozenset(p for _line, p in ta.seats) for ta in rnd.tables} for rnd in m.rounds
    ]
    return len(groups) > 1 and all(g == groups[0] for g in groups[1:])


def check(m: Movement) -> Properties:
    """Validate, raising ``MovementError`` with every problem if the movement breaks a rule."""
    report = validate(m)
    if report.problems:
        shown = list(report.problems[:20])
        more = len(report.problems) - len(shown)
        if more:
            shown.append(f"… and {more} more")
        # The rules broken (M1…M7) and the sets played fewer than twice in a line, for a message in any language.
        rules = sorted({problem.split(":", 1)[0] for problem in report.problems})
        short = tuple(
            sorted({int(x) for x in re.findall(r"^M5: set (\d+) ", "\n".join(report.problems), re.M)})
        )
        raise MovementError(
            "invalid movement:\n" + "\n".join(shown),
            code="movement_rules",
            params={"rules": ", ".join(rules), "sets": _ranges(short) if short else ""},
        )
    return report.properties


def _empty() -> Properties:
    return Properties((), 0, 0, (), (), 0, ())


def _ranges(values: tuple[int, ...]) -> str:
    parts: list[str] = []
    start = prev = values[0]
    for v in values[1:]:
        if v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        start = prev = v
    parts.append(str(start) if start == prev else f"{start}–{prev}")
    return ", ".join(parts)
