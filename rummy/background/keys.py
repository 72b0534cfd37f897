"""Each piece of due work is enqueued once, however many workers look for it.

A job is named by a key (``JobKey``): the game and the version it is due at for a
timeout or a bot turn, the pass's name for a periodic pass. ``offer`` inserts the key
(or takes over one whose lease has passed) and enqueues the job in one transaction; a
second worker finds the key and enqueues nothing. The key is leased: while the job
waits (``QUEUED``) and while it runs (the job's own lease, taken when it starts), no
one enqueues it again. When it is done the job drops its key, or (a periodic pass)
leases it until the next pass is due.

A worker killed in the middle of a job leaves the key leased and the queue's row
``RUNNING`` (the database backend does not notice a dead worker): once the lease has
passed, the next look enqueues the job again, and its second run finds done only what
was committed. That is why every job is safe to run twice: a move goes through the
write path's version check, a notice through its ledger's unique claim.
"""

from datetime import timedelta

from django.db import connection, models, transaction
from django.db.models.functions import Cast, Concat
from django.utils import timezone

from rummy.models import JobKey

# How long a job may wait in the queue before a look enqueues it again. The queue is in
# the database and loses nothing; this covers only a key whose job was never enqueued.
QUEUED = timedelta(minutes=10)
# After a job failed (raised), or did nothing although it was due: when to try again.
RETRY = timedelta(seconds=30)


def offer(offers, now=None) -> int:
    """Enqueue ``task(key, *args)`` for each ``(key, task, args, run_after)`` whose key
    is free (to run from ``run_after`` on, if it is not None), all in one transaction,
    the keys in two statements: a look offers dozens of bot turns at once, and a commit
    each would make the look, and so every bot's answer, wait for as many round trips
    and disk flushes. It takes the free keys (new, or their lease passed); a key held,
    or inserted by another look at the same time, it leaves.
    Returns how many jobs it enqueued."""
    if not offers:
        return 0
    now = now or timezone.now()
    until = now + QUEUED
    # In the keys' order: two looks at once lock the same rows in the same order, and
    # so wait for each other instead of deadlocking.
    tasks = {key: rest for key, *rest in sorted(offers, key=lambda o: o[0])}
    adapt = connection.ops.adapt_datetimefield_value
    quote = connection.ops.quote_name
    table, column, lease = quote(JobKey._meta.db_table), quote("key"), quote("leased_until")
    keys = list(tasks)
    marks = ", ".join(["%s"] * len(keys))
    rows = ", ".join(["(%s, %s)"] * len(keys))
    params: list = []
    for key in keys:
        params += [key, adapt(until)]
    # Names only are formatted into the statements; every value is a parameter.
    with transaction.atomic(), connection.cursor() as cursor:
        # First the keys whose lease has passed (a lost job's): only those rows are
        # locked. Then the new ones: a key another look inserts at the same time waits
        # for that look's commit and is skipped, and a key held is neither taken nor
        # locked, so that its running job's own update of it never waits for this look.
        cursor.execute(
            f"UPDATE {table} SET {lease} = %s "
            f"WHERE {column} IN ({marks}) AND {lease} <= %s RETURNING {column}",
            [adapt(until), *keys, adapt(now)],
        )
        taken = [key for (key,) in cursor.fetchall()]
        cursor.execute(
            f"INSERT INTO {table} ({column}, {lease}) VALUES {rows} "
            f"ON CONFLICT ({column}) DO NOTHING RETURNING {column}",
            params,
        )
        taken += [key for (key,) in cursor.fetchall()]
        for key in taken:
            task, args, run_after = tasks[key]
            if run_after is not None:
                task = task.using(run_after=run_after)
            task.enqueue(key, *args)
    return len(taken)


def unheld(prefix, now):
    """A condition on ``Game``: no key ``<prefix>:<game>:<version>`` is held now. The look
    asks for the due games that meet it: the earliest due ones are those already waiting
    in the queue, and a look that read only the earliest would find nothing new to
    offer while the queue is long, and so leave the rest waiting too."""
    text = models.CharField()
    key = Concat(
        models.Value(f"{prefix}:"),
        Cast(models.OuterRef("pk"), text),
        models.Value(":"),
        Cast(models.OuterRef("version"), text),
        output_field=text,
    )
    return ~models.Exists(JobKey.objects.filter(key=key, leased_until__gt=now))


def held(keys, now=None) -> set[str]:
    """Those of ``keys`` that are held now (one query, before offering many)."""
    now = now or timezone.now()
    return set(
        JobKey.objects.filter(key__in=list(keys), leased_until__gt=now).values_list(
            "key", flat=True
        )
    )


def run(key, lease, work, *args, again_after=None, atomic=False):
    """Run ``work(*args)`` as the job ``key``: leased for ``lease`` while it runs, then
    dropped (done), kept for ``RETRY`` (``work`` returned False: nothing was done, though
    the job may still be due), or, for a periodic pass, leased for ``again_after`` from
    when it started: a pass that takes a while, or waited in the queue, does not push
    every later pass back by as much (the next comes one interval after this began).

    ``atomic``: ``work`` is one short write (a game's step), and the key is dropped in
    its transaction, one commit for both (a pass that sends email must not hold a
    transaction open, and is not)."""
    started = timezone.now()
    JobKey.objects.filter(key=key).update(leased_until=started + lease)
    if atomic and again_after is None:
        try:
            with transaction.atomic():
                result = work(*args)
                if result is not False:
                    JobKey.objects.filter(key=key).delete()
        except Exception:
            _lease(key, RETRY)
            raise
        if result is False:
            _lease(key, RETRY)
        return result
    try:
        result = work(*args)
    except Exception:
        _lease(key, RETRY)
        raise
    if again_after is not None:
        JobKey.objects.filter(key=key).update(leased_until=started + again_after)
    elif result is False:
        _lease(key, RETRY)
    else:
        JobKey.objects.filter(key=key).delete()
    return result


def _lease(key, length):
    JobKey.objects.filter(key=key).update(leased_until=timezone.now() + length)
