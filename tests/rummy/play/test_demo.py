"""The demo data: a newcomer logs in as a demo user and finds a game where it is their move."""

import pytest
from django.core.management import call_command

from rummy.models import Game
from rummy.play.replay import check

pytestmark = pytest.mark.django_db


def test_load_demo_gives_every_demo_user_a_move_and_is_idempotent():
    call_command("load_demo")
    call_command("load_demo")
    active = Game.objects.filter(status=Game.Status.ACTIVE)
    assert active.count() == 4
    assert sorted(active.values_list("to_move__username", flat=True)) == [
        "alice",
        "bob",
        "carol",
        "dave",
    ]
    for game in active:
        state = check(game)  # the stored state is what the move log says
        assert game.seats.get(number=state.turn).user == game.to_move
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 1
