"""The chat's world: the one cast around a game of three players.

- Carol (a plain member), Erin and Gus are seated (the game's players);
- Alice (owner) and Bob (admin) watch: they read and moderate, and write only when the
  league lets spectators talk;
- Hank is a member who watches; Dave is an outsider; ``anonymous`` is logged out;
- Erin is muted by Bob, with a reason; Carol has blocked Gus.
"""

import datetime

import pytest
from django.utils import timezone

from chat.models import Block, Mute
from leagues.models import Membership
from rummy import play
from rummy.models import Game
from tests.cast import make_person

# role in the matrix -> cast name
CHAT_ROLES = {
    "owner": "alice",
    "admin": "bob",
    "member": "carol",
    "spectator": "hank",
    "outsider": "dave",
    "anonymous": None,
    "muted": "erin",
    "blocked": "gus",
}


@pytest.fixture
def world(cast, league):
    for name in ("erin", "gus", "hank"):
        cast[name] = make_person(name)
        Membership.objects.create(league=league, user=cast[name])
    game = play.open_table(league, cast["carol"], 3)
    play.take_seat(game.pk, cast["erin"])
    play.take_seat(game.pk, cast["gus"])
    Mute.objects.create(
        league=league,
        user=cast["erin"],
        until=timezone.now() + datetime.timedelta(days=2),
        reason="Shouting at everyone",
        by=cast["bob"],
    )
    Block.objects.create(blocker=cast["carol"], blocked=cast["gus"])
    return {"game": Game.objects.get(pk=game.pk), "cast": cast, "league": league}


def person(world, role):
    name = CHAT_ROLES[role]
    return world["cast"][name] if name else world["cast"].anonymous
