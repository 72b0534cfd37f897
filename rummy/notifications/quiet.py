"""Quiet hours (``User.quiet_until``, in the player's own time zone): while they last, no
push and no email goes to the player; what was held is sent, grouped as usual, by the
first pass after they end.

The passes look back only ``CATCH_UP`` (an hour) for what to send, and a night is
longer. So the first pass that holds something for a player notes a ``QuietHold``: from
when to look back, and until when the quiet lasts. After the end the passes look back
to ``since`` for that player (a turn that began at midnight is still told at eight), and
the hold is dropped ``CATCH_UP`` after the end, which leaves the usual hour of retries
for a send that failed then.
"""

from django.db import IntegrityError, transaction

from rummy.models import QuietHold


def holding(user, now, catch_up) -> bool:
    """True while ``user``'s quiet hours last at ``now``; notes the hold, so that the
    passes after the end look back far enough (``catch_up``: their usual look-back)."""
    until = user.quiet_until(now)
    if until is None:
        return False
    updated = QuietHold.objects.filter(user=user, until__lt=until).update(until=until)
    if not updated and not QuietHold.objects.filter(user=user).exists():
        try:
            with transaction.atomic():
                QuietHold.objects.create(user=user, since=now - catch_up, until=until)
        except IntegrityError:  # another pass noted it first: the same hold
            pass
    return True


def lookback(user, now, catch_up):
    """How far back the passes look for what to tell ``user``."""
    usual = now - catch_up
    hold = QuietHold.objects.filter(user=user).first()
    return min(usual, hold.since) if hold else usual


def released_user_ids(now):
    """The players whose hold has ended (the passes look at them even without a recent
    change: what was held is the change)."""
    return set(QuietHold.objects.filter(until__lte=now).values_list("user_id", flat=True))


def earliest(now, catch_up):
    """The furthest back any pass needs to look at ``now``."""
    oldest = QuietHold.objects.order_by("since").values_list("since", flat=True).first()
    usual = now - catch_up
    return min(usual, oldest) if oldest else usual


def expire(now, catch_up):
    """Drop the holds whose retries are over."""
    QuietHold.objects.filter(until__lt=now - catch_up).delete()
