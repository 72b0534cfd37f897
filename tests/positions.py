"""Real-sized table positions: ``table_position(n_melds)`` is a legal two-deck position
with ``n_melds`` valid melds on the table (runs and groups, as a late round has them),
three hands and a stock, so that pages are measured at the sizes players see (a late
round holds 15-20 melds), not with one meld.

Pure (the engine only): used by the unit tests, the browser tests (through
``django_snippet``) and the load benchmark.
"""

import random

from rummy import engine

SUITS = "CDHS"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _melds(n_melds, rng):
    """``n_melds`` valid melds from two decks: runs of 3-5 and groups of 3-4, every card
    used at most twice (R1.2)."""
    used = {}

    def free(code):
        return used.get(code, 0) < 2

    def take(codes):
        for c in codes:
            used[c] = used.get(c, 0) + 1

    melds = []
    attempts = 0
    while len(melds) < n_melds and attempts < 5000:
        attempts += 1
        if rng.random() < 0.55:
            suit = rng.choice(SUITS)
            length = rng.choice((3, 3, 4, 5))
            start = rng.randrange(0, 13 - length + 1)
            codes = [RANKS[i] + suit for i in range(start, start + length)]
        else:
            rank = rng.choice(RANKS)
            suits = rng.sample(SUITS, rng.choice((3, 3, 4)))
            codes = [rank + s for s in sorted(suits)]
        if all(free(c) for c in codes):
            take(codes)
            melds.append(" ".join(codes))
    assert len(melds) == n_melds, "could not build that many melds"
    return melds, used


def table_position(n_melds, players=3, hand_size=12, seed=7, drawn=1, turn=0):
    """Seat ``turn`` to move (having drawn ``drawn`` cards); hands of ``hand_size``."""
    rng = random.Random(seed)
    melds, used = _melds(n_melds, rng)
    rest = []
    for suit in SUITS:
        for rank in RANKS:
            code = rank + suit
            rest += [code] * (2 - used.get(code, 0))
    rest += ["*"] * 2
    rng.shuffle(rest)
    hands = [" ".join(rest[i * hand_size : (i + 1) * hand_size]) for i in range(players)]
    stock = " ".join(rest[players * hand_size :])
    return engine.position(hands, table=melds, stock=stock, drawn=drawn, turn=turn)
