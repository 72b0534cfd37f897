"""Performance check: ``python -m rummy.engine.bench``.

1. Median time of one meld action (``apply_action`` with do=meld, which checks the
   whole table, R5.2) on a full two-deck table of about 30 melds with a hand of 15.
2. Time to play 1,000 random complete rounds of 4 players with the simple bot.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from .actions import apply_action
from .bots import choose_action
from .cards import JOKER, Card
from .state import GameState, new_game, position

VALIDATION_TARGET_US = 200.0
ROUNDS_TARGET_S = 20.0


RUNS = ((1, 3), (4, 6), (7, 9), (10, 13))


def _run(suit: str, lo: int, hi: int) -> list[Card]:
    return [Card(r, suit) for r in range(lo, hi + 1)]


def full_table_position() -> GameState:
    """Four players; 28 melds (91 cards, two declared jokers) on the table; 15 cards in hand.

    Two decks laid out as runs A-3, 4-6, 7-9, 10-K per suit; the second deck's A-3♥,
    4-6♠, 7-9♣ and 10-K♦ are in the hand, and so are its 5♣ and J♠, whose places on
    the table are held by jokers.
    """
    in_hand = {("H", 1), ("S", 4), ("C", 7), ("D", 10)}
    table: list[list[Card]] = []
    hand: list[Card] = []
    for copy in range(2):
        for suit in "CDHS":
            for lo, hi in RUNS:
                run = _run(suit, lo, hi)
                if copy == 1 and (suit, lo) in in_hand:
                    hand += run
                    continue
                if copy == 1 and (suit, lo) in (("C", 4), ("S", 10)):
                    real = run[1]  # 5C / JS go to the hand, a joker takes the place
                    run[1] = JOKER.declare(real)
                    hand.append(real)
                table.append(run)
    return position(hands=[hand, "KS", "QS", "JS"], table=table, stock="2C 3C", drawn=1)


def meld_action(state: GameState) -> dict[str, Any]:
    """Play A-3♥ from the hand, free the joker held as 5♣ with the real 5♣ and reuse it
    as the 4♥, and join two spade runs: R5.2 (a)-(d) all have work to do."""
    table = [list(m) for m in state.table]
    five_clubs = Card(5, "C")
    for m in table:
        for k, c in enumerate(m):
            if c.joker and c.declared == five_clubs:
                m[k] = five_clubs
    table.append(_run("H", 1, 3) + [JOKER.declare(Card(4, "H"))])
    i = table.index(_run("S", 4, 6))
    j = table.index(_run("S", 7, 9))
    table[i] = table[i] + table[j]
    del table[j]
    return {"do": "meld", "table": table}


def bench_validation(repeats: int = 5000) -> tuple[float, float, int, int]:
    state = full_table_position()
    action = meld_action(state)
    as_text = {"do": "meld", "table": [" ".join(map(str, m)) for m in action["table"]]}
    new = apply_action(state, 0, action)  # must be accepted
    assert new.turn == 1
    apply_action(state, 0, as_text)
    times, times_text = [], []
    clock = time.perf_counter
    for _ in range(repeats):
        t = clock()
        apply_action(state, 0, action)
        times.append(clock() - t)
        t = clock()
        apply_action(state, 0, as_text)
        times_text.append(clock() - t)
    return (
        statistics.median(times) * 1e6,
        statistics.median(times_text) * 1e6,
        len(state.table),
        len(state.hands[0]),
    )


def bench_rounds(rounds: int = 1000, players: int = 4, seed: int = 2024) -> tuple[float, int]:
    rng = random.Random(seed)
    actions = 0
    t = time.perf_counter()
    for _ in range(rounds):
        state = new_game(players, rng)
        while not state.round_over:
            state = apply_action(state, state.turn, choose_action(state, state.turn, rng))
            actions += 1
    return time.perf_counter() - t, actions


def main() -> int:
    med, med_text, n_melds, n_hand = bench_validation()
    ok1 = med < VALIDATION_TARGET_US and med_text < VALIDATION_TARGET_US
    print(
        f"meld validation ({n_melds} melds on the table, hand of {n_hand}): "
        f"median {med:.1f} µs with Card lists, {med_text:.1f} µs with notation strings "
        f"(target < {VALIDATION_TARGET_US:.0f} µs) {'OK' if ok1 else 'TOO SLOW'}"
    )
    secs, actions = bench_rounds()
    ok2 = secs < ROUNDS_TARGET_S
    print(
        f"1,000 random rounds, 4 players, simple bot: {secs:.2f} s ({actions} actions) "
        f"(target < {ROUNDS_TARGET_S:.0f} s) {'OK' if ok2 else 'TOO SLOW'}"
    )
    return 0 if ok1 and ok2 else 1


if __name__ == "__main__":
    sys.exit(main())
