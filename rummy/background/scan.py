"""The look for due work that every worker takes every ``BOT_POLL_INTERVAL`` seconds:
no single scheduler, and nothing for one to lose. Due work is data (a passed
``turn_deadline``, a due ``bot_due_at``, a scheduled season's round whose start has
come, a pass whose time has come), each piece is
offered under its key (``keys.offer``), and so two workers looking at once enqueue it
once, and a job lost with a killed worker is enqueued again once its lease has passed.
"""

from django.utils import timezone

from rummy import play
from rummy.background import keys, tasks
from rummy.clock import bots, deadlines

# The periodic passes: (key, task). Each job leases its key until its next time.
PASSES = (
    ("every:vacations", tasks.vacations),
    ("every:notify", tasks.notify),
    ("every:ratings", tasks.ratings),
    ("every:review", tasks.review_games),
    ("every:tidy", tasks.tidy),
    ("every:retention", tasks.retention_cleanup),
)


def look(now=None) -> int:
    """Offer every piece of due work not held yet; returns how many jobs this enqueued."""
    now = now or timezone.now()
    offers = [
        *(
            (f"bot:{pk}:{version}", tasks.bot_turn, pk, version)
            for pk, version in bots.due_steps(now)
        ),
        *(
            (f"timeout:{pk}:{version}", tasks.timeout, pk, version)
            for pk, version in deadlines.due_games(now)
        ),
        *((f"round:{pk}", tasks.deal_round, pk) for pk in play.due_rounds(now)),
        *((key, task) for key, task in PASSES),
    ]
    taken = keys.held([offer[0] for offer in offers], now)
    enqueued = 0
    for key, task, *args in offers:
        if key not in taken and keys.offer(key, task, *args, now=now):
            enqueued += 1
    return enqueued
