"""The greedy tie-break: among the arrangements leaving the lowest count, one that moves
few table cards (``moved.moved_cards``), quickly; ``fewest`` then searches below it
exactly, as far as its time allows.

The search (``search``) counts cards, not melds, and writes its answer in a normal form
that may join, split or re-deal melds that the meld did not need to touch. So, once the
best count is known (``value`` points played), this module:

1. freezes the old melds that no playable hand card is near (``near``), or failing that
   those not near these, when a search on the rest (a small budget of states) still
   reaches ``value``;
2. tries to freeze each other old meld in turn, keeping it frozen when a search on the
   rest still reaches ``value``;
3. writes the rest in normal form beside the frozen melds and ``tidy``s it.

A frozen meld stays on the table as it was; its real cards still free table jokers
elsewhere (R5.2 d, ``Counts.extra_real``). ``proven`` is True only when the answer moves
no card; otherwise the figure is the fewest found, not proven the fewest possible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummy.engine.cards import Card

from . import search
from .build import build_table
from .moved import moved_cards, tidy

#: states each freezing try may visit (a try that needs more counts as a failure), and
#: all of them together: the tie-break stays a few milliseconds beside the search
TRY_BUDGET = 300
TOTAL_BUDGET = 1500


@dataclass(frozen=True)
class Arranged:
    table: list[list[Card]]
    result: search.Result
    counts: search.Counts  # the counts ``result`` answers (without the frozen melds)
    moved: int
    proven: bool  # no arrangement with the same count moves fewer table cards


def counts_without(
    table: Sequence[Sequence[Card]], frozen: set[int], hand: Sequence[int], hand_jokers: int
) -> search.Counts:
    """The search's counts with the melds ``frozen`` (indexes into ``table``) left out."""
    rest = [m for i, m in enumerate(table) if i not in frozen]
    real = [c.pcode for m in rest for c in m if not c.joker]
    jok = [c.ecode for m in rest for c in m if c.joker]
    extra = [c.pcode for i in frozen for c in table[i] if not c.joker]
    return search.counts_of([real], hand, jok, hand_jokers, extra_real=extra)


def played(result: search.Result) -> tuple[list[int], int]:
    """The hand cards ``result`` plays (pcodes, jokers apart) and its hand jokers."""
    hand = [
        search._pcode(p, s)
        for (p, s), ch in result.choices.items()
        if p <= 13
        for _ in range(ch.used)
    ]
    return hand, result.wild_used - result.freed


def _meld_key(m: Sequence[Card]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((c.pcode, c.ecode) for c in m))


def _position(c: Card) -> tuple[int, int]:
    """(suit, rank) a card is, or stands for."""
    card = c.declared if c.joker and c.declared is not None else c
    return card.pcode // 13, card.pcode % 13 + 1


def near(table: Sequence[Sequence[Card]], cards: Sequence[tuple[int, int]]) -> set[int]:
    """Melds that one of ``cards`` (suit, rank) could touch: a card of the meld of the
    same rank (a group to join, a card to take), or of the same suit at most two ranks
    away (a run to extend or split, a joker to free; the ace stands at 1 and at 14)."""
    out: set[int] = set()
    ranks = {r for _s, r in cards}
    by_suit: dict[int, set[int]] = {}
    for s, r in cards:
        spots = by_suit.setdefault(s, set())
        for q in (r, 14) if r == 1 else (r,):
            spots.update(range(q - 2, q + 3))
    for i, m in enumerate(table):
        for c in m:
            s, r = _position(c)
            spots = by_suit.get(s, set())
            if r in ranks or r in spots or (r == 1 and 14 in spots):
                out.add(i)
                break
    return out


