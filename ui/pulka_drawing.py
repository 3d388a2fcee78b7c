"""The pulka sheet («пулька») drawn as players draw it on paper (pulka §3–§9), for a phone page (SVG).

A square split into one sector per player meeting at a circle that holds the pool target: at 4 players the
diagonals give N the top, E the right, S the bottom and W the left; at 3 players lines to the bottom corners
and up to the top edge give S the bottom, N the left and E the right. In each sector, from the centre out: the
mountain («гора»), the pool («пуля»), and the whists («висты»), one cell per opponent placed toward him. Every
band holds the running totals written the paper way, ``2.6.10``, the latest kept when they do not fit. Each
player's seat and whole name are written outside the square along his side, as on paper (a long name on more
lines: a name is never cut short).

The diagram is plain shapes (:mod:`ui.pulka_shapes`) in a 360-unit square (:func:`sheet_shapes`); with the final
figures under it (:func:`ui.pulka_totals.totals_shapes`) :func:`sheet_svg` writes it as SVG, and
:mod:`ui.pulka_sheet_pdf` draws the same shapes on paper. No database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from preferans.pulka import PulkaScore
from ui.pulka_shapes import (
    FAMILY,
    FONT,
    MARKS,
    SIZE,
    SMALL,
    Line,
    Measure,
    Rect,
    Shape,
    SheetLabels,
    Span,
    Text,
    clean,
    estimate_width,
    fit_text,
    sheet_number,
    spans_width,
    svg_attr,
    svg_number,
    svg_shape,
    wrap_text,
)
from ui.pulka_totals import last_raspasy_step, totals_shapes

__all__ = [
    "HALF",
    "SIZE",
    "Box",
    "Entry",
    "SheetLabels",
    "estimate_width",
    "fit_entries",
    "running_entries",
    "sheet_shapes",
    "sheet_svg",
]

HALF = SIZE / 2
WHISTS, POOL = 42.0, 70.0  # band edges, measured from the sector's outer edge inwards
RADIUS = 22.0


# -- the running totals --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One value written in a band; ``mark`` is "help", "write_off" or ""."""

    value: Fraction
    mark: str = ""


Range = tuple[float, float] | None
Key = tuple[str, str, str]  # (seat, "pool" | "mountain" | "whists", the opponent for whists else "")


def running_entries(score: PulkaScore) -> dict[Key, list[Entry]]:
    """Every band's successive values, one per deal that changed it (Code 4.2.5 «нарастающим итогом»), then
    the closing entry on the mountain once the game is over (pulka §7.4)."""
    seats = score.setup.seats
    keys: list[Key] = []
    for seat in seats:
        keys += [(seat, "pool", ""), (seat, "mountain", "")]
        keys += [(seat, "whists", other) for other in seats if other != seat]
    out: dict[Key, list[Entry]] = {key: [] for key in keys}
    last: dict[Key, Fraction] = dict.fromkeys(keys, Fraction(0))
    for deal in score.deals:
        marks: dict[Key, str] = {(h.helper, "mountain", ""): "write_off" for h in deal.helps if not h.helped}
        for h in deal.helps:
            if h.helped:
                marks[(h.helper, "whists", h.helped)] = marks[(h.helped, "pool", "")] = "help"
        for key in keys:
            cols = deal.sheet[key[0]]
            value = cols.whists[key[2]] if key[2] else (cols.pool if key[1] == "pool" else cols.mountain)
            if value != last[key]:
                out[key].append(Entry(value, marks.get(key, "")))
                last[key] = value
    if score.ended:
        for seat in seats:
            if score.closing[seat]:
                key = (seat, "mountain", "")
                out[key].append(Entry(last[key] + score.closing[seat]))
    return out


def _entry_spans(entry: Entry, labels: SheetLabels) -> list[Span]:
    tone = "negative" if entry.value < 0 else ("help" if entry.mark else "ink")
    return [Span(sheet_number(entry.value, labels), tone)] + (
        [Span(MARKS[entry.mark], "help")] if entry.mark else []
    )


def fit_entries(
    entries: Sequence[Entry], width: float, size: float, measure: Measure, labels: SheetLabels
) -> tuple[Span, ...]:
    """``a.b.c`` from the entries, the oldest dropped behind an ellipsis until it fits ``width``."""
    items = [_entry_spans(e, labels) for e in entries]
    for start in range(len(items)):
        spans: list[Span] = [Span("…", "muted")] if start else []
        for i, item in enumerate(items[start:]):
            if i:
                spans.append(Span(".", "muted"))
            spans += item
        if start == len(items) - 1 or spans_width(spans, size, measure) <= width:
            if spans_width(spans, size, measure) > width and start:
                spans = spans[1:]  # the last value alone, without the ellipsis
            return tuple(spans)
    return ()


