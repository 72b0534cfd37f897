"""The per-process caches never serve what a fresh render would not show: every part of
the game page, over many random positions, viewers, languages and changes (a move, a
league renamed, a player renamed, absent or on vacation, the editor), is rendered with
the caches kept from render to render and with them emptied before each render, and the
bytes are the same (rummy.table.fragments: keys derived from what the templates read)."""

import datetime
import random

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone, translation

from leagues.models import League, Membership, User
from rummy import engine, play
from rummy.engine.bots import choose_action
from rummy.models import Seat
from rummy.table import memory, rendering
from rummy.table.access import game_with_seats
from tests.factories import log_position, make_league, make_user, started_game

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "lv", "et")
EVENTS = 90


def _advance(state, rng, steps):
    for _ in range(steps):
        if state.game_over:
            break
        if state.round_over:
            state = engine.deal_next_round(state, rng)
            continue
        state = engine.apply_action(state, state.turn, choose_action(state, state.turn, rng))
    return state


@pytest.fixture
def tables():
    """Three games of one league (one of them over), their players and a spectator."""
    users = [make_user(f"p{i}") for i in range(4)]
    watcher = make_user("watcher")
    league = make_league(users[0], members=[*users[1:], watcher], name="First")
    games = []
    for n, steps in ((2, 0), (3, 40), (2, 100_000)):
        game = started_game(users[:n], league=league, seed=n * 7 + steps % 5)
        state = _advance(game.engine_state(), random.Random(steps), steps)
        games.append((log_position(game, state), users[:n]))
    return games, watcher, league


def _change(rng, games, league):
    """One random change of what a page shows; returns the game it concerns."""
    game, players = rng.choice(games)
    game = game_with_seats(game.pk)  # as stored now (the passes undo their changes)
    kind = rng.choice(["move", "move", "league", "name", "seat", "editor", "none"])
    if kind == "move" and not game.engine_state().game_over:
        state = _advance(game.engine_state(), rng, rng.choice([1, 2, 5, 30]))
        log_position(game, state)
    elif kind == "league":
        League.objects.filter(pk=league.pk).update(name=rng.choice(["First", "Second", "3rd"]))
    elif kind == "name":
        user = rng.choice(players)
        User.objects.filter(pk=user.pk).update(display_name=rng.choice(["Ann", "Bo", "Cy"]))
    elif kind == "seat":
        seat = rng.choice(list(Seat.objects.filter(game=game)))
        away = timezone.now() + datetime.timedelta(days=rng.choice([1, 3]))
        Seat.objects.filter(pk=seat.pk).update(
            stand_in=rng.random() < 0.5,
            timeouts_in_row=rng.choice([0, 3]),
            away_until=away if rng.random() < 0.5 else None,
        )
    elif kind == "editor":
        fresh = game_with_seats(game.pk)
        state = fresh.engine_state()
        if state is not None and engine.Action.MELD in engine.legal_actions(state, state.turn):
            mover = next(s.user for s in fresh.seated() if s.number == state.turn)
            play.open_editor(game.pk, mover, fresh.version)
            if rng.random() < 0.5:
                play.select(game.pk, mover, fresh.version, "h0")
    return game, players


def _pages(games, watcher, league, caches_kept):
    """Every event's page, in the same order each time (the same seed, the same
    changes); the changes are undone afterwards."""
    rng = random.Random(20261204)
    pages = []
    with transaction.atomic():
        memory.clear_all()
        for _event in range(EVENTS):
            game, players = _change(rng, games, league)
            viewer = rng.choice([*players, watcher])
            language, sort = rng.choice(LANGUAGES), rng.choice(["suit", "rank"])
            if not caches_kept:
                memory.clear_all()
            fresh = game_with_seats(game.pk)
            with translation.override(language):
                pages.append(rendering.render_frames(fresh, viewer, sort).html)
        transaction.set_rollback(True)
    return pages


def _differing_line(a, b):
    """The first line where the page with caches kept differs from the fresh one."""
    for kept, fresh in zip(a.splitlines(), b.splitlines(), strict=False):
        if kept != fresh:
            return f"{kept!r}, fresh {fresh!r}"
    return "a different length"


def test_the_caches_serve_what_a_fresh_render_shows(tables):
    games, watcher, league = tables
    Membership.objects.filter(user=watcher).update(role=Membership.Role.ADMIN)
    with time_machine.travel(datetime.datetime(2026, 12, 4, 12, tzinfo=datetime.UTC), tick=False):
        kept = _pages(games, watcher, league, caches_kept=True)
        fresh = _pages(games, watcher, league, caches_kept=False)
    assert len(kept) == len(fresh) == EVENTS
    for n, (a, b) in enumerate(zip(kept, fresh, strict=True)):
        assert a == b, f"event {n}: kept {_differing_line(a, b)}"
    # The events showed what they are meant to: a finished game's league, the editor.
    shown = "".join(fresh)
    assert "Back to Second" in shown or "Back to 3rd" in shown
    assert 'id="btn-new-meld"' in shown
