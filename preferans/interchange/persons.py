"""The persons of a federation file and which participant each of them is (docs/federation-file.md).

``$.persons`` lists the persons with their federation numbers (a ref unique in the file, one person per
federation number); a participant names his person by ref, every person plays once and every person listed
plays. Pure Python, no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from preferans.bundle.bounds import PARTICIPANTS_MAX
from preferans.bundle.document import FEDERATION_ID_MAX
from preferans.bundle.shape import describe, positive_int
from preferans.interchange.fields import Found, check_keys, check_list, check_text

__all__ = ["check_persons", "link_persons", "participant_numbers"]

_PERSON_KEYS = ("ref", "name", "club", "city", "federation_id")


def check_persons(raw: object, found: Found) -> list[dict[str, Any]]:
    """``$.persons`` in canonical form: the persons whose ref could be read."""
    out: list[dict[str, Any]] = []
    refs: set[int] = set()
    numbers: dict[str, int] = {}
    for index, item in enumerate(check_list(raw, found, "$.persons", "persons")):
        path = f"$.persons[{index}]"
        if not isinstance(item, Mapping):
            found.add(path, f"must be an object, not {describe(item)}")
            continue
        check_keys(found, path, item, _PERSON_KEYS, ("ref", "name"), "person")
        ref = positive_int(item.get("ref"))
        if "ref" in item and (ref is None or ref > PARTICIPANTS_MAX):
            found.add(f"{path}.ref", f"must be an integer from 1 to {PARTICIPANTS_MAX}, not {item['ref']!r}")
            ref = None
        elif ref is not None and ref in refs:
            found.add(f"{path}.ref", f"{ref} is used by two persons — refs are unique in a file")
        name = check_text(found, f"{path}.name", item.get("name", ""), required=True)
        club = check_text(found, f"{path}.club", item.get("club", ""))
        city = check_text(found, f"{path}.city", item.get("city", ""))
        fid = check_text(
            found, f"{path}.federation_id", item.get("federation_id", ""), bound=FEDERATION_ID_MAX
        )
        if fid and fid != fid.strip():
            found.add(f"{path}.federation_id", "has spaces at an end")
        elif fid and fid in numbers:
            found.add(
                f"{path}.federation_id",
                f"{fid!r} is also the number of $.persons[{numbers[fid]}] — one person per federation number",
            )
        elif fid:
            numbers[fid] = index
        if ref is not None:
            refs.add(ref)
            out.append({"ref": ref, "name": name, "club": club, "city": city, "federation_id": fid})
    return out


def participant_numbers(raw: object) -> set[int]:
    """The numbers ``$.participants`` gives, as far as they can be read."""
    if not isinstance(raw, list):
        return set()
    return {
        n for item in raw if isinstance(item, Mapping) and (n := positive_int(item.get("number"))) is not None
    }


def link_persons(raw: object, persons: list[dict[str, Any]], found: Found) -> dict[int, int]:
    """participant number → person ref; every person plays once, and every person of the file plays."""
    links: dict[int, int] = {}
    if not isinstance(raw, list):
        return links
    refs = {p["ref"] for p in persons}
    used: dict[int, int] = {}
    for index, item in enumerate(raw):
        if not isinstance(item, Mapping) or item.get("person") is None:
            continue
        path = f"$.participants[{index}].person"
        ref = item["person"]
        number = positive_int(item.get("number"))
        if positive_int(ref) is None or ref not in refs:
            found.add(path, f"{ref!r} is not the ref of a person in $.persons")
        elif ref in used:
            found.add(path, f"person {ref} is also participant {used[ref]} — a person plays once in an event")
        elif number is not None:
            used[ref] = number
            links[number] = ref
    for index, person in enumerate(persons):
        if person["ref"] not in used and not found.items:
            found.add(f"$.persons[{index}]", f"person {person['ref']} is no participant of the event")
    return links
