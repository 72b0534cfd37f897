"""The solver: the best meld (R5) for a table and a hand, exact under RULES.md.

Pure Python beside the engine (no Django; it imports only ``rummy.engine``). Bots, the
practice table, hints and the review call ``solve``::

    from rummy.solver import Position, solve
    sol = solve(Position.of(["7H 8H 9H"], "10H JH 2C"))
    sol.count, sol.knock, sol.goes_out, sol.proven, sol.action()

The search is ``search`` (a dynamic programme over positions and suits), the cards of
the answer come from ``build``; the tie-break (the fewest table cards moved, ``moved``)
is ``arrange`` (greedy) and then ``fewest`` (exact, as far as its time allows);
``samples`` makes seeded positions from random play for tests and benchmarks.
"""

from .position import Position, SolverError, decks_for, position_from_view, position_of
from .solve import TIME_LIMIT, Solution, solve

__all__ = [
    "TIME_LIMIT",
    "Position",
    "Solution",
    "SolverError",
    "decks_for",
    "position_from_view",
    "position_of",
    "solve",
]
