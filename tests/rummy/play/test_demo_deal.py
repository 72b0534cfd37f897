"""Demo games are dealt from the CSPRNG, like real ones: no fixed seed, so no one can
rebuild the other hands and the stock (the demo once dealt with random.Random(1..4))."""

import random

import pytest
from django.core.management import call_command

from rummy import engine
from rummy.models import Game
from rummy.play.demo import create_demo_games

pytestmark = pytest.mark.django_db


def demo_deals():
    games = Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk")
    return [(game.state["hands"], game.state["stock"]) for game in games]


def test_demo_games_are_not_the_old_seeded_deals():
    call_command("load_demo")
    games = list(Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk"))
    assert len(games) == 4
    for seed, game in zip(range(1, 5), games, strict=False):
        seeded = engine.new_game(
            game.seats.count(),
            random.Random(seed),
            settings=game.engine_settings(),
            dealer=game.state["dealer"],
        ).to_dict()
        assert (game.state["hands"], game.state["stock"]) != (seeded["hands"], seeded["stock"])


def test_two_demo_loads_deal_differently():
    from leagues.demo import create_demo_people

    call_command("load_demo")
    first = demo_deals()
    users, league = create_demo_people()
    league.games.all().delete()
    create_demo_games(users, league)
    second = demo_deals()
    assert len(first) == len(second) == 4
    assert all(a != b for a, b in zip(first, second, strict=False))
