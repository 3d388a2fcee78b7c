"""Server-rendered SVG pictures: a participant's running percentage and the spread of results on a board.

Plain strings, no JavaScript and no drawing library: they are inlined in the pages (and can be saved as
``.svg``). Every point carries a ``<title>`` so a pointer shows the exact figure, in the page's decimal sign.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from html import escape

from results.derived import BoardFrequencies, RunningPoint
from ui.templatetags.scores import display_number

__all__ = ["board_spread_svg", "running_chart_svg"]

ACCENT = "#1f5fa8"
MUTED = "#5f6b76"
GRID = "#dde2e7"


def _num(value: Fraction) -> str:
    return display_number(value)  # the page's decimal sign, as everywhere (ui.templatetags.scores)


def running_chart_svg(
    points: Sequence[RunningPoint],
    *,
    title: str,
    round_label: str = "Round",
    many_sessions: bool = False,
    rests: Collection[tuple[int, int]] = (),
    rest_label: str = "rest",
    width: int = 720,
    height: int = 260,
    css_class: str = "chart-running",
) -> str:
    """Percentage after each round (cumulative): a line, dots, the 50 % line, axes labelled.

    ``rests`` are the (session, round) the participant sat out: each takes its place on the round axis as a
    shaded band marked ``rest_label``, and the line breaks there (nothing was scored)."""
    left, right, top, bottom = 44, 14, 28, 36
    pw, ph = width - left - right, height - top - bottom
    values = [float(p.percent) for p in points]
    lo = min([30.0, *[v - 5 for v in values]])
    hi = max([70.0, *[v + 5 for v in values]])
    lo, hi = max(0.0, (lo // 10) * 10), min(100.0, -(-hi // 10) * 10)

    def y_of(v: float) -> float:
        return top + ph * (hi - v) / (hi - lo)

    played = [(p.session, p.round) for p in points]
    slots = sorted(set(played) | set(rests))  # the round axis: every round played or rested
    slot_of = {key: i for i, key in enumerate(slots)}
    n = len(slots)

    def x_of(i: int) -> float:
        return left + (pw * i / (n - 1) if n > 1 else pw / 2)

    def x_at(i: int) -> float:  # the point's place among the slots
        return x_of(slot_of[played[i]])

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}" class="chart {css_class}" font-family="DejaVu Sans, sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="16" font-size="13" font-weight="600" fill="#1d232a">{escape(title)}</text>',
    ]
    tick = 10
    v = lo
    while v <= hi + 1e-9:
        y = y_of(v)
        dash = ' stroke-dasharray="4 3" stroke="#9aa5b1"' if v == 50 else f' stroke="{GRID}"'
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}"{dash}/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="{MUTED}">{v:.0f}%</text>')
        v += tick
    if not points:
        out.append("</svg>")
        return "".join(out)
    band = pw / max(n - 1, 1) * 0.6
    for session, rnd in sorted(rests):
        x = x_of(slot_of[(session, rnd)])
        x0, x1 = max(left, x - band / 2), min(left + pw, x + band / 2)  # inside the plot at either end
        tip = f"{round_label} {f'{session}.{rnd}' if many_sessions else rnd}: {rest_label}"
        out.append(
            f'<g class="rest"><rect x="{x0:.1f}" y="{top}" width="{x1 - x0:.1f}" height="{ph}" fill="#eef1f4">'
            f"<title>{escape(tip)}</title></rect>"
            f'<text x="{x:.1f}" y="{top + ph / 2:.1f}" text-anchor="middle" fill="{MUTED}" font-style="italic" '
            f'transform="rotate(-90 {x:.1f} {top + ph / 2:.1f})">{escape(rest_label)}</text></g>'
        )
    every = max(1, n // 16)
    for i, (session, rnd) in enumerate(slots):
        if i % every == 0 or i == n - 1:
            label = f"{session}.{rnd}" if many_sessions else str(rnd)
            out.append(
                f'<text x="{x_of(i):.1f}" y="{top + ph + 16}" text-anchor="middle" fill="{MUTED}">{escape(label)}</text>'
            )
    out.append(
        f'<text x="{left + pw / 2:.1f}" y="{height - 4}" text-anchor="middle" fill="{MUTED}">{escape(round_label)}</text>'
    )
    # The line breaks at a rest: one polyline per run of rounds played one after another.
    runs: list[list[int]] = [[]]
    for i in range(len(points)):
        if runs[-1] and slot_of[played[i]] != slot_of[played[runs[-1][-1]]] + 1:
            runs.append([])
        runs[-1].append(i)
    for run in runs:
        coords = " ".join(f"{x_at(i):.1f},{y_of(values[i]):.1f}" for i in run)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{ACCENT}" stroke-width="2.2"/>')
    for i, p in enumerate(points):
        tip = f"{p.label}: {display_number(p.percent, trim=False)}% ({_num(p.matchpoints)} / {_num(p.top)})"
        out.append(
            f'<circle cx="{x_at(i):.1f}" cy="{y_of(values[i]):.1f}" r="3.5" fill="#fff" stroke="{ACCENT}" '
            f'stroke-width="2"><title>{escape(tip)}</title></circle>'
        )
    last = points[-1]
    out.append(
        f'<text x="{x_at(len(points) - 1) - 4:.1f}" y="{y_of(values[-1]) - 9:.1f}" text-anchor="end" font-weight="600" '
        f'fill="{ACCENT}">{display_number(last.percent, trim=False)}%</text>'
    )
    out.append("</svg>")
    return "".join(out)


def _colour(share: float) -> str:
    """Red (0 % of the top) → amber → green (100 %)."""
    share = min(1.0, max(0.0, share))
    if share < 0.5:
        r, g, b = 200, int(60 + 2 * share * 140), 50
    else:
        r, g, b = int(200 - (share - 0.5) * 2 * 170), 170, int(50 + (share - 0.5) * 2 * 30)
    return f"#{r:02x}{g:02x}{b:02x}"


def board_spread_svg(
    freq: BoardFrequencies, *, title: str, seat_names: Mapping[str, str] | None = None, width: int = 720
) -> str:
    """One row per seat line: each distinct vists result as a dot sized by how many tables got it and
    coloured by its matchpoints (share of the top), with the count beside it."""
    lines = [(seat, items) for seat, items in freq.lines.items() if items]
    left, right, top = 40, 20, 30
    row_h = 46
    height = top + row_h * max(1, len(lines)) + 30
    values = [f.value for _seat, items in lines for f in items if f.value is not None]
    lo = float(min(values, default=Fraction(-10)))
    hi = float(max(values, default=Fraction(10)))
    if hi - lo < 1:
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * 0.06
    lo, hi = lo - pad, hi + pad
    pw = width - left - right

    def x_of(v: float) -> float:
        return left + pw * (v - lo) / (hi - lo)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}" class="chart chart-spread" font-family="DejaVu Sans, sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="16" font-size="13" font-weight="600" fill="#1d232a">{escape(title)}</text>',
    ]
    if lo < 0 < hi:
        x0 = x_of(0)
        out.append(
            f'<line x1="{x0:.1f}" x2="{x0:.1f}" y1="{top}" y2="{top + row_h * len(lines)}" stroke="#9aa5b1" stroke-dasharray="4 3"/>'
        )
    biggest = max((f.count for _s, items in lines for f in items), default=1)
    for k, (seat, items) in enumerate(lines):
        cy = top + row_h * k + row_h / 2
        name = (seat_names or {}).get(seat, seat)
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{cy:.1f}" y2="{cy:.1f}" stroke="{GRID}"/>')
        out.append(
            f'<text x="{left - 10}" y="{cy + 4:.1f}" text-anchor="end" font-weight="600">{escape(name)}</text>'
        )
        for f in items:
            if f.value is None:
                continue
            r = 4 + 9 * (f.count / biggest) ** 0.5
            share = float(f.matchpoints / f.top) if f.top else 0.5
            tip = f"{seat}: {_num(f.value)} × {f.count} — {_num(f.matchpoints)} / {_num(f.top)}"
            out.append(
                f'<circle cx="{x_of(float(f.value)):.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{_colour(share)}" '
                f'fill-opacity="0.85" stroke="#fff"><title>{escape(tip)}</title></circle>'
            )
            if f.count > 1:
                out.append(
                    f'<text x="{x_of(float(f.value)):.1f}" y="{cy - r - 3:.1f}" text-anchor="middle" '
                    f'font-size="10" fill="{MUTED}">×{f.count}</text>'
                )
    axis_y = top + row_h * len(lines) + 16
    for v in _ticks(lo, hi):
        out.append(f'<text x="{x_of(v):.1f}" y="{axis_y}" text-anchor="middle" fill="{MUTED}">{v:g}</text>')
    out.append("</svg>")
    return "".join(out)


def _ticks(lo: float, hi: float) -> list[float]:
    span = hi - lo
    step = 1.0
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        step = float(candidate)
        if span / step <= 8:
            break
    first = -(-lo // step) * step
    out = []
    v = first
    while v <= hi:
        out.append(round(v, 6))
        v += step
    return out
