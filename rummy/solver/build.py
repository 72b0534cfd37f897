"""From counts back to cards: the melds of a search result.

The search (``search.run``) decides per card how many copies go into groups and runs;
this module replays those decisions in the same normal form and writes the melds as
engine cards (real cards, jokers declared as the card they stand for, R4.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy.engine.cards import JOKER_AS, REAL_CARDS, Card

from .search import LAYERS, Counts, Result, _pcode

Meld = list[Card]


def build_table(counts: Counts, result: Result) -> list[Meld]:
    """The whole table after the meld, in a fixed order (runs by suit, then groups)."""
    open_runs: list[list[Meld]] = [[] for _ in range(4)]
    done: list[Meld] = []
    groups: list[Meld] = []
    kept_high: list[list[Card]] = [[] for _ in range(4)]
    rank_groups: list[list[Card]] = [[] for _ in range(4)]
    for p, s in LAYERS:
        ch = result.choices[(p, s)]
        t = _pcode(p, s)
        if p <= 13:
            real = counts.table[t] + ch.used
            items = [REAL_CARDS[t]] * real + [JOKER_AS[t]] * (counts.jokers[t] - ch.freed)
            if ch.reserved:
                kept_high[s] = items[len(items) - ch.reserved :]
                items = items[: len(items) - ch.reserved]
        else:
            items = kept_high[s]
        items = items + [JOKER_AS[t]] * ch.wild
        if ch.grouped:
            rank_groups[s] = items[: ch.grouped]
            items = items[ch.grouped :]
        _extend_runs(open_runs[s], items, done)
        if s == 3 and p <= 13:
            groups.extend(_deal_groups(rank_groups))
            rank_groups = [[] for _ in range(4)]
    for runs in open_runs:
        done.extend(runs)
    out: list[Meld] = []
    for run in done:
        # a run from ace low to ace high (14 cards) is two valid runs (R4.3)
        out.extend([run[:3], run[3:]] if len(run) > 13 else [run])
    return out + groups


def _extend_runs(runs: list[Meld], items: list[Card], done: list[Meld]) -> None:
    """The normal form of ``search``: continue every open run while cards last, end
    runs of three or more when fewer cards arrive, start new runs with the rest."""
    if len(items) < len(runs):
        ending = len(runs) - len(items)
        # end the longest runs: those are surely three or more
        order = sorted(range(len(runs)), key=lambda i: -len(runs[i]))
        gone = set(order[:ending])
        done.extend(runs[i] for i in sorted(gone))
        runs[:] = [r for i, r in enumerate(runs) if i not in gone]
    for run, card in zip(runs, items, strict=False):
        run.append(card)
    for card in items[len(runs) :]:
        runs.append([card])


def _deal_groups(by_suit: Sequence[Sequence[Card]]) -> list[Meld]:
    """Deal one rank's grouped cards round-robin into ``k`` groups (R4.2)."""
    cards = [c for suit in by_suit for c in suit]
    if not cards:
        return []
    most = max(len(suit) for suit in by_suit)
    k = max(most, -(-len(cards) // 4))
    groups: list[Meld] = [[] for _ in range(k)]
    for i, c in enumerate(cards):
        groups[i % k].append(c)
    return groups
