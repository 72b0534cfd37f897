"""Must hold: random games between bots of every level at every table size,
with zero refused bot actions and every invariant of the engine's random-play test
after every action (tests/rummy/engine/test_random_games.py).

A modest number by default (a few seconds); BOT_RANDOM_GAMES=3000 for thousands, e.g.
    BOT_RANDOM_GAMES=3000 .venv/bin/python -m pytest tests/rummy/bots/test_bot_games.py -q
"""

import os
import random
from collections import Counter

import pytest

from rummy.bots import Level, play_match
from rummy.engine import Settings, new_deck
from tests.rummy.engine.test_random_games import check_invariants, check_round_end

GAMES = int(os.environ.get("BOT_RANDOM_GAMES", "32"))
CHUNKS = 4
# the solver's limit is kept small so that thousands of games fit in minutes; a cut
# solve must still be legal, which is part of what this checks
TIME_LIMIT = 0.02


def one_game(seed, stats):
    rng = random.Random(seed)
    n = 2 + seed % 4  # every table size, 2 to 5 (R1.1)
    levels = [rng.choice(list(Level)) for _ in range(n)]
    settings = Settings(target=rng.choice([30, 60, 150]), knock_limit=rng.choice([5, 5, 10, 0]))
    deck = Counter(c.pcode for c in new_deck(n))

    def watch(before, seat, action, after):
        # apply_action raised nothing: the bot's action was accepted
        stats[f"{levels[seat]}:{action['do']}"] += 1
        check_invariants(after, deck)
        if after.round_over and not before.round_over:
            check_round_end(before, after)
            stats[after.last_round["reason"]] += 1

    final = play_match(levels, rng, settings, time_limit=TIME_LIMIT, watch=watch)
    assert final.game_over and final.game_winners
    stats["games"] += 1


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_bot_games_keep_every_invariant(chunk):
    stats = Counter()
    for seed in range(chunk, GAMES, CHUNKS):
        try:
            one_game(seed, stats)
        except Exception as error:
            raise AssertionError(f"bot game seed {seed}: {error!r}") from error
    assert stats["games"] == len(range(chunk, GAMES, CHUNKS))
    # every level melded, and rounds ended every way a bot can end them
    for level in Level:
        assert stats[f"{level}:meld"] > 0, dict(stats)
    if GAMES >= 400:
        for key in ("knock", "going_out", "stock_out"):
            assert stats[key] > 0, dict(stats)
