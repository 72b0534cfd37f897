"""The turn clock: plays expired turns as timeouts, as jobs of the
background workers (``rummy.background``).

Deadlines are enforced by the workers and also lazily whenever a game is loaded, so a
missed look never leaves a game stuck. Both go through ``play.timeout``, which is
version-checked like every other action: two workers (or a worker and a page load), or
one job run twice, can never play one timeout twice.
"""

import logging

from django.utils import timezone

from rummy import play
from rummy.models import Game

log = logging.getLogger(__name__)


def enforce_deadline(game: Game) -> bool:
    """Play the timeout of ``game`` if its deadline has passed. True when one was played
    (by us); False when it was not due or someone else got there first."""
    if game.status != Game.Status.ACTIVE or game.turn_deadline is None:
        return False
    if game.turn_deadline > timezone.now():
        return False
    try:
        # None: the mover's paused time moved the deadline on instead (a vacation).
        return play.timeout(game.pk, game.version) is not None
    except play.ActionRefused:
        # Stale (another process played it, or the player just moved) or not due.
        return False


def enforce_due(game_id, version) -> bool:
    """The job of one passed deadline: play it if ``game_id`` is still at ``version``."""
    game = Game.objects.filter(pk=game_id, version=version).first()
    return game is not None and enforce_deadline(game)


def due_games(now, limit=200, *conditions):
    """(id, version) of the games whose deadline has passed, the earliest first (and that
    meet ``conditions``, expressions on ``Game``)."""
    return list(
        Game.objects.filter(*conditions, status=Game.Status.ACTIVE, turn_deadline__lte=now)
        .order_by("turn_deadline")
        .values_list("pk", "version")[:limit]
    )


def enforce_overdue(games) -> bool:
    """Lazy enforcement for a page that lists ``games``: play every passed deadline
    among them. True when anything changed (the caller reloads)."""
    now = timezone.now()
    changed = False
    for game in games:
        if game.turn_deadline is not None and game.turn_deadline <= now:
            changed = enforce_deadline(game) or changed
    return changed


def tick(now=None, limit=200) -> int:
    """One pass of the clock: the seats whose vacation began or ended, then every game
    whose deadline has passed. Returns how many timeouts this pass played."""
    now = now or timezone.now()
    # First the vacations that began or ended since the last pass: their games show
    # them, and their movers' deadlines move, before any timeout is looked at.
    play.reclock_stale(now)
    due = Game.objects.filter(status=Game.Status.ACTIVE, turn_deadline__lte=now).order_by(
        "turn_deadline"
    )[:limit]
    played = 0
    for game in due:
        if enforce_deadline(game):
            played += 1
    return played
