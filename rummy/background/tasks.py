"""The jobs of the background work, as tasks of Django's Tasks framework. Each takes its
key first (``keys``) and runs under it; each is safe to run twice (``keys``' docstring).

Priorities: a bot's turn first (a player is watching it), then a passed deadline, then
rating a finished game, then the passes; the review of finished games last.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks import task

from leagues.ratings import rating
from rummy import play
from rummy.background import keys, notify_pass, queue, retention
from rummy.clock import bots, deadlines
from rummy.history import review

# How long a job runs at most before a look takes it for lost (its worker died) and
# enqueues it again: a game's step takes well under a second; a pass sends email.
STEP_LEASE = timedelta(seconds=30)
PASS_LEASE = timedelta(minutes=2)
# The most lost rating jobs one pass offers again: the rest come at the next pass.
RATINGS_PER_PASS = 200

logger = logging.getLogger(__name__)


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


@task(priority=5)
def deal_round(key, round_id):
    """A scheduled season's round whose start has come: its tables opened and dealt
    (a second run finds the round dealt and does nothing)."""
    return keys.run(key, PASS_LEASE, play.deal_round, round_id)


def rating_key(game_id):
    return f"rating:{game_id}"


@task(priority=5)
def rate_game(key, game_id):
    """Rate the finished game ``game_id`` (``leagues.ratings.rating.rate_game``): once,
    however often it runs; a game not rated, or rated before, is done too."""

    def work():
        rating.rate_game(game_id)

    return keys.run(key, STEP_LEASE, work)


def offer_rating(game_id, now=None) -> bool:
    """Offer the job that rates ``game_id`` (nothing if it is offered already)."""
    return keys.offer([(rating_key(game_id), rate_game, (game_id,), None)], now=now) > 0


def on_game_finished(sender, game, **kwargs):
    """rummy's ``game_finished`` (sent once the game's finish has committed; connected in
    ``rummy/apps.py``): offer its rating job. A failure here is logged and never reaches
    the player whose move ended the game: the ratings pass offers the job again."""
    try:
        offer_rating(game.pk)
    except Exception:
        logger.exception("could not offer the rating of game %s", game.pk)


def offer_lost_ratings(now=None) -> int:
    """Offer the rating job of every rated game still without its rating (a job lost, or
    a game finished by a path that sends no signal); returns how many were offered."""
    ids = rating.unrated_game_ids(RATINGS_PER_PASS)
    taken = keys.held([rating_key(pk) for pk in ids], now)
    return sum(1 for pk in ids if rating_key(pk) not in taken and offer_rating(pk, now=now))


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


@task(priority=-5)
def ratings(key):
    """The finished games still without their rating: their jobs, offered again."""
    return keys.run(
        key, PASS_LEASE, offer_lost_ratings, again_after=_every(settings.CLOCK_INTERVAL)
    )


@task(priority=-20)
def tidy(key):
    """The queue's own upkeep (``rummy.background.queue.tidy``)."""
    return keys.run(key, PASS_LEASE, queue.tidy, again_after=_every(300))


@task(priority=-20)
def retention_cleanup(key):
    """What the privacy page says is no longer kept (``rummy.background.retention``):
    once an hour, since its periods are days long."""
    return keys.run(key, PASS_LEASE, retention.retention_pass, again_after=_every(3600))
