"""The background pass (``manage.py run_clock``, every ``CLOCK_INTERVAL`` seconds): the
work that happens later, never inside a person's request. First the turn clock plays the
turns whose deadline passed, then the emails of what changed since the last pass go out
(moves never send email themselves). Each step logs its own failures."""

from django.utils import timezone

from rummy.clock import deadlines
from rummy.notifications import emails


def background_pass(now=None) -> int:
    """One pass; returns how many timeouts it played."""
    now = now or timezone.now()
    played = deadlines.tick(now)
    emails.clock_pass(now)
    return played
