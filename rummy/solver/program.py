"""The tie-break as an integer program: among the tables that play ``points`` (the count
search's proven optimum), one that moves the fewest table cards, proven by HiGHS.

Why an integer program here and a search for the count: the count search is fast on
every table, but the exact search for the fewest moved (``fewest``)
grows about twentyfold with each card moved and does not finish on big tables within a
hint's time. With the points fixed, the tie-break is an assignment problem that HiGHS
(``highspy``) proves in a few tens of milliseconds on most full tables.

The model. A *meld* ``k`` is a run (R4.3: a suit, 3 to 13 positions, the ace low or
high) or a group (R4.2: a rank, 3 or 4 suits) that the cards to be had can fill (real
cards on the table or in the hand, and the jokers in play), with ``x[k]`` copies of it
at the end (at most one per deck). A run of 6 or more is left out unless some old meld
could need it whole (``_unsplittable``): that keeps a third of the runs, and HiGHS has
fewer near-equal tables to choose between.

- ``u[t]`` real ``t`` played from the hand, ``e[t]`` jokers declared ``t`` at the end;
- every card's places are filled (R5.2 b, c): the copies holding ``t`` are the real
  ``t`` on the table, ``u[t]`` and ``e[t]``; the jokers at the end are the table's and
  the hand's played;
- a table joker keeps its card unless freed (R5.2 d and its Decision): the jokers that
  no longer stand for ``t`` (``K[t] - e[t]``) are at most the real ``t`` at the end;
- the hand cards played are worth ``points`` (so at least one is played: R5.2 a);
- ``y[i, k]`` partners old meld ``i`` with a copy of ``k``, one to one
  (``rummy.solver.moved`` defines moved by such a matching), keeping the real cards
  they share, and a joker of ``i`` where a copy holds a joker with its declaration.

It maximises the cards kept; moved is the table's cards less that. Where a copy holds a
joker for ``t`` and its partner had the real ``t``, that real card has not stayed: the
quick model (*relaxed*) does not see it, so its figure is a bound. Its answer is made
into a table (``_table`` puts each joker where it keeps most) and checked by the
caller; when the table moves no more than the bound, it is proven. Otherwise the whole
model runs (*slots*: ``q[k, t]`` jokers in the copies' places of ``t``, and what a
joker in a partner's real place loses). The bound is all it adds: in the proof's
positions the quick model settles almost every one, and the whole one is a few times
slower.

Written apart from the proof's integer program (``bench/solver_ilp.py``), which counts
cards per template, finds the points itself and bounds kept jokers per declaration.
"""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummy.engine.cards import JOKER_AS, JOKER_PCODE, POINTS, REAL_CARDS, Card

from . import clock
from .position import Position

#: HiGHS's presolve gave two wrong "optimal" answers in 7,000 of the proof's positions
#: (an older HiGHS, bench/solver_ilp.py), and here it makes full tables slower, not
#: faster: off.
PRESOLVE = False

_loading: threading.Thread | None = None


def ready() -> bool:
    """Whether HiGHS (``highspy``) is imported. The first call starts its import in the
    background and says no: the import takes about a quarter of a second, half a
    hint's whole time, so the solve that asked uses the searches and the next ones the
    program. The proof and the tests call ``load`` instead."""
    global _loading
    if "highspy" in sys.modules and _loading is None:
        return True
    if _loading is None:
        _loading = threading.Thread(target=load, name="load-highs", daemon=True)
        _loading.start()
        return False
    return not _loading.is_alive()


def load() -> None:
    """Import what the program needs (now, in this thread)."""
    import highspy  # noqa: F401
    import numpy  # noqa: F401


Table = list[list[Card]]
#: the caller's check of a table: the cards it moves, or None if the engine refuses it
Check = Callable[[Table], "int | None"]


@dataclass(frozen=True)
class Programmed:
    """A table found by the program: ``moved`` (as the caller's check counted it),
    ``proven`` when no table playing the same points moves fewer."""

    table: Table
    moved: int
    proven: bool


def _run(suit: int, first: int, last: int) -> tuple[int, ...]:
    """The pcodes of the run of ``suit`` from position ``first`` to ``last`` (1 is the
    low ace, 14 the high one, R4.3)."""
    return tuple(suit * 13 + (0 if p == 14 else p - 1) for p in range(first, last + 1))