# -- the sectors ---------------------------------------------------------------------------------------------
_OUTWARD = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}
_ALONG = {"top": (1, 0), "right": (0, -1), "bottom": (1, 0), "left": (0, 1)}  # the reading direction
_ANGLE = {"top": 0.0, "right": -90.0, "bottom": 0.0, "left": 90.0}


@dataclass(frozen=True)
class _Sector:
    """A player's sector in local coordinates: u along his outer edge (the reading direction, 0 at the
    middle), d from that edge inwards."""

    seat: str
    side: str
    players: int

    def point(self, u: float, d: float) -> tuple[float, float]:
        return {
            "top": (HALF + u, d),
            "bottom": (HALF + u, SIZE - d),
            "left": (d, HALF + u),
            "right": (SIZE - d, HALF - u),
        }[self.side]

    def span(self, d: float) -> tuple[float, float]:
        """The u range of the sector at depth d (the 45° dividers; at 3 players the side strips run up to
        the top edge)."""
        lo, hi = -(HALF - d), HALF - d
        if self.players == 3 and self.side == "left":
            lo = -HALF
        if self.players == 3 and self.side == "right":
            hi = HALF
        return lo, hi

    def text(
        self, u: float, centre: float, spans: Sequence[Span], size: float, anchor: str = "middle"
    ) -> Text:
        """Text whose middle lies at depth ``centre``; upright at the top and bottom, turned at the sides."""
        baseline = centre + 0.35 * size if self.side == "top" else centre - 0.35 * size
        x, y = self.point(u, baseline)
        return Text(x, y, tuple(spans), size, anchor, _ANGLE[self.side])

    def towards(self, other: _Sector) -> float:
        a, b = _OUTWARD[other.side], _ALONG[self.side]
        return float(a[0] * b[0] + a[1] * b[1])


def _sectors(seats: Sequence[str]) -> list[_Sector]:
    sides = ("left", "right", "bottom") if len(seats) == 3 else ("top", "right", "bottom", "left")
    return [_Sector(seat, side, len(seats)) for seat, side in zip(seats, sides, strict=True)]


@dataclass(frozen=True)
class _Painter:
    entries: Mapping[Key, list[Entry]]
    labels: SheetLabels
    measure: Measure

    def band(
        self, sector: _Sector, at: float, key: Key, caption: str = "", limits: Range = None
    ) -> list[Shape]:
        """A caption at the start of the band, the running totals in the rest, text centred at depth ``at``."""
        lo, hi = limits or sector.span(at + FONT * (0.75 if sector.side == "top" else 0.6))
        lo, hi = lo + 5, hi - 5
        shapes: list[Shape] = []
        if caption:
            caption = fit_text(caption, (hi - lo) / 3, SMALL, self.measure)
            shapes.append(sector.text(lo, at, [Span(caption, "muted")], SMALL, "start"))
            lo += self.measure(caption, SMALL, False) + 8
        spans = fit_entries(self.entries[key], hi - lo, FONT, self.measure, self.labels)
        return shapes + ([sector.text((lo + hi) / 2, at, spans, FONT)] if spans else [])

    def sector(self, sector: _Sector, sectors: Sequence[_Sector]) -> list[Shape]:
        seat, measure = sector.seat, self.measure
        shapes: list[Shape] = []
        for depth in (WHISTS, POOL):  # the band edges
            lo, hi = sector.span(depth)
            shapes.append(Line(*sector.point(lo, depth), *sector.point(hi, depth)))
        # the whist cells, each toward its opponent, equal at the band's inner edge
        others = sorted((s for s in sectors if s is not sector), key=sector.towards)
        lo, hi = sector.span(WHISTS)
        step = (hi - lo) / len(others)
        for i, other in enumerate(others):
            a, b = lo + i * step, lo + (i + 1) * step
            if i:
                shapes.append(Line(*sector.point(a, 0), *sector.point(a, WHISTS)))
            head = f"{self.labels.whists} {other.seat}"
            if measure(head, SMALL, False) > step - 8:
                head = other.seat
            shapes.append(sector.text((a + b) / 2, 12, [Span(head, "muted")], SMALL))
            shapes += self.band(sector, 30, (seat, "whists", other.seat), "", (a + 2, b - 2))
        shapes += self.band(sector, (WHISTS + POOL) / 2, (seat, "pool", ""), self.labels.pool)
        shapes += self.band(sector, POOL + 14, (seat, "mountain", ""), self.labels.mountain)
        # the seat, further in; the player's name outside the square (:func:`_names`)
        return [*shapes, sector.text(0, POOL + 36, [Span(seat, "muted", True)], FONT)]


# -- the names ----------------------------------------------------------------------------------------------
NAME_GAP = 4.0  # between the square and a name's first line
NAME_LINE = FONT * 1.25


