"""The Excel workbook (and CSV) of a pulka event: the standings, one sheet per round with its tables, and every
table's pulka deal by deal.

The sheets are :class:`results.sheets.Sheet` objects written by the duplicate files' renderers
(:mod:`results.render_tabular`). Every figure is a number, never a fraction's text (Excel reads ``31/3`` as the
31st of March): vists, ratings and totals are ``fixed`` columns — in Excel a number cell holding the exact value
to a double (what the formula bar shows, so equal exact values are equal cells) with the ``0.00`` format, in CSV
a decimal with two places in the file language's sign (``10,33``); whole vists are whole numbers. Where whole
vists are shown, the rounding of Code 4.2.12 is said in words (:func:`ui.pulka_totals.rounding_line`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from preferans.pulka import PulkaScore
from pulkas.services.sheet import load_sheet
from results.pulka_exports.labels import form_name, pulka_labels, sheet_labels
from results.pulka_exports.model import EventView, RoundView, SeatView, TableView
from results.sheets import Column, Sheet
from ui.cells import safe_text
from ui.pulka_sheet_pdf import deal_spans
from ui.pulka_totals import rounding_line

__all__ = ["deals_sheet", "round_sheet", "standings_sheet", "table_state", "text", "workbook_sheets"]

Scores = dict[int, PulkaScore]  # a table's scored pulka by the table's primary key, each scored once a file


def text(value: str) -> str:
    """Typed text (a name, a club) stays text in Excel and CSV (the one rule: ``ui.cells.safe_text``)."""
    return safe_text(value)


def _score(view: EventView, table: TableView, scores: Scores) -> PulkaScore:
    """The table's pulka scored from its sheet, once for all the sheets of a file."""
    if table.table.pk not in scores:
        scores[table.table.pk] = load_sheet(table.table, event=view.event).score()
    return scores[table.table.pk]


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
                Column(f"{title}: {lab['vists']}", "fixed", 10),
            ]
    else:
        for r in view.rounds:
            title = round_title(r, lang)
            columns += [
                Column(f"{title}: {lab['table']}", "text", 7),
                Column(f"{title}: {lab['rating']}", "fixed", 10),
            ]
        columns += [
            Column(lab["total"], "fixed", 10),
            Column(lab["vists"], "fixed", 10),
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
                row += [line.total, line.vists, lab["cut_out"] if line.cut else None]
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


def round_sheet(view: EventView, r: RoundView, lang: str, scores: Scores | None = None) -> Sheet:
    """A round's tables: every player's seat, vists, whole vists and how they were rounded (on the row of the
    player who got the point), rating, place, and who went on."""
    lab = pulka_labels(lang)
    words = sheet_labels(lang)
    scores = {} if scores is None else scores
    columns = [
        Column(lab["table"], "int", 6),
        Column(lab["seat"], "text", 7),
        Column(lab["number"], "int", 6),
        Column(lab["name"], "text", 26),
        Column(lab["deals"], "int", 6),
        Column(lab["vists"], "fixed", 10),
        Column(lab["whole_vists"], "int", 9),
        Column(lab["rounding"], "text", 40),
    ]
    if not view.olympic:
        columns.append(Column(lab["rating"], "fixed", 10))
    columns += [Column(lab["place_at_table"], "text", 9), Column(lab["state"], "text", 22)]
    if view.olympic:
        columns.append(Column(lab["went_on"], "text", 16))

    def rows() -> Iterator[list[Any]]:
        for table in r.tables:
            played = table.started
            rounding = _score(view, table, scores).rounding if played else None
            for seat in table.seats:
                p = seat.participant
                row: list[Any] = [
                    table.number,
                    seat.seat,
                    p.number,
                    text(p.name),
                    table.deals,
                    seat.vists if played else None,
                    seat.integer_vists if played else None,
                    rounding_line(rounding, words) if rounding and rounding.seat == seat.seat else None,
                ]
                if not view.olympic:
                    row.append(seat.rating if played else None)
                row += [seat.rank if played else None, table_state(table, lang)]
                if view.olympic:
                    row.append(_went_on(seat, lang))
                yield row
        for p in r.byes:
            row = [None, None, p.number, text(p.name), None, None, None, None]
            row += [] if view.olympic else [None]
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


def deals_sheet(view: EventView, r: RoundView, lang: str, scores: Scores | None = None) -> Sheet:
    """Every table's pulka of the round deal by deal: the players, each deal (what was played, the tricks) and
    each player's result (pulka §4.2); then the sum of the deals (the settlement), the compensation column,
    the final vists, the whole vists and the line saying how they were rounded, the rating and the place."""
    lab = pulka_labels(lang)
    seats = ("N", "E", "S", "W")
    columns = [
        Column(lab["table"], "int", 6),
        Column(lab["deal"], "int", 6),
        Column(lab["dealer"], "text", 6),
        Column(lab["contract"], "text", 24),
    ] + [Column(seat, "fixed", 14) for seat in seats]
    words = sheet_labels(lang)
    scores = {} if scores is None else scores

    def rows() -> Iterator[list[Any]]:
        for table in r.tables:
            score = _score(view, table, scores)
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
            yield [table.number, None, None, lab["vists"], *per_seat(score.vists)]
            whole = {s: int(v) for s, v in score.integer_vists.items()}
            yield [table.number, None, None, lab["whole_vists"], *per_seat(whole)]
            yield [table.number, None, None, rounding_line(score.rounding, words), *per_seat({})]
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
    """The standings, then for each round its tables and its deals (each table's pulka scored once)."""
    scores: Scores = {}
    yield standings_sheet(view, lang)
    for r in view.rounds:
        yield round_sheet(view, r, lang, scores)
    for r in view.rounds:
        yield deals_sheet(view, r, lang, scores)