def _templates() -> list[tuple[int, ...]]:
    """Every meld as the cards it holds, in order: runs of 3 to 13 (R4.3), then groups
    of 3 and 4 suits (R4.2)."""
    out = [
        _run(s, a, b)
        for s in range(4)
        for a in range(1, 13)
        for b in range(a + 2, min(a + 12, 14) + 1)
    ]
    for r in range(13):
        out.append(tuple(s * 13 + r for s in range(4)))
        out.extend(tuple(s * 13 + r for s in range(4) if s != leave) for leave in range(4))
    return out


TEMPLATES = _templates()


def fewest_moved(
    pos: Position,
    points: int,
    check: Check,
    keep: Sequence[Card] = (),
    deadline: float | None = None,
) -> Programmed | None:
    """The table playing hand cards worth ``points`` (reachable: the count search's
    optimum) that moves the fewest table cards, or None when none was found in time or
    ``check`` refused what was. Past ``deadline`` (an instant of ``clock.now()``) the best
    table found so far is returned, not proven."""
    model = _Model(pos, points, keep)
    quick = model.solve(slots=False, deadline=deadline)
    if quick is None:
        return None
    table, kept, optimal = quick
    moved = check(table)
    if moved is not None and optimal and moved <= pos.table_cards - kept:
        return Programmed(table, moved, True)
    best = None if moved is None else Programmed(table, moved, False)
    if not optimal or not model.jokers:
        # cut short; or without jokers the quick model is the whole one, and a table it
        # found that does not keep what it counted is a fault the check caught
        return best
    whole = model.solve(slots=True, deadline=deadline)
    if whole is None:
        return best
    table, kept, optimal = whole
    moved = check(table)
    if moved is None:
        return best
    if optimal and moved == pos.table_cards - kept:
        return Programmed(table, moved, True)
    if best is None or moved < best.moved:
        return Programmed(table, moved, False)
    return best


@dataclass(frozen=True)
class Counted:
    """The count as the program found it: the most points the meld can play
    (``points``, 0 when no meld exists), the hand's real cards it plays (``played[t]``
    copies of pcode ``t``), its hand jokers played, the melds at the end (each meld's
    cards by pcode, and its copies) and the jokers declared as each card at the end;
    ``proven`` when HiGHS proved that the most. ``most``: the most points any meld can
    play as far as HiGHS proved it: ``points`` when proven; cut short, its bound, or
    None when it had none yet."""

    points: int
    played: tuple[int, ...]
    jokers: int
    proven: bool
    melds: tuple[tuple[tuple[int, ...], int], ...] = ()
    declared: tuple[int, ...] = (0,) * 52
    most: int | None = None


