"""The look for due work that every worker takes every ``BOT_POLL_INTERVAL`` seconds:
no single scheduler, and nothing for one to lose. Due work is data (a passed
``turn_deadline``, a due ``bot_due_at``, a scheduled season's round whose start has
come, a pass whose time has come), each piece is
offered under its key (``keys.offer``), and so two workers looking at once enqueue it
once, and a job lost with a killed worker is enqueued again once its lease has passed.
"""

from datetime import timedelta

from django.utils import timezone

from rummy import play
from rummy.background import keys, tasks
from rummy.clock import bots, deadlines

# Each look offers at most this many bot turns, and as many timeouts: the earliest due
# that are not waiting in the queue already.
LIMIT = 200

# The periodic passes: (key, task). Each job leases its key until its next time.
PASSES = (
    ("every:vacations", tasks.vacations),
    ("every:notify", tasks.notify),
    ("every:ratings", tasks.ratings),
    ("every:review", tasks.review_games),
    ("every:tidy", tasks.tidy),
    ("every:retention", tasks.retention_cleanup),
)


def look(now=None, ahead=0.0) -> int:
    """Offer every piece of due work not held yet; returns how many jobs this enqueued.

    ``ahead`` (seconds; the looker's own interval): a bot turn due before the next look
    is offered now, to run when it is due. A look comes only every so often, and a bot
    due just after one would otherwise wait for the next before its job is even in the
    queue; this way a free thread takes it the moment it is due."""
    now = now or timezone.now()
    until = now + timedelta(seconds=ahead)
    offers = [
        *(
            (f"bot:{pk}:{version}", tasks.bot_turn, (pk, version), due if due > now else None)
            for pk, version, due in bots.due_steps(until, LIMIT, keys.unheld("bot", now))
        ),
        *(
            (f"timeout:{pk}:{version}", tasks.timeout, (pk, version), None)
            for pk, version in deadlines.due_games(now, LIMIT, keys.unheld("timeout", now))
        ),
        *((f"round:{pk}", tasks.deal_round, (pk,), None) for pk in play.due_rounds(now)),
        *((key, task, (), None) for key, task in PASSES),
    ]
    taken = keys.held([offer[0] for offer in offers], now)
    return keys.offer([offer for offer in offers if offer[0] not in taken], now=now)
