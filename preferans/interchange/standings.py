"""The final standings and the master points of a federation file (docs/federation-file.md).

Every line names a participant of the file once; a master-point award goes to a participant linked to a person.
Numbers are exact fraction strings. Pure Python, no Django import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from preferans.bundle.shape import describe, positive_int
from preferans.interchange.fields import Found, check_fraction, check_keys, check_list, check_text

__all__ = ["check_awards", "check_standings"]

SCHEME_MAX = 64
PLACE_MAX = 16
_STANDING_KEYS = ("place", "participant", "matchpoints", "max", "percent")
_AWARD_KEYS = ("participant", "points", "place", "scheme")
_PLACE = re.compile(r"^(\d{1,6}(-\d{1,6})?)?$")


def check_standings(raw: object, numbers: set[int], found: Found) -> list[dict[str, Any]]:
    """``$.standings`` in canonical form; ``numbers`` are the file's participants."""
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for index, item in enumerate(check_list(raw, found, "$.standings", "standings lines")):
        path = f"$.standings[{index}]"
        if not isinstance(item, Mapping):
            found.add(path, f"must be an object, not {describe(item)}")
            continue
        check_keys(found, path, item, _STANDING_KEYS, _STANDING_KEYS, "standings line")
        number = _participant(found, f"{path}.participant", item.get("participant"), numbers, seen)
        line = {
            "place": _place(found, f"{path}.place", item.get("place", "")),
            "participant": number,
            "matchpoints": check_fraction(found, f"{path}.matchpoints", item.get("matchpoints", "0")),
            "max": check_fraction(found, f"{path}.max", item.get("max", "0"), low=Fraction(0)),
            "percent": check_fraction(found, f"{path}.percent", item.get("percent", "0")),
        }
        out.append(line)
    return out


def check_awards(
    raw: object, numbers: set[int], links: Mapping[int, int], found: Found
) -> list[dict[str, Any]]:
    """``$.master_points`` in canonical form; ``links`` is participant number → person ref."""
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for index, item in enumerate(check_list(raw, found, "$.master_points", "awards")):
        path = f"$.master_points[{index}]"
        if not isinstance(item, Mapping):
            found.add(path, f"must be an object, not {describe(item)}")
            continue
        check_keys(found, path, item, _AWARD_KEYS, ("participant", "points", "scheme"), "master-point award")
        number = _participant(found, f"{path}.participant", item.get("participant"), numbers, seen)
        if number is not None and number not in links:
            found.add(
                f"{path}.participant", f"participant {number} is linked to no person — awards go to persons"
            )
        out.append(
            {
                "participant": number,
                "points": check_fraction(found, f"{path}.points", item.get("points", "0"), low=Fraction(0)),
                "place": _place(found, f"{path}.place", item.get("place", "")),
                "scheme": check_text(
                    found, f"{path}.scheme", item.get("scheme", ""), bound=SCHEME_MAX, required=True
                ),
            }
        )
    return out


def _participant(found: Found, path: str, value: object, numbers: set[int], seen: set[int]) -> int | None:
    number = positive_int(value)
    if number is None or number not in numbers:
        found.add(path, f"{value!r} is not the number of a participant in $.participants")
        return None
    if number in seen:
        found.add(path, f"participant {number} is listed twice")
        return None
    seen.add(number)
    return number


def _place(found: Found, path: str, value: object) -> str:
    if not isinstance(value, str) or len(value) > PLACE_MAX or not _PLACE.match(value):
        found.add(path, f'{value!r} is not a place such as "1" or "3-4" (or "" for no place)')
        return ""
    return value