def most_points(
    pos: Position,
    keep: Sequence[Card] = (),
    deadline: float | None = None,
    enough: Enough | None = None,
    offered: Callable[[], Table | None] | None = None,
) -> Counted | None:
    """The count (R7.1) as an integer program: the most points of hand cards the meld
    can play, and which cards play them. Cut short before it found any meld, the
    points are 0, not proven, with the bound it proved (``Counted.most``); None past
    ``deadline`` (an instant of ``clock.now()``) before it started. ``enough``: asked
    as HiGHS goes (``_highs``) with the points found and the bound so far; True stops it
    there, not proven. ``offered``: asked as HiGHS goes for a meld found meanwhile by
    other means (the whole table after it, or None), which HiGHS then takes as its own
    where it plays more: a good meld early lets HiGHS drop what cannot beat it and
    look for better near it (where HiGHS's own melds stay poor, that saves most of its
    time; elsewhere it may change its path either way: docs/benchmarks.md).

    The columns: ``x[k]`` copies of meld ``k`` (only those the cards to be had can fill:
    a copy needs each of its cards once more, a real one or a joker), ``u[t]`` real
    ``t`` played from the hand, ``e[t]`` jokers declared ``t`` at the end; the rows
    those of ``_Model`` without the partners, the points maximised instead of fixed.
    Written with numpy, not row by row: set up in a millisecond or two, so that the
    program is no slower to ask than a plain one."""
    import numpy as np

    real = np.zeros(52)
    declared = np.zeros(52)
    hand = np.zeros(52)
    for m in pos.table:
        for c in m:
            if c.joker:
                declared[c.ecode] += 1
            else:
                real[c.pcode] += 1
    hand_jokers = 0
    kept = Counter(c.pcode for c in keep)
    for c in pos.hand:
        if kept[c.pcode]:
            kept[c.pcode] -= 1
        elif c.joker:
            hand_jokers += 1
        else:
            hand[c.pcode] += 1
    table_jokers = int(declared.sum())
    jokers = table_jokers + hand_jokers
    holds = _incidence()
    avail = real + hand
    copies = np.zeros(len(TEMPLATES))
    for copy in range(1, 2 * pos.decks + 1):  # two real copies and two jokers at most
        copies += holds @ np.maximum(0, copy - avail) <= jokers
    chosen = np.flatnonzero(copies)
    ax = holds[chosen].T  # card t held by meld k
    if np.any((real > 0) & (ax.sum(axis=1) == 0)):
        return None  # a table card no meld could hold: not a position the engine made
    nx = len(chosen)
    ne = 52 if jokers else 0
    inf = float("inf")
    eye = np.eye(52)
    # every card's places are filled: the copies holding t, less u[t] and e[t], are the
    # real t on the table (R5.2 b, c)
    blocks = [np.hstack([ax, -eye] + ([-eye] if ne else []))]
    low, high = [real], [real]
    if ne:
        # R5.2 d: K[t] - e[t] jokers freed need as many real t at the end
        rows = np.flatnonzero(declared)
        pick = eye[rows]
        blocks.append(np.hstack([np.zeros((len(rows), nx)), pick, pick]))
        low.append(declared[rows] - real[rows])
        high.append(np.full(len(rows), inf))
        # the table's jokers stay in play; the hand's may be played
        blocks.append(np.concatenate([np.zeros(nx + 52), np.ones(52)])[None, :])
        low.append(np.array([table_jokers]))
        high.append(np.array([jokers]))
    # R5.2 a: at least one hand card (a hand joker is one: e beyond the table's jokers)
    blocks.append(np.concatenate([np.zeros(nx), np.ones(52 + ne)])[None, :])
    low.append(np.array([1 + table_jokers]))
    high.append(np.array([inf]))
    matrix = np.vstack(blocks)
    cost = np.concatenate([np.zeros(nx), -np.array(POINTS[:52], dtype=float), np.full(ne, -25.0)])
    lo = np.zeros(nx + 52 + ne)
    hi = np.concatenate([copies[chosen], hand, np.full(ne, float(jokers))])
    rows_of, cols_of = np.nonzero(matrix)
    # the objective counts the table's jokers at 25 each (every one stays in play)
    offset = 25 * table_jokers
    asked = None
    if enough is not None:

        def asked(found: int | None, bound: int | None) -> bool:
            return enough(
                None if found is None else found - offset, None if bound is None else bound - offset
            )

    offer = None
    if offered is not None:
        place = {TEMPLATES[k]: i for i, k in enumerate(chosen)}

        def offer() -> Any:
            table = offered()
            if table is None:
                return None
            x = np.zeros(nx + 52 + ne)
            for meld in table:
                codes = tuple(c.ecode if c.joker else c.pcode for c in meld)
                if len({t % 13 for t in codes}) == 1:
                    codes = tuple(sorted(codes))  # a group: its suits in order
                k = place.get(codes)
                if k is None:
                    return None  # not a column (a meld no card to be had could fill)
                x[k] += 1
                for c in meld:
                    if c.joker and not ne:
                        return None
                    x[nx + 52 + c.ecode if c.joker else nx + c.pcode] += 1
            x[nx : nx + 52] -= real  # the real cards played from the hand
            return None if np.any(x < lo) or np.any(x > hi) else x

    res = _highs(
        cost,
        (rows_of, cols_of, matrix[rows_of, cols_of]),
        (np.concatenate(low), np.concatenate(high)),
        (lo, hi),
        np.ones(nx + 52 + ne, dtype=bool),
        deadline,
        asked,
        offer,
    )
    if res is None:
        return None
    if res.status == INFEASIBLE:  # no meld
        return Counted(0, (0,) * 52, 0, True)
    most = None if res.bound is None else res.bound - offset
    if res.x is None:
        return Counted(0, (0,) * 52, 0, False, most=most)
    values = np.rint(res.x).astype(int)
    if np.any(values < lo - 0.5) or np.any(values > hi + 0.5):
        return None  # outside its bounds (see PRESOLVE): not trusted
    played = tuple(int(v) for v in values[nx : nx + 52])
    wild = tuple(int(v) for v in values[nx + 52 :]) if ne else (0,) * 52
    melds = tuple((TEMPLATES[k], int(v)) for k, v in zip(chosen, values[:nx], strict=True) if v)
    played_jokers = sum(wild) - table_jokers
    points = sum(POINTS[t] * n for t, n in enumerate(played)) + 25 * played_jokers
    # stopped where what it found meets its bound, that is proven too
    proven = res.status == OPTIMAL or (most is not None and points >= most)
    return Counted(points, played, played_jokers, proven, melds, wild, points if proven else most)


