"""Demo games for a fresh install: a newcomer logs in as a demo user and finds a game
where it is their move (``manage.py load_demo`` calls this after the demo people)."""

import secrets

from django.db import transaction

from rummy import engine, play
from rummy.models import Game

DEMO_TAG_SEATS = 5  # the open demo table has five seats, so it never starts by itself

# Demo games are dealt like real ones, from the operating system's CSPRNG: a fixed seed
# would let anyone who finds it read the other hands and the stock.
_system_random = secrets.SystemRandom()


def _start_with_mover(league, players, mover):
    """Open, fill and start a table, then deal it so that ``mover`` has the first turn
    (R2.3: the player left of the dealer), logging the deal so the log still replays."""
    game = play.open_table(league, players[0], max_seats=len(players))
    for user in players[1:-1]:
        play.take_seat(game.pk, user)
    if len(players) > 1:
        play.take_seat(game.pk, players[-1])  # full: starts by itself
    game.refresh_from_db()
    seat = game.seats.get(user=mover).number
    assert seat is not None  # the game has started
    dealer = (seat - 1) % len(players)
    state = engine.new_game(
        len(players), _system_random, settings=game.engine_settings(), dealer=dealer
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_move=mover)
    game.moves.filter(kind="start").update(payload={"state": state.to_dict()})
    return game


@transaction.atomic
def create_demo_games(users, league):
    """Idempotent: does nothing when the league already has games."""
    if league.games.exists():
        return list(league.games.all())
    alice, bob, carol, dave = (users[name] for name in ("alice", "bob", "carol", "dave"))
    games = [
        _start_with_mover(league, [alice, bob], alice),
        _start_with_mover(league, [bob, carol, dave], bob),
        _start_with_mover(league, [carol, alice], carol),
        _start_with_mover(league, [dave, alice, bob], dave),
    ]
    open_table = play.open_table(league, carol, max_seats=DEMO_TAG_SEATS)
    play.take_seat(open_table.pk, dave)
    return games + [open_table]
