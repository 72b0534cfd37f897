"""The exact tie-break: among the arrangements that play the best points, one that moves
the fewest table cards (``moved.moved_cards``), and the proof that none moves fewer.

**Cores.** Take any new table and a best one-to-one matching of old melds to new melds.
Old meld ``m`` keeps ``C(m)``, the cards (by key: a real card by its card, a joker by its
declaration) it shares with its partner, and ``moved = sum(|m| - |C(m)|)``; the cores of
different old melds lie in different new melds. A core of two or more cards has a shape:
for a run (suit ``s``), the partner is a run of ``s``, so the core is the old run's
cards at an interval of positions, less the jokers there that a real copy of their card
replaced (a swap; the reverse, a real card replaced by a joker, is never needed: put
the joker where the real card went and the real card back, and nothing is kept less);
for a group, the partner is a group of its rank, so the core is a subset of its suits,
less the jokers a real copy replaced. A core of one card may be anywhere; this search
charges every old meld without a core of two or more ``|m| - 1`` (one card kept), which
can only be too little.

**The search.** The layers of ``search`` (positions 1 … 14 of each suit, a rank's four
suits in turn), over counts, with old melds as blocks. At its first layer each old meld
chooses its core (an interval and the jokers swapped, or a subset of a group's suits and
the jokers swapped, or none) and pays its cost at once; a core's cards leave the count
of free cards (the hand's cards played, the table cards outside cores, jokers freed).
A run core is a block in one run of its suit: when it begins it may take over one open
run of free cards ending just before it (any length), its cards follow, and once it
ends its run continues with free cards as a "carrying" run, which may end when it has
three cards or more but is never taken over by another block (two cores never share a
meld). A group core takes at most one free card of each suit it lacks and must end with
three or four cards. Free cards behave as in ``search`` (runs in its normal form; groups
dealt out; table jokers freed as far as real copies allow, R5.2 d; a swap frees its
joker through the real copy that takes its place). The value of a state is ``M`` × the
points played − the cost so far, and ``find(k)`` (the best points, cost at most ``k``)
is ``search.DepthFirst``'s depth-first search with the bounds its failures prove.
Every table's cores are a choice of this search at no more than their cost, so when
``find(k)`` finds nothing, every table moves more than ``k``; the table it writes keeps
every core in a meld of its own, so moves at most ``k`` unless a meld charged
``|m| - 1`` keeps no card. So a table it writes whose exact matching moves ``k``, with
``find(k - 1)`` refused, is proven the fewest (``solve`` asks for ``k`` going down from
the greedy answer, after ``k = 0``).

**Dominance.** A core never grows, in its new meld, by a card of its own old meld's key
that it left out: such a table is also a choice with that card in the core, at a lower
cost. So a run core that leaves out a real card just beyond its end is not continued
there (its run ends; "continued" would need a joker of that card, and swapping that
joker with the real card, which went to some other meld, keeps no card less), a run
core that leaves out a real card just before it takes over no run, and a group core
takes no free card of a suit its old group had (a real one there is the swap choice,
a joker the core itself).

**Bounds.** A state's points to come are bounded by the count search's suit
relaxations (``search.suit_futures``, with every joker a wildcard that may stay out):
its open runs, carrying runs and started cores as open runs of their ages, a core's ace
high as an ace kept back for 14. ``solve`` passes only the hand cards some optimum plays.

**Order.** ``start_from(table)`` (``solve`` passes the greedy table) makes every old
meld try first the core it keeps in that table, and every card try first as many
copies in groups as that table has: a search asked for fewer moved meets the tables
near the greedy one first (on the proof's positions, asking for one fewer than the
greedy answer, in cheapest-first order, often ran out of time even where a table
moving far fewer exists). Only the order changes: a refusal still exhausts every
choice. (Starting again from each table found was tried: fewer equal the fewest on
the proof, since every new start makes the layers' choices again.)

**Not modelled, so not claimed.** An old run of 13 cards (ace low to king is also two
to ace high: its core need not be one interval in either): ``Fewest`` refuses such a
table (``ValueError``). The search may write a run from ace low to ace high around a
core (14 cards, no meld): its refusals still prove (it only has more choices), and
``solve`` checks every table it writes and asks again for fewer when one fails.
``single=False`` charges a meld without a core its whole size instead (no bound then:
every table it writes moves at most its cost), for when the one-card bound fails.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rummy.engine.cards import JOKER_AS, POINTS, REAL_CARDS, Card
from rummy.engine.melds import meld_kind

from . import clock
from .search import (
    _DEAD,
    _G_ORDER,
    LAYERS,
    Counts,
    Timeout,
    _code,
    _pcode,
    groups_feasible,
    suit_futures,
    wild_cap,
)

Tup = tuple[Any, ...]  # a state, or a part of one (nested tuples of ints)
Child = tuple[Tup, int, Tup]  # (state, value gained, the step for the replay)

M = 1000  # a point played outweighs every table card moved
JOKER_POINTS = 25


@dataclass(frozen=True)
class _Run:
    suit: int
    first: int  # positions 1..14
    last: int
    cards: dict[int, tuple[int, bool]]  # position -> (pcode, joker)
    options: list[tuple[int, int, int, frozenset[int]]]  # (cost, q, e, swapped positions)


@dataclass(frozen=True)
class _Group:
    rank: int  # 1..13
    cards: dict[int, tuple[int, bool]]  # suit -> (pcode, joker)
    options: list[tuple[int, frozenset[int], frozenset[int]]]  # (cost, core suits, swapped)


def _position_of(c: Card) -> tuple[int, int]:
    card = c.declared if c.joker and c.declared is not None else c
    return card.pcode // 13, card.pcode % 13 + 1


def _parse(old: Sequence[Sequence[Card]], single: int) -> tuple[list[_Run], list[_Group]] | None:
    """The old melds with their core choices; a meld without a core of two or more is
    charged its size less ``single`` (1: one card kept, a bound; 0: none)."""
    runs: list[_Run] = []
    groups: list[_Group] = []
    for m in old:
        kind = meld_kind(m)
        at = [(_position_of(c), c.joker) for c in m]
        if kind == "group":
            r = at[0][0][1]
            cards = {s: (s * 13 + r - 1, j) for (s, _r), j in at}
            n = len(m)
            opts: list[tuple[int, frozenset[int], frozenset[int]]] = [
                (n - single, frozenset(), frozenset())
            ]
            suits = sorted(cards)
            for size in range(2, n + 1):
                for core in itertools.combinations(suits, size):
                    jok = [s for s in core if cards[s][1]]
                    for k in range(len(jok) + 1):
                        for sw in itertools.combinations(jok, k):
                            kept = size - k
                            if kept >= 2:
                                opts.append((n - kept, frozenset(core), frozenset(sw)))
            opts.sort(key=lambda o: o[0])
            groups.append(_Group(r, cards, opts))
        elif kind == "sequence":
            s = at[0][0][0]
            ranks = [r for (_s, r), _j in at]
            high = 13 in ranks
            cards2: dict[int, tuple[int, bool]] = {}
            for (_s, r), j in at:
                p = 14 if (r == 1 and high) else r
                cards2[p] = (s * 13 + r - 1, j)
            first, last = min(cards2), max(cards2)
            n = len(m)
            ropts: list[tuple[int, int, int, frozenset[int]]] = [(n - single, 0, -1, frozenset())]
            for q in range(first, last + 1):
                for e in range(q + 1, last + 1):
                    jok = [p for p in range(q, e + 1) if cards2[p][1]]
                    for k in range(len(jok) + 1):
                        for sw in itertools.combinations(jok, k):
                            kept = e - q + 1 - k
                            if kept >= 2:
                                ropts.append((n - kept, q, e, frozenset(sw)))
            ropts.sort(key=lambda o: o[0])
            runs.append(_Run(s, first, last, cards2, ropts))
        else:
            return None
    return runs, groups


class Fewest:
    """The tie-break search for one position (see the module docstring)."""

    def __init__(
        self,
        old: Sequence[Sequence[Card]],
        hand: Sequence[int],
        hand_jokers: int,
        points: int,
        deadline: float | None = None,
        counts: Counts | None = None,
        single: bool = True,
    ) -> None:
        parsed = _parse(old, 1 if single else 0)
        if parsed is None:
            raise ValueError("a table meld is no meld")
        if any(len(run.cards) == 13 for run in parsed[0]):
            raise ValueError("a run of 13 cards is not modelled")
        self.old = old
        self.runs, self.groups = parsed
        self.hand = list(hand)
        self.hand_jokers = hand_jokers
        self.points = points
        self.deadline = deadline
        self.table_real = [0] * 52
        self.table_jok = [0] * 52
        for m in old:
            for c in m:
                if c.joker:
                    assert c.declared is not None
                    self.table_jok[c.declared.pcode] += 1
                else:
                    self.table_real[c.pcode] += 1
        self.wmax = min(2, hand_jokers + sum(self.table_jok))
        n = len(LAYERS)
        self.index = {ps: i for i, ps in enumerate(LAYERS)}
        # which old melds choose their core at each layer
        self.decide_runs: list[list[int]] = [[] for _ in range(n)]
        for rid, run in enumerate(self.runs):
            p = 1 if run.last == 14 else run.first
            self.decide_runs[self.index[(p, run.suit)]].append(rid)
        self.decide_groups: list[list[int]] = [[] for _ in range(n)]
        for gid, g in enumerate(self.groups):
            self.decide_groups[self.index[(g.rank, 0)]].append(gid)
        pts_at = [
            self.hand[_pcode(p, s)] * POINTS[_pcode(p, s)] if p <= 13 else 0 for p, s in LAYERS
        ]
        self.rem_after = [0] * (n + 1)
        acc = hand_jokers * JOKER_POINTS
        self.rem_after[n] = acc
        for i in range(n - 1, -1, -1):
            acc += pts_at[i]
            self.rem_after[i] = acc
        # rem_after[i]: hand points from layer i on (jokers included)
        self.bound: dict[tuple[int, Tup], int] = {}
        self.need = 0
        self.visited = 0
        self.path: list[Tup] = []
        # the count search's suit relaxations bound the points still to come (used
        # when no joker is on the table: see ``_most``)
        self.futures = None
        if counts is not None:
            # every joker as a wildcard that may stay unplaced: a relaxation of this
            # search's jokers (table jokers kept, freed or not), see ``_most``
            loose = Counts(
                table=counts.table,
                hand=tuple(self.hand),
                jokers=(0,) * 52,
                hand_jokers=hand_jokers + sum(self.table_jok),
                wild_max=counts.wild_max,
            )
            self.fwmax = wild_cap(loose)
            self.futures = [suit_futures(loose, s, self.fwmax, deadline) for s in range(4)]
            self.next_pos = [[p + (s2 < s) for s2 in range(4)] for p, s in LAYERS]
        self.prefer: dict[tuple[str, int], int] = {}
        self.aim = [0] * 52  # per card: the copies to try putting into groups first
        self.fut_cache: dict[Tup, list[int] | None] = {}
        self.local: dict[Tup, list[tuple[int, Tup, int, int, Tup, int, Tup]]] = {}
        self.local_cost = -1

    def _most(self, li: int, state: Tup) -> int | None:
        """The most points the layers from ``li`` on can add, by ``search.suit_futures``
        (each suit alone, groups relaxed): a state of this search is one of the count
        search's with its carrying runs and started blocks as open runs of their age
        (their later cards are table cards there too, but for a core's ace high: an ace
        that search keeps back for 14); None when it cannot say."""
        assert self.futures is not None
        suits, w, _f, _rank = state
        # jokers still to place: at most all of them less those placed as wildcards
        left = self.fwmax - w
        if left < 0:
            return None
        most = self.hand_jokers * JOKER_POINTS
        base = 0
        one: list[int] = []
        two = _DEAD
        cache = self.fut_cache
        for s2, q in enumerate(self.next_pos[li]):
            suit = suits[s2]
            ck = (s2, q, suit)
            if ck in cache:
                got = cache[ck]
            else:
                n1, n2, n3, c2, c3, kept, blocks = suit
                a = [n1, n2 + c2, n3 + c3]
                for rid, opt, age in blocks:
                    if age > 0:
                        a[age - 1] += 1
                    if q > 1 and self.runs[rid].options[opt][2] == 14:
                        kept += 1  # its ace high, a card kept for 14 there
                if max(a) > 4 or kept > 7:
                    got = None
                else:
                    got = self.futures[s2][q].get(_code(*a) | (kept << 7))
                cache[ck] = got
            fut = got
            if fut is None:
                return None
            base += fut[0]
            if left >= 1:
                one.append(fut[1] - fut[0])
            if left == 2 and fut[2] - fut[0] > two:
                two = fut[2] - fut[0]
        if left == 0:
            return most + base
        one.sort()
        gain = one[3] if left == 1 else max(two, one[3] + one[2])
        return most + base + gain

    def start_from(self, table: Sequence[Sequence[Card]]) -> None:
        """Try first, for each old meld, the core it keeps in ``table`` (a table found
        before, e.g. the greedy one): the search then meets tables near it first. Only
        the order of the choices changes, never what a search finds or refuses."""
        keys = [Counter((c.pcode, c.ecode) for c in m) for m in table]
        reals = [Counter(c.pcode for c in m if not c.joker) for m in table]
        # each old meld's partner: the most cards shared, one to one, greedily
        pairs = []
        for i, m in enumerate(self.old):
            mk = Counter((c.pcode, c.ecode) for c in m)
            for j, nk in enumerate(keys):
                shared = sum((mk & nk).values())
                if shared >= 2:
                    pairs.append((-shared, i, j))
        pairs.sort()
        partner: dict[int, int] = {}
        used: set[int] = set()
        for _w, i, j in pairs:
            if i not in partner and j not in used:
                partner[i] = j
                used.add(j)
        self.local = {}  # the layers' choices are made again, in the new order
        self.aim = [0] * 52
        for m in table:
            if meld_kind(m) == "group":
                for c in m:
                    if not c.joker:
                        self.aim[c.pcode] += 1
        rid = gid = 0
        self.prefer = {}
        for i, m in enumerate(self.old):
            kind = meld_kind(m)
            mate = partner.get(i)
            # where the old meld's card stays (+1) or goes (-2), by its position or suit
            stays: dict[int, int] = {}
            swaps: dict[int, int] = {}
            high = kind == "sequence" and any(_position_of(c)[1] == 13 for c in m)
            for c in m:
                s, r = _position_of(c)
                at = s if kind == "group" else (14 if r == 1 and high else r)
                left = mate is not None and keys[mate][(c.pcode, c.ecode)] > 0
                stays[at] = 1 if left else -2
                swaps[at] = -2
                if c.joker and mate is not None and c.declared is not None:
                    swaps[at] = 1 if reals[mate][c.declared.pcode] > 0 else -2
            if kind == "group":
                g = self.groups[gid]
                scores = [
                    sum(swaps[x] if x in sw else stays[x] for x in core)
                    for _c, core, sw in g.options
                ]
                self.prefer[("g", gid)] = max(
                    range(len(scores)), key=lambda o: (scores[o], -g.options[o][0])
                )
                gid += 1
            else:
                run = self.runs[rid]
                scores = [
                    sum(swaps[x] if x in sw else stays[x] for x in range(q, e + 1))
                    for _c, q, e, sw in run.options
                ]
                self.prefer[("r", rid)] = max(
                    range(len(scores)), key=lambda o: (scores[o], -run.options[o][0])
                )
                rid += 1

    # -- the search ----------------------------------------------------------------------

    def find(self, cost: int) -> list[list[Card]] | None:
        """A table playing ``points`` and charged at most ``cost``, or None (proven)."""
        self.need = self.points * M - cost
        if cost > self.local_cost:
            # the layers' choices were made for a smaller cost: make them again
            self.local = {}
            self.local_cost = cost
        if self.rem_after[0] < self.points:
            return None
        start = ((0, 0, 0, 0, 0, 0, ()),) * 4
        state = (start, 0, 0, ())
        self.path = []
        if self._go(0, state, 0) is None:
            return None
        return self._build(self.path)

    def _go(self, li: int, state: Tup, val: int) -> int | None:
        if li == len(LAYERS):
            return self._final(state, val)
        known = self.bound.get((li, state))
        if known is not None and val + known < self.need:
            return None
        if val + M * self.rem_after[li] < self.need:
            return None
        if self.futures is not None:
            most = self._most(li, state)
            if most is not None and val + M * most < self.need:
                return None
        self.visited += 1
        # every state: making a state's children may take a tenth of a millisecond, so
        # a coarser check would overrun the deadline by milliseconds
        if self.deadline is not None and clock.now() > self.deadline:
            raise Timeout
        path = self.path
        for child, gain, step in self._children(li, state, val):
            nv = val + gain
            if nv + M * self.rem_after[li + 1] < self.need:
                continue
            path.append(step)
            got = self._go(li + 1, child, nv)
            if got is not None:
                return got
            path.pop()
        most = self.need - val - 1
        if most < self.bound.get((li, state), most + 1):
            self.bound[(li, state)] = most
        return None

    def _final(self, state: Tup, val: int) -> int | None:
        suits, w, f, _rank = state
        for n1, n2, _n3, c2, _c3, _kept, blocks in suits:
            if n1 or n2 or c2:
                return None
            for rid, opt, age in blocks:
                if self.runs[rid].options[opt][2] != 14 or age < 3:
                    return None
        if w < f or w - f > self.hand_jokers:
            return None
        total: int = val + M * JOKER_POINTS * (w - f)
        if total < self.need:
            return None
        return total

    def _decisions(
        self, li: int, suit: Tup, rank: Tup, budget: int
    ) -> Iterator[tuple[Tup, Tup, int, Tup]]:
        """The cores chosen at layer ``li``: (blocks, rank entries, cost, choices), the
        cheapest first, none costing more than ``budget``."""
        rids = self.decide_runs[li]
        gids = self.decide_groups[li]
        blocks = suit[6]
        if not rids and not gids:
            yield blocks, rank, 0, ()
            return
        lists = [
            [(o[0], ("r", rid, oi)) for oi, o in enumerate(self.runs[rid].options)] for rid in rids
        ]
        lists += [
            [(o[0], ("g", gid, oi)) for oi, o in enumerate(self.groups[gid].options)]
            for gid in gids
        ]
        combos: list[tuple[int, int, Tup]] = []
        prefer = self.prefer

        def walk(i: int, cost: int, off: int, chosen: Tup) -> None:
            if i == len(lists):
                combos.append((off, cost, chosen))
                return
            for c, item in lists[i]:
                if cost + c > budget:
                    break  # the options are sorted by cost
                walk(
                    i + 1,
                    cost + c,
                    off + (prefer.get(item[:2], item[2]) != item[2]),
                    chosen + (item,),
                )

        walk(0, 0, 0, ())
        # the cores of the table to start from first (``prefer``), then the cheapest
        combos.sort(key=lambda x: x[:2])
        for _off, cost, combo in combos:
            nb = list(blocks)
            nr = []
            for kind, i, oi in combo:
                if kind == "r":
                    if self.runs[i].options[oi][2] >= 0:
                        nb.append((i, oi, -1))
                elif self.groups[i].options[oi][1]:
                    nr.append((i, oi, 0))
            new_rank = ((0, 0, *sorted(nr)) if nr else ()) if gids else rank
            yield tuple(sorted(nb)), new_rank, cost, combo

    def _members(self, p: int, s: int, blocks: Tup, rank: Tup) -> tuple[int, int, int]:
        """(real members, joker members, swapped jokers) of cores that take card (p, s)."""
        real = jok = swaps = 0
        for rid, opt, _age in blocks:
            run = self.runs[rid]
            _c, q, e, sw = run.options[opt]
            spots = (p, 14) if p == 1 else (p,)
            for x in spots:
                if q <= x <= e:
                    _t, j = run.cards[x]
                    if j:
                        jok += 1
                        swaps += x in sw
                    else:
                        real += 1
        if rank and p <= 13:
            for gid, opt, _ext in rank[2:]:
                g = self.groups[gid]
                _c, core, sw = g.options[opt]
                if s in core:
                    if g.cards[s][1]:
                        jok += 1
                        swaps += s in sw
                    else:
                        real += 1
        return real, jok, swaps

    def _children(self, li: int, state: Tup, val: int) -> Iterator[Child]:
        """What layer ``li`` may decide from ``state``: (the state after, the value
        gained, the step). It depends only on the layer's suit, the wildcards and the
        rank's groups, so it is made once per ``find`` for each of those."""
        p, s = LAYERS[li]
        suits, w, f, rank = state
        suit = suits[s]
        part = (li, suit, w, f, rank)
        local = self.local.get(part)
        if local is None:
            most = self.local_cost  # no layer pays more than the whole
            local = []
            deadline = self.deadline
            for blocks, nrank, dcost, dec in self._decisions(li, suit, rank, most):
                if deadline is not None and clock.now() > deadline:
                    raise Timeout
                local.extend(self._flow(p, s, w, f, suit, blocks, nrank, dcost, dec))
            self.local[part] = local
        budget = val + M * self.rem_after[li] - self.need
        before, after = suits[:s], suits[s + 1 :]
        for dcost, ns, nw, nf, nrank, gain, step in local:
            if dcost <= budget:
                yield (before + (ns,) + after, nw, nf, nrank), gain, step

    def _flow(
        self,
        p: int,
        s: int,
        w: int,
        f: int,
        suit: Tup,
        blocks: Tup,
        rank: Tup,
        dcost: int,
        dec: Tup,
    ) -> Iterator[tuple[int, Tup, int, int, Tup, int, Tup]]:
        n1, n2, n3, c2, c3, kept, _b = suit
        if p == 14:
            for wj in range(self.wmax - w + 1):
                cr = kept + wj
                for runs, blocks2, rec in self._run_step(p, (n1, n2, n3, c2, c3), blocks, cr):
                    ns = (*runs, 0, blocks2)
                    yield dcost, ns, w + wj, f, rank, -dcost, (dec, 0, 0, wj, 0, (), rec, 0)
            return
        t = _pcode(p, s)
        real_mem, jok_mem, swaps = self._members(p, s, blocks, rank)
        free_real = self.table_real[t] - real_mem
        free_jok = self.table_jok[t] - jok_mem
        end_rank = s == 3
        if rank:
            sg, mg = rank[0], rank[1]
            cores = rank[2:]
        else:
            sg = mg = 0
            cores = ()
        eligible = [
            i
            for i, (gid, opt, ext) in enumerate(cores)
            if s not in self.groups[gid].cards and len(self.groups[gid].options[opt][1]) + ext < 4
        ]
        aim = self.aim[t]
        for u in range(self.hand[t], -1, -1):
            real = free_real + u
            if real < swaps:
                continue
            real_end = real + real_mem
            freed = min(free_jok, real_end - swaps)
            nf = f + swaps + freed
            if nf > 2:
                continue
            cards0 = real - swaps + free_jok - freed
            gain = u * POINTS[t] * M - dcost
            highs = range(cards0 + 1) if p == 1 else range(1)
            for r in highs:
                for wj in range(self.wmax - w + 1):
                    tot = cards0 - r + wj
                    for g in _G_ORDER[tot][min(aim, tot)]:
                        nsg, nmg = sg + g, max(mg, g)
                        for ne in range(min(len(eligible), tot - g) + 1):
                            for ext in itertools.combinations(eligible, ne):
                                cr = tot - g - ne
                                ncores = list(cores)
                                for i in ext:
                                    gid, opt, x = ncores[i]
                                    ncores[i] = (gid, opt, x + 1)
                                if end_rank:
                                    if not groups_feasible(nsg, nmg):
                                        continue
                                    ok = True
                                    for gid, opt, x in ncores:
                                        size = len(self.groups[gid].options[opt][1]) + x
                                        if not 3 <= size <= 4:
                                            ok = False
                                    if not ok:
                                        continue
                                    nrank: Tup = ()
                                elif rank or g:
                                    nrank = (nsg, nmg, *ncores)
                                else:
                                    nrank = ()
                                for runs, blocks2, rec in self._run_step(
                                    p, (n1, n2, n3, c2, c3), blocks, cr
                                ):
                                    ns = (*runs, kept + r, blocks2)
                                    yield (
                                        dcost,
                                        ns,
                                        w + wj,
                                        nf,
                                        nrank,
                                        gain,
                                        (dec, u, r, wj, g, ext, rec, freed),
                                    )

    def _shut(self, rid: int, opt: int, x: int) -> bool:
        """Whether the core of run ``rid`` may not reach position ``x`` beside it: the
        old run's own card there is real and outside the core (see "Dominance")."""
        run = self.runs[rid]
        _c, q, e, _sw = run.options[opt]
        return x in run.cards and not q <= x <= e and not run.cards[x][1]

    def _run_step(self, p: int, runs: Tup, blocks: Tup, cr: int) -> Iterator[tuple[Tup, Tup, Tup]]:
        """The suit's runs after ``cr`` free cards (and its blocks) arrive at ``p``:
        (n1, n2, n3, c2, c3), the blocks, and what was chosen (absorbed ages, e3)."""
        n1, n2, n3, c2, c3 = runs
        keep: list[tuple[int, int, int]] = []
        starting: list[tuple[int, int]] = []
        for rid, opt, age in blocks:
            _c, q, e, _sw = self.runs[rid].options[opt]
            if e == p - 1:
                if age < 2:
                    return
                if self._shut(rid, opt, e + 1):
                    if age < 3:
                        return
                elif age == 2:
                    c2 += 1
                else:
                    c3 += 1
            elif q == p:
                starting.append((rid, opt))
            elif q < p:
                keep.append((rid, opt, min(3, age + 1)))
            else:
                keep.append((rid, opt, age))
        free = [n1, n2, n3]
        shut = [self._shut(rid, opt, p - 1) for rid, opt in starting]
        for absorbed in itertools.product((0, 1, 2, 3), repeat=len(starting)):
            left = list(free)
            okay = True
            for y, no in zip(absorbed, shut, strict=True):
                if y and no:
                    okay = False
                if y:
                    left[y - 1] -= 1
                    if left[y - 1] < 0:
                        okay = False
            if not okay:
                continue
            nb = list(keep)
            for (rid, opt), y in zip(starting, absorbed, strict=True):
                nb.append((rid, opt, min(3, y + 1)))
            nb_t = tuple(sorted(nb))
            a1, a2, a3 = left
            for e3 in range(c3 + 1):
                must = a1 + a2 + c2
                total = must + a3 + c3 - e3
                if cr < must:
                    continue
                if cr >= total:
                    out = (cr - total, a1, a2 + a3, 0, c2 + c3 - e3)
                else:
                    end = total - cr
                    if end > a3:
                        continue
                    out = (0, a1, a2 + a3 - end, 0, c2 + c3 - e3)
                yield out, nb_t, (absorbed, e3)

    # -- the table -----------------------------------------------------------------------

    def _build(self, path: list[Tup]) -> list[list[Card]] | None:
        """Replay the chosen steps with cards (the same decisions, in the same order)."""
        free: list[list[list[Card]]] = [[] for _ in range(4)]
        carry: list[list[list[Card]]] = [[] for _ in range(4)]
        blocks: dict[int, list[Card]] = {}
        gcore: dict[int, list[Card]] = {}
        done: list[list[Card]] = []
        kept_high: list[list[Card]] = [[] for _ in range(4)]
        grouped: list[list[Card]] = [[] for _ in range(4)]
        # replay decisions: recompute them from the state the search walked
        state_blocks: list[Tup] = [() for _ in range(4)]
        rank_cores: Tup = ()
        for li, (p, s) in enumerate(LAYERS):
            dec, u, r, wj, g, ext, rec, freed = path[li]
            sb = list(state_blocks[s])
            for kind, i, oi in dec:
                if kind == "r" and self.runs[i].options[oi][2] >= 0:
                    sb.append((i, oi, -1))
            if self.decide_groups[li]:
                rank_cores = tuple(
                    sorted(
                        (i, oi, 0)
                        for kind, i, oi in dec
                        if kind == "g" and self.groups[i].options[oi][1]
                    )
                )
            blocks_t = tuple(sorted(sb))
            t = _pcode(p, s) if p <= 13 else _pcode(1, s)
            if p <= 13:
                real_mem, jok_mem, swaps = self._members(p, s, blocks_t, (0, 0, *rank_cores))
                real = self.table_real[t] - real_mem + u
                free_jok = self.table_jok[t] - jok_mem
                items = [REAL_CARDS[t]] * (real - swaps) + [JOKER_AS[t]] * (free_jok - freed)
                if r:
                    kept_high[s] = items[len(items) - r :]
                    items = items[: len(items) - r]
                items = items + [JOKER_AS[t]] * wj
                grouped[s] = items[:g]
                items = items[g:]
                for i in ext:
                    gid, _oi, _x = rank_cores[i]
                    gcore.setdefault(gid, []).append(items.pop(0))
                # group core members
                for gid, oi, _x in rank_cores:
                    grp = self.groups[gid]
                    _c, core, sw = grp.options[oi]
                    if s in core:
                        tt, j = grp.cards[s]
                        card = JOKER_AS[tt] if j and s not in sw else REAL_CARDS[tt]
                        gcore.setdefault(gid, []).append(card)
            else:
                items = kept_high[s] + [JOKER_AS[t]] * wj
            absorbed, e3 = rec
            # runs of suit s: blocks ending before p, starting at p, members at p
            keep = []
            starting = []
            for rid, oi, age in blocks_t:
                _c, q, e, sw = self.runs[rid].options[oi]
                if e == p - 1:
                    if self._shut(rid, oi, e + 1):
                        done.append(blocks.pop(rid))
                    else:
                        carry[s].append(blocks.pop(rid))
                elif q == p:
                    starting.append((rid, oi))
                else:
                    keep.append((rid, oi, age))
            for (rid, oi), y in zip(starting, absorbed, strict=True):
                if y:
                    # the shortest of that age (a run from ace low to ace high is no run)
                    pick = min(
                        (i for i, run in enumerate(free[s]) if min(3, len(run)) == y),
                        key=lambda i: len(free[s][i]),
                    )
                    blocks[rid] = free[s].pop(pick)
                else:
                    blocks[rid] = []
                keep.append((rid, oi, 0))
            for rid, oi, _age in keep:
                _c, q, e, sw = self.runs[rid].options[oi]
                if q <= p <= e:
                    tt, j = self.runs[rid].cards[p]
                    blocks[rid].append(JOKER_AS[tt] if j and p not in sw else REAL_CARDS[tt])
            state_blocks[s] = tuple(
                sorted(b for b in keep if self.runs[b[0]].options[b[1]][2] >= p)
            )
            # carrying runs of three or more ending here
            for _ in range(e3):
                i = next(i for i, run in enumerate(carry[s]) if len(run) >= 3)
                done.append(carry[s].pop(i))
            total = len(free[s]) + len(carry[s])
            if len(items) < total:
                end = total - len(items)
                order = sorted(range(len(free[s])), key=lambda i: -len(free[s][i]))
                gone = set(order[:end])
                done.extend(free[s][i] for i in sorted(gone))
                free[s] = [run for i, run in enumerate(free[s]) if i not in gone]
            conts = carry[s] + free[s]
            for run, card in zip(conts, items, strict=False):
                run.append(card)
            for card in items[len(conts) :]:
                free[s].append([card])
            if s == 3 and p <= 13:
                for gid, _oi, _x in rank_cores:
                    done.append(gcore.pop(gid))
                done.extend(_deal_groups(grouped))
                grouped = [[] for _ in range(4)]
                rank_cores = ()
        for s in range(4):
            done.extend(blocks.pop(rid) for rid in list(blocks) if self.runs[rid].suit == s)
            done.extend(carry[s])
            for run in free[s]:
                done.extend([run[:3], run[3:]] if len(run) > 13 else [run])
        return done


def _deal_groups(by_suit: Sequence[Sequence[Card]]) -> list[list[Card]]:
    cards = [c for suit in by_suit for c in suit]
    if not cards:
        return []
    most = max(len(suit) for suit in by_suit)
    k = max(most, -(-len(cards) // 4))
    groups: list[list[Card]] = [[] for _ in range(k)]
    for i, c in enumerate(cards):
        groups[i % k].append(c)
    return groups
