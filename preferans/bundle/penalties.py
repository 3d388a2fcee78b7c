"""The procedural penalties of a session in a bundle (formats.md §2, rules §12): read and written back.

Pure Python, no Django import. See :mod:`preferans.bundle.document`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from preferans.bundle.bounds import REASON_MAX
from preferans.bundle.shape import Loc, Problems, check_keys, check_text, describe, positive_int
from preferans.duplicate.penalties import check_penalty
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

__all__ = ["BundlePenalty", "parse_penalties", "penalty_to_dict"]

_PENALTY_KEYS = frozenset({"participant", "matchpoints", "reason"})


@dataclass(frozen=True)
class BundlePenalty:
    """A procedural penalty (§12) in matchpoints, added to the participant's session total."""

    participant: int
    matchpoints: Fraction
    reason: str | None = None


def parse_penalties(
    raw: object, problems: Problems, loc: Loc, known: frozenset[int]
) -> tuple[BundlePenalty, ...]:
    """``penalties[]``: each a participant of the list and a penalty in matchpoints the rules allow."""
    if not isinstance(raw, list):
        problems.add(loc, f"penalties must be a list, not {describe(raw)}")
        return ()
    out: list[BundlePenalty] = []
    for index, item in enumerate(raw, start=1):
        ploc = loc.at(where=f"penalty {index}")
        if not isinstance(item, dict):
            problems.add(ploc, f"must be an object, not {describe(item)}")
            continue
        before = len(problems)
        check_keys(
            problems,
            ploc,
            item,
            allowed=_PENALTY_KEYS,
            required=("participant", "matchpoints"),
            what="penalty",
        )
        number = positive_int(item.get("participant"))
        if "participant" in item:
            if number is None:
                problems.add(ploc, f"participant must be a participant number, not {item['participant']!r}")
            elif number not in known:
                problems.add(ploc, f"participant {number} is not in the participants list")
        value: Fraction | None = None
        if "matchpoints" in item:
            try:
                value = parse_fraction(item["matchpoints"])
            except NumberFormatError as exc:
                problems.add(ploc, f"matchpoints: {exc}")
            if value is not None and (refusal := check_penalty(value)) is not None:
                problems.add(ploc, f"matchpoints: {refusal}")
        reason = item.get("reason")
        if reason is not None and not isinstance(reason, str):
            problems.add(ploc, f"reason must be a string, not {describe(reason)}")
        elif reason is not None:
            check_text(problems, ploc, "reason", reason, REASON_MAX)
        if len(problems) == before and number is not None and value is not None:
            out.append(BundlePenalty(number, value, reason))
    return tuple(out)


def penalty_to_dict(p: BundlePenalty) -> dict[str, Any]:
    out: dict[str, Any] = {"participant": p.participant, "matchpoints": format_fraction(p.matchpoints)}
    if p.reason is not None:
        out["reason"] = p.reason
    return out
