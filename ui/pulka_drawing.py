"""The pulka sheet («пулька») drawn as players draw it on paper (pulka §3–§9), for a phone page (SVG).

A square split into one sector per player meeting at a circle that holds the pool target: at 4 players the
diagonals give N the top, E the right, S the bottom and W the left; at 3 players lines to the bottom corners
and up to the top edge give S the bottom, N the left and E the right. In each sector, from the centre out: the
mountain («гора»), the pool («пуля»), and the whists («висты»), one cell per opponent placed toward him. Every
band holds the running totals written the paper way, ``2.6.10``, the latest kept when they do not fit.

Plain shapes in a 360-unit square (:func:`sheet_shapes`, :func:`totals_shapes`) are written as SVG by
:func:`sheet_svg` and drawn by :mod:`ui.pulka_sheet_pdf`. Every word drawn comes from :class:`SheetLabels` (the
caller translates); seat letters and numbers are the only other text. Pure: no database, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from xml.sax.saxutils import escape

from preferans.numbers import format_fraction
from preferans.pulka import PulkaScore

__all__ = [
    "Entry",
    "Line",
    "Measure",
    "Rect",
    "Shape",
    "SheetLabels",
    "Span",
    "Text",
    "clean",
    "estimate_width",
    "fit_text",
    "running_entries",
    "sheet_shapes",
    "sheet_svg",
    "totals_shapes",
]

SIZE = 360.0  # the diagram's square, in viewBox units (1 unit = 1 px on a 360 px phone)
HALF = SIZE / 2
WHISTS, POOL = 42.0, 70.0  # band edges, measured from the sector's outer edge inwards
RADIUS = 22.0
FONT = 13.5  # numbers
SMALL = 12.5  # captions, never smaller (≥ 11 px on a phone)
TONES = {
    "ink": "#1a1a1a",
    "muted": "#666666",
    "line": "#4a4a4a",
    "help": "#1d5fa8",
    "negative": "#b3261e",
    "badge": "#fff4d6",
    "paper": "#ffffff",
}
MARKS = {"help": "*", "write_off": "↓"}
FAMILY = "'DejaVu Sans', Verdana, 'Segoe UI', Roboto, Arial, sans-serif"


@dataclass(frozen=True)
class SheetLabels:
    """The words drawn on the sheet, already translated by the caller."""

    sheet: str  # «пулька»: the picture's accessible name
    pool: str  # «пуля»
    mountain: str  # «гора»
    whists: str  # «висты»
    help: str  # «помощь»
    write_off: str  # «списано с горы»
    raspasy: str  # «распасы»
    raspasy_step: str  # «шаг распасов»
    pool_target: str  # «пуля до»
    deal: str  # «сдача»
    dealer: str  # «сдаёт»
    contract: str  # «игра»
    result: str  # «результат»
    total: str  # «итог»
    player: str  # «игрок»
    closing: str  # «закрытие»
    vists: str  # «висты» (exact)
    whole_vists: str  # «целые висты»
    rank: str  # «место»
    misere: str  # «мизер»
    no_trump: str  # «БК»
    no_play: str  # a deal with only extra entries
    in_progress: str  # «игра не окончена, итоги предварительные»


# -- shapes --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Span:
    text: str
    tone: str = "ink"
    bold: bool = False


@dataclass(frozen=True)
class Text:
    """Text whose baseline starts, centres or ends (``anchor``) at x, y, turned ``angle`` degrees clockwise."""

    x: float
    y: float
    spans: tuple[Span, ...]
    size: float = FONT
    anchor: str = "middle"  # start | middle | end
    angle: float = 0.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 1.2
    tone: str = "line"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str = "paper"
    stroke: str | None = "line"
    radius: float = 0.0  # w / 2 = h / 2: a circle


Shape = Text | Line | Rect
Measure = Callable[[str, float, bool], float]

_EM = {**dict.fromkeys(".,:;'|!il1 ", 0.33), **dict.fromkeys("mwMWшщжмюыфШЩЖМЮЫФ…×", 0.95)}


def estimate_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of the width of ``text`` in a wide sans font (DejaVu Sans, Verdana)."""
    em = sum(0.64 if c.isdigit() else _EM.get(c, 0.74 if c.isupper() else 0.62) for c in text)
    return em * size * (1.08 if bold else 1.0)


_CONTROL = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]"
)


def clean(name: str) -> str:
    """A name as one line of text: no control or direction-override characters, no line breaks (names are
    typed by anyone)."""
    return " ".join(_CONTROL.sub("", name).split())


def spans_width(spans: Iterable[Span], size: float, measure: Measure) -> float:
    return sum(measure(s.text, size, s.bold) for s in spans)


