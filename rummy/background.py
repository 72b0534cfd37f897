"""The background pass (``manage.py run_clock``, every ``CLOCK_INTERVAL`` seconds): the
work that happens later, never inside a person's request. First the turn clock plays the
turns whose deadline passed, then the emails and the web pushes of what changed since
the last pass go out (moves never send anything themselves), the quiet-hours holds whose
retries are over are dropped, and last the review of finished games' turns
(``rummy.history.review``), bounded by its time budget. Each step logs its own failures."""

from django.utils import timezone

from rummy.clock import bots, deadlines
from rummy.history import review
from rummy.notifications import emails, pushes, quiet


def background_pass(now=None) -> int:
    """One pass; returns how many timeouts it played."""
    now = now or timezone.now()
    played = deadlines.tick(now)
    emails.clock_pass(now)
    pushes.clock_pass(now)
    quiet.expire(now, emails.CATCH_UP)
    # Last, and within its own time budget: the review of finished games (missed plays)
    # is the least urgent work and may take several passes for a long game.
    review.review_pass()
    return played


def bot_poll(now=None) -> int:
    """The quick step run about every second between passes (``BOT_POLL_INTERVAL``):
    bot turns that are due (one indexed query when there are none)."""
    return bots.play_due(now)
