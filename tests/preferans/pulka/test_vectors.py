"""The pulka engine against the hand-checked cases of ``pulka_vectors.json`` (formats §7, pulka-spec §12)."""

from __future__ import annotations

from typing import Any

import pytest

from preferans.pulka import PulkaInvalid
from preferans.pulka.document import result_document, score_document
from tests import golden

CASES: list[dict[str, Any]] = golden.load("pulka_vectors.json")["cases"]
SCORED = [c for c in CASES if "exit" not in c["expected"]]
REFUSED = [c for c in CASES if "exit" in c["expected"]]


@pytest.mark.parametrize("case", SCORED, ids=[c["id"] for c in SCORED])
def test_case_scores_field_for_field(case: dict[str, Any]) -> None:
    document, score = score_document(case["input"])
    out = result_document(document, score)
    assert out == case["expected"]
    assert list(out) == list(case["expected"])  # the documented key order


@pytest.mark.parametrize("case", REFUSED, ids=[c["id"] for c in REFUSED])
def test_refused_case_names_the_deal_or_field(case: dict[str, Any]) -> None:
    with pytest.raises(PulkaInvalid) as caught:
        score_document(case["input"])
    lines = [str(p) for p in caught.value.problems]
    assert any(case["expected"]["stderr_mentions"] in line for line in lines), lines


def test_the_codes_own_numbers() -> None:
    """4.1.1 (15 vists to each partner), 4.2.3.3 (+80/−40/−40 and 320/3), 4.2.12 (N −37, E +24, S +13)."""
    by_id = {c["id"]: c for c in CASES}
    _, v01 = score_document(by_id["V01"]["input"])
    assert v01.deals[-1].helps[-1].helped is None and v01.deals[-1].helps[-1].amount == 6
    assert [str(v01.vists[s]) for s in "NESW"] == ["45", "-15", "-15", "-15"]
    _, v02 = score_document(by_id["V02"]["input"])
    assert [str(v02.closing[s]) for s in "NES"] == ["4", "-8", "4"]
    _, v03 = score_document(by_id["V03"]["input"])
    assert v03.rounding is not None and v03.rounding.seat == "E" and v03.rounding.vists_each == 3
    assert [str(v03.integer_vists[s]) for s in "NES"] == ["-37", "24", "13"]