def fit_text(text: str, width: float, size: float, measure: Measure, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits ``width``."""
    if measure(text, size, bold) <= width:
        return text
    while text and measure(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


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


def _entry_spans(entry: Entry) -> list[Span]:
    tone = "negative" if entry.value < 0 else ("help" if entry.mark else "ink")
    return [Span(format_fraction(entry.value), tone)] + (
        [Span(MARKS[entry.mark], "help")] if entry.mark else []
    )


def fit_entries(entries: Sequence[Entry], width: float, size: float, measure: Measure) -> tuple[Span, ...]:
    """``a.b.c`` from the entries, the oldest dropped behind an ellipsis until it fits ``width``."""
    items = [_entry_spans(e) for e in entries]
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
        spans = fit_entries(self.entries[key], hi - lo, FONT, self.measure)
        return shapes + ([sector.text((lo + hi) / 2, at, spans, FONT)] if spans else [])

    def sector(self, sector: _Sector, sectors: Sequence[_Sector], name: str) -> list[Shape]:
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
        # the player, further in
        lo, hi = sector.span(POOL + 44)
        text = fit_text(clean(name), hi - lo - 16 - measure(seat + "  ", FONT, True), FONT, measure, True)
        spans = [Span(seat, "muted", True)] + ([Span("  " + text, "ink", True)] if text else [])
        return [*shapes, sector.text((lo + hi) / 2, POOL + 36, spans, FONT)]


def _last_raspasy_step(score: PulkaScore) -> int | None:
    if score.setup.rules.progression.value == "none":
        return None
    steps = [d.raspasy_step for d in score.deals if d.raspasy_step is not None]
    return steps[-1] if steps else None


def sheet_shapes(
    score: PulkaScore, names: Mapping[str, str], labels: SheetLabels, measure: Measure = estimate_width
) -> list[Shape]:
    """The diagram in the square 0…360: sectors, bands, running totals, names, the target and the badge."""
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
        shapes += painter.sector(sector, sectors, names.get(sector.seat, ""))
    shapes.append(Rect(HALF - RADIUS, HALF - RADIUS, 2 * RADIUS, 2 * RADIUS, "paper", "line", RADIUS))
    shapes.append(Text(HALF, HALF + 6, (Span(str(score.setup.pool), "ink", True),), 17))
    step = _last_raspasy_step(score)
    if step is not None:
        badge = f"×{step}"
        w = measure(badge, SMALL, True) + 10
        cx = cy = HALF + RADIUS + 8
        shapes.append(Rect(cx - w / 2, cy - 9, w, 18, "badge", "line", 5))
        shapes.append(Text(cx, cy + 4.4, (Span(badge, "ink", True),), SMALL))
    return shapes


# -- the final figures ---------------------------------------------------------------------------------------
def _legend(score: PulkaScore, labels: SheetLabels) -> list[tuple[Span, ...]]:
    """The keys to what is drawn: a game not over, the help and write-off marks, the raspasy badge."""
    marks = {h.helped is None for d in score.deals for h in d.helps}
    step = _last_raspasy_step(score)
    return [
        group
        for shown, group in (
            (not score.ended, (Span(labels.in_progress, "negative"),)),
            (False in marks, (Span(MARKS["help"] + " ", "help", True), Span(labels.help, "muted"))),
            (True in marks, (Span(MARKS["write_off"] + " ", "help", True), Span(labels.write_off, "muted"))),
            (step is not None, (Span(f"×{step} ", "ink", True), Span(labels.raspasy_step, "muted"))),
        )
        if shown
    ]


def _wrap(text: str, width: float, size: float, measure: Measure) -> list[str]:
    """At most two lines, cut at spaces, the second cut with an ellipsis if need be."""
    lines = [""]
    for word in text.split():
        joined = f"{lines[-1]} {word}".strip()
        fits = measure(joined, size, False) <= width or not lines[-1] or len(lines) == 2
        lines[-1:] = [joined] if fits else [lines[-1], word]
    return [fit_text(line, width, size, measure) for line in lines]


def totals_shapes(
    score: PulkaScore,
    names: Mapping[str, str],
    labels: SheetLabels,
    *,
    width: float = SIZE,
    size: float = SMALL,
    measure: Measure = estimate_width,
    top: float = 0.0,
) -> tuple[list[Shape], float]:
    """The legend and the table of final figures (closing entry, exact and whole vists, rank) from y = top;
    returns the shapes and the y where they end."""
    seats = score.setup.seats
    vists, whole = score.vists, score.integer_vists
    rows = [
        (
            seat,
            *(format_fraction(v[seat]) for v in (score.closing, vists, whole)),
            score.ranking.rank_text(seat),
        )
        for seat in seats
    ]
    line = size * 1.55
    shapes: list[Shape] = []
    y = top
    lines: list[list[Span]] = []
    for group in _legend(score, labels):  # the keys, as many on a line as fit
        if lines and spans_width([*lines[-1], Span("   "), *group], size, measure) <= width:
            lines[-1] += [Span("   "), *group]
        else:
            lines.append(list(group))
    for spans in lines:
        y += line
        shapes.append(Text(0, y, tuple(spans), size, "start"))
    y += size * 0.8 if lines else 0
    heads = (labels.closing, labels.vists, labels.whole_vists, labels.rank)
    columns: list[float] = []
    for i, head in enumerate(heads):
        sizes = [measure(row[i + 1], size, i in (1, 2)) for row in rows]
        words = [measure(word, size, False) for word in head.split()]
        header = min(measure(head, size, False), max([size * 4, *words]), width * 0.2)
        columns.append(max([*sizes, header]) + size * 0.6)
    first = width - sum(columns)
    wrapped = [_wrap(h, c - size * 0.5, size, measure) for h, c in zip(heads, columns, strict=True)]
    depth = max(len(w) for w in wrapped)
    shapes.append(Text(0, y + line * depth, (Span(labels.player, "muted"),), size, "start"))
    right = first
    for texts, column in zip(wrapped, columns, strict=True):
        right += column
        for k, text in enumerate(texts):
            base = y + line * (depth - len(texts) + k + 1)
            shapes.append(Text(right, base, (Span(text, "muted"),), size, "end"))
    y += line * depth + size * 0.6
    shapes.append(Line(0, y, width, y, 1.0))
    for seat, *values in rows:
        y += line * 1.1
        name = fit_text(clean(names.get(seat, "")), first - size * 2.6, size, measure)
        shapes.append(Text(0, y, (Span(seat, "muted", True), Span("  " + name)), size, "start"))
        right = first
        for i, (value, column) in enumerate(zip(values, columns, strict=True)):
            right += column
            tone = "negative" if value.startswith("-") else "ink"
            shapes.append(Text(right, y, (Span(value, tone, i in (1, 2)),), size, "end"))
    y += size * 0.7
    shapes.append(Line(0, y, width, y, 0.6, "muted"))
    return shapes, y + 2


# -- SVG -----------------------------------------------------------------------------------------------------
def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;", "'": "&apos;"})


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _svg(shape: Shape) -> str:
    if isinstance(shape, Line):
        x1, y1, x2, y2 = (_number(v) for v in (shape.x1, shape.y1, shape.x2, shape.y2))
        return (
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{TONES[shape.tone]}" '
            f'stroke-width="{_number(shape.width)}"/>'
        )
    if isinstance(shape, Rect):
        x, y, w, h, r = (_number(v) for v in (shape.x, shape.y, shape.w, shape.h, shape.radius))
        stroke = f' stroke="{TONES[shape.stroke]}" stroke-width="1.4"' if shape.stroke else ""
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="{TONES[shape.fill]}"{stroke}/>'
    x, y = _number(shape.x), _number(shape.y)
    turn = f' transform="rotate({_number(shape.angle)} {x} {y})"' if shape.angle else ""
    anchor = f' text-anchor="{shape.anchor}"' if shape.anchor != "start" else ""
    bold = ' font-weight="bold"'
    body = "".join(
        f'<tspan fill="{TONES[s.tone]}"{bold if s.bold else ""}>{escape(s.text)}</tspan>' for s in shape.spans
    )
    return f'<text x="{x}" y="{y}" font-size="{_number(shape.size)}"{anchor}{turn}>{body}</text>'


def _description(score: PulkaScore, names: Mapping[str, str], labels: SheetLabels) -> str:
    players = ", ".join(f"{seat} {clean(names.get(seat, ''))}".strip() for seat in score.setup.seats)
    return f"{labels.sheet}: {players}; {labels.pool_target} {score.setup.pool}"


def sheet_svg(score: PulkaScore, *, names: Mapping[str, str], labels: SheetLabels) -> str:
    """The sheet and its final figures as one inline ``<svg>`` that scales to its container's width."""
    margin = 3.0
    totals, bottom = totals_shapes(score, names, labels, top=SIZE + 8)
    description = _attr(_description(score, names, labels))
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-margin} {-margin} {SIZE + 2 * margin} '
            f'{_number(bottom + 2 * margin)}" width="100%" role="img" aria-label="{description}" '
            f'font-family="{_attr(FAMILY)}" style="display:block;height:auto;max-width:34rem">',
            f"<title>{description}</title>",
            *(_svg(shape) for shape in [*sheet_shapes(score, names, labels), *totals]),
            "</svg>",
        ]
    )
