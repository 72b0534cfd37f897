"""Seeded positions from random play through the engine, for the solver's tests,
its proof against a second method and its benchmark.

``play_positions`` plays whole rounds with the engine's bots (``rummy.engine.bots``,
both levels) and yields every position where the seat to move may meld (after a draw
or in a final turn), with the state, so that a test can apply the answer through
``apply_action``. ``sized_position`` takes a table of about a given size from such a
round and deals the seat to move a hand of exactly the given size from the cards it
cannot see (other hands and the stock), which keeps the position possible (R1.2).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from rummy.engine import Action, GameState, Settings, apply_action, legal_actions, new_game
from rummy.engine.bots import choose_action

from .position import Position, position_of

MAX_ACTIONS = 2000


def play_positions(
    rng: random.Random, players: int | None = None
) -> Iterator[tuple[GameState, int, Position]]:
    """Every meld opportunity of one seeded round: (state, seat to move, its position)."""
    n = players if players is not None else rng.randint(2, 5)
    settings = Settings(knock_limit=rng.choice([5, 5, 10, 0]))
    state = new_game(n, rng, settings)
    levels = [rng.choice([0, 1, 1]) for _ in range(n)]
    for _ in range(MAX_ACTIONS):
        if state.round_over:
            return
        seat = state.turn
        if Action.MELD in legal_actions(state, seat):
            yield state, seat, position_of(state, seat)
        # the bots knock rarely, so that rounds reach big tables
        action = choose_action(state, seat, rng, levels[seat], knock_chance=0.05)
        state = apply_action(state, seat, action)


def sized_position(
    rng: random.Random, table_cards: int, hand_size: int, players: int = 5
) -> tuple[GameState, int, Position]:
    """A position from random play with about ``table_cards`` on the table (the first
    meld opportunity at or past it, else the biggest table of the round) and a hand of
    exactly ``hand_size`` cards, dealt from the cards the seat to move cannot see."""
    best: tuple[GameState, int] | None = None
    for _ in range(50):
        for state, seat, pos in play_positions(rng, players):
            size = pos.table_cards
            if best is None or size > sum(len(m) for m in best[0].table):
                best = (state, seat)
            if size >= table_cards:
                best = (state, seat)
                break
        else:
            continue
        break
    assert best is not None
    state, seat = best
    pool = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock)
    rng.shuffle(pool)
    hand = list(state.hands[seat])
    rng.shuffle(hand)
    while len(hand) > hand_size:
        pool.append(hand.pop())
    while len(hand) < hand_size and pool:
        hand.append(pool.pop())
    hands = list(state.hands)
    hands[seat] = hand
    # the cards moved between hand and pool come out of other hands and the stock
    others = pool
    for s in range(len(hands)):
        if s != seat:
            k = len(state.hands[s])
            hands[s], others = others[:k], others[k:]
    stock = others
    if not stock:  # keep one card back so that the turn is an ordinary one
        stock = [hands[(seat + 1) % len(hands)].pop()]
    new = replace(state, hands=hands, stock=stock, drawn=max(state.drawn, 1))
    return new, seat, position_of(new, seat)
