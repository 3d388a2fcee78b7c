"""The federation file (issue 20, «Federation interchange»; docs/federation-file.md): the writer's canonical text
round-trips byte for byte, every refusal names its JSON path, and written files validate against the published
schema (docs/federation-file.schema.json)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preferans.interchange.document import (
    FORMAT_NAME,
    bundle_part,
    check_document,
    read_document,
    write_document,
)
from preferans.interchange.fields import DocumentInvalid
from tests import golden

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[3] / "docs" / "federation-file.schema.json").read_text()
)


def sample() -> dict[str, Any]:
    """The club cup of tests/data as a federation file: two persons, standings and master points."""
    bundle = golden.load("club_cup.json")
    return {
        "format": FORMAT_NAME,
        "version": 1,
        "event": {
            **bundle["tournament"],
            "starts_on": "2026-05-01",
            "slug": "club-cup",
            "venue": "Клуб «Пуля»",
        },
        "persons": [
            {"ref": 1, "name": "Иванов Иван", "club": "Пуля", "city": "Сочи", "federation_id": "RU-0001"},
            {"ref": 2, "name": "Петров Пётр", "federation_id": ""},
        ],
        "participants": [{**p, "person": {1: 1, 2: 2}.get(p["number"])} for p in bundle["participants"]],
        "sessions": bundle["sessions"],
        "standings": [
            {"place": "1", "participant": 7, "matchpoints": "26/2", "max": 16, "percent": "325/4"},
            {"place": "2-3", "participant": 1, "matchpoints": 8, "max": "16", "percent": "50"},
        ],
        "master_points": [{"participant": 1, "points": "7/2", "place": "2-3", "scheme": "club"}],
    }


def problems(data: object) -> list[str]:
    with pytest.raises(DocumentInvalid) as caught:
        check_document(data)
    return [str(p) for p in caught.value.problems]


def test_export_import_export_is_byte_identical() -> None:
    text = write_document(sample())
    again = write_document(read_document(text))
    assert again == text
    assert read_document(again.encode("utf-8")) == read_document(text)


def test_numbers_are_written_as_exact_reduced_fraction_strings() -> None:
    data = read_document(write_document(sample()))
    assert data["standings"][0] == {
        "place": "1",
        "participant": 7,
        "matchpoints": "13",
        "max": "16",
        "percent": "325/4",
    }
    assert data["master_points"][0]["points"] == "7/2"
    penalty = data["sessions"][0]["penalties"][0]
    assert penalty["matchpoints"] == "-1"
    assert data["event"]["carry_over"] == "0" and data["event"]["session_totals"] == "matchpoints"


def test_keys_are_in_canonical_order_and_the_text_ends_with_a_newline() -> None:
    text = write_document(sample())
    assert text.endswith("}\n")
    assert list(json.loads(text)) == sorted(json.loads(text))
    # the same data given in another key order writes the same bytes
    shuffled = {key: sample()[key] for key in reversed(list(sample()))}
    assert write_document(shuffled) == text


def test_the_rows_are_the_bundles_room_and_adjustments_included() -> None:
    data = sample()
    row = data["sessions"][0]["results"][0]
    row["room"] = 1
    data["sessions"][0]["results"][5] = {
        **{k: data["sessions"][0]["results"][5][k] for k in ("board", "round", "table", "seats")},
        "adjusted": {"N": "A+", "E": "A-", "S": "A", "W": "A"},
    }
    out = read_document(write_document(data))
    assert out["sessions"][0]["results"][5]["adjusted"] == {"N": "A+", "E": "A-", "S": "A", "W": "A"}
    assert bundle_part(out)["participants"][0] == {"number": 1, "name": "Иванов Иван"}
    assert bundle_part(out)["format"] == "duplicate-preferans-bundle"


def mutate(path: str, value: object) -> dict[str, Any]:
    """The sample with ``path`` (dots and [i]) set to ``value``; ``value`` DELETE removes the key."""
    data = sample()
    parts = path.replace("[", ".").replace("]", "").split(".")
    node: Any = data
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    key: Any = int(last) if isinstance(node, list) else last
    if value is DELETE:
        del node[key]
    else:
        node[key] = value
    return data


DELETE = object()

REFUSALS = [
    ("format", "bundle", "$.format: must be 'duplicate-preferans-federation-file'"),
    ("version", 2, "$.version: 2 is not supported"),
    ("version", True, "$.version: True is not supported"),
    ("extra", 1, "$.extra: unknown field 'extra'"),
    ("event", DELETE, "$: missing field 'event'"),
    ("event", [], "$.event: must be an object"),
    ("event.city", "Сочи", "$.event.city: unknown field 'city'"),
    ("event.name", DELETE, "$.event: missing field 'name'"),
    ("event.slug", "кубок", "$.event.slug: 'кубок' is not a short name"),
    ("event.starts_on", "01.05.2026", "$.event.starts_on: '01.05.2026' is not a date written YYYY-MM-DD"),
    ("event.starts_on", "2026-02-30", "$.event.starts_on: '2026-02-30' is not a date of the calendar"),
    ("event.form", "swiss", "$.event.form: 'swiss' is not a form this file carries"),
    ("event.session_totals", "sum", "$.event.session_totals: must be 'matchpoints' or 'percent'"),
    ("event.carry_over", "3/2", "$.event.carry_over: 3/2 is above 1"),
    ("event.carry_over", 0.5, "$.event.carry_over: 0.5 is not an integer or a fraction"),
    ("event.qualification", 5, "$.event.qualification: 5 is not the short name of an event"),
    ("event.venue", "a\nb", "$.event.venue: holds a control character"),
    ("event.variant", "moscow", "$.event: variant 'moscow' is unknown"),
    ("event.players_per_table", 5, "$.event: players_per_table must be 3 or 4"),
    ("event.scoring.artificial", {"A+": 50}, "$.event.scoring: "),
    ("persons", {}, "$.persons: must be a list"),
    ("persons[1].ref", 1, "$.persons[1].ref: 1 is used by two persons"),
    ("persons[1].ref", 0, "$.persons[1].ref: must be an integer from 1 to 9999"),
    ("persons[1].name", " ", "$.persons[1].name: must not be empty"),
    ("persons[1].name", "x" * 201, "$.persons[1].name: longer than 200 characters"),
    (
        "persons[1].federation_id",
        "RU-0001",
        "$.persons[1].federation_id: 'RU-0001' is also the number of $.persons[0]",
    ),
    ("persons[1].federation_id", 5, "$.persons[1].federation_id: must be a string"),
    ("persons[1].federation_id", " 7", "$.persons[1].federation_id: has spaces at an end"),
    ("persons[1].born", 1970, "$.persons[1].born: unknown field 'born'"),
    ("participants[1].person", 9, "$.participants[1].person: 9 is not the ref of a person"),
    ("participants[1].person", 1, "$.participants[1].person: person 1 is also participant 1"),
    ("participants[1].number", 0, "$.participants[1]: number must be a positive integer"),
    ("participants[2].fee", 10, "$.participants[2]: unknown field 'fee'"),
    ("sessions[0].results[0].contract", "11S", "$.sessions[0]: board 1, table 1, round 1: "),
    (
        "sessions[0].results[0].seats.N",
        99,
        "$.sessions[0]: board 1, table 1, round 1: seat N: participant 99",
    ),
    ("sessions[0].penalties[0].matchpoints", "2", "$.sessions[0]: penalty 1: "),
    ("standings", "first", "$.standings: must be a list"),
    ("standings[0].participant", 99, "$.standings[0].participant: 99 is not the number of a participant"),
    ("standings[1].participant", 7, "$.standings[1].participant: participant 7 is listed twice"),
    ("standings[0].place", "first", "$.standings[0].place: 'first' is not a place"),
    ("standings[0].matchpoints", 12.5, "$.standings[0].matchpoints: 12.5 is not an integer or a fraction"),
    ("standings[0].max", "-1", "$.standings[0].max: -1 is below 0"),
    ("standings[0].percent", DELETE, "$.standings[0]: missing field 'percent'"),
    (
        "master_points[0].participant",
        3,
        "$.master_points[0].participant: participant 3 is linked to no person",
    ),
    ("master_points[0].points", "-1", "$.master_points[0].points: -1 is below 0"),
    ("master_points[0].scheme", "", "$.master_points[0].scheme: must not be empty"),
    ("master_points[0].scheme", DELETE, "$.master_points[0]: missing field 'scheme'"),
]


@pytest.mark.parametrize(
    ("path", "value", "expected"), REFUSALS, ids=[r[0] + "=" + repr(r[1])[:20] for r in REFUSALS]
)
def test_every_problem_is_refused_with_its_json_path(path: str, value: object, expected: str) -> None:
    found = problems(mutate(path, value))
    assert any(line.startswith(expected) for line in found), found


def test_a_person_who_plays_no_part_is_refused() -> None:
    data = sample()
    data["participants"][1]["person"] = None
    assert problems(data) == ["$.persons[1]: person 2 is no participant of the event"]


def test_every_problem_is_reported_at_once() -> None:
    data = mutate("event.slug", "!")
    data["standings"][0]["place"] = "x"
    data["persons"][0]["name"] = ""
    assert [line.split(":")[0] for line in problems(data)] == [
        "$.event.slug",
        "$.persons[0].name",
        "$.standings[0].place",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[", "$: bad JSON: Expecting value"),
        ('{"format": 1, "format": 2}', "$: bad JSON: the key 'format' appears twice in one object"),
        ('{"version": NaN}', "$: bad JSON: NaN is not a number in JSON"),
        ("[" * 30 + "]" * 30, "$: bad JSON: JSON nested more than 20 levels deep"),
        ('{"version": ' + "9" * 40 + "}", "$: bad JSON: a number longer than 30 digits"),
        ("[1]", "$: a federation file is a JSON object, not a list"),
        (b"\xff{}", "$: not UTF-8 text"),
    ],
)
def test_bad_json_is_refused_before_it_is_decoded(text: str | bytes, expected: str) -> None:
    with pytest.raises(DocumentInvalid) as caught:
        read_document(text)
    assert str(caught.value.problems[0]).startswith(expected)


def test_a_file_larger_than_the_bound_is_refused() -> None:
    text = write_document(sample())
    with pytest.raises(DocumentInvalid, match="more than 1000 characters"):
        read_document(text, max_chars=1000)


def test_written_files_validate_against_the_published_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    text = write_document(sample())
    assert list(validator.iter_errors(json.loads(text))) == []
    bare = {k: sample()[k] for k in ("format", "version", "event", "sessions")}
    bare["participants"] = [{k: v for k, v in p.items() if k != "person"} for p in sample()["participants"]]
    minimal = read_document(write_document(bare))
    assert minimal["persons"] == minimal["standings"] == minimal["master_points"] == []
    assert list(validator.iter_errors(minimal)) == []


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("extra", 1),
        ("event.form", "swiss"),
        ("persons[0].ref", 0),
        ("standings[0].matchpoints", 1.5),
        ("master_points[0].scheme", ""),
        ("sessions[0].results[0].contract", "11S"),
    ],
)
def test_the_schema_refuses_what_the_reader_refuses(path: str, value: object) -> None:
    data = json.loads(write_document(sample()))
    bad = copy.deepcopy(data)
    parts = path.replace("[", ".").replace("]", "").split(".")
    node: Any = bad
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[parts[-1]] = value
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(bad))
    with pytest.raises(DocumentInvalid):
        check_document(bad)


texts = st.text(
    alphabet=st.characters(categories=("L", "N", "Zs", "P", "S"), exclude_characters="\x85\u2028\u2029"),
    max_size=30,
)
fractions = st.fractions(min_value=-1000, max_value=1000, max_denominator=97)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=st.lists(texts.filter(lambda s: s.strip() != ""), min_size=1, max_size=12, unique=True),
    cities=st.lists(texts, min_size=12, max_size=12),
    numbers=st.lists(fractions, min_size=12, max_size=12),
    as_text=st.booleans(),
)
def test_any_persons_and_numbers_round_trip_byte_for_byte(
    names: list[str], cities: list[str], numbers: list[Fraction], as_text: bool
) -> None:
    """Property: whatever the names, cities and exact numbers, write → read → write gives the same bytes and
    reading gives the numbers back exactly."""
    data = sample()
    data["persons"] = [
        {"ref": i + 1, "name": name, "city": cities[i], "federation_id": f"F{i}" if i % 2 else ""}
        for i, name in enumerate(names)
    ]
    for participant in data["participants"]:
        participant["person"] = participant["number"] if participant["number"] <= len(names) else None
    data["standings"] = [
        {
            "place": str(n),
            "participant": n,
            "matchpoints": str(numbers[n - 1]) if as_text else 0,
            "max": "16",
            "percent": str(numbers[n - 1]),
        }
        for n in range(1, 13)
    ]
    data["master_points"] = [
        {"participant": 1, "points": str(abs(numbers[0])), "scheme": "club"},
    ]
    text = write_document(data)
    assert write_document(read_document(text)) == text
    back = read_document(text)
    assert [Fraction(line["percent"]) for line in back["standings"]] == numbers
    assert [p["name"] for p in back["persons"]] == names


def test_a_file_without_its_parts_says_so_once_for_each() -> None:
    assert problems({"format": FORMAT_NAME}) == [
        "$: missing field 'version' — a federation file needs it",
        "$: missing field 'event' — a federation file needs it",
        "$: missing field 'participants' — a federation file needs it",
        "$: missing field 'sessions' — a federation file needs it",
    ]
