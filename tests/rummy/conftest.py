"""Games for the game views, played by the suite's one cast (``tests/cast.py``): Alice
(the owner, seat 0) and Bob (an admin, seat 1) play, Carol is a member who watches, Dave
is an outsider; ``public_league`` is for spectating strangers.

Games are made through the write path, then given a known deal (``engine.new_game`` with
a seeded Random, or an ``engine.position``) by a logged move
(``tests.factories.deal_as`` at the start, ``log_position`` later), so every test is
deterministic and every game replays.
"""

import random
import re

import pytest

from rummy import engine, play
from rummy.models import Game
from tests.factories import deal_as, log_position

__all__ = ["cards_shown", "login", "set_state", "start_two"]

CARD_RE = re.compile(r'\sdata-card="([^"]*)"')
REVEALED_RE = re.compile(r'\sdata-revealed-card="([^"]*)"')


def set_state(game, state):
    """Put a started game in a known state (alice is seat 0, bob seat 1) through a logged
    move (``log_position``)."""
    return log_position(game, state)


def start_two(league, cast, state=None, seed=1):
    game = play.open_table(league, cast["alice"], 2)
    play.take_seat(game.pk, cast["bob"])  # a full table starts by itself
    game = Game.objects.get(pk=game.pk)
    return deal_as(game, state or engine.new_game(2, random.Random(seed), dealer=1))


@pytest.fixture
def game(league, cast):
    """Alice (seat 0) to move, nothing drawn yet."""
    return start_two(league, cast)


def cards_shown(html):
    return CARD_RE.findall(html), REVEALED_RE.findall(html)


def login(client, user):
    client.force_login(user)
    return client
