"""The chat's world: the one cast around a game of three players.

- Carol (a plain member), Erin and Gus are seated (the game's players);
- Alice (owner) and Bob (admin) watch: they read and moderate, and write only when the
  league lets spectators talk;
- Hank is a member who watches; Dave is an outsider; ``anonymous`` is logged out;
- Erin is muted by Bob, with a reason; Carol has blocked Gus.
"""

import datetime

import pytest
from django.test import Client
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


ROLES = list(CHAT_ROLES)
# The league's board and its posts' pages: every member reads; the owner and the admin
# moderate, other members are refused (403), an outsider finds nothing (404).
BOARD_READ = dict.fromkeys(ROLES, "ok") | {"outsider": 404, "anonymous": "login"}
BOARD_MODERATE = dict.fromkeys(ROLES, 403) | {
    "owner": "ok",
    "admin": "ok",
    "outsider": 404,
    "anonymous": "login",
}


def client_for(world, role, htmx=False):
    client = Client(headers={"HX-Request": "true"} if htmx else {})
    user = person(world, role)
    if user.is_authenticated:
        client.force_login(user)
    return client


def outcome(response, changed):
    """A page's answer as a row of the matrix: "login", 403, 404, or whether the action
    happened ("ok") or was refused with nothing changed ("refused")."""
    if response.status_code == 302 and "/accounts/login" in response["Location"]:
        return "login"
    if response.status_code in (403, 404):
        return response.status_code
    return "ok" if changed else "refused"
