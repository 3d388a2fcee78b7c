"""A QR code on a printout: the table cards (a table's page), the PIN slips (a player's own link).

``draw_qr`` draws the code as vector squares (sharp at any print size, a few hundred bytes); ``TableLink`` is what
a printed table carries: its code and the address the QR code opens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
from reportlab.lib import colors  # type: ignore[import-untyped]

__all__ = ["TableLink", "draw_qr"]


@dataclass(frozen=True)
class TableLink:
    """A table's code and the address of its page (absolute when the file was made with the site's address)."""

    code: str
    url: str


def draw_qr(c: Any, data: str, x: float, y: float, size: float) -> None:
    """A QR code of ``data`` as vector squares, lower-left corner at (x, y), ``size`` points wide."""
    qr = segno.make(data, error="m", micro=False)
    matrix = qr.matrix
    n = len(matrix)
    border = 2
    module = size / (n + 2 * border)
    c.setFillColor(colors.white)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColor(colors.black)
    path = c.beginPath()
    for r, line in enumerate(matrix):
        col = 0
        while col < n:
            if line[col]:
                start = col
                while col < n and line[col]:
                    col += 1
                path.rect(
                    x + (border + start) * module,
                    y + size - (border + r + 1) * module,
                    (col - start) * module,
                    module,
                )
            else:
                col += 1
    c.drawPath(path, stroke=0, fill=1)
