"""Bot turns, played by the background workers (``rummy.background``), never inside a
person's request.

The write path stores when a bot's move is due (``Game.bot_due_at``, after a human-like
pause); ``play_due`` finds the games whose bot is due with one indexed query, reads the
bot seat's own view (nothing else of the state reaches the policy), lets the pure policy
(``rummy.bots``) choose, and sends the action through the same version-checked write path
as a person's (``play.bot_act``), which broadcasts it. Due work is data: a worker killed
between two looks loses nothing, the next one finds the same rows, and the version
check makes a second run of the same step (a job run again after its worker died) a
no-op. A refused action is logged and tried again later (the row stays due).
"""

import logging
import random

from django.db.models import Prefetch
from django.utils import timezone

from rummy import bots, engine, play
from rummy.models import Game, Seat

log = logging.getLogger(__name__)

# Each poll plays at most this many bot steps, the earliest due first: the rest wait
# for the next poll, about a second later.
LIMIT = 50


def due_games(now=None, limit=LIMIT):
    now = now or timezone.now()
    return list(
        Game.objects.filter(bot_due_at__lte=now, status=Game.Status.ACTIVE)
        .order_by("bot_due_at")
        .values_list("pk", flat=True)[:limit]
    )


def due_steps(now, limit=LIMIT, *conditions):
    """(id, version, when due) of the games whose bot is due by ``now``, the earliest
    first (and that meet ``conditions``, expressions on ``Game``)."""
    return list(
        Game.objects.filter(*conditions, bot_due_at__lte=now, status=Game.Status.ACTIVE)
        .order_by("bot_due_at")
        .values_list("pk", "version", "bot_due_at")[:limit]
    )


def play_due(now=None) -> int:
    """Every due bot step (one action each); returns how many were applied."""
    played = 0
    for game_id in due_games(now):
        try:
            played += play_bot_step(game_id)
        except Exception:  # one bad game must not hold up the others, nor the loop
            log.exception("bot step failed in game %s", game_id)
    return played


def play_bot_step(game_id, rng=None, version=None) -> bool:
    """One action of the bot to move in ``game_id`` (at ``version`` only, if given: a
    job for a version the game has left is done already). True when it was applied."""
    games = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE)
    if version is not None:
        games = games.filter(version=version)
    game = games.prefetch_related(Prefetch("seats", queryset=Seat.objects.all())).first()
    if game is None or game.bot_due_at is None:
        return False
    state = game.engine_state()
    seat = next((s for s in game.seated() if s.number == state.turn), None)
    if seat is None or not seat.bot_plays:
        return False
    # The seat's own view, as a person in that seat sees it: hidden information stays.
    view = engine.seat_view(state, seat.number)
    action = bots.choose(view, seat.bot_plays, rng or random.Random())
    try:
        play.bot_act(game.pk, seat.number, game.version, action)
    except play.ActionRefused as refusal:
        # Stale (a person or another worker moved first) or refused: the row is still
        # due, or no longer, as the write path left it; the next poll looks again.
        log.warning("bot action refused in game %s: %s", game.pk, refusal.message)
        return False
    return True
