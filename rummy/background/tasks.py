"""The jobs of the background work, as tasks of Django's Tasks framework. Each takes its
key first (``keys``) and runs under it; each is safe to run twice (``keys``' docstring).

Priorities: a bot's turn first (a player is watching it), then a passed deadline, then
the passes; the review of finished games last.
"""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks import task

from rummy import play
from rummy.background import keys, notify_pass, queue
from rummy.clock import bots, deadlines
from rummy.history import review

# How long a job runs at most before a look takes it for lost (its worker died) and
# enqueues it again: a game's step takes well under a second; a pass sends email.
STEP_LEASE = timedelta(seconds=30)
PASS_LEASE = timedelta(minutes=2)


@task(priority=20)
def bot_turn(key, game_id, version):
    """One action of the bot to move in a game, if the game is still at ``version``."""
    return keys.run(
        key, STEP_LEASE, lambda: bots.play_bot_step(game_id, version=version), atomic=True
    )


@task(priority=10)
def timeout(key, game_id, version):
    """A passed deadline, played if the game is still at ``version``."""
    return keys.run(key, STEP_LEASE, deadlines.enforce_due, game_id, version, atomic=True)


def _every(seconds):
    return timedelta(seconds=seconds)


@task(priority=0)
def vacations(key):
    """The seats whose vacation began or ended: their games show it, their movers'
    deadlines move."""
    return keys.run(
        key,
        PASS_LEASE,
        lambda: play.reclock_stale(timezone.now()),
        again_after=_every(settings.CLOCK_INTERVAL),
    )


@task(priority=0)
def notify(key):
    """The emails and pushes of what changed, and the quiet-hour holds that are over."""
    return keys.run(key, PASS_LEASE, notify_pass, again_after=_every(settings.CLOCK_INTERVAL))


@task(priority=-10)
def review_games(key):
    """The review of finished games' turns, within its time budget."""
    return keys.run(
        key, PASS_LEASE, review.review_pass, again_after=_every(settings.CLOCK_INTERVAL)
    )


@task(priority=-20)
def tidy(key):
    """The queue's own upkeep (``rummy.background.queue.tidy``)."""
    return keys.run(key, PASS_LEASE, queue.tidy, again_after=_every(300))
