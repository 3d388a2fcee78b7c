"""The final figures under the drawn pulka sheet: the keys to what is drawn, the table of every player's
closing entry, exact and whole vists and place (pulka §7.4, §8, §9), and the line that says how the whole vists
were rounded (Code 4.2.12, pulka §8.2), in shapes of :mod:`ui.pulka_shapes`.

The exact vists are shown with two places (thirds as ``,33`` and ``,67``, halves as ``,50``), so the whole vists
beside them always come with :func:`rounding_line`: which player got the point and the whists that make up for
it. Every channel that shows whole vists (the phone page, the sheet's SVG and PDF, the workbook) says it with
this one function, in its own labels.
"""

from __future__ import annotations

from collections.abc import Mapping

from preferans.pulka import PulkaScore, Rounding
from ui.pulka_shapes import (
    MARKS,
    SIZE,
    SMALL,
    Line,
    Measure,
    Shape,
    SheetLabels,
    Span,
    Text,
    clean,
    estimate_width,
    fit_text,
    sheet_number,
    sheet_vists,
    spans_width,
    wrap_text,
)

__all__ = ["last_raspasy_step", "rounding_line", "totals_shapes"]


def last_raspasy_step(score: PulkaScore) -> int | None:
    """The step of the last raspasy chain, when raspasy progress (the badge in the sheet's centre)."""
    if score.setup.rules.progression.value == "none":
        return None
    steps = [d.raspasy_step for d in score.deals if d.raspasy_step is not None]
    return steps[-1] if steps else None


def rounding_line(rounding: Rounding | None, labels: SheetLabels) -> str:
    """How the whole vists were made from the exact ones (pulka §8.2): the player who got one point written off
    or added to his mountain and the whists that make up for it, or that none was needed."""
    if rounding is None:
        return labels.rounding_none
    words = labels.rounding_off if rounding.mountain < 0 else labels.rounding_on
    return words % {"seat": rounding.seat, "whists": rounding.vists_each}


def _legend(score: PulkaScore, labels: SheetLabels) -> list[tuple[Span, ...]]:
    """The keys to what is drawn: a game not over, the help and write-off marks, the raspasy badge."""
    marks = {h.helped is None for d in score.deals for h in d.helps}
    step = last_raspasy_step(score)
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
    """The legend, the table of final figures (closing entry, exact and whole vists, rank) and the rounding
    line from y = top; returns the shapes and the y where they end."""
    seats = score.setup.seats
    vists, whole = score.vists, score.integer_vists
    rows = [
        (
            seat,
            sheet_number(score.closing[seat], labels),
            sheet_vists(vists[seat], labels),
            sheet_number(whole[seat], labels),
            score.ranking.rank_text(seat),
        )
        for seat in seats
    ]
    negative = {seat: (score.closing[seat] < 0, vists[seat] < 0, whole[seat] < 0, False) for seat in seats}
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
    # the whole names, on more lines when long, the values beside their first lines; a word too long for the
    # column gives every name the table's width and puts the values on the line under it
    indent = max(measure(seat + "  ", size, True) for seat in seats)
    room = first - size * 0.6 - indent
    full = {seat: clean(names.get(seat, "")) for seat in seats}
    apart = any(measure(word, size, False) > room for seat in seats for word in full[seat].split())
    for seat, *values in rows:
        y += line * 1.1
        name = wrap_text(full[seat], width - indent if apart else room, size, measure)
        shapes.append(Text(0, y, (Span(seat, "muted", True),), size, "start"))
        shapes += [Text(indent, y + line * k, (Span(text),), size, "start") for k, text in enumerate(name)]
        y += line * (len(name) if apart else 0)
        right = first
        for i, (value, column) in enumerate(zip(values, columns, strict=True)):
            right += column
            tone = "negative" if negative[seat][i] else "ink"
            shapes.append(Text(right, y, (Span(value, tone, i in (1, 2)),), size, "end"))
        y += 0 if apart else line * (len(name) - 1)
    y += size * 0.7
    shapes.append(Line(0, y, width, y, 0.6, "muted"))
    y += size * 0.3
    for text in wrap_text(rounding_line(score.rounding, labels), width, size, measure):
        y += line
        shapes.append(Text(0, y, (Span(text, "muted"),), size, "start"))
    return shapes, y + size * 0.5
