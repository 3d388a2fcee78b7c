"""Which solver runs: the compiled kernel (:mod:`preferans.dd.kernel`, numba) when it can be imported, else the
pure-Python :class:`preferans.dd.solver.Solver`. Both answer the same null-window question exactly; the tests
check them against each other and against the plain reference search."""

from __future__ import annotations

from preferans.dd.board import SearchFactory
from preferans.dd.solver import Search, Solver


def _pure(trump: int, declarer: int, goal: str) -> Search:
    return Solver(trump, declarer, goal)


def search_factory(kind: str = "auto") -> SearchFactory:
    """``auto``: the kernel if available; ``pure``: always the Python solver; ``kernel``: the kernel or an
    ImportError."""
    if kind == "pure":
        return _pure
    try:
        from preferans.dd.kernel import KernelSearch
    except ImportError:  # numba missing: the pure solver answers the same, only slower
        if kind == "kernel":
            raise
        return _pure
    factory: SearchFactory = KernelSearch
    return factory


def solver_name(factory: SearchFactory) -> str:
    """A short name of the solver a factory of :func:`search_factory` makes, stored with each analysis."""
    return "pure" if factory is _pure else "kernel"
