"""The rules of preferans and of its tournaments, in plain Python: no Django, exact fractions, typed.

This is the library the Django apps call (the way a model calls a pure library for its rules). Nothing here
imports Django or any app of the project; a test enforces it (``tests/test_architecture.py``).

* :mod:`preferans.numbers` — exact numbers: parsing and writing fractions, percentages;
* :mod:`preferans.game` — one deal: contracts, variant profiles, deal → ledger → vists, row validation, costs;
* :mod:`preferans.cards` — the deck and its notation, dealing boards, fouled-board comparison, typed layouts;
* :mod:`preferans.movements` — movements: the basic one, the book's schemes, the planner, table cards;
* :mod:`preferans.duplicate` — the duplicate tournament: matchpoints, standings, scoring a session, rulings
  on irregularities, the deadlines of the rules;
* :mod:`preferans.bundle` — the tournament bundle (the interchange file, docs/formats.md): parse and write;
* :mod:`preferans.simulate` — simulated events (demo, benchmarks, load tests).
"""
