"""Seating the next round of a compensation or Swiss event (``docs/rules/pairing-spec.md``, cited "pairing §n";
the file contract ``docs/formats.md`` §9).

* :mod:`.sizes` — table sizes, byes and the book's rank intervals (§1, §2);
* :mod:`.measure` — repeats R and displacement D of a seating (§4);
* :mod:`.problem` — the seating problem in numbers;
* :mod:`.search` — a fast start by swaps; :mod:`.solver` — the exact model (OR-Tools CP-SAT);
* :mod:`.enumerate` — plain enumeration for small fields (the cross-check);
* :mod:`.pair` — the one entry point :func:`pair`; :mod:`.check` — the checker (§5);
* :mod:`.document` — the ``preferans-pairing`` JSON in and out.

Pure Python: no Django import.
"""

from __future__ import annotations

from .pair import Form, Pairing, pair
from .sizes import book_tables, intervals, split_tables

__all__ = ["Form", "Pairing", "book_tables", "intervals", "pair", "split_tables"]
