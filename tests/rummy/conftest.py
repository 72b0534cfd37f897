"""A fixed cast for the game views: alice and bob play, carol is a member who watches,
dave is an outsider, and a public league for spectating strangers.

Games are made through the services, then given a known deal (``engine.new_game`` with a
seeded Random, or an ``engine.position``) so that every test is deterministic.
"""

import random
import re

import pytest
from django.db.models import F

from leagues.models import League, Membership, User
from rummy import engine, play
from rummy.models import Game

PASSWORD = "a-long-test-password-42"
CARD_RE = re.compile(r'\sdata-card="([^"]*)"')
REVEALED_RE = re.compile(r'\sdata-revealed-card="([^"]*)"')


def make_user(username):
    return User.objects.create_user(
        username=username,
        email=f"{username}@example.com",
        password=PASSWORD,
        display_name=username.title(),
    )


@pytest.fixture
def cast(db):
    return {name: make_user(name) for name in ("alice", "bob", "carol", "dave")}


def _league(cast, slug, visibility):
    league = League.objects.create(name=slug.title(), slug=slug, visibility=visibility)
    for name, role in (("alice", "owner"), ("bob", "member"), ("carol", "member")):
        Membership.objects.create(league=league, user=cast[name], role=role)
    return league


@pytest.fixture
def league(cast):
    return _league(cast, "private-club", League.Visibility.INVITE)


@pytest.fixture
def public_league(cast):
    return _league(cast, "open-club", League.Visibility.PUBLIC)


def set_state(game, state):
    """Give a started game a known state (alice is seat 0, bob seat 1)."""
    seats = {s.number: s.user_id for s in game.seats.all()}
    # A new version, as any stored change makes (a draft of the old state is stale).
    Game.objects.filter(pk=game.pk).update(
        state=state.to_dict(), to_move_id=seats[state.turn], version=F("version") + 1
    )
    game.refresh_from_db()
    return game


def start_two(league, cast, state=None, seed=1):
    game = play.open_table(league, cast["alice"], 2)
    play.take_seat(game.pk, cast["bob"])  # a full table starts by itself
    game = Game.objects.get(pk=game.pk)
    return set_state(game, state or engine.new_game(2, random.Random(seed), dealer=1))


@pytest.fixture
def game(league, cast):
    """Alice (seat 0) to move, nothing drawn yet."""
    return start_two(league, cast)


def cards_shown(html):
    return CARD_RE.findall(html), REVEALED_RE.findall(html)


def login(client, user):
    client.force_login(user)
    return client
