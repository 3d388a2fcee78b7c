"""Movements of players and sets for duplicate preferans (seed §4–§5, docs/rules/movements.md).

Pure Python, no Django: frozen dataclasses in, frozen dataclasses out. Public API:

- ``Movement``, ``Round``, ``TableAssignment``, ``Seat``, ``Line``, ``MovementError`` — the data;
- ``basic_movement`` (with the skip procedure, rooms and substitutes), ``book_movement`` (the book's schemes
  as data), ``route_movement`` / ``RouteScheme`` (cyclic schemes written as routes);
- ``validate`` / ``check`` — the rules every movement must pass, and the properties a director weighs;
- ``plan`` — the planner behind ``manage.py movement --scheme auto``; its reasons are ``Reason`` strings
  (English, with a stable ``code`` and ``params`` for translation);
- ``table_cards``, ``director_rows``, ``render_text`` — what the director prints; ``rests`` — who sits out
  in each round and where he plays again;
- ``movement_to_dict``, ``movement_from_dict``, ``build_movement`` — the JSON of formats.md §2 and §4.
"""

from .basic import basic_movement, is_prime
from .book import BOOK_CORRECTIONS, BOOK_SCHEMES, book_correction, book_movement, book_numbers
from .draw import draw_starting_numbers
from .instructions import director_rows, render_text, row_place, table_cards
from .model import Line, Movement, MovementError, MovementRound, TableAssignment, TableSeat, dealer_of_board
from .planner import Plan, plan
from .reasons import Reason
from .rests import Rest, Return, rests
from .routes import Group, RouteScheme, route_movement
from .serialize import build_movement, movement_from_dict, movement_to_dict, properties_to_dict
from .validate import Properties, ValidationReport, check, nobody_moves, unmet_line_pairs, validate

__all__ = [
    "BOOK_CORRECTIONS",
    "BOOK_SCHEMES",
    "Group",
    "Line",
    "Movement",
    "MovementError",
    "Plan",
    "Properties",
    "Reason",
    "Rest",
    "Return",
    "ValidationReport",
    "MovementRound",
    "RouteScheme",
    "TableSeat",
    "TableAssignment",
    "basic_movement",
    "book_correction",
    "book_movement",
    "book_numbers",
    "build_movement",
    "check",
    "dealer_of_board",
    "director_rows",
    "draw_starting_numbers",
    "is_prime",
    "movement_from_dict",
    "movement_to_dict",
    "nobody_moves",
    "plan",
    "properties_to_dict",
    "render_text",
    "rests",
    "route_movement",
    "row_place",
    "table_cards",
    "unmet_line_pairs",
    "validate",
]
