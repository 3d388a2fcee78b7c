"""Double-dummy analysis of stored boards: one service that makes, stores and reads it (the pure search is
``preferans.dd.board``; the background task per board is in ``boards.tasks``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone

from boards.models import Board, BoardAnalysis
from preferans.dd.board import KEYS, STRAINS, BoardInput, analyse_board, analysis_json, parse_boards
from preferans.dd.engine import search_factory, solver_name
from preferans.game.contracts import CONTRACT_CODES, LEVELS, MISERE
from preferans.game.variants import Rules


def layout_of(board: Board) -> dict[str, Any] | None:
    """The board in the input form of formats.md §8.2, or None without a recorded layout."""
    if not board.hands or len(board.prikup or ()) != 2:
        return None
    players = int(board.session.tournament.players_per_table)
    return {
        "dealer": board.dealer,
        "players": players,
        "hands": dict(board.hands),
        "prikup": list(board.prikup),
    }


def board_input(board: Board, layout: dict[str, Any] | None = None) -> BoardInput | None:
    """The board as the search reads it (from ``layout``, its :func:`layout_of`, when the caller has it)."""
    layout = layout or layout_of(board)
    if layout is None:
        return None
    return parse_boards([{**layout, "number": board.number}])[0]


def analyse_and_store(
    board: Board, progress: Callable[[int, int], None] | None = None
) -> BoardAnalysis | None:
    """Analyse the board's layout and store it (replacing an older analysis); None without a layout."""
    layout = layout_of(board)
    given = board_input(board, layout)
    if layout is None or given is None:
        return None
    factory = search_factory()
    started = time.perf_counter()
    seats = analysis_json(given, analyse_board(given, factory, progress))["seats"]
    seconds = Decimal(f"{time.perf_counter() - started:.3f}")
    with transaction.atomic():
        analysis, _ = BoardAnalysis.objects.update_or_create(
            board=board,
            defaults={
                "layout": layout,
                "seats": seats,
                "solver": solver_name(factory),
                "seconds": seconds,
                "made_at": timezone.now(),
            },
        )
    return analysis


def stored_analysis(board: Board) -> dict[str, dict[str, Any]] | None:
    """The ``seats`` object of formats.md §8.2 for the board's current layout, or None when it was never
    analysed or its layout changed since."""
    try:
        analysis = board.analysis
    except BoardAnalysis.DoesNotExist:
        return None
    if analysis.layout != layout_of(board):
        return None
    seats: dict[str, dict[str, Any]] = analysis.seats
    return seats


# -- the makeable table and the par (shown on the board pages and the hand records) ------------------------------
@dataclass(frozen=True)
class Par:
    """The best contract a seat can declare and make: ``code`` as the protocol writes it (``"8NT"``, ``"MIS"``),
    its ``level`` and ``strain`` (``None`` for misère) and its ``value`` — the pool entry of the event's variant."""

    seat: str
    code: str
    level: int | None
    strain: str | None
    value: Fraction

    @property
    def symbol(self) -> str:
        """The suit's symbol for a suit contract; empty for no-trumps and misère (the page names those)."""
        return SUIT_SYMBOLS.get(self.strain or "", "")

    @property
    def red(self) -> bool:
        return self.strain in ("D", "H")


@dataclass(frozen=True)
class MakeableRow:
    seat: str
    tricks: tuple[int, ...]  # in the order of KEYS: S C D H NT misère
    par: Par | None  # None: nothing this seat declares can be made


@dataclass(frozen=True)
class Makeable:
    """The table of makeable contracts of one board: one row per active seat, and the board's par (the best of
    the seats' pars; every seat that reaches it)."""

    rows: tuple[MakeableRow, ...]
    par: tuple[Par, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return KEYS


SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def _rank(par: Par) -> tuple[Fraction, int]:
    # The higher value wins; at equal value the higher contract of the bidding ladder (8NT over 8S, 10S over MIS).
    return par.value, CONTRACT_CODES.index(par.code)


def seat_par(seat: str, tricks: dict[str, Any], rules: Rules) -> Par | None:
    """The par rule: in each strain the highest level L (6–10) with L ≤ the tricks he takes, worth the variant's
    price of L; misère when he can be held to no trick, worth the misère price; the best of these."""
    found: list[Par] = []
    for strain in STRAINS:
        taken = int(tricks[strain])
        if taken >= LEVELS[0]:
            level = min(taken, LEVELS[-1])
            found.append(Par(seat, f"{level}{strain}", level, strain, rules.price(level)))
    if int(tricks["misere"]) == 0:
        found.append(Par(seat, MISERE, None, None, rules.misere_price))
    return max(found, key=_rank) if found else None


def makeable(seats: dict[str, dict[str, Any]], rules: Rules) -> Makeable:
    """The makeable table of a stored analysis (``stored_analysis``) under ``rules`` (``Tournament.rules``)."""
    order = [s for s in ("N", "E", "S", "W") if s in seats]
    rows = []
    for seat in order:
        best = seat_par(seat, seats[seat], rules)
        rows.append(MakeableRow(seat, tuple(int(seats[seat][k]) for k in KEYS), best))
    pars = [r.par for r in rows if r.par is not None]
    top = max((_rank(p) for p in pars), default=None)
    return Makeable(tuple(rows), tuple(p for p in pars if _rank(p) == top))


def board_makeable(board: Board) -> Makeable | None:
    """The makeable table of the board's current layout, or None when it is not analysed (or stale)."""
    seats = stored_analysis(board)
    if seats is None:
        return None
    return makeable(seats, board.session.tournament.rules)


# -- the analysis of a session: what is done, what is missing ---------------------------------------------------
@dataclass(frozen=True)
class SessionAnalysis:
    """Where a session's analysis stands: boards with a current analysis, boards never analysed, boards whose
    layout changed since (stale), and boards without a layout (nothing to analyse)."""

    done: tuple[Board, ...]
    missing: tuple[Board, ...]
    stale: tuple[Board, ...]
    no_layout: tuple[Board, ...]

    @property
    def total(self) -> int:
        """The boards that can be analysed (those with a layout)."""
        return len(self.done) + len(self.missing) + len(self.stale)

    @property
    def complete(self) -> bool:
        return not self.missing and not self.stale


def session_analysis(session: Any) -> SessionAnalysis:
    done: list[Board] = []
    missing: list[Board] = []
    stale: list[Board] = []
    no_layout: list[Board] = []
    for board in Board.objects.filter(session=session).select_related("analysis", "session__tournament"):
        if layout_of(board) is None:
            no_layout.append(board)
        elif stored_analysis(board) is not None:
            done.append(board)
        elif BoardAnalysis.objects.filter(board=board).exists():
            stale.append(board)
        else:
            missing.append(board)
    return SessionAnalysis(tuple(done), tuple(missing), tuple(stale), tuple(no_layout))