def arrange(
    old: Sequence[Sequence[Card]],
    counts: search.Counts,
    result: search.Result,
    deadline: float | None,
    budgets: tuple[int, int] = (TRY_BUDGET, TOTAL_BUDGET),
    smallest_first: bool = False,
) -> Arranged:
    """The arrangement of ``result``'s count that moves the fewest cards found by the
    steps of the module docstring (stopped early, not proven, past ``deadline``).
    ``budgets``: the states each try may visit, and all of them together;
    ``smallest_first``: step 3 tries the smallest melds first instead."""
    need = result.value
    # Every search below plays exactly the cards ``result`` plays: the count stays, and
    # a search that must play all of its hand prunes at once what cannot.
    hand, jokers = played(result)
    counts = counts_without(old, set(), hand, jokers)
    frozen: set[int] = set()
    cur, cur_counts = result, counts
    grouped = [0] * 52  # the copies of each card that stood in groups
    for m in old:
        if len({_position(c)[0] for c in m}) > 1:
            for c in m:
                if not c.joker:
                    grouped[c.pcode] += 1
    tries = _Tries(need, deadline, grouped, budgets)
    try:
        # 0. the whole table again, in the order that keeps groups groups and runs runs
        got = tries.find(counts)
        if got is not None:
            cur = got
        # 1. leave out the melds no playable hand card is near, then those near them:
        # on a big table the meld is usually made near the hand's cards alone
        cards = [divmod(t, 13) for t in hand]
        touch = near(old, [(s, r + 1) for s, r in cards])
        for _hop in range(2):
            if jokers or len(touch) == len(old):
                break  # a hand joker may go anywhere: no melds are left out
            trial = counts_without(old, set(range(len(old))) - touch, hand, jokers)
            got = tries.find(trial)
            if got is not None:
                frozen = set(range(len(old))) - touch
                cur, cur_counts = got, trial
                break
            touch |= near(old, [_position(c) for i in touch for c in old[i]])
        best = _lay(old, frozen, cur_counts, cur)
        if best.moved == 0:
            return best
        # 2. the melds this answer left as they were, frozen at once (it shows that the
        # rest can do without them), so that no later search takes them apart
        same = Counter(_meld_key(m) for m in best.table)
        untouched = set()
        for i, m in enumerate(old):
            k = _meld_key(m)
            if i not in frozen and same[k]:
                same[k] -= 1
                untouched.add(i)
        if untouched:
            trial = counts_without(old, frozen | untouched, hand, jokers)
            got = tries.find(trial)
            if got is not None:
                frozen |= untouched
                cur, cur_counts = got, trial
        # 3. each other meld, the biggest first (freezing it saves most), or the smallest
        # (a big meld frozen early may be what keeps several small ones from staying)
        sign = 1 if smallest_first else -1
        order = sorted(
            (i for i in range(len(old)) if i not in frozen), key=lambda i: sign * len(old[i])
        )
        for i in order:
            trial = counts_without(old, frozen | {i}, hand, jokers)
            got = tries.find(trial)
            if got is not None:
                frozen.add(i)
                cur, cur_counts = got, trial
        laid = _lay(old, frozen, cur_counts, cur)
        if laid.moved < best.moved:
            best = laid
    except search.Timeout:
        # the time is up: what is frozen so far stands (``cur`` answers it)
        best = _lay(old, frozen, cur_counts, cur)
    return best


def _lay(
    old: Sequence[Sequence[Card]],
    frozen: set[int],
    counts: search.Counts,
    result: search.Result,
) -> Arranged:
    """The frozen melds as they were, the rest in normal form, tidied."""
    rest_old = [m for i, m in enumerate(old) if i not in frozen]
    table = [list(old[i]) for i in sorted(frozen)] + tidy(rest_old, build_table(counts, result))
    moved = moved_cards(old, table)
    return Arranged(table, result, counts, moved, moved == 0)


class _Tries:
    """The searches of one ``arrange``: each may visit ``budgets[0]`` states, all of them
    together ``budgets[1]`` (by default ``TRY_BUDGET`` and ``TOTAL_BUDGET``)."""

    def __init__(
        self,
        need: int,
        deadline: float | None,
        grouped: Sequence[int],
        budgets: tuple[int, int] = (TRY_BUDGET, TOTAL_BUDGET),
    ) -> None:
        self.need, self.deadline, self.grouped = need, deadline, grouped
        self.per_try, self.left = budgets

    def find(self, counts: search.Counts) -> search.Result | None:
        """An arrangement reaching ``need`` within the budget, else None."""
        if self.left <= 0:
            return None
        narrow = search.placeable(counts)
        if search.upper_bound(narrow) < self.need:
            return None
        dfs = search.DepthFirst(narrow, deadline=self.deadline, grouped=self.grouped)
        try:
            return dfs.find(self.need, budget=min(self.per_try, self.left))
        except search.Budget:
            return None
        finally:
            self.left -= dfs.visited
