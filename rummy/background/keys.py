"""Each piece of due work is enqueued once, however many workers look for it.

A job is named by a key (``JobKey``): the game and the version it is due at for a
timeout or a bot turn, the pass's name for a periodic pass. ``offer`` inserts the key
and enqueues the job in one transaction; a second worker finds the key and enqueues
nothing. The key is leased: while the job waits (``QUEUED``) and while it runs (the
job's own lease, taken when it starts), no one enqueues it again. When it is done the
job drops its key, or (a periodic pass) leases it until the next pass is due.

A worker killed in the middle of a job leaves the key leased and the queue's row
``RUNNING`` (the database backend does not notice a dead worker): once the lease has
passed, the next look enqueues the job again, and its second run finds done only what
was committed. That is why every job is safe to run twice: a move goes through the
write path's version check, a notice through its ledger's unique claim.
"""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from rummy.models import JobKey

# How long a job may wait in the queue before a look enqueues it again. The queue is in
# the database and loses nothing; this covers only a key whose job was never enqueued.
QUEUED = timedelta(minutes=10)
# After a job failed (raised), or did nothing although it was due: when to try again.
RETRY = timedelta(seconds=30)


def offer(key, task, *args, now=None) -> bool:
    """Enqueue ``task(key, *args)`` unless ``key`` is held; True when this call did."""
    now = now or timezone.now()
    until = now + QUEUED
    with transaction.atomic():
        try:
            with transaction.atomic():
                JobKey.objects.create(key=key, leased_until=until)
        except IntegrityError:
            # Held, unless its lease has passed: then exactly one taker renews it (the
            # UPDATE's condition is checked again under the row's lock).
            if not JobKey.objects.filter(key=key, leased_until__lte=now).update(leased_until=until):
                return False
        task.enqueue(key, *args)
    return True


def held(keys, now=None) -> set[str]:
    """Those of ``keys`` that are held now (one query, before offering many)."""
    now = now or timezone.now()
    return set(
        JobKey.objects.filter(key__in=list(keys), leased_until__gt=now).values_list(
            "key", flat=True
        )
    )


def run(key, lease, work, *args, again_after=None):
    """Run ``work(*args)`` as the job ``key``: leased for ``lease`` while it runs, then
    dropped (done), kept for ``RETRY`` (``work`` returned False: nothing was done, though
    the job may still be due), or, for a periodic pass, leased for ``again_after``."""
    JobKey.objects.filter(key=key).update(leased_until=timezone.now() + lease)
    try:
        result = work(*args)
    except Exception:
        _lease(key, RETRY)
        raise
    if again_after is not None:
        _lease(key, again_after)
    elif result is False:
        _lease(key, RETRY)
    else:
        JobKey.objects.filter(key=key).delete()
    return result


def _lease(key, length):
    JobKey.objects.filter(key=key).update(leased_until=timezone.now() + length)
