"""The exact search: a dynamic programme over the 14 positions of a suit (R4.3).

Cards are counted, not named: ``count[t]`` for each real card ``t`` (its pcode), since
two identical cards (R1.2) are interchangeable and a declared joker is judged as its
card (R4.4). Positions run 1 (ace low), 2 … 13 (king), 14 (ace high); a real ace is
placed at 1 or at 14, never both (R4.3), and groups (R4.2) are formed at 1 … 13.

Layers are (position, suit); each decides, for that card, how many of the hand's
copies to play, how many wildcards (jokers declared as it) to add, and how many of
the copies there go into groups; the rest go into the suit's runs. Runs are kept in a
normal form that loses no arrangement: a run never ends where another of its suit
begins (the two would join into one valid run), and when fewer cards than open runs
arrive, runs of three or more end. The state of a suit is therefore the number of
open runs aged one, two and three or more, plus the aces kept back for position 14.
Groups at a rank are feasible exactly when ``k`` groups exist with every suit used at
most ``k`` times and ``3k <= total <= 4k`` (a round-robin deal of the suits).

Table jokers (R5.2 d and its Decision): at the layer of their declared card ``X`` as
many as the real ``X`` on the table at the end allow are freed (``min(k, real X)``);
freeing is never worse, since a freed joker may be declared ``X`` again. The rest stay
``X``. Freed jokers and hand jokers are wildcards; every freed one must be placed,
hand jokers may be (25 points each, R1.3).

The value of a state is the points of the hand cards played so far (R7.1 read
backwards: the count left is the hand's points minus the points played). A state is
dropped when even playing every later hand card could not reach ``need``; a beam
(``width``) keeps only the best states of each layer (fast, not exact). The depth-first
search bounds more tightly: wildcards are only the hand's jokers and the table jokers
something can free (``wild_cap``), and each suit's own relaxation (``suit_futures``)
bounds what its later cards can add, and drops a state whose runs can no longer close.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

from rummy.engine.cards import POINTS

from . import clock

JOKER_POINTS = 25  # R1.3
MAX_RUNS = 4  # per suit and position: two real copies and two jokers at most (R1.2)

# -- run states -----------------------------------------------------------------------


def _code(n1: int, n2: int, n3: int) -> int:
    return n1 + 5 * n2 + 25 * n3


def _next_runs(code: int, c: int) -> int:
    """Open runs (aged 1, 2, 3+) after ``c`` cards of the suit arrive at the next position."""
    n1, n2, n3 = code % 5, code // 5 % 5, code // 25
    n = n1 + n2 + n3
    if c >= n:
        new = (c - n, n1, n2 + n3)
    elif n - c > n3:
        return -1  # a run of one or two would have to end (R4.1)
    else:
        new = (0, n1, n2 + n3 - (n - c))
    if max(new) > MAX_RUNS:
        return -1
    return _code(*new)


RUN_NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_next_runs(code, c) for c in range(2 * MAX_RUNS + 1)) for code in range(125)
)
CLOSED = frozenset(_code(0, 0, n3) for n3 in range(MAX_RUNS + 1))  # every open run is 3+


#: ``_G_ORDER[cards][aim]``: the copies into groups, nearest ``aim`` first
def _g_order(cards: int, aim: int) -> tuple[int, ...]:
    return tuple(sorted(range(cards + 1), key=lambda g: abs(g - aim)))


_G_ORDER = tuple(tuple(_g_order(c, a) for a in range(c + 1)) for c in range(4 * MAX_RUNS + 1))


def groups_feasible(total: int, most: int) -> bool:
    """R4.2: ``total`` cards of one rank, at most ``most`` of a suit, dealt into groups."""
    if total == 0:
        return True
    k = max(most, -(-total // 4))
    return 3 * k <= total


# -- the problem as counts --------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    """A position as counts (see the module docstring). Index ``t`` is a pcode 0..51."""

    table: tuple[int, ...]  # real cards on the table, must stay
    hand: tuple[int, ...]  # real cards in the hand that may be played
    jokers: tuple[int, ...]  # table jokers declared as t
    hand_jokers: int  # jokers in the hand that may be played
    wild_max: int  # jokers in play at most (table + hand)
    extra_real: tuple[int, ...] | None = None  # real cards outside the search that free jokers


@dataclass
class Choice:
    """What one layer decided for its card: hand copies played, kept back for position
    14 (aces), wildcards added, copies into groups, table jokers freed."""

    used: int
    reserved: int
    wild: int
    grouped: int
    freed: int


@dataclass
class Result:
    value: int  # points played (hand cards, hand jokers included)
    choices: dict[tuple[int, int], Choice]  # (position, suit) -> choice
    wild_used: int
    freed: int
    states: int  # the largest layer, for the benchmark


class Timeout(Exception):
    """The deadline passed before the search finished."""


class Budget(Exception):
    """The search visited as many states as it was allowed (``DepthFirst.find``)."""


_W_SHIFT, _F_SHIFT, _SG_SHIFT, _MG_SHIFT = 40, 42, 44, 49
_SUIT_MASK = 1023
_AUX_GROUP = (31 << _SG_SHIFT) | (7 << _MG_SHIFT)
_LAYER_AUX = (3 << _W_SHIFT) | _AUX_GROUP  # what a layer's choices depend on, besides its suit


def wild_cap(counts: Counts) -> int:
    """Jokers that can stand as wildcards at most: the hand's, and the table's that some
    real card of their declaration could free (R5.2 d); a table joker nothing can free
    keeps its card, and two jokers exist at most (R1.2)."""
    extra = counts.extra_real or (0,) * 52
    freeable = sum(
        min(counts.jokers[t], counts.table[t] + counts.hand[t] + extra[t])
        for t in range(52)
        if counts.jokers[t]
    )
    return min(counts.hand_jokers + freeable, 2)


def _layers() -> list[tuple[int, int]]:
    return [(p, s) for p in range(1, 14) for s in range(4)] + [(14, s) for s in range(4)]


LAYERS = _layers()


def _pcode(p: int, s: int) -> int:
    return s * 13 + (0 if p == 14 else p - 1)


def run(
    counts: Counts,
    need: int = 1,
    width: int | None = None,
    deadline: float | None = None,
) -> Result | None:
    """The best arrangement worth at least ``need`` points played, or None if there is none
    (exact unless ``width`` is set). Raises ``Timeout`` past ``deadline`` (an instant of
    ``clock.now()``)."""
    table, hand, jok = counts.table, counts.hand, counts.jokers
    extra = counts.extra_real or (0,) * 52
    wmax = wild_cap(counts)
    # the most the hand could still add after each layer
    pts_at = [hand[_pcode(p, s)] * POINTS[_pcode(p, s)] if p <= 13 else 0 for p, s in LAYERS]
    rem_after = [0] * len(LAYERS)
    acc = counts.hand_jokers * JOKER_POINTS
    for i in range(len(LAYERS) - 1, -1, -1):
        rem_after[i] = acc
        acc += pts_at[i]
    if acc < need:
        return None
    # can a card at (p, s) be part of a run at all? (for aces kept back for 14)
    present = [table[t] + hand[t] + jok[t] for t in range(52)]

    cur: dict[int, int] = {0: 0}
    backs: list[dict[int, tuple[int, tuple[int, int, int, int, int]]]] = []
    biggest = 1
    for li, (p, s) in enumerate(LAYERS):
        if deadline is not None and clock.now() > deadline:
            raise Timeout
        t = _pcode(p, s)
        shift = 10 * s
        floor = need - rem_after[li]
        opts: list[tuple[int, int, int, int, int]] = []  # (cards, points, freed, used, reserved)
        if p <= 13:
            for u in range(hand[t] + 1):
                real = table[t] + u
                freed = min(jok[t], real + extra[t])
                cards = real + jok[t] - freed
                if p == 1 and cards:
                    high = min(cards, MAX_RUNS, 7)
                    if present[s * 13 + 11] + wmax == 0 or present[s * 13 + 12] + wmax == 0:
                        high = 0
                    for r in range(high + 1):
                        opts.append((cards - r, u * POINTS[t], freed, u, r))
                else:
                    opts.append((cards, u * POINTS[t], freed, u, 0))
        nxt: dict[int, int] = {}
        back: dict[int, tuple[int, tuple[int, int, int, int, int]]] = {}
        tick = 0
        for key, val in cur.items():
            tick += 1
            if deadline is not None and tick & 255 == 0 and clock.now() > deadline:
                raise Timeout
            field = (key >> shift) & _SUIT_MASK
            runs, kept = field & 127, field >> 7
            w = (key >> _W_SHIFT) & 3
            f = (key >> _F_SHIFT) & 3
            sg = (key >> _SG_SHIFT) & 31
            mg = (key >> _MG_SHIFT) & 7
            base = key & ~((_SUIT_MASK << shift) | (3 << _W_SHIFT) | (3 << _F_SHIFT) | _AUX_GROUP)
            row = RUN_NEXT[runs]
            if p == 14:
                for wj in range(wmax - w + 1):
                    nr = row[kept + wj]
                    if nr < 0:
                        continue
                    nkey = base | (nr << shift) | ((w + wj) << _W_SHIFT) | (f << _F_SHIFT)
                    if nkey not in nxt or nxt[nkey] < val:
                        nxt[nkey] = val
                        back[nkey] = (key, (0, 0, wj, 0, 0))
                continue
            for cards0, pts, freed, u, r in opts:
                nv = val + pts
                if nv < floor:
                    continue
                nf = f + freed
                if nf > 3:
                    continue
                kept_bits = (kept + r) << 7
                for wj in range(wmax - w + 1):
                    cards = cards0 + wj
                    nw = w + wj
                    for g in range(cards + 1):
                        nr = row[cards - g]
                        if nr < 0:
                            continue
                        nkey = (
                            base
                            | ((nr | kept_bits) << shift)
                            | (nw << _W_SHIFT)
                            | (nf << _F_SHIFT)
                            | ((sg + g) << _SG_SHIFT)
                            | (max(mg, g) << _MG_SHIFT)
                        )
                        if nkey not in nxt or nxt[nkey] < nv:
                            nxt[nkey] = nv
                            back[nkey] = (key, (u, r, wj, g, freed))
        if s == 3 and p <= 13:
            # the rank is complete: its groups must deal out (R4.2)
            done: dict[int, int] = {}
            done_back: dict[int, tuple[int, tuple[int, int, int, int, int]]] = {}
            for key, val in nxt.items():
                sg = (key >> _SG_SHIFT) & 31
                mg = (key >> _MG_SHIFT) & 7
                if not groups_feasible(sg, mg):
                    continue
                k2 = key & ~_AUX_GROUP
                if k2 not in done or done[k2] < val:
                    done[k2] = val
                    done_back[k2] = back[key]
            nxt, back = done, done_back
        if width is not None and len(nxt) > width:
            nxt = dict(heapq.nlargest(width, nxt.items(), key=lambda kv: kv[1]))
        biggest = max(biggest, len(nxt))
        backs.append(back)
        cur = nxt
        if not cur:
            return None
    best_key, best_val = -1, -1
    for key, val in cur.items():
        if any(((key >> (10 * s)) & 127) not in CLOSED for s in range(4)):
            continue
        w = (key >> _W_SHIFT) & 3
        f = (key >> _F_SHIFT) & 3
        if w < f or w - f > counts.hand_jokers:
            continue
        total = val + JOKER_POINTS * (w - f)
        if total >= need and (total > best_val or (total == best_val and key < best_key)):
            best_key, best_val = key, total
    if best_key < 0:
        return None
    choices: dict[tuple[int, int], Choice] = {}
    key = best_key
    for li in range(len(LAYERS) - 1, -1, -1):
        prev, (u, r, wj, g, freed) = backs[li][key]
        choices[LAYERS[li]] = Choice(used=u, reserved=r, wild=wj, grouped=g, freed=freed)
        key = prev
    w = (best_key >> _W_SHIFT) & 3
    f = (best_key >> _F_SHIFT) & 3
    return Result(value=best_val, choices=choices, wild_used=w, freed=f, states=biggest)


def placeable(counts: Counts) -> Counts:
    """The same counts without the hand cards that no meld could hold: no two other
    suits of the rank and no three consecutive positions of the suit around it are
    available, even with every joker (an upper bound's first cut, exact to drop)."""
    while True:
        narrow = _placeable_once(counts)
        if narrow.hand == counts.hand:
            return narrow
        counts = narrow  # a dropped card frees no joker: look again


def _placeable_once(counts: Counts) -> Counts:
    avail = [counts.table[t] + counts.hand[t] + counts.jokers[t] for t in range(52)]
    wild = wild_cap(counts)
    hand = list(counts.hand)
    for t in range(52):
        if not hand[t]:
            continue
        suit, rank = divmod(t, 13)
        others = sum(1 for s in range(4) if s != suit and avail[s * 13 + rank])
        if others + wild >= 2:
            continue
        # positions 1..14 of the suit: the ace stands at 1 and at 14
        have = [False] + [avail[suit * 13 + r] > 0 for r in range(13)] + [avail[suit * 13] > 0]
        spots = [1, 14] if rank == 0 else [rank + 1]
        ok = False
        for p in spots:
            for lo in range(max(1, p - 2), min(p, 12) + 1):
                missing = sum(1 for q in range(lo, lo + 3) if q != p and not have[q])
                if missing <= wild:
                    ok = True
        if not ok:
            hand[t] = 0
    return Counts(
        table=counts.table,
        hand=tuple(hand),
        jokers=counts.jokers,
        hand_jokers=counts.hand_jokers,
        wild_max=counts.wild_max,
        extra_real=counts.extra_real,
    )


def upper_bound(counts: Counts) -> int:
    """Points played if every hand card (and joker) could be played."""
    return sum(n * POINTS[t] for t, n in enumerate(counts.hand)) + JOKER_POINTS * counts.hand_jokers


def counts_of(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    table_jokers: Sequence[int],
    hand_jokers: int,
    extra_real: Sequence[int] | None = None,
) -> Counts:
    """Counts from pcode lists: the table's real cards, the hand's real cards, the table
    jokers' declarations, and the number of hand jokers."""
    tc = [0] * 52
    for m in table:
        for t in m:
            tc[t] += 1
    hc = [0] * 52
    for t in hand:
        hc[t] += 1
    jc = [0] * 52
    for t in table_jokers:
        jc[t] += 1
    ex = None
    if extra_real is not None:
        e = [0] * 52
        for t in extra_real:
            e[t] += 1
        ex = tuple(e)
    return Counts(
        table=tuple(tc),
        hand=tuple(hc),
        jokers=tuple(jc),
        hand_jokers=hand_jokers,
        wild_max=len(table_jokers) + hand_jokers,
        extra_real=ex,
    )


_DEAD = -(10**6)  # a suit state that can never close its runs


def suit_futures(
    counts: Counts, s: int, wmax: int, deadline: float | None = None
) -> list[dict[int, list[int]]]:
    """A relaxation of suit ``s`` alone, for a bound at every state of the search:
    ``out[p][field][b]`` is the most the suit's hand cards at positions ``p`` … 14 can
    add when its runs stand at ``field`` (as in a state's key) before ``p`` and at most
    ``b`` wildcards remain; ``_DEAD`` (or no entry) when its runs cannot all close.
    Relaxed: wildcards are not shared between suits, and a copy may go into a group of
    its rank whenever two other suits have cards there (R4.2: a group holds three suits;
    each suit gives at most a third of a rank's grouped cards). Exact to prune with:
    every arrangement of the real search is one of the relaxation's, suit by suit.
    Raises ``Timeout`` past ``deadline`` (checked at every position of both passes).

    A position's choices (hand copies, aces kept back, wildcards, copies into groups)
    are merged first into what the runs see: ``x`` cards arriving, ``r`` aces kept back,
    ``wj`` wildcards, and the most points of the choices giving those (the rest can
    never do better), so each field is walked once per distinct move, not per choice."""
    extra = counts.extra_real or (0,) * 52
    avail = [counts.table[t] + counts.hand[t] + counts.jokers[t] for t in range(52)]
    # per position: {(x, r): [(wj, points)]}, the merged choices
    moves: list[list[tuple[int, int, list[tuple[int, int, int]]]]] = [[] for _ in range(16)]
    for p in range(1, 14):
        t = _pcode(p, s)
        others = [avail[o * 13 + p - 1] for o in range(4) if o != s]
        gmax = 0
        if sum(1 for a in others if a) + wmax >= 2:
            gmax = (sum(others) + wmax) // 2
        best_pts: dict[tuple[int, int, int], int] = {}
        for u in range(counts.hand[t] + 1):
            real = counts.table[t] + u
            freed = min(counts.jokers[t], real + extra[t])
            cards0 = real + counts.jokers[t] - freed
            pts = u * POINTS[t]
            for r in range(min(cards0, MAX_RUNS) + 1 if p == 1 else 1):
                for wj in range(wmax + 1):
                    cards = cards0 - r + wj
                    for g in range(min(cards, gmax) + 1):
                        k = (cards - g, r, wj)
                        if best_pts.get(k, -1) < pts:
                            best_pts[k] = pts
        # (x, r) -> [(b, b - wj, points)]: the wildcards left after, before, and the gain
        merged: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        for (x, r, wj), pts in sorted(best_pts.items()):
            for b in range(wj, wmax + 1):
                merged.setdefault((x, r), []).append((b, b - wj, pts))
        moves[p] = [(x, r, wp) for (x, r), wp in sorted(merged.items())]
    # forward: the fields reachable before each position
    reach: list[set[int]] = [set() for _ in range(16)]
    reach[1] = {0}
    for p in range(1, 15):
        if deadline is not None and clock.now() > deadline:
            raise Timeout
        nxt = reach[p + 1]
        for field in reach[p]:
            runs, kept = field & 127, field >> 7
            row = RUN_NEXT[runs]
            if p == 14:
                for wj in range(wmax + 1):
                    nr = row[kept + wj]
                    if nr >= 0:
                        nxt.add(nr)
                continue
            for x, r, _wp in moves[p]:
                nr = row[x]
                if nr >= 0:
                    nxt.add(nr | ((kept + r) << 7))
    # backward: the best of what is left
    out: list[dict[int, list[int]]] = [{} for _ in range(16)]
    out[15] = {f: [0 if f in CLOSED else _DEAD] * (wmax + 1) for f in reach[15]}
    bs = range(wmax + 1)
    for p in range(14, 0, -1):
        if deadline is not None and clock.now() > deadline:
            raise Timeout
        later = out[p + 1]
        here = out[p]
        for field in reach[p]:
            runs, kept = field & 127, field >> 7
            row = RUN_NEXT[runs]
            best = [_DEAD] * (wmax + 1)
            if p == 14:
                for wj in bs:
                    nr = row[kept + wj]
                    if nr >= 0:
                        lv = later[nr]
                        for b in range(wj, wmax + 1):
                            if lv[b - wj] > best[b]:
                                best[b] = lv[b - wj]
            else:
                for x, r, wp in moves[p]:
                    nr = row[x]
                    if nr < 0:
                        continue
                    lv = later[nr | ((kept + r) << 7)]
                    for b, i, pts in wp:
                        v = lv[i] + pts
                        if v > best[b]:
                            best[b] = v
                # a dead future stays dead: a live one is worth 0 or more, and a dead
                # one at most _DEAD plus the suit's points (far below 0)
                best = [v if v >= 0 else _DEAD for v in best]
            here[field] = best
    return out


# -- depth first ------------------------------------------------------------------------


class DepthFirst:
    """The same layers searched depth first, for one position: ``find(need)`` returns an
    arrangement worth at least ``need`` as soon as it meets one (or None, proving there is
    none). A state that failed proves the most its later layers can add (``need`` less its
    value, less one); that bound holds for every later ``find``, whatever its ``need``."""

    def __init__(
        self,
        counts: Counts,
        deadline: float | None = None,
        grouped: Sequence[int] | None = None,
    ) -> None:
        self.counts = counts
        self.deadline = deadline
        # per card: how many of its copies stood in groups before the meld; the search
        # then tries that split between groups and runs first (the tie-break's order:
        # the first arrangement met moves fewer table cards; the same states either way)
        self.grouped = grouped
        self.wmax = wild_cap(counts)
        # (layer, state) -> the most its later layers can still add (proven by a failure)
        self.bound: dict[tuple[int, int], int] = {}
        self.need = 0
        self.ticks = 0
        self.visited = 0
        self.path: list[tuple[int, int, int, int, int]] = []
        pts_at = [
            counts.hand[_pcode(p, s)] * POINTS[_pcode(p, s)] if p <= 13 else 0 for p, s in LAYERS
        ]
        self.rem_after = [0] * len(LAYERS)
        acc = counts.hand_jokers * JOKER_POINTS
        for i in range(len(LAYERS) - 1, -1, -1):
            self.rem_after[i] = acc
            acc += pts_at[i]
        self.total = acc
        extra = counts.extra_real or (0,) * 52
        present = [counts.table[t] + counts.hand[t] + counts.jokers[t] for t in range(52)]
        # per layer: (cards, points, freed, used, reserved), most hand cards first
        self.opts: list[list[tuple[int, int, int, int, int]]] = []
        for p, s in LAYERS:
            t = _pcode(p, s)
            opts: list[tuple[int, int, int, int, int]] = []
            if p <= 13:
                for u in range(counts.hand[t], -1, -1):
                    real = counts.table[t] + u
                    freed = min(counts.jokers[t], real + extra[t])
                    cards = real + counts.jokers[t] - freed
                    high = 0
                    if (
                        p == 1
                        and cards
                        and present[s * 13 + 11] + self.wmax > 0
                        and present[s * 13 + 12] + self.wmax > 0
                    ):
                        high = min(cards, MAX_RUNS, 7)
                    for r in range(high + 1):
                        opts.append((cards - r, u * POINTS[t], freed, u, r))
            self.opts.append(opts)
        # per layer: where each suit stands (its next position) before that layer
        self.next_pos = [[p + (s2 < s) for s2 in range(4)] for p, s in LAYERS]
        self.futures: list[list[dict[int, list[int]]]] | None = None
        self.kids: dict[tuple[int, int, int], list[tuple[int, int, tuple[int, int, int, int, int]]]]
        self.kids = {}
        self.budget: int | None = None
        # per layer inside a rank: the cards its later suits could still give to groups
        self.rank_cap = [-1] * len(LAYERS)
        for li, (p, s) in enumerate(LAYERS):
            if p <= 13 and s > 0:
                self.rank_cap[li] = sum(present[s2 * 13 + p - 1] for s2 in range(s, 4))

    def use_futures(self) -> None:
        """Bound every state by the suits' relaxations (``suit_futures``): a few
        milliseconds to build, worth it once a position is not solved at once."""
        if self.futures is None:
            self.futures = [
                suit_futures(self.counts, s, self.wmax, self.deadline) for s in range(4)
            ]

    def find(self, need: int, budget: int | None = None) -> Result | None:
        """``budget``: raise ``Budget`` after visiting that many more states."""
        self.need = need
        self.budget = None if budget is None else self.visited + budget
        if self.total < need:
            return None
        self.path = []
        value = self._go(0, 0, 0)
        if value is None:
            return None
        choices = {
            LAYERS[i]: Choice(used=u, reserved=r, wild=wj, grouped=g, freed=fr)
            for i, (u, r, wj, g, fr) in enumerate(self.path)
        }
        key = self._last
        return Result(
            value=value,
            choices=choices,
            wild_used=(key >> _W_SHIFT) & 3,
            freed=(key >> _F_SHIFT) & 3,
            states=self.visited,
        )

    def _children(
        self, li: int, field: int, key: int
    ) -> list[tuple[int, int, tuple[int, int, int, int, int]]]:
        """What layer ``li`` may decide from a state whose suit stands at ``field`` (and
        wildcards, groups as in ``key``): (the new key's bits, points, the decision), in
        the search's order (most hand cards first). The same for every state alike."""
        p, s = LAYERS[li]
        shift = 10 * s
        runs, kept = field & 127, field >> 7
        w = (key >> _W_SHIFT) & 3
        sg = (key >> _SG_SHIFT) & 31
        mg = (key >> _MG_SHIFT) & 7
        row = RUN_NEXT[runs]
        out: list[tuple[int, int, tuple[int, int, int, int, int]]] = []
        if p == 14:
            for wj in range(self.wmax - w + 1):
                nr = row[kept + wj]
                if nr >= 0:
                    out.append(((nr << shift) | ((w + wj) << _W_SHIFT), 0, (0, 0, wj, 0, 0)))
            return out
        end_rank = s == 3
        aim = 0 if self.grouped is None else self.grouped[_pcode(p, s)]
        for cards0, pts, freed, u, r in self.opts[li]:
            kept_bits = (kept + r) << 7
            for wj in range(self.wmax - w + 1):
                cards = cards0 + wj
                for g in _G_ORDER[cards][min(aim, cards)]:
                    nr = row[cards - g]
                    if nr < 0:
                        continue
                    nsg, nmg = sg + g, max(mg, g)
                    if end_rank:
                        if not groups_feasible(nsg, nmg):
                            continue
                        nsg = nmg = 0
                    bits = (
                        ((nr | kept_bits) << shift)
                        | ((w + wj) << _W_SHIFT)
                        | (freed << _F_SHIFT)
                        | (nsg << _SG_SHIFT)
                        | (nmg << _MG_SHIFT)
                    )
                    out.append((bits, pts, (u, r, wj, g, freed)))
        return out

    def _go(self, li: int, key: int, val: int) -> int | None:
        if li == len(LAYERS):
            for s in range(4):
                if ((key >> (10 * s)) & 127) not in CLOSED:
                    return None
            w = (key >> _W_SHIFT) & 3
            f = (key >> _F_SHIFT) & 3
            if w < f or w - f > self.counts.hand_jokers:
                return None
            total = val + JOKER_POINTS * (w - f)
            if total < self.need:
                return None
            self._last = key
            return total
        known = self.bound.get((li, key))
        if known is not None and val + known < self.need:
            return None
        left = self.wmax - ((key >> _W_SHIFT) & 3)
        cap = self.rank_cap[li]
        if cap >= 0:
            # the rank's groups so far must still be able to deal out (R4.2)
            sg = (key >> _SG_SHIFT) & 31
            if sg and (sg + cap + left < 3 or 3 * ((key >> _MG_SHIFT) & 7) > sg + cap + left):
                return None
        if self.futures is not None:
            # the suits' relaxations bound what is left (and see runs that cannot close)
            most = self.counts.hand_jokers * JOKER_POINTS
            if left == 0:
                for s2, q in enumerate(self.next_pos[li]):
                    fut = self.futures[s2][q].get((key >> (10 * s2)) & _SUIT_MASK)
                    if fut is None or fut[0] <= _DEAD:
                        return None
                    most += fut[0]
            else:
                # the wildcards left are shared: the best split of them between suits
                # (a _DEAD term keeps any split that leans on it far below ``need``)
                base = 0
                one: list[int] = []
                two = _DEAD
                for s2, q in enumerate(self.next_pos[li]):
                    fut = self.futures[s2][q].get((key >> (10 * s2)) & _SUIT_MASK)
                    if fut is None:
                        return None
                    base += fut[0]
                    one.append(fut[1] - fut[0])
                    if left == 2 and fut[2] - fut[0] > two:
                        two = fut[2] - fut[0]
                one.sort()
                gain = one[3] if left == 1 else max(two, one[3] + one[2])
                most += base + gain
            if val + most < self.need:
                return None
        self.visited += 1
        if self.budget is not None and self.visited > self.budget:
            raise Budget
        self.ticks += 1
        if self.deadline is not None and self.ticks & 255 == 0 and clock.now() > self.deadline:
            raise Timeout
        shift = 10 * LAYERS[li][1]
        field = (key >> shift) & _SUIT_MASK
        part = (li, field, key & _LAYER_AUX)
        kids = self.kids.get(part)
        if kids is None:
            kids = self.kids[part] = self._children(li, field, key)
        base = key & ~((_SUIT_MASK << shift) | (3 << _W_SHIFT) | (3 << _F_SHIFT) | _AUX_GROUP)
        base += key & (3 << _F_SHIFT)  # the freed jokers so far; a child adds its own
        floor = self.need - self.rem_after[li] - val
        path = self.path
        for bits, pts, step in kids:
            if pts < floor:
                continue
            path.append(step)
            got = self._go(li + 1, base + bits, val + pts)  # fields apart: + is |, F adds
            if got is not None:
                return got
            path.pop()
        # nothing below reached ``need``: what is still to come from here is less
        most = self.need - val - 1
        if most < self.bound.get((li, key), most + 1):
            self.bound[(li, key)] = most
        return None
