"""The Excel workbook (and CSV) of a pulka event: the standings, one sheet per round with its tables, and every
table's pulka deal by deal.

The sheets are :class:`results.sheets.Sheet` objects written by the duplicate files' renderers
(:mod:`results.render_tabular`): numbers are numbers with a 2-decimal format (the exact value to a double), and
where a figure decides a place — a round's vists and rating, the total — the exact fraction is kept beside it as
text (``"37/11"``), so a federation can check a tie to the last vist.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from preferans.numbers import format_fraction
from preferans.pulka import PulkaScore
from pulkas.services.sheet import load_sheet
from results.pulka_exports.labels import form_name, pulka_labels, sheet_labels
from results.pulka_exports.model import EventView, RoundView, SeatView, TableView
from results.sheets import Column, Sheet
from ui.cells import safe_text
from ui.pulka_sheet_pdf import deal_spans

__all__ = ["deals_sheet", "exact", "round_sheet", "standings_sheet", "table_state", "text", "workbook_sheets"]


def text(value: str) -> str:
    """Typed text (a name, a club) stays text in Excel and CSV (the one rule: ``ui.cells.safe_text``)."""
    return safe_text(value)


def exact(value: Fraction | None) -> str | None:
    """The exact value as text where it is not a whole number (``"37/11"``); empty for whole numbers."""
    if value is None or value.denominator == 1:
        return None
    return format_fraction(value)


def heading(view: EventView, what: str, lang: str) -> str:
    lab = pulka_labels(lang)
    t = view.tournament
    date = f" · {t.starts_on:%d.%m.%Y}" if t.starts_on else ""
    return text(f"{t.name}{date} · {form_name(t.form, lang)} — {what} ({lab[f'status_{t.publication}']})")


def table_state(table: TableView, lang: str) -> str:
    lab = pulka_labels(lang)
    if table.reason in ("pool", "deal_limit", "stopped"):
        return lab[table.reason]
    return lab["in_progress"] if table.started else lab["not_started"]


def round_title(r: RoundView, lang: str) -> str:
    lab = pulka_labels(lang)
    return lab["final"] if r.final else lab["round_n"].format(n=r.number)


def standings_sheet(view: EventView, lang: str) -> Sheet:
    lab = pulka_labels(lang)
    columns = [
        Column(lab["place"], "place", 7),
        Column(lab["number"], "int", 6),
        Column(lab["name"], "text", 26),
        Column(lab["club"], "text", 16),
    ]
    if view.olympic:
        columns.append(Column(lab["reached"], "text", 16))
        for r in view.rounds:
            title = round_title(r, lang)
            columns += [
                Column(f"{title}: {lab['table']}", "int", 7),
                Column(f"{title}: {lab['place_at_table']}", "text", 9),
                Column(f"{title}: {lab['vists']}", "num", 10),
            ]
    else:
        for r in view.rounds:
            title = round_title(r, lang)
            columns += [
                Column(f"{title}: {lab['table']}", "text", 7),
                Column(f"{title}: {lab['rating']}", "num", 10),
            ]
        columns += [
            Column(lab["total"], "num", 10),
            Column(lab["total_exact"], "text", 12),
            Column(lab["vists"], "num", 10),
            Column(lab["cut"], "text", 14),
        ]

    def rows() -> Iterator[list[Any]]:
        for line in view.standings.lines:
            p = line.participant
            row: list[Any] = [line.place, p.number, text(p.name), text(p.club)]
            if view.olympic:
                reached = (
                    lab["out_in"].format(n=line.out_in_round) if line.out_in_round else lab["reached_final"]
                )
                row.append(reached if line.place else "")
                for r in view.rounds:
                    found = r.table_of(p.pk)
                    if found is not None:
                        table, seat = found
                        row += [table.number, seat.rank, seat.vists if table.started else None]
                    else:
                        bye = any(b.pk == p.pk for b in r.byes)
                        row += [None, lab["bye"] if bye else None, None]
            else:
                for i, r in enumerate(view.rounds):
                    table_no = line.tables[i] if i < len(line.tables) else None
                    bye = r.number in line.byes
                    row += [
                        lab["bye"] if bye else table_no,
                        line.ratings[i] if i < len(line.ratings) else None,
                    ]
                row += [line.total, exact(line.total), line.vists, lab["cut_out"] if line.cut else None]
            yield row

    title = lab["standings"] if view.olympic else lab["rating_table"]
    return Sheet(
        "standings",
        lab["standings_sheet"],
        heading(view, title, lang),
        columns,
        rows(),
        len(view.standings.lines),
    )


def _went_on(seat: SeatView, lang: str) -> str | None:
    lab = pulka_labels(lang)
    if seat.winner:
        return lab["winner"]
    if seat.went_on:
        return lab["lucky"] if seat.lucky else lab["yes"]
    return lab["tied"] if seat.tied else None


def round_sheet(view: EventView, r: RoundView, lang: str) -> Sheet:
    """A round's tables: every player's seat, vists (rounded and exact), rating, place, and who went on."""
    lab = pulka_labels(lang)
    columns = [
        Column(lab["table"], "int", 6),
        Column(lab["seat"], "text", 7),
        Column(lab["number"], "int", 6),
        Column(lab["name"], "text", 26),
        Column(lab["deals"], "int", 6),
        Column(lab["vists"], "num", 10),
        Column(lab["vists_exact"], "text", 11),
        Column(lab["whole_vists"], "int", 9),
    ]
    if not view.olympic:
        columns += [Column(lab["rating"], "num", 10), Column(lab["rating_exact"], "text", 12)]
    columns += [Column(lab["place_at_table"], "text", 9), Column(lab["state"], "text", 22)]
    if view.olympic:
        columns.append(Column(lab["went_on"], "text", 16))

    def rows() -> Iterator[list[Any]]:
        for table in r.tables:
            for seat in table.seats:
                p = seat.participant
                played = table.started
                row: list[Any] = [
                    table.number,
                    seat.seat,
                    p.number,
                    text(p.name),
                    table.deals,
                    seat.vists if played else None,
                    exact(seat.vists) if played else None,
                    seat.integer_vists if played else None,
                ]
                if not view.olympic:
                    row += [seat.rating if played else None, exact(seat.rating) if played else None]
                row += [seat.rank if played else None, table_state(table, lang)]
                if view.olympic:
                    row.append(_went_on(seat, lang))
                yield row
        for p in r.byes:
            row = [None, None, p.number, text(p.name), None, None, None, None]
            row += [] if view.olympic else [None, None]
            row += [None, lab["bye"]]
            if view.olympic:
                row.append(lab["yes"])
            yield row

    size = sum(len(t.seats) for t in r.tables) + len(r.byes)
    title = round_title(r, lang)
    return Sheet(
        f"round{r.number}",
        lab["round_sheet"].format(n=r.number) if not r.final else lab["final"],
        heading(view, title, lang),
        columns,
        rows(),
        size,
    )


def deals_sheet(
    view: EventView, r: RoundView, lang: str, scores: dict[int, PulkaScore] | None = None
) -> Sheet:
    """Every table's pulka of the round deal by deal: the players, each deal (what was played, the tricks) and
    each player's result (pulka §4.2); then the sum of the deals (the settlement), the compensation column,
    the final vists (rounded and exact), the whole vists, the rating and the place."""
    lab = pulka_labels(lang)
    seats = ("N", "E", "S", "W")
    columns = [
        Column(lab["table"], "int", 6),
        Column(lab["deal"], "int", 6),
        Column(lab["dealer"], "text", 6),
        Column(lab["contract"], "text", 24),
    ] + [Column(seat, "num", 14) for seat in seats]
    words = sheet_labels(lang)

    def rows() -> Iterator[list[Any]]:
        for table in r.tables:
            score = (scores or {}).get(table.number) or load_sheet(table.table, event=view.event).score()
            present = score.setup.seats
            by_seat = {s.seat: s for s in table.seats}

            def per_seat(values: dict[str, Any], present: tuple[str, ...] = present) -> list[Any]:
                return [values.get(seat) if seat in present else None for seat in seats]

            yield [
                table.number,
                None,
                None,
                lab["players"],
                *per_seat(
                    {s: text(f"{v.participant.number} {v.participant.name}") for s, v in by_seat.items()}
                ),
            ]
            progression = score.setup.rules.progression.value != "none"
            for d in score.deals:
                what = "".join(span.text for span in deal_spans(d, words, progression))
                yield [table.number, d.number, d.dealer, what, *per_seat(dict(d.result))]
            yield [table.number, None, None, lab["settlement"], *per_seat(dict(score.settlement))]
            if any(score.column.values()):
                yield [table.number, None, None, lab["column"], *per_seat(dict(score.column))]
            vists = score.vists
            yield [table.number, None, None, lab["vists"], *per_seat(vists)]
            yield [
                table.number,
                None,
                None,
                lab["vists_exact"],
                *per_seat({s: format_fraction(v) for s, v in vists.items()}),
            ]
            yield [table.number, None, None, lab["whole_vists"], *per_seat(score.integer_vists)]
            if not view.olympic:
                yield [
                    table.number,
                    None,
                    None,
                    lab["rating"],
                    *per_seat({s: v.rating for s, v in by_seat.items()}),
                ]
            yield [
                table.number,
                None,
                None,
                lab["place_at_table"],
                *per_seat({s: score.ranking.rank_text(s) for s in present}),
            ]

    size = sum(t.deals + 8 for t in r.tables)
    return Sheet(
        f"deals{r.number}",
        lab["deals_sheet"].format(n=r.number),
        heading(view, lab["deals_sheet"].format(n=r.number), lang),
        columns,
        rows(),
        size,
    )


def workbook_sheets(view: EventView, lang: str) -> Iterator[Sheet]:
    """The standings, then for each round its tables and its deals."""
    yield standings_sheet(view, lang)
    for r in view.rounds:
        yield round_sheet(view, r, lang)
    for r in view.rounds:
        yield deals_sheet(view, r, lang)
