"""The organisers' table of game costs (004 §6), either form: the tournament's variant, its agreements and its
table size, and optionally the standard tables of every variant for 3 and 4 players (``preferans.game.cost_table``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from reportlab.lib import colors  # type: ignore[import-untyped]

from results.labels import labels
from results.pdf_common import Cell, Col, PdfDoc, Row

__all__ = ["cost_tables_pdf"]


def _cost(value: Fraction | None, *, signed: bool = False) -> str:
    from preferans.game.costs import format_cost

    return "—" if value is None else format_cost(value, signed=signed)


def _pair(split: Any) -> str:
    if split is None:
        return "—"
    return f"{_cost(split.own, signed=True)} / {_cost(split.other, signed=True)}"


def _draw_cost_table(doc: PdfDoc, y: float, table: Any, title: str, lang: str) -> float:
    lab = labels(lang)
    y = doc.heading(y, title, size=12, right=f"{lab['cost_pool_weight']} = {_cost(table.rules.pool_weight)}")
    cols = [
        Col(lab["cost_contract"], 9, "c"),
        Col(lab["cost_price"], 6, "c"),
        Col(lab["cost_made"].replace(": ", ":\n"), 16, "c"),
        Col(lab["cost_whist"], 9, "c"),
        Col(lab["cost_undertrick"].replace(": ", ":\n"), 18, "c"),
        Col(lab["cost_consolation"], 11, "c"),
        Col(lab["cost_missing_whist"].replace(": ", ":\n"), 16, "c"),
        Col(lab["cost_half"], 8, "c"),
    ]
    rows: list[Row] = []
    raspasy = None
    for line in table.lines:
        if line.contract == "raspasy":
            raspasy = line
            continue
        contract = lab["misere"] if line.contract == "misère" else line.contract
        undertrick = _pair(line.undertrick)
        if line.contract == "misère":
            undertrick = f"{undertrick} ({lab['per_trick']})"
        rows.append(
            Row(
                [
                    Cell(contract, bold=True),
                    _cost(line.price),
                    _pair(line.made),
                    _cost(line.whist_per_trick),
                    undertrick,
                    _cost(line.consolation),
                    _pair(line.missing_whist_trick),
                    _cost(line.half_whist),
                ]
            )
        )
    y = doc.table(y, cols, rows, size=9.5, row_h=17)
    if raspasy is not None:
        if raspasy.undertrick is not None:
            notes = [
                f"{lab['raspasy_mountain']}: {_pair(raspasy.undertrick)}.",
                f"{lab['raspasy_zero']}: {_pair(raspasy.made)}.",
            ]
        else:
            notes = [
                f"{lab['raspasy_whists']}: {_cost(raspasy.whist_per_trick)}.",
                f"{lab['raspasy_pool']}: {_pair(raspasy.made)}.",
            ]
        for note in notes:
            y = doc.paragraph(y, note, size=9, colour=colors.black)
    return y - 10


def cost_tables_pdf(
    *,
    tournament: str,
    variant: str,
    rules: Mapping[str, Any],
    players: int,
    lang: str,
    standard: bool = False,
    generated_at: Any = None,
) -> bytes:
    """The tournament's cost table (its variant, its agreements, its table size); ``standard`` adds the six
    standard tables (Sochi, Leningrad, Rostov × 3 and 4 players)."""
    from preferans.game import VARIANTS, cost_table, make_rules

    lab = labels(lang)
    doc = PdfDoc(
        title=lab["cost_table"],
        tournament=tournament,
        publication="",
        lang=lang,
        landscape=True,
        generated_at=generated_at,
    )
    y = doc.new_page()
    name = lab.get(f"variant_{variant}", variant)
    own = cost_table(make_rules(variant, dict(rules)), players)
    y = _draw_cost_table(doc, y, own, f"{lab['cost_table']}: {name}, {lab['players_n']}: {players}", lang)
    y = doc.paragraph(y, lab["cost_note"], size=8.5)
    if rules:
        text = ", ".join(f"{k} = {v}" for k, v in sorted(rules.items()))
        y = doc.paragraph(y, f"{lab['rules_overrides']}: {text}", size=8.5)
    if standard:
        y = doc.new_page(lab["standard_tables"])
        for v in VARIANTS:
            for n in (3, 4):
                table = cost_table(make_rules(v), n)
                title = f"{lab.get(f'variant_{v}', v)}, {lab['players_n']}: {n}"
                if y - 17 * 8 - 70 < doc.bottom:
                    y = doc.new_page()
                y = _draw_cost_table(doc, y, table, title, lang)
    return doc.finish()