#: what HiGHS ended with (``Solved.status``)
OPTIMAL, INFEASIBLE, CUT = "optimal", "infeasible", "cut"
#: asked as HiGHS goes with the objective's best found and its bound so far (both
#: maximised, whole numbers; None while it has none); True stops it there
Enough = Callable[[int | None, int | None], bool]


@dataclass(frozen=True)
class Solved:
    """What HiGHS ended with: ``status``, the best ``x`` found (None if none), its
    objective maximised (``found``, the negated cost) and the bound it proved on that
    (``bound``: ``found`` when optimal; None when it had none)."""

    status: str
    x: Any
    found: int | None
    bound: int | None


def _highs(
    cost: Any,
    entries: tuple[Any, Any, Any],
    rows: tuple[Any, Any],
    cols: tuple[Any, Any],
    integral: Any,
    deadline: float | None,
    enough: Enough | None = None,
    offer: Callable[[], Any] | None = None,
) -> Solved | None:
    """Minimise ``cost`` over integer (where ``integral``) columns within ``cols``
    (lower, upper), the rows' sums (``entries``: row, column, value) within ``rows``;
    the cost is a whole number at every integer point, which the bounds use. None when
    ``deadline`` (an instant of ``clock.now()``) is past before it starts, or HiGHS
    ends some other way.

    HiGHS runs in this thread and asks at its interrupt points whether to go on: past
    ``deadline`` it stops (the solve's CPU time: ``clock``, so that a busy machine does
    not cut it short), and so it does when ``enough`` says so. Its own time limit is
    only the wall-clock ceiling, the last guard. Where HiGHS asks for a solution found
    by other means, ``offer`` gives one (the columns' values; None: nothing new), which
    HiGHS checks and keeps where it is better than its own."""
    import highspy
    import numpy as np

    if deadline is not None and clock.now() >= deadline:
        return None
    row, col, value = entries
    n = len(cost)
    # column-wise, duplicates summed (as HiGHS takes them)
    height = len(rows[0]) + 1
    key, place = np.unique(np.asarray(col) * height + np.asarray(row), return_inverse=True)
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = len(rows[0])
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_, lp.col_upper_ = (np.asarray(b, dtype=float) for b in cols)
    lp.row_lower_, lp.row_upper_ = (np.asarray(b, dtype=float) for b in rows)
    matrix: Any = lp.a_matrix_  # (its stubs take floats for the positions)
    matrix.format_ = highspy.MatrixFormat.kColwise
    matrix.start_ = np.searchsorted(key // height, np.arange(n + 1))
    matrix.index_ = key % height
    matrix.value_ = np.bincount(place, weights=np.asarray(value, dtype=float))
    kinds = highspy.HighsVarType
    lp.integrality_ = [kinds.kInteger if i else kinds.kContinuous for i in integral]
    # the compiled class, not ``highspy.Highs``: that one sets up its callbacks before
    # its output can be turned off, which prints HiGHS's banner to the server's log
    h: Any = highspy._core._Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "on" if PRESOLVE else "off")
    # in this thread only: its CPU time is the solve's (``clock``), and a server's
    # other requests keep the other cores
    h.setOptionValue("threads", 1)
    # these programs are small and mostly settled at the root: there the feasibility
    # jump heuristic and the symmetry search cost more than they save (about half the
    # median: docs/benchmarks.md)
    h.setOptionValue("mip_heuristic_run_feasibility_jump", False)
    h.setOptionValue("mip_detect_symmetry", False)
    h.setOptionValue("time_limit", clock.wall_left())
    h.passModel(lp)

    def whole(objective: float, slack: float = 1e-6) -> int | None:
        if not np.isfinite(objective):
            return None
        return int(np.floor(-objective + slack))  # maximised; whole, within tolerance

    def most(bound: float) -> int | None:
        # a bound a hair under the optimum (HiGHS's tolerances) must not round below
        # it: the search would take it as proven; a looser one only costs time
        return whole(bound, 1e-3)

    def go_on(kind: Any, message: str, out: Any, into: Any, data: Any) -> None:
        if kind == highspy.cb.HighsCallbackType.kCallbackMipUserSolution:
            x = None if offer is None else offer()
            if x is not None:
                into.setSolution(x)
            return
        if (deadline is not None and clock.now() >= deadline) or (
            enough is not None and enough(whole(out.mip_primal_bound), most(out.mip_dual_bound))
        ):
            into.user_interrupt = True

    h.setCallback(go_on, None)
    h.startCallback(highspy.cb.HighsCallbackType.kCallbackMipInterrupt)
    if offer is not None:
        h.startCallback(highspy.cb.HighsCallbackType.kCallbackMipUserSolution)
    h.run()
    model = h.getModelStatus()
    info = h.getInfo()
    solution = h.getSolution()
    x = np.array(solution.col_value) if solution.value_valid else None
    found = None if x is None else whole(float(np.dot(cost, x)))
    if model == highspy.HighsModelStatus.kOptimal:
        return Solved(OPTIMAL, x, found, found)
    if model == highspy.HighsModelStatus.kInfeasible:
        return Solved(INFEASIBLE, None, None, None)
    if model in (highspy.HighsModelStatus.kInterrupt, highspy.HighsModelStatus.kTimeLimit):
        return Solved(CUT, x, found, most(info.mip_dual_bound))
    return None


