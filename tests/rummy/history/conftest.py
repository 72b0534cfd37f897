"""Whole games for the history tests, played through the write path (``rummy.play``)
by the engine's bots with a seeded Random: the deals too (the write path's CSPRNG is
swapped for the seeded Random), so every game is the same on every run."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from rummy import engine, play
from rummy.engine import bots
from rummy.models import Game
from rummy.play import store
from tests.factories import deal_as


@pytest.fixture
def seeded_deals(monkeypatch):
    """Make the write path's deals come from a seeded Random (``seed(n)`` reseeds)."""
    rng = random.Random(0)
    monkeypatch.setattr(store, "system_random", rng)
    return rng


def new_game(players, league, seed, target=60, knock_limit=5):
    """A started game of ``players`` (seat order: host first) dealt from ``seed``."""
    game = play.open_table(league, players[0], max_seats=len(players))
    game.target_score = target
    game.knock_limit = knock_limit
    Game.objects.filter(pk=game.pk).update(target_score=target, knock_limit=knock_limit)
    for user in players[1:]:
        play.take_seat(game.pk, user)  # the last one fills the table: it starts
    game = Game.objects.get(pk=game.pk)
    settings = engine.Settings(target=target, knock_limit=knock_limit)
    return deal_as(game, engine.new_game(len(players), random.Random(seed), settings=settings))


def play_out(game, rng, timeouts=0.0, max_moves=3000, level=0, stop=None):
    """Play ``game`` to its end (or until ``stop(game)``) with the bots; with
    ``timeouts`` (a chance per turn) the clock plays some turns. Returns the game."""
    users = {s.number: s.user for s in game.seats.select_related("user")}
    for _ in range(max_moves):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        if game.status != Game.Status.ACTIVE or (stop is not None and stop(game)):
            return game
        seat = state.turn
        if state.drawn == 0 and rng.random() < timeouts:
            Game.objects.filter(pk=game.pk).update(
                turn_deadline=timezone.now() - timedelta(seconds=1)
            )
            play.timeout(game.pk, game.version)
            continue
        action = bots.choose_action(state, seat, rng, level=level)
        play.act(game.pk, users[seat], game.version, action)
    raise AssertionError(f"game {game.pk} did not end in {max_moves} moves")
