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


# The editor's test table: the first three melds are known, so every editor operation has
# a place to happen. Alice (seat 0) holds both jokers: one that a group's missing suit
# decides (R4.4 Decision: inferred) and one that a sequence could take at either end
# (she must choose).
EDITOR_MELDS = ["5H 6H 7H", "8C 8D 8H", "9S 10S JS QS"]


def editor_position(n_melds, hand_size=12, seed=11, players=3):
    """Seat 0 to move, having drawn one card; ``n_melds`` melds (at least 3) on the table."""
    rng = random.Random(seed)
    used = {}
    for meld in EDITOR_MELDS:
        for code in meld.split():
            used[code] = used.get(code, 0) + 1
    melds = list(EDITOR_MELDS)
    extra, extra_used = _melds_avoiding(n_melds - len(EDITOR_MELDS), rng, used)
    melds += extra
    rest = []
    for suit in SUITS:
        for rank in RANKS:
            code = rank + suit
            rest += [code] * (2 - extra_used.get(code, 0))
    rng.shuffle(rest)
    hands = [["*", "*"] + rest[: hand_size - 2]]
    rest = rest[hand_size - 2 :]
    for _seat in range(1, players):
        hands.append(rest[:hand_size])
        rest = rest[hand_size:]
    return engine.position([" ".join(h) for h in hands], table=melds, stock=" ".join(rest), drawn=1)


def _melds_avoiding(n, rng, used):
    used = dict(used)
    melds = []
    while len(melds) < n:
        more, _ = _melds(1, rng)
        codes = more[0].split()
        if all(used.get(c, 0) < 2 for c in codes):
            for c in codes:
                used[c] = used.get(c, 0) + 1
            melds.append(more[0])
    return melds, used
