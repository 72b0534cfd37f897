"""The background work: everything that happens later, never inside a person's request.
Passed deadlines (timeouts), bot turns, the emails and web pushes of what changed, the
quiet-hour holds that are over, the vacations that began or ended, the rounds of
scheduled seasons that are due, and the review of finished games' turns.

All of it is data in the database, so it runs on a task queue (Django's Tasks framework
with the database backend, ``django-tasks-db``) without a scheduler of its own: every
worker (``manage.py run_worker``, any number, on any machine) looks for due work every
``BOT_POLL_INTERVAL`` seconds (``scan``) and enqueues each piece once, under a key
(``keys``); the jobs themselves are ``tasks``, what the queue looks like ``queue``.

The two functions here do the same work at once in the calling process, without the
queue: what the tests use to make time pass, and an operator's ``run_worker --once``.
"""

from django.utils import timezone

from rummy import play
from rummy.clock import bots, deadlines
from rummy.history import review
from rummy.notifications import emails, pipeline, pushes, quiet


def notify_pass(now=None) -> None:
    """The emails and pushes of what changed since the last pass (moves never send
    anything themselves), then the quiet-hour holds whose retries are over."""
    now = now or timezone.now()
    emails.clock_pass(now)
    pushes.clock_pass(now)
    quiet.expire(now, pipeline.CATCH_UP)


def background_pass(now=None) -> int:
    """Every periodic step once, in order; returns how many timeouts it played."""
    now = now or timezone.now()
    played = deadlines.tick(now)
    play.deal_due_rounds(now)
    notify_pass(now)
    # Last, and within its own time budget: the review of finished games (missed plays)
    # is the least urgent work and may take several passes for a long game.
    review.review_pass()
    return played


def bot_poll(now=None) -> int:
    """Every bot turn that is due, played here; returns how many were played."""
    return bots.play_due(now)
