"""What hints and practice games may cost, over two worker processes on PostgreSQL and
Redis: sixteen hint requests at once at one version solve the position once (the
workers' logs count the solves), and practice games started at once keep the cap."""

import threading

import pytest
from django.urls import reverse

from rummy import play
from rummy.models import Game, Move
from rummy.play.bot_seats import MAX_PRACTICE_GAMES
from tests.factories import log_position, make_league, make_season, make_user
from tests.positions import table_position
from tests.stack.clients import Player

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]
HX = {"HX-Request": "true"}


def _at_once(sessions, path, data):
    barrier = threading.Barrier(len(sessions))
    results = [None] * len(sessions)

    def submit(i):
        barrier.wait()
        results[i] = sessions[i].post(path, data, headers=HX)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(sessions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def test_sixteen_hints_at_once_over_two_workers_solve_once(servers):
    one, two = servers(2)
    a, b, c = make_user(), make_user(), make_user()
    league = make_league(a, members=[b, c])
    make_season(league, hints_allowed=True)
    game = play.open_table(league, a, max_seats=3)
    play.take_seat(game.pk, b)
    play.take_seat(game.pk, c)  # a full table starts by itself
    game = Game.objects.get(pk=game.pk)
    # A late round's table (15 melds, two decks): a solve that takes a while.
    game = log_position(game, table_position(15, players=3, drawn=1))
    mover = next(s.user for s in game.seats.all() if s.number == 0)
    sessions = [Player(mover, (one, two)[i % 2]) for i in range(16)]
    results = _at_once(
        sessions, f"/games/{game.pk}/act/", {"action": "hint", "version": game.version}
    )
    statuses = sorted(status for status, _body in results)
    assert statuses == [200] + [409] * 15, statuses
    solved = sum(
        server.log_tail(200_000).count(f"hint solved: game {game.pk},") for server in (one, two)
    )
    assert solved == 1
    assert Move.objects.filter(game=game, kind=Move.Kind.HINT).count() == 1


def test_practice_games_started_at_once_over_two_workers_keep_the_cap(servers):
    one, two = servers(2)
    person = make_user()
    sessions = [Player(person, (one, two)[i % 2]) for i in range(12)]
    results = _at_once(sessions, reverse("rummy:practice"), {"bots": 1, "level": "beginner"})
    assert sorted(status for status, _body in results) == [302] * 12, results
    assert Game.objects.filter(host=person).count() == MAX_PRACTICE_GAMES
