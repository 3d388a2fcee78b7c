"""The pulka sheet on one A4 page for the table's record: the diagram, the final figures and the deal list.

The diagram and the table of final figures are the shapes of :mod:`ui.pulka_drawing` and
:mod:`ui.pulka_totals` (the same picture as the phone page), drawn with reportlab in the project's embedded
DejaVu font (:mod:`boards.pdf.fonts`), so Russian names render everywhere. Below them every deal: its number, the dealer, what was played and its result per
player (pulka §4.2), and the sum of the results, which is the settlement (§8.1).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from preferans.game import DealKind
from preferans.pulka import DealScore, PulkaScore
from ui.pulka_drawing import sheet_shapes
from ui.pulka_shapes import (
    MARKS,
    SIZE,
    TONES,
    Line,
    Rect,
    Shape,
    SheetLabels,
    Span,
    clean,
    fit_text,
    sheet_vists,
    wrap_text,
)
from ui.pulka_totals import totals_shapes

__all__ = ["deal_spans", "sheet_pdf"]

MARGIN = 36.0
DEALS_ROOM = 150.0  # the least height left to the deal list
SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def _measure(text: str, size: float, bold: bool = False) -> float:
    return float(stringWidth(text, FONT_BOLD if bold else FONT, size))


def _color(tone: str) -> Any:
    return colors.HexColor(TONES[tone])


def _draw_text(c: Any, x: float, y: float, spans: Sequence[Span], size: float, anchor: str = "start") -> None:
    """Spans on one baseline at the current origin's x, y (anchored as in SVG)."""
    width = sum(_measure(s.text, size, s.bold) for s in spans)
    x -= {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    for span in spans:
        c.setFont(FONT_BOLD if span.bold else FONT, size)
        c.setFillColor(_color(span.tone))
        c.drawString(x, y, span.text)
        x += _measure(span.text, size, span.bold)


def _draw(c: Any, shapes: Sequence[Shape], left: float, top: float, scale: float) -> None:
    """Shapes drawn with their y axis downwards from (left, top) of the page, ``scale`` points a unit."""
    for shape in shapes:
        if isinstance(shape, Line):
            c.setStrokeColor(_color(shape.tone))
            c.setLineWidth(shape.width * scale)
            c.line(
                left + shape.x1 * scale,
                top - shape.y1 * scale,
                left + shape.x2 * scale,
                top - shape.y2 * scale,
            )
        elif isinstance(shape, Rect):
            c.setFillColor(_color(shape.fill))
            c.setStrokeColor(_color(shape.stroke or "line"))
            c.setLineWidth(1.4 * scale)
            x, y, w, h = (v * scale for v in (shape.x, shape.y + shape.h, shape.w, shape.h))
            c.roundRect(left + x, top - y, w, h, shape.radius * scale, stroke=int(bool(shape.stroke)), fill=1)
        else:
            c.saveState()
            c.translate(left + shape.x * scale, top - shape.y * scale)
            c.rotate(-shape.angle)
            _draw_text(c, 0, 0, shape.spans, shape.size * scale, shape.anchor)
            c.restoreState()


def deal_spans(scored: DealScore, labels: SheetLabels, progression: bool) -> list[Span]:
    """What was played and the tricks: ``7♠ N8 E1 S1`` (the declarer first), ``распасы ×2 N2 E3 S5``, the
    misère, or a deal of extra entries only; then the help and write-off marks."""
    deal = scored.deal
    contract = deal.contract
    if deal.kind is DealKind.RASPASY:
        head = labels.raspasy + (f" ×{scored.raspasy_step}" if progression else "")
    elif deal.kind is DealKind.MISERE:
        head = labels.misere
    elif deal.kind is DealKind.CONTRACT and contract is not None:
        strain = contract.strain or ""
        head = f"{contract.level}{SUITS.get(strain, labels.no_trump if strain == 'NT' else strain)}"
    else:
        head = labels.no_play
    seats = list(deal.tricks)
    if deal.declarer in seats:
        seats.remove(deal.declarer)
        seats.insert(0, deal.declarer)
    tricks = " ".join(f"{seat}{deal.tricks[seat]}" for seat in seats)
    spans = [Span(f"{head} {tricks}".strip())]
    helped = {h.helped is None for h in scored.helps}
    for mark, shown in ((MARKS["help"], False in helped), (MARKS["write_off"], True in helped)):
        if shown:
            spans.append(Span(" " + mark, "help", True))
    return spans


def _value(
    c: Any, x: float, y: float, value: Fraction, labels: SheetLabels, size: float, bold: bool = False
) -> None:
    tone = "negative" if value < 0 else "ink"
    _draw_text(c, x, y, [Span(sheet_vists(value, labels), tone, bold)], size, "end")


def _deal_list(c: Any, score: PulkaScore, labels: SheetLabels, top: float, bottom: float) -> None:
    """The deals in one or two blocks side by side, the sum of the results last; the oldest deals give way
    to an ellipsis if even small rows cannot hold them all."""
    seats = score.setup.seats
    width = A4[0] - 2 * MARGIN
    size, row = 8.0, 11.0
    deals: list[DealScore | None] = list(score.deals)
    room = int((top - bottom) / row) - 2  # the header and the total
    blocks = 1 if len(deals) <= room else 2
    while blocks * room < len(deals) and row > 8.0:
        row -= 0.5
        size = row * 0.72
        room = int((top - bottom) / row) - 2
    if blocks * room < len(deals):
        deals = [None, *deals[len(deals) - blocks * room + 1 :]]
    gap = 14.0
    block = (width - gap * (blocks - 1)) / blocks
    number_w = max(_measure(labels.deal, size), _measure("000", size)) + 4
    dealer_w = max(_measure(labels.dealer, size), _measure("W", size)) + 6
    sums = {seat: sum((d.result[seat] for d in score.deals), Fraction(0)) for seat in seats}
    values = [*(v for d in score.deals for v in d.result.values()), *sums.values(), Fraction(-99)]
    result_w = max(_measure(sheet_vists(v, labels), size, True) for v in values) + 8
    text_w = block - number_w - dealer_w - result_w * len(seats)
    progression = score.setup.rules.progression.value != "none"
    per_block = -(-len(deals) // blocks) if deals else 0
    for b in range(blocks):
        x = MARGIN + b * (block + gap)
        y = top - row
        heads = [(labels.deal, x, "start"), (labels.dealer, x + number_w, "start")]
        heads.append((labels.contract, x + number_w + dealer_w, "start"))
        heads += [(seat, x + block - result_w * (len(seats) - 1 - i), "end") for i, seat in enumerate(seats)]
        for text, hx, anchor in heads:
            _draw_text(c, hx, y, [Span(fit_text(text, text_w - 4, size, _measure), "muted")], size, anchor)
        c.setStrokeColor(_color("line"))
        c.setLineWidth(0.6)
        c.line(x, y - row * 0.35, x + block, y - row * 0.35)
        for scored in deals[b * per_block : (b + 1) * per_block]:
            y -= row
            if scored is None:
                _draw_text(c, x, y, [Span("…", "muted")], size)
                continue
            _draw_text(c, x, y, [Span(str(scored.number), "muted")], size)
            _draw_text(c, x + number_w, y, [Span(scored.dealer)], size)
            spans = deal_spans(scored, labels, progression)
            tail = sum(_measure(s.text, size, s.bold) for s in spans[1:])
            spans[0] = Span(fit_text(spans[0].text, text_w - tail - 4, size, _measure))
            _draw_text(c, x + number_w + dealer_w, y, spans, size)
            for i, seat in enumerate(seats):
                _value(c, x + block - result_w * (len(seats) - 1 - i), y, scored.result[seat], labels, size)
    # the sum of the results, under the last block
    x = MARGIN + (blocks - 1) * (block + gap)
    y = top - row * (per_block + 2) - row * 0.2
    c.line(x, y + row * 0.75, x + block, y + row * 0.75)
    _draw_text(c, x + number_w + dealer_w, y, [Span(labels.total, "ink", True)], size)
    for i, seat in enumerate(seats):
        _value(c, x + block - result_w * (len(seats) - 1 - i), y, sums[seat], labels, size, True)


def draw_sheet_page(
    c: Any, score: PulkaScore, *, names: Mapping[str, str], labels: SheetLabels, title: str
) -> None:
    """Draw one A4 page on the canvas ``c``: the title, the sheet as drawn on paper, the final figures and the
    deal list (the caller ends the page). A round's sheets print as one file of such pages."""
    page_w, page_h = A4
    y = page_h - MARGIN - 10
    for k, line in enumerate(wrap_text(clean(title), page_w - 2 * MARGIN, 14, _measure, True)):
        y -= 17 if k else 0
        _draw_text(c, MARGIN, y, [Span(line, "ink", True)], 14)
    top, width = y - 14, page_w - 2 * MARGIN
    sheet, box = sheet_shapes(score, names, labels, _measure)
    # the sheet 280 pt wide, smaller only when names long enough to take many lines leave the deals no room
    for side, size in ((280.0, 9.0), (240.0, 9.0), (200.0, 8.0), (170.0, 7.0)):
        scale = side / SIZE
        totals, end = totals_shapes(
            score, names, labels, width=width, size=size, measure=_measure, top=box.height * scale + 6
        )
        if end <= top - MARGIN - DEALS_ROOM:
            break
    _draw(c, sheet, (page_w - side) / 2, top + box.top * scale, scale)
    _draw(c, totals, MARGIN, top, 1.0)
    _deal_list(c, score, labels, top - end - 14, MARGIN)


def sheet_pdf(score: PulkaScore, *, names: Mapping[str, str], labels: SheetLabels, title: str) -> bytes:
    """One A4 page: the title, the sheet as drawn on paper, the final figures and the deal list."""
    register_fonts()
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=FONT, initialFontSize=10)
    c.setTitle(clean(title))
    c.setCreator("duplicate-preferans pulkas")
    draw_sheet_page(c, score, names=names, labels=labels, title=title)
    c.showPage()
    c.save()
    return buffer.getvalue()
