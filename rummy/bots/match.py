"""Whole games between bots, without a database: for the strength table
(``bench/bot_strength.py``) and the randomized "must hold" test. Each seat sees only its
own view (``seat_view``), as on the site; every action goes through ``apply_action``."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rummy.engine import (
    DEFAULT_SETTINGS,
    GameState,
    Settings,
    apply_action,
    deal_next_round,
    new_game,
    seat_view,
)

from .policy import TIME_LIMIT, Level, choose

#: a game that has not ended after this many actions is a bug, not a long game
MAX_ACTIONS = 20_000

Watcher = Callable[[GameState, int, dict[str, Any], GameState], None]


def play_match(
    levels: Sequence[Level | str],
    rng: random.Random,
    settings: Settings = DEFAULT_SETTINGS,
    time_limit: float = TIME_LIMIT,
    watch: Watcher | None = None,
) -> GameState:
    """Play one game to its end (R9) with ``levels[s]`` at seat ``s``; the final state.
    ``watch(before, seat, action, after)`` sees every action (the tests' invariants).
    A refused action raises the engine's ``RuleError``: a bot must never send one."""
    state = new_game(len(levels), rng, settings)
    for _ in range(MAX_ACTIONS):
        if state.game_over:
            return state
        if state.round_over:
            state = deal_next_round(state, rng)
            continue
        seat = state.turn
        action = choose(seat_view(state, seat), levels[seat], rng, time_limit=time_limit)
        after = apply_action(state, seat, action)
        if watch is not None:
            watch(state, seat, action, after)
        state = after
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")