@dataclass(frozen=True)
class Box:
    """What the drawing covers, in its units: the square 0…360 and the names around it."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top


def _names(sectors: Sequence[_Sector], names: Mapping[str, str], measure: Measure) -> tuple[list[Shape], Box]:
    """Each player's seat and whole name outside the square along his side, as players write it on paper,
    reading as the sector's text does; a name too long for the side takes more lines, never an ellipsis."""
    shapes: list[Shape] = []
    depth = dict.fromkeys(("top", "right", "bottom", "left"), 0.0)
    for sector in sectors:
        seat, name = sector.seat, clean(names.get(sector.seat, ""))
        head = measure(seat + "  ", FONT, True)
        # the side less a margin, for a phone's font a little wider than the estimate
        lines = wrap_text(name, SIZE - 16, FONT, measure, True, head) if name else [""]
        count = len(lines)
        for k, line in enumerate(lines):
            spans = [Span(seat, "muted", True)] if k == 0 else []
            spans += [Span(("  " if k == 0 else "") + line, "ink", True)] if line else []
            order = count - 1 - k if sector.side == "top" else k  # the first line on top, read downwards
            shapes.append(sector.text(0, -NAME_GAP - NAME_LINE * (order + 0.5), spans, FONT))
        depth[sector.side] = NAME_GAP + NAME_LINE * count
    side = max(depth["left"], depth["right"])  # the square stays in the middle of the picture
    return shapes, Box(-side, -depth["top"], SIZE + side, SIZE + depth["bottom"])


def sheet_shapes(
    score: PulkaScore, names: Mapping[str, str], labels: SheetLabels, measure: Measure = estimate_width
) -> tuple[list[Shape], Box]:
    """The diagram in the square 0…360 (sectors, bands, running totals, the target and the badge) with the
    players' names around it, and the box all of it covers."""
    seats = score.setup.seats
    sectors = _sectors(seats)
    shapes: list[Shape] = [Rect(0, 0, SIZE, SIZE, "paper", "line")]
    diagonal = RADIUS / 2**0.5
    if len(seats) == 4:
        for x, y in ((0, 0), (SIZE, 0), (SIZE, SIZE), (0, SIZE)):
            sx, sy = (1 if x else -1), (1 if y else -1)
            shapes.append(Line(x, y, HALF + sx * diagonal, HALF + sy * diagonal))
    else:
        shapes.append(Line(HALF, 0, HALF, HALF - RADIUS))
        for x in (0.0, SIZE):
            shapes.append(Line(x, SIZE, HALF + (diagonal if x else -diagonal), HALF + diagonal))
    painter = _Painter(running_entries(score), labels, measure)
    for sector in sectors:
        shapes += painter.sector(sector, sectors)
    named, box = _names(sectors, names, measure)
    shapes += named
    shapes.append(Rect(HALF - RADIUS, HALF - RADIUS, 2 * RADIUS, 2 * RADIUS, "paper", "line", RADIUS))
    shapes.append(Text(HALF, HALF + 6, (Span(str(score.setup.pool), "ink", True),), 17))
    step = last_raspasy_step(score)
    if step is not None:
        badge = f"×{step}"
        w = measure(badge, SMALL, True) + 10
        cx = cy = HALF + RADIUS + 8
        shapes.append(Rect(cx - w / 2, cy - 9, w, 18, "badge", "line", 5))
        shapes.append(Text(cx, cy + 4.4, (Span(badge, "ink", True),), SMALL))
    return shapes, box


# -- SVG -----------------------------------------------------------------------------------------------------
def _description(score: PulkaScore, names: Mapping[str, str], labels: SheetLabels) -> str:
    players = ", ".join(f"{seat} {clean(names.get(seat, ''))}".strip() for seat in score.setup.seats)
    return f"{labels.sheet}: {players}; {labels.pool_target} {score.setup.pool}"


def sheet_svg(score: PulkaScore, *, names: Mapping[str, str], labels: SheetLabels) -> str:
    """The sheet and its final figures as one inline ``<svg>`` that scales to its container's width."""
    margin = 3.0
    sheet, box = sheet_shapes(score, names, labels)
    totals, bottom = totals_shapes(score, names, labels, top=box.bottom + 8)
    description = svg_attr(_description(score, names, labels))
    x, y = svg_number(box.left - margin), svg_number(box.top - margin)
    w, h = svg_number(box.width + 2 * margin), svg_number(bottom - box.top + 2 * margin)
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x} {y} {w} {h}" width="100%" role="img" '
            f'aria-label="{description}" font-family="{svg_attr(FAMILY)}" '
            'style="display:block;height:auto;max-width:34rem">',
            f"<title>{description}</title>",
            *(svg_shape(shape) for shape in [*sheet, *totals]),
            "</svg>",
        ]
    )
