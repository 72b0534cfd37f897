"""Plain helpers that build rows for tests (no factory library needed)."""

import itertools
import random

from django.db import transaction

from leagues.models import League, Membership, Season
from rummy import engine, play
from rummy.models import Game, Move
from rummy.play import store

_counter = itertools.count(1)


def make_user(username=None, **extra):
    from django.contrib.auth import get_user_model

    n = next(_counter)
    username = username or f"player{n}"
    return get_user_model().objects.create_user(
        username=username,
        email=extra.pop("email", f"{username}@example.com"),
        password=extra.pop("password", "pw-for-tests-123"),
        display_name=extra.pop("display_name", username.title()),
        **extra,
    )


def make_league(owner, members=(), admins=(), public=False, name=None):
    n = next(_counter)
    league = League.objects.create(
        name=name or f"League {n}",
        slug=f"league-{n}",
        visibility=League.Visibility.PUBLIC if public else League.Visibility.INVITE,
    )
    Membership.objects.create(league=league, user=owner, role=Membership.Role.OWNER)
    for user in admins:
        Membership.objects.create(league=league, user=user, role=Membership.Role.ADMIN)
    for user in members:
        Membership.objects.create(league=league, user=user, role=Membership.Role.MEMBER)
    return league


def make_season(league, **fields):
    import datetime

    today = datetime.date.today()
    fields.setdefault("name", "Season")
    fields.setdefault("starts_on", today - datetime.timedelta(days=1))
    fields.setdefault("ends_on", today + datetime.timedelta(days=60))
    fields.setdefault("status", Season.Status.ACTIVE)
    return Season.objects.create(league=league, **fields)


def started_game(players, league=None, state=None, seed=None):
    """A game started through the write path by ``players`` (host first). With ``state``
    (an engine GameState) or ``seed`` the position is made deterministic, as if the
    deal had come out that way (``deal_as``: the log still replays)."""
    league = league or make_league(players[0], members=players[1:])
    game = play.open_table(league, players[0], max_seats=len(players) + 1)
    for user in players[1:]:
        play.take_seat(game.pk, user)
    play.start_game(game.pk, players[0])
    game.refresh_from_db()
    if state is None and seed is not None:
        state = engine.new_game(len(players), random.Random(seed), settings=game.engine_settings())
    if state is not None:
        deal_as(game, state)
    return game


def game_at(position, players, league=None):
    """A game of ``players`` (seat order: host first) started through the write path and
    put in ``position`` (an engine GameState, e.g. from ``engine.position``) by a logged
    move, so that ``rummy.play.replay.check`` holds for it."""
    assert len(position.hands) == len(players), "one hand per player"
    return started_game(players, league=league, state=position)


def deal_as(game, state):
    """Make the deal of a game that has just started come out as ``state``: the start
    move's dealt state becomes ``state`` (as ``rummy.play.demo`` does), so the log still
    replays, and the version stays. Only right after the start: later use
    ``log_position``."""
    kinds = list(game.moves.values_list("kind", flat=True))
    assert kinds == [Move.Kind.START], f"only right after the start, not after {kinds}"
    seats = {s.number: s.user_id for s in game.seats.all()}
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_move_id=seats[state.turn])
    game.moves.filter(kind=Move.Kind.START).update(payload={"state": state.to_dict()})
    game.refresh_from_db()
    return game


def log_position(game, state):
    """Put a started game in ``state`` by a logged move: a new deal (a ``deal`` move,
    which replays to exactly that state) through the write path's save, so the version
    moves on, the turn and its deadline follow the state, and a draft of the old
    position is stale."""
    with transaction.atomic():
        locked = store.locked_game(game.pk, with_seats=True)
        store.save(locked, state, [(Move.Kind.DEAL, None, None, {"state": state.to_dict()})])
    game.refresh_from_db()
    return game


def player_at(game, seat_number):
    return game.seats.get(number=seat_number).user
