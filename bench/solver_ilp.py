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

``best_played_and_moved`` then solves a second program with the points played fixed at
that optimum, for the tie-break (the fewest table cards moved, defined in
``rummy.solver.moved``): ``y[i, T] = 1`` matches old meld ``i`` to one instance of ``T``
(each old meld to at most one, each instance to at most one old meld: ``sum_i y[i, T] <=
x[T]``), keeping the cards ``i`` shares with ``T`` (real cards by card, jokers by their
declaration; at most as many kept jokers declared ``X`` as jokers declared ``X`` at the
end). It maximises the cards kept; moved is the table's cards less that.

HiGHS (``highspy``) is asked here through its own few lines (``_milp``), apart from
the solver's.
"""

from __future__ import annotations

from collections import Counter

import highspy
import numpy as np

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
    return _solve(pos, keep_jokers, tie_break=False)[0]


def best_played_and_moved(pos: Position, keep_jokers: bool = False) -> tuple[int, int]:
    """(the most points the meld can play, the fewest table cards moved doing so); (0, 0)
    when no meld exists."""
    return _solve(pos, keep_jokers, tie_break=True)


def _solve(pos: Position, keep_jokers: bool, tie_break: bool) -> tuple[int, int]:
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
    status, x, fun = _milp(c, np.array(rows), lb, ub, lo, hi)
    if status == highspy.HighsModelStatus.kInfeasible:  # no meld
        return 0, 0
    _check(status, x, lo, hi)
    played = round(-fun)
    if not tie_break or not pos.table:
        return played, 0
    # the second program: points played fixed, the most table cards kept in their melds
    # y: old meld i matched to an instance of template k, worth the real cards they share;
    # z: besides, a joker of i kept with its declaration in that instance (z <= y)
    pairs: list[tuple[int, int, int]] = []  # (old meld, template, real cards shared)
    zs: list[tuple[int, int]] = []  # (pair, the joker's declaration)
    for i, meld in enumerate(pos.table):
        for k, tpl in enumerate(TEMPLATES):
            w = sum(1 for card in meld if not card.joker and card.pcode in tpl)
            decl = [card.ecode for card in meld if card.joker and card.ecode in tpl]
            if w or decl:
                zs.extend((len(pairs), t) for t in decl)
                pairs.append((i, k, w))
    ny, nz = len(pairs), len(zs)
    Y, Z = nx, nx + len(pairs)
    nv = nx + ny + nz
    c2 = np.zeros(nv)
    for n, (_i, _k, w) in enumerate(pairs):
        c2[Y + n] = -w
    c2[Z:] = -1
    lo2 = np.concatenate([lo, np.zeros(ny + nz)])
    hi2 = np.concatenate([hi, np.ones(ny + nz)])
    rows2 = [np.concatenate([r, np.zeros(ny + nz)]) for r in rows]
    lb2, ub2 = list(lb), list(ub)

    def add(row, low, high):
        rows2.append(row)
        lb2.append(low)
        ub2.append(high)

    fix = np.zeros(nv)  # the points played at their optimum
    fix[:nx] = -c
    add(fix, played, played)
    for i in range(len(pos.table)):
        row = np.zeros(nv)
        for n, (i2, _k, _w) in enumerate(pairs):
            if i2 == i:
                row[Y + n] = 1
        add(row, 0, 1)
    for k in range(nm):
        row = np.zeros(nv)
        for n, (_i, k2, _w) in enumerate(pairs):
            if k2 == k:
                row[Y + n] = 1
        if row.any():
            row[k] = -1
            add(row, -np.inf, 0)
    for n, (pair, _t) in enumerate(zs):
        row = np.zeros(nv)
        row[Z + n] = 1
        row[Y + pair] = -1
        add(row, -np.inf, 0)
    for t in range(52):
        row = np.zeros(nv)  # kept jokers declared t <= jokers declared t at the end
        for n, (_pair, t2) in enumerate(zs):
            if t2 == t:
                row[Z + n] = 1
        if row.any():
            row[F + t] = 1
            row[J + t] = -1
            add(row, -np.inf, kept[t])
    status, x, fun = _milp(c2, np.array(rows2), lb2, ub2, lo2, hi2)
    _check(status, x, lo2, hi2)
    return played, pos.table_cards - round(-fun)


def _milp(c, rows, lb, ub, lo, hi):
    """Minimise ``c`` x over integer x within [lo, hi], lb <= rows x <= ub: (HiGHS's
    model status, x, the minimum)."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    # HiGHS's presolve (the one in scipy 1.15.3) answered two of 7,000 proof positions
    # wrongly: an "optimal" x with melds used -1 times (outside its bounds), and an
    # optimum below an arrangement the engine accepts; without it both agree with the
    # solver
    h.setOptionValue("presolve", "off")
    h.setOptionValue("threads", 1)  # as the solver's: one thread, timed by its CPU time
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(c), len(rows)
    lp.col_cost_ = np.asarray(c, dtype=float)
    lp.col_lower_, lp.col_upper_ = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    lp.row_lower_, lp.row_upper_ = np.asarray(lb, dtype=float), np.asarray(ub, dtype=float)
    cols, at = np.nonzero(rows.T)  # column by column
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.searchsorted(cols, np.arange(len(c) + 1))
    lp.a_matrix_.index_ = at
    lp.a_matrix_.value_ = rows[at, cols]
    lp.integrality_ = [highspy.HighsVarType.kInteger] * len(c)
    h.passModel(lp)
    h.run()
    solution = h.getSolution()
    x = np.array(solution.col_value) if solution.value_valid else None
    return h.getModelStatus(), x, h.getInfo().objective_function_value


def _check(status, x, lo, hi):
    if status != highspy.HighsModelStatus.kOptimal:
        raise RuntimeError(f"HiGHS did not finish: {status}")
    if np.any(x < lo - 1e-6) or np.any(x > hi + 1e-6):
        raise RuntimeError("HiGHS answered outside the variables' bounds.")
