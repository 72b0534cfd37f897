"""How many table cards a meld moves, and a table rearranged to move fewer.

Definition (the solver's tie-break): a card is known by what it is on the
table, ``(pcode, ecode)``: a real card by its card (two identical cards are the same
card, R1.2), a joker by the card it is declared as (a joker re-declared has changed).
Each old meld is matched to at most one new meld and each new meld to at most one old
meld, so that the cards they share (as multisets) are as many as possible: a maximum
weight matching, computed exactly. The cards an old meld shares with its partner
stayed; every other table card moved::

    moved = (table cards before) - (most cards shared by a one-to-one matching)

So laying off moves nothing, splitting 5H..9H with a second 7H moves 8H 9H (two), and
joining two old melds into one moves the smaller of them (its meld is gone).

``tidy`` improves a new table towards the old one without changing its cards: it splits
long runs where that keeps more cards in their melds, and deals a rank's grouped cards
into the old groups first. It never makes a table invalid (each step is checked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummy.engine.cards import Card
from rummy.engine.melds import meld_kind

Meld = Sequence[Card]
Key = tuple[int, int]


def _key(c: Card) -> Key:
    return (c.pcode, c.ecode)


def _shares(old: Sequence[Meld], new: Sequence[Meld]) -> list[dict[int, int]]:
    """``w[i][j]``: cards old meld ``i`` shares with new meld ``j`` (only those > 0)."""
    where: dict[Key, list[int]] = {}
    news = [Counter(_key(c) for c in m) for m in new]
    for j, cnt in enumerate(news):
        for k in cnt:
            where.setdefault(k, []).append(j)
    out: list[dict[int, int]] = []
    for m in old:
        row: dict[int, int] = {}
        for k, n in Counter(_key(c) for c in m).items():
            for j in where.get(k, ()):
                row[j] = row.get(j, 0) + min(n, news[j][k])
        out.append(row)
    return out


def kept_cards(old: Sequence[Meld], new: Sequence[Meld]) -> int:
    """The most cards a one-to-one matching of old to new melds keeps together."""
    # An old meld with an identical new meld is matched to it in some best matching
    # (a valid meld holds no card twice: for any other pairs i-j', i'-j, the cards i
    # shares with j' and i' with j are both within i, so |i| + w(i', j') is at least
    # their sum), so such pairs are taken first and the rest matched apart.
    left = Counter(_meld_key(m) for m in new)
    same = 0
    rest_old: list[Meld] = []
    for m in old:
        k = _meld_key(m)
        if left[k]:
            left[k] -= 1
            same += len(m)
        else:
            rest_old.append(m)
    if not rest_old:
        return same
    rest_new: list[Meld] = []
    for m in new:
        k = _meld_key(m)
        if left[k]:
            left[k] -= 1
            rest_new.append(m)
    return same + _kept_apart(rest_old, rest_new)


def _meld_key(m: Meld) -> tuple[Key, ...]:
    return tuple(sorted(_key(c) for c in m))


def _kept_apart(old: Sequence[Meld], new: Sequence[Meld]) -> int:
    w = _shares(old, new)
    # connected parts of the old-new graph are matched apart; most are one pair
    seen_old: set[int] = set()
    total = 0
    by_new: dict[int, list[int]] = {}
    for i, row in enumerate(w):
        for j in row:
            by_new.setdefault(j, []).append(i)
    for i0 in range(len(w)):
        if i0 in seen_old or not w[i0]:
            continue
        olds, news, todo = [i0], set(), [i0]
        seen_old.add(i0)
        while todo:
            i = todo.pop()
            for j in w[i]:
                if j in news:
                    continue
                news.add(j)
                for i2 in by_new[j]:
                    if i2 not in seen_old:
                        seen_old.add(i2)
                        olds.append(i2)
                        todo.append(i2)
        if len(olds) == 1 and len(news) == 1:
            total += next(iter(w[i0].values()))
        elif len(olds) == 1:
            total += max(w[i0].values())
        else:
            cols = sorted(news)
            total += _assign([[w[i].get(j, 0) for j in cols] for i in olds])
    return total


def moved_cards(old: Sequence[Meld], new: Sequence[Meld]) -> int:
    """Table cards that moved (see the module docstring)."""
    return sum(len(m) for m in old) - kept_cards(old, new)


def _assign(weight: list[list[int]]) -> int:
    """Maximum weight of a one-to-one assignment of rows to columns (Hungarian method,
    O(n^2 m)); rows or columns may stay unassigned since every weight is >= 0."""
    n, m = len(weight), len(weight[0])
    size = max(n, m)
    top = max(max(r) for r in weight)
    # square it, padding with zero-weight rows or columns; minimise top - weight
    cost = [
        [top - (weight[i][j] if i < n and j < m else 0) for j in range(size)] for i in range(size)
    ]
    inf = float("inf")
    u = [0.0] * (size + 1)
    v = [0.0] * (size + 1)
    p = [0] * (size + 1)
    way = [0] * (size + 1)
    for i in range(1, size + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            row = cost[i0 - 1]
            for j in range(1, size + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(size + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    total = 0
    for j in range(1, size + 1):
        i = p[j]
        if i and i <= n and j <= m:
            total += weight[i - 1][j - 1]
    return total


# -- tidying a new table towards the old one ---------------------------------------------


def tidy(old: Sequence[Meld], new: Sequence[Meld]) -> list[list[Card]]:
    """The same cards as ``new`` in melds that share more with ``old`` (never fewer)."""
    table = [list(m) for m in new]
    start = kept_cards(old, table)
    table = _regroup(old, table)
    # Split long runs where an old meld ends or begins, judged run by run (the best two
    # old partners of the parts against the best one of the whole); the exact matching
    # then decides whether the tidied table keeps more.
    ends = {k for m in old for k in _ends(m)}
    olds = [Counter(_key(c) for c in m) for m in old]
    same = {_meld_key(m) for m in old}
    out: list[list[Card]] = []
    todo = table
    while todo:
        m = todo.pop()
        if len(m) < 6 or _meld_key(m) in same or meld_kind(m) != "sequence":
            out.append(m)
            continue
        top, cut = _share(olds, m), 0
        for k in range(3, len(m) - 2):
            if _key(m[k - 1]) in ends or _key(m[k]) in ends:
                got = _share_two(olds, m[:k], m[k:])
                if got > top:
                    top, cut = got, k
        if cut:
            todo += [m[:cut], m[cut:]]
        else:
            out.append(m)
    return out if kept_cards(old, out) > start else [list(m) for m in new]


def _shared(olds: Sequence[Counter[Key]], part: Meld) -> list[int]:
    mine = Counter(_key(c) for c in part)
    return [sum((o & mine).values()) for o in olds]


def _share(olds: Sequence[Counter[Key]], part: Meld) -> int:
    return max(_shared(olds, part), default=0)


def _share_two(olds: Sequence[Counter[Key]], a: Meld, b: Meld) -> int:
    """The most two different old melds share with ``a`` and ``b``."""
    sa, sb = _shared(olds, a), _shared(olds, b)
    best = max(max(sa, default=0), max(sb, default=0))
    for i, x in enumerate(sa):
        for j, y in enumerate(sb):
            if i != j and x + y > best:
                best = x + y
    return best


def _regroup(old: Sequence[Meld], table: list[list[Card]]) -> list[list[Card]]:
    """Each rank's groups dealt again: old groups whose cards are all there first, then
    the other cards where they fit (a suit a group lacks, up to four), else in new
    groups; kept only if every group is valid and the cards are the same."""
    groups = [m for m in table if meld_kind(m) == "group"]
    if not groups:
        return table
    rest = [m for m in table if meld_kind(m) != "group"]
    by_rank: dict[int, list[Card]] = {}
    for g in groups:
        by_rank.setdefault(_rank(g), []).extend(g)
    old_groups = [m for m in old if meld_kind(m) == "group"]
    out: list[list[Card]] = []
    for rank, cards in by_rank.items():
        mine = [g for g in groups if _rank(g) == rank]
        pool = Counter(_key(c) for c in cards)
        by_key = {_key(c): c for c in cards}
        dealt: list[list[Card]] = []
        for og in old_groups:
            if _rank(og) != rank:
                continue
            need = Counter(_key(c) for c in og)
            if all(pool[k] >= n for k, n in need.items()):
                pool -= need
                dealt.append([by_key[k] for k in need.elements()])
        left = [by_key[k] for k in pool.elements()]
        for c in left:
            suit = _suit(c)
            for g in dealt:
                if len(g) < 4 and all(_suit(x) != suit for x in g):
                    g.append(c)
                    break
            else:
                dealt.append([c])
        if all(meld_kind(g) == "group" for g in dealt):
            out.extend(dealt)
        else:
            out.extend(mine)
    return rest + out


def _ends(m: Meld) -> list[Key]:
    """The first and last card of an old run (its cards may lie in any order)."""
    if meld_kind(m) != "sequence":
        return []
    ranks = [(c.declared or c).rank for c in m]
    high = 13 in ranks
    at = sorted((14 if r == 1 and high else r, _key(c)) for r, c in zip(ranks, m, strict=True))
    return [at[0][1], at[-1][1]]


def _rank(g: Meld) -> int:
    c = g[0]
    return c.declared.rank if c.joker and c.declared else c.rank


def _suit(c: Card) -> str:
    return c.declared.suit if c.joker and c.declared else c.suit