_HOLDS: list[Any] = []


def _incidence() -> Any:
    """``TEMPLATES`` as a matrix: row ``k`` holds a 1 at each card of meld ``k``."""
    if not _HOLDS:
        import numpy as np

        holds = np.zeros((len(TEMPLATES), 52))
        for k, tpl in enumerate(TEMPLATES):
            holds[k, list(tpl)] = 1
        _HOLDS.append(holds)
    return _HOLDS[0]


class _Model:
    """The integer program of one position, built once, solved quick or whole."""

    def __init__(self, pos: Position, points: int, keep: Sequence[Card]) -> None:
        self.pos = pos
        self.points = points
        self.real = Counter(c.pcode for m in pos.table for c in m if not c.joker)  # R[t]
        self.declared = Counter(c.ecode for m in pos.table for c in m if c.joker)  # K[t]
        hand = Counter(c.pcode for c in pos.hand) - Counter(c.pcode for c in keep)
        self.hand_jokers = hand.pop(JOKER_PCODE, 0)
        self.hand = hand
        self.table_jokers = sum(self.declared.values())
        self.jokers = self.table_jokers + self.hand_jokers
        self.old_real = [{c.pcode for c in m if not c.joker} for m in pos.table]
        self.old_joker = [{c.ecode for c in m if c.joker} for m in pos.table]
        # an old meld's cards, a joker by its declaration
        olds = [r | j for r, j in zip(self.old_real, self.old_joker, strict=True)]
        # the melds, and how many copies the cards to be had allow (a copy needs each
        # of its cards once more: a real one or a joker)
        self.melds: list[tuple[int, ...]] = []
        self.most: list[int] = []
        # a run of 6 or more: the old melds that may partner it (those needing it whole)
        self.whole_for: dict[int, set[int]] = {}
        for tpl in TEMPLATES:
            needs = set()
            if len(tpl) >= 6:
                needs = {i for i, old in enumerate(olds) if _unsplittable(tpl, old)}
                if not needs:
                    continue
            copies = 0
            for copy in range(1, pos.decks + 1):
                short = sum(max(0, copy - self.real[t] - hand[t]) for t in tpl)
                if short > self.jokers:
                    break
                copies = copy
            if copies:
                if needs:
                    self.whole_for[len(self.melds)] = needs
                self.melds.append(tpl)
                self.most.append(copies)

    def solve(self, slots: bool, deadline: float | None) -> tuple[Table, int, bool] | None:
        """(the table, the cards the model counts kept, whether HiGHS proved that the
        most), or None when it found nothing in time."""
        lp = _Program()
        self._write(lp, slots)
        res = _highs(
            lp.cost, lp.entries(), (lp.low, lp.high), (lp.lo, lp.hi), lp.integral, deadline
        )
        if res is None or res.x is None or res.found is None:
            return None
        values = [round(v) for v in res.x]
        chosen = {key: v for (kind, key), v in zip(lp.cols, values, strict=True) if v > 0}
        return self._table(chosen, slots), res.found, res.status == OPTIMAL

    def _write(self, lp: _Program, slots: bool) -> None:
        inf = float("inf")
        n = len(self.melds)
        real, hand, declared, jokers = self.real, self.hand, self.declared, self.jokers
        X = [lp.var(("x", k), 0, self.most[k]) for k in range(n)]
        U = {t: lp.var(("u", t), 0, hand[t]) for t in range(52) if hand[t]}
        E = {t: lp.var(("e", t), 0, jokers) for t in range(52)} if jokers else {}
        Q = {}
        if slots and jokers:
            Q = {
                (k, t): lp.var(("q", k, t), 0, min(self.most[k], jokers))
                for k, tpl in enumerate(self.melds)
                for t in tpl
            }
        holding: dict[int, list[int]] = {t: [] for t in range(52)}
        for k, tpl in enumerate(self.melds):
            for t in tpl:
                holding[t].append(k)
        for t in range(52):
            # the copies holding t: the real t on the table, u[t], and e[t] jokers
            terms = [(X[k], 1.0) for k in holding[t]]
            if t in U:
                terms.append((U[t], -1.0))
            if t in E:
                terms.append((E[t], -1.0))
            lp.row(terms, real[t], real[t])
            if Q:
                lp.row([(Q[k, t], 1.0) for k in holding[t]] + [(E[t], -1.0)], 0, 0)
            if declared[t]:
                # R5.2 d: K[t] - e[t] jokers freed need as many real t at the end
                freed = [(E[t], 1.0)] + ([(U[t], 1.0)] if t in U else [])
                lp.row(freed, declared[t] - real[t], inf)
        for (k, _t), v in Q.items():
            lp.row([(v, 1.0), (X[k], -1.0)], -inf, 0)
        if E:
            lp.row([(v, 1.0) for v in E.values()], self.table_jokers, jokers)
        # the points played: the hand's real cards, 25 for each hand joker (R7.1)
        worth = [(U[t], float(POINTS[t])) for t in U] + [(v, 25.0) for v in E.values()]
        fixed = self.points + 25 * self.table_jokers
        lp.row(worth, fixed, fixed)

        # the partners, and the cards they keep
        partners: dict[int, list[tuple[int, int]]] = {}
        for i in range(len(self.pos.table)):
            reals, jokes = self.old_real[i], self.old_joker[i]
            near = sorted({k for t in reals | jokes for k in holding[t]})
            ys = []
            for k in near:
                if k in self.whole_for and i not in self.whole_for[k]:
                    continue  # it would split, keeping i's cards: no partner of i
                shared = len(reals.intersection(self.melds[k]))
                y = lp.var(("y", i, k), 0, 1, -float(shared))
                ys.append((y, 1.0))
                partners.setdefault(k, []).append((i, y))
            if ys:
                lp.row(ys, 0, 1)
        kept_jokers: dict[int, list[tuple[int, float]]] = {}
        for k, pairs in partners.items():
            lp.row([(y, 1.0) for _i, y in pairs] + [(X[k], -1.0)], -inf, 0)
            for t in self.melds[k] if jokers else ():
                with_joker = [(y, -1.0) for i, y in pairs if t in self.old_joker[i]]
                if with_joker:
                    kept = lp.var(("j", k, t), 0, inf, -1.0, integral=False)
                    lp.row([(kept, 1.0)] + with_joker, -inf, 0)
                    if Q:
                        lp.row([(kept, 1.0), (Q[k, t], -1.0)], -inf, 0)
                    else:
                        kept_jokers.setdefault(t, []).append((kept, 1.0))
                with_real = [(y, -1.0) for i, y in pairs if t in self.old_real[i]]
                if Q and with_real:
                    # of the x copies, q hold a joker at t: they go to partners with a
                    # joker for t, then to copies without a partner, and only then to
                    # partners with the real t, which lose it: q + those partners - x
                    loss = lp.var(("l", k, t), 0, inf, 1.0, integral=False)
                    lp.row([(loss, 1.0), (Q[k, t], -1.0), (X[k], 1.0)] + with_real, 0, inf)
        for t, kept_t in kept_jokers.items():
            # quick: the jokers kept for t are at most the jokers for t at the end
            lp.row(kept_t + [(E[t], -1.0)], -inf, 0)

    def _table(self, chosen: dict[tuple[Any, ...], int], slots: bool) -> Table:
        """The melds chosen, each old meld's partner in its place (a group in the old
        meld's order), the new ones after them. The jokers declared ``t`` go into the
        copies holding ``t`` where they keep most: a partner that had a joker for ``t``
        first, then a copy without a partner, then one whose partner had not the real
        ``t``, last one whose partner had it (the whole model says how many each meld
        holds; the quick one only how many there are)."""
        copies: dict[int, list[int | None]] = {}
        for key in chosen:
            if key[0] == "y":
                copies.setdefault(key[2], []).append(key[1])
        for key, v in chosen.items():
            if key[0] == "x":
                owners = copies.setdefault(key[1], [])
                owners += [None] * (v - len(owners))
        cards = {
            k: [[REAL_CARDS[t] for t in self.melds[k]] for _ in owners]
            for k, owners in copies.items()
        }

        def rank(k: int, n: int, t: int) -> int:
            i = copies[k][n]
            if i is None:
                return 1
            if t in self.old_joker[i]:
                return 0
            return 3 if t in self.old_real[i] else 2

        for key, v in chosen.items():
            if key[0] != "e":
                continue
            t = key[1]
            places = [(k, n) for k in copies for n in range(len(copies[k])) if t in self.melds[k]]
            # the whole model says how many go into each meld
            quota = {k: chosen.get(("q", k, t), 0) if slots else v for k, _ in places}
            places.sort(key=lambda p: rank(p[0], p[1], t))
            left = v
            for k, n in places:
                if left and quota[k]:
                    cards[k][n][self.melds[k].index(t)] = JOKER_AS[t]
                    quota[k] -= 1
                    left -= 1
        placed: dict[int, list[Card]] = {}
        new: Table = []
        for k, owners in copies.items():
            group = len({t % 13 for t in self.melds[k]}) == 1
            for i, meld in zip(owners, cards[k], strict=True):
                if i is None:
                    new.append(meld)
                    continue
                if group:
                    order = {c.ecode: n for n, c in enumerate(self.pos.table[i])}
                    meld.sort(key=lambda c: order.get(c.ecode, len(order)))
                placed[i] = meld
        return [placed[i] for i in sorted(placed)] + new


