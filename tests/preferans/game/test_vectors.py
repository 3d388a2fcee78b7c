"""Golden data: every worked example of tests/data/preferans_vectors.json (spec companion file).

Each vector is replayed two ways: from its ``deal`` facts straight into :func:`compute_ledger` (ledger and
vists checked), and from its ``protocol_row`` through :func:`score_row` (vists checked, row validated).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from preferans.game import (
    Call,
    Deal,
    DealKind,
    ExtraEntry,
    Ledger,
    Play,
    RowInvalid,
    TableSeats,
    compute_ledger,
    ledger_to_vists,
    make_rules,
    parse_contract,
    parse_row,
    score_row,
    validate_row,
)
from preferans.numbers import parse_fraction
from tests import golden

DATA: dict[str, Any] = golden.load("preferans_vectors.json")
VECTORS: list[dict[str, Any]] = DATA["vectors"]
INVALID_ROWS: list[dict[str, Any]] = DATA["invalid_rows"]
WITH_ROW = [v for v in VECTORS if v["protocol_row"] is not None]


def _rules(vector: Mapping[str, Any]):  # type: ignore[no-untyped-def]
    overrides = dict(vector["options"])
    deal = vector["deal"]
    if "unit_override" in deal:
        # S32 prints one unit u = 8 for price, whist, consolation and remiz on a six (spec C5)
        overrides[f"price_{parse_contract(deal['contract']).level}"] = deal["unit_override"]
    return make_rules(vector["variant"], overrides)


def _extra(entries: list[Mapping[str, Any]]) -> tuple[ExtraEntry, ...]:
    out = []
    for e in entries:
        if e["type"] == "whist":
            out.append(ExtraEntry("whist", parse_fraction(e["amount"]), writer=e["from"], debtor=e["to"]))
        else:
            out.append(ExtraEntry(e["type"], parse_fraction(e["amount"]), seat=e["seat"]))
    return tuple(out)


def _deal(vector: Mapping[str, Any], table: TableSeats) -> Deal:
    deal = vector["deal"]
    extra = _extra(vector["extra_entries"])
    kind = DealKind(deal["type"])
    if kind is DealKind.NONE:
        return Deal(kind, extra_entries=extra)
    if kind is DealKind.RASPASY:
        return Deal(kind, tricks=deal["tricks"], raspasy_step=deal.get("step", 1), extra_entries=extra)
    if kind is DealKind.MISERE:
        return Deal(
            kind,
            tricks=deal["tricks"],
            contract=parse_contract("MIS"),
            declarer=deal["declarer"],
            misere_shared=deal.get("shared_with_dealer", False),
            extra_entries=extra,
        )
    # the vector's defenders are exactly d1, d2 clockwise after the declarer (D-W1)
    assert tuple(deal["defenders"]) == table.after(deal["declarer"])
    if "second_whister" in deal:
        assert deal["second_whister"] == deal["defenders"][1]
    return Deal(
        kind,
        tricks=deal["tricks"],
        contract=parse_contract(deal["contract"]),
        declarer=deal["declarer"],
        calls={seat: Call(call) for seat, call in deal["calls"].items()},
        play=Play(deal["play"]),
        dealer_whist=deal.get("dealer_whist", False),
        penalty_tricks=deal.get("penalty_tricks", 0),
        extra_entries=extra,
    )


def _table(vector: Mapping[str, Any]) -> TableSeats:
    seats = tuple(s for s in ("N", "E", "S", "W") if s in vector["seats"])  # clockwise
    return TableSeats(seats, vector["dealer"] if vector["players"] == 4 else None)


def _expected_ledger(
    vector: Mapping[str, Any],
) -> tuple[dict[str, Fraction], dict[str, Fraction], dict[Any, Fraction]]:
    led = vector["expected"]["ledger"]
    whists: dict[tuple[str, str], Fraction] = {}
    for writer, debtor, amount in led["whists"]:
        whists[(writer, debtor)] = whists.get((writer, debtor), Fraction(0)) + parse_fraction(amount)
    pool = {k: parse_fraction(v) for k, v in led["pool"].items()}
    mountain = {k: parse_fraction(v) for k, v in led["mountain"].items()}
    return pool, mountain, whists


def _expected_vists(vector: Mapping[str, Any]) -> dict[str, Fraction]:
    return {seat: parse_fraction(value) for seat, value in vector["expected"]["vists"].items()}


def _dealer_argument(vector: Mapping[str, Any]) -> str | None:
    """score_row's ``dealer``: the sitting-out dealer at 4 players, the first hand at 3 (D-T1)."""
    return vector["dealer"] if vector["players"] == 4 else vector["first_hand"]


def _row(vector: Mapping[str, Any]) -> dict[str, Any]:
    row = dict(vector["protocol_row"])
    if vector["extra_entries"]:
        # S17 and R02: the printed row's vists include the compensation of the vector's extra_entries,
        # which the row itself does not carry; the row form of spec §9 does.
        row["extra_entries"] = vector["extra_entries"]
    return row


def test_the_file_has_the_expected_size() -> None:
    assert len(VECTORS) == 47
    assert len(INVALID_ROWS) == 11


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector_ledger_and_vists(vector: dict[str, Any]) -> None:
    table = _table(vector)
    rules = _rules(vector)
    ledger = compute_ledger(_deal(vector, table), rules=rules, table=table)
    pool, mountain, whists = _expected_ledger(vector)
    assert dict(ledger.pool) == pool
    assert dict(ledger.mountain) == mountain
    assert dict(ledger.whists) == whists
    vists = ledger_to_vists(ledger, pool_weight=rules.pool_weight)
    assert vists == _expected_vists(vector)
    assert sum(vists.values()) == 0


@pytest.mark.parametrize("vector", WITH_ROW, ids=[v["id"] for v in WITH_ROW])
def test_vector_protocol_row(vector: dict[str, Any]) -> None:
    rules = _rules(vector)
    row = _row(vector)
    kwargs = {"rules": rules, "players": vector["players"], "dealer": _dealer_argument(vector)}
    assert validate_row(row, **kwargs) == ()
    vists = score_row(row, **kwargs)
    assert vists == _expected_vists(vector)
    assert list(vists) == list(("N", "E", "S", "W")[: vector["players"]])
    # the row path and the deal path give the same ledger
    deal, table = parse_row(row, **kwargs)
    from_row: Ledger = compute_ledger(deal, rules=rules, table=table)
    from_deal = compute_ledger(_deal(vector, table), rules=rules, table=table)
    assert from_row == from_deal


@pytest.mark.parametrize("vector", WITH_ROW, ids=[v["id"] for v in WITH_ROW])
def test_vector_protocol_row_without_vists_scores_the_same(vector: dict[str, Any]) -> None:
    row = _row(vector)
    del row["vists"]
    vists = score_row(row, rules=_rules(vector), players=vector["players"], dealer=_dealer_argument(vector))
    assert vists == _expected_vists(vector)


@pytest.mark.parametrize("case", INVALID_ROWS, ids=[c["id"] for c in INVALID_ROWS])
def test_invalid_row_is_refused_with_the_expected_text(case: dict[str, Any]) -> None:
    rules = make_rules(case["variant"])
    with pytest.raises(RowInvalid) as caught:
        score_row(case["row"], rules=rules, players=case["players"], dealer=case["dealer"])
    assert case["expect"] in str(caught.value)
    errors = validate_row(case["row"], rules=rules, players=case["players"], dealer=case["dealer"])
    assert errors == caught.value.errors
    assert any(case["expect"] in error.message for error in errors)
    for error in errors:
        assert error.code and error.field and error.message
