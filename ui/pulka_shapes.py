"""What the drawn pulka sheet is made of: its words (:class:`SheetLabels`), plain shapes, text measuring and
fitting, the figures written as people read them, and one shape as SVG.

The sheet (:mod:`ui.pulka_drawing`) and its final figures (:mod:`ui.pulka_totals`) are lists of these shapes,
written as SVG for the phone page and drawn with reportlab for the PDF (:mod:`ui.pulka_sheet_pdf`). Every word
comes from :class:`SheetLabels` (the caller translates); seat letters and numbers are the only other text, and
every number passes the one formatter, :mod:`ui.templatetags.scores`, in the labels' language: a whole figure
of the sheet as a whole number (``−6``), vists with two places (``28,67``). No database.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from ui.templatetags.scores import vists_text, whole_text

__all__ = [
    "FAMILY",
    "FONT",
    "MARKS",
    "SIZE",
    "SMALL",
    "TONES",
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
    "spans_width",
    "sheet_number",
    "sheet_vists",
    "svg_attr",
    "svg_number",
    "svg_shape",
    "wrap_text",
]

SIZE = 360.0  # the sheet's square, in viewBox units (1 unit = 1 px on a 360 px phone)
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
    # how the whole vists were rounded (Code 4.2.12, pulka §8.2), with %(seat)s and %(whists)s:
    rounding_off: str  # «… %(seat)s списывает с горы 1 очко, остальные пишут на него по %(whists)s виста»
    rounding_on: str  # «… %(seat)s приписывает на гору 1 очко и пишет на каждого по %(whists)s виста»
    rounding_none: str  # «целые висты равны точным: округлять не понадобилось»
    lang: str  # the language of the words, whose decimal sign the numbers take ("ru", "en")


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

# -- text ----------------------------------------------------------------------------------------------------
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
    """``text`` cut with an ellipsis so that it fits ``width`` (a caption of the sheet: never a name, which
    :func:`wrap_text` writes whole)."""
    if measure(text, size, bold) <= width:
        return text
    while text and measure(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _pieces(word: str, width: float, size: float, measure: Measure, bold: bool) -> list[str]:
    """A word as it fits ``width``: whole, else cut after its hyphens («Жукова-» «Калинина»), and only a part
    still too wide cut between letters."""
    if measure(word, size, bold) <= width:
        return [word]
    out: list[str] = []
    for part in re.findall(r"[^-]+-*|-+", word):
        piece = ""
        for char in part:
            if piece and measure(piece + char, size, bold) > width:
                out.append(piece)
                piece = ""
            piece += char
        out.append(piece)
    return out


def wrap_text(
    text: str, width: float, size: float, measure: Measure, bold: bool = False, indent: float = 0.0
) -> list[str]:
    """``text`` in as many lines no wider than ``width`` as it needs (the first ``indent`` narrower), cut at
    spaces, a word too long for a line cut as :func:`_pieces` says: every letter is kept, a name is never cut
    short. The first line is empty when not even the first piece fits beside the indent."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        for i, piece in enumerate(_pieces(word, width, size, measure, bold)):
            joined = f"{line}{'' if i else ' '}{piece}" if line else piece
            room = width - (0.0 if lines else indent)
            if measure(joined, size, bold) <= room:
                line = joined
            elif line or not lines and indent:
                lines.append(line)
                line = piece
            else:
                line = piece  # cannot happen: a piece fits a whole line
    return [*lines, line] if line or not lines else lines


# -- numbers -------------------------------------------------------------------------------------------------
def sheet_number(value: object, labels: SheetLabels) -> str:
    """A whole figure of the sheet (pool, mountain, whists written, closing, whole vists): ``−6``."""
    return whole_text(value, labels.lang)


def sheet_vists(value: object, labels: SheetLabels) -> str:
    """Vists that may be fractional (exact vists, a deal's result, their sum): ``28,67``, ``−2,67``."""
    return vists_text(value, labels.lang)


# -- SVG -----------------------------------------------------------------------------------------------------
def svg_attr(value: str) -> str:
    return escape(value, {'"': "&quot;", "'": "&apos;"})


def svg_number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def svg_shape(shape: Shape) -> str:
    """One shape as an SVG element."""
    if isinstance(shape, Line):
        x1, y1, x2, y2 = (svg_number(v) for v in (shape.x1, shape.y1, shape.x2, shape.y2))
        return (
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{TONES[shape.tone]}" '
            f'stroke-width="{svg_number(shape.width)}"/>'
        )
    if isinstance(shape, Rect):
        x, y, w, h, r = (svg_number(v) for v in (shape.x, shape.y, shape.w, shape.h, shape.radius))
        stroke = f' stroke="{TONES[shape.stroke]}" stroke-width="1.4"' if shape.stroke else ""
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="{TONES[shape.fill]}"{stroke}/>'
    x, y = svg_number(shape.x), svg_number(shape.y)
    turn = f' transform="rotate({svg_number(shape.angle)} {x} {y})"' if shape.angle else ""
    anchor = f' text-anchor="{shape.anchor}"' if shape.anchor != "start" else ""
    bold = ' font-weight="bold"'
    body = "".join(
        f'<tspan fill="{TONES[s.tone]}"{bold if s.bold else ""}>{escape(s.text)}</tspan>' for s in shape.spans
    )
    return f'<text x="{x}" y="{y}" font-size="{svg_number(shape.size)}"{anchor}{turn}>{body}</text>'