def _unsplittable(run: tuple[int, ...], old: set[int]) -> bool:
    """Whether a table holding ``run`` (6 cards or more) with ``old`` as its partner
    needs it whole. Otherwise the run splits into two runs of 3 or more, one holding
    every card it shares with ``old`` (its partner still) and one without a partner:
    the same cards, as many kept, so some table moving the fewest holds no such run
    (and none without a partner: it splits into runs of 3 to 5). The cards shared can
    all go to one side unless they reach into the first three and the last three."""
    shared = [n for n, t in enumerate(run) if t in old]
    return bool(shared) and shared[0] <= 2 and shared[-1] >= len(run) - 3


class _Program:
    """A mixed integer program written row by row: ``var`` adds a column (its bounds,
    its cost, minimised), ``row`` a constraint ``a <= sum(terms) <= b``."""

    def __init__(self) -> None:
        self.cols: list[tuple[str, tuple[Any, ...]]] = []
        self.lo: list[float] = []
        self.hi: list[float] = []
        self.cost: list[float] = []
        self.integral: list[int] = []
        self.rows: list[list[tuple[int, float]]] = []
        self.low: list[float] = []
        self.high: list[float] = []

    def var(
        self, key: tuple[Any, ...], lo: float, hi: float, cost: float = 0.0, integral: bool = True
    ) -> int:
        self.cols.append((key[0], key))
        self.lo.append(lo)
        self.hi.append(hi)
        self.cost.append(cost)
        self.integral.append(1 if integral else 0)
        return len(self.cols) - 1

    def row(self, terms: list[tuple[int, float]], a: float, b: float) -> None:
        self.rows.append(terms)
        self.low.append(a)
        self.high.append(b)

    def entries(self) -> tuple[list[int], list[int], list[float]]:
        """The rows' terms as (row, column, value) lists."""
        row, col, value = [], [], []
        for r, terms in enumerate(self.rows):
            for c, a in terms:
                row.append(r)
                col.append(c)
                value.append(a)
        return row, col, value
