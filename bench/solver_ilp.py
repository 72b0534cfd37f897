"""The solver's second method: an integer program over candidate melds, solved by HiGHS.

Written apart from ``rummy.solver.search`` (which counts open runs rank by rank), it
models a position as a choice of melds out of every possible one: each run (suit,
first and last position, 3 to 13 cards, the ace low or high, R4.3) and each group
(rank, 3 or 4 suits, R4.2), each used ``x`` times (two decks: twice). For every card
``t`` the slots of the chosen melds equal the real ``t`` on the table, the hand's ``t``
played (``u``), the table jokers still declared ``t`` (``K - f``, ``f`` freed, at most
the real ``t`` at the end: R5.2 d and its Decision) and the wildcards declared ``t``
(``j``: freed jokers, which must all be placed, and hand jokers). It maximises the
points played; the count left is the hand's points minus that (R7.1).

scipy (``scipy.optimize.milp``, HiGHS) is a dev-only dependency: the proof
(``bench/solver_proof.py``) and the tests use it, the site does not.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from rummy.engine.cards import JOKER_PCODE, POINTS
from rummy.solver import Position


def _templates() -> list[list[int]]:
    out: list[list[int]] = []
    for s in range(4):
        for a in range(1, 15):
            for b in range(a + 2, min(a + 12, 14) + 1):
                out.append([s * 13 + (0 if p == 14 else p - 1) for p in range(a, b + 1)])
    for r in range(13):
        suits = [0, 1, 2, 3]
        for leave in suits:
            out.append([s * 13 + r for s in suits if s != leave])
        out.append([s * 13 + r for s in suits])
    return out


TEMPLATES = _templates()


def best_played(pos: Position, keep_jokers: bool = False) -> int:
    """The most points the meld can play (0: no meld exists)."""
    table = Counter(c.pcode for m in pos.table for c in m if not c.joker)
    kept = Counter(c.ecode for m in pos.table for c in m if c.joker)
    hand = Counter(c.pcode for c in pos.hand)
    hand_jokers = 0 if keep_jokers else hand.pop(JOKER_PCODE, 0)
    hand.pop(JOKER_PCODE, None)
    nm = len(TEMPLATES)
    # variables: x (nm), u (52), j (52), f (52)
    nx = nm + 3 * 52
    U, J, F = nm, nm + 52, nm + 104
    c = np.zeros(nx)
    for t in range(52):
        c[U + t] = -POINTS[t]
        c[J + t] = -25
        c[F + t] = 25
    lo = np.zeros(nx)
    hi = np.zeros(nx)
    hi[:nm] = 4
    for t in range(52):
        hi[U + t] = hand[t]
        hi[J + t] = 2
        hi[F + t] = kept[t]
    rows: list = []
    lb: list[float] = []
    ub: list[float] = []
    for t in range(52):
        row = np.zeros(nx)
        for i, m in enumerate(TEMPLATES):
            row[i] = m.count(t)
        row[U + t] = -1
        row[J + t] = -1
        row[F + t] = 1
        rows.append(row)
        lb.append(table[t] + kept[t])
        ub.append(table[t] + kept[t])
        free = np.zeros(nx)  # f_t <= real t on the table at the end
        free[F + t] = 1
        free[U + t] = -1
        rows.append(free)
        lb.append(-np.inf)
        ub.append(table[t])
    wild = np.zeros(nx)  # freed jokers are all placed; the rest come from the hand
    wild[J : J + 52] = 1
    wild[F : F + 52] = -1
    rows.append(wild)
    lb.append(0)
    ub.append(hand_jokers)
    some = np.zeros(nx)  # R5.2 (a): at least one hand card
    some[U : U + 52] = 1
    some[J : J + 52] = 1
    some[F : F + 52] = -1
    rows.append(some)
    lb.append(1)
    ub.append(np.inf)
    # HiGHS's presolve (scipy 1.15.3) answered two of 7,000 proof positions wrongly: a
    # "optimal" x with melds used -1 times (outside its bounds), and an optimum below an
    # arrangement the engine accepts; without it both agree with the solver.
    res = milp(
        c,
        constraints=LinearConstraint(np.array(rows), lb, ub),
        integrality=np.ones(nx),
        bounds=Bounds(lo, hi),
        options={"presolve": False},
    )
    if res.status == 2:  # infeasible: no meld
        return 0
    if res.status != 0:
        raise RuntimeError(f"HiGHS did not finish: {res.message}")
    if np.any(res.x < lo - 1e-6) or np.any(res.x > hi + 1e-6):
        raise RuntimeError("HiGHS answered outside the variables' bounds.")
    return round(-res.fun)
