"""Fuzzing the bundle importer (hypothesis): whatever the input, no crash and no partial write.

Inputs are a valid bundle with random mutations (fields dropped, replaced by values of other types, numbers
shifted, lists emptied or duplicated) and arbitrary JSON. ``import_bundle`` either creates the whole tournament
or raises ``BundleInvalid`` and leaves the database exactly as it was.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boards.models import Board
from events.bundles import BundleInvalid, import_bundle
from scoring.models import Penalty, Result, Standing
from tests import golden
from tournaments.models import AuditEntry, Participant, Session, Tournament

FIXTURE = json.loads(golden.text("small_bundle.json"))
MODELS = (Tournament, Participant, Session, Board, Result, Penalty, Standing, AuditEntry)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=6) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:  # type: ignore[type-arg]
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:4]):
            out += _paths(v, (*prefix, i))
    return out


PATHS = [p for p in _paths(FIXTURE) if p]


@st.composite
def mutated_bundles(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    data = copy.deepcopy(FIXTURE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS))
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            last = path[-1]
            action = draw(st.sampled_from(["drop", "replace", "shift", "duplicate"]))
            if action == "drop":
                del parent[last]
            elif action == "replace":
                parent[last] = draw(json_values)
            elif action == "shift" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
                parent[last] += draw(st.integers(-3, 3))
            elif action == "duplicate" and isinstance(parent, list):
                parent.append(copy.deepcopy(parent[last]))
        except (KeyError, IndexError, TypeError):
            continue
    return data


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in MODELS)


@pytest.mark.django_db
def _without_variant() -> Any:
    data = copy.deepcopy(FIXTURE)
    del data["tournament"]["variant"]
    return data


def _extra_entry_type_is_a_list() -> Any:
    data = copy.deepcopy(FIXTURE)
    row = next(r for r in data["sessions"][0]["results"] if "contract" in r)
    row["extra_entries"] = [{"type": [], "seat": "N", "amount": 1}]
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=mutated_bundles())
@example(data=_without_variant())  # found by this test: a missing required key crashed the parser
@example(data=_extra_entry_type_is_a_list())  # found by this test: an unhashable entry type crashed the core
def test_import_never_crashes_and_never_writes_half(db: None, data: Any) -> None:
    before = _counts()
    try:
        tournament = import_bundle(data=data, now=timezone.now())
    except BundleInvalid as exc:
        assert exc.problems, "a refusal names at least one problem"
        assert all(str(p) for p in exc.problems)
        assert _counts() == before, "a refused bundle saved something"
    else:
        assert Tournament.objects.filter(pk=tournament.pk).exists()
        tournament.delete()
