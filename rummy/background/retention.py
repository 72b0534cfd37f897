"""Keeping to the privacy page: what is older than the periods it states
(``leagues.privacy``, read by the page too) is removed by this pass.

- an account whose address was never confirmed, that never logged in and that has no
  seat at any game: deleted outright (nothing else points at it that anyone needs);
- the ledgers of emails and pushes sent (``Notice``, ``PushNotice``): rows claimed
  longer ago than the period. The ledgers only keep a notice from being sent twice, and
  the passes look back an hour or a night's quiet hours, never months.

The log-in throttle's and the rate limits' counts live in the cache with an expiry no
longer than the period the page states, so the cache removes them itself.
"""

from django.db.models import Exists, OuterRef
from django.utils import timezone

from leagues.models import User
from leagues.privacy import periods
from rummy.models import Notice, PushNotice, Seat

# Rows removed per query, so that a long-neglected table is worked off in bounded steps.
BATCH = 500


def _delete_in_batches(queryset):
    removed = 0
    while True:
        ids = list(queryset.values_list("pk", flat=True)[:BATCH])
        if not ids:
            return removed
        removed += (
            queryset.model.objects.filter(pk__in=ids).delete()[1].get(queryset.model._meta.label, 0)
        )


def unconfirmed_signups(now):
    cutoff = now - periods().unconfirmed_signup
    seated = Seat.objects.filter(user_id=OuterRef("pk"))
    return User.objects.filter(
        email_verified=False,
        last_login__isnull=True,
        date_joined__lt=cutoff,
        bot_level="",
        deleted_at__isnull=True,
        is_staff=False,
        is_superuser=False,
    ).exclude(Exists(seated))


def old_notices(now):
    cutoff = now - periods().notices
    return (
        Notice.objects.filter(claimed_at__lt=cutoff),
        PushNotice.objects.filter(claimed_at__lt=cutoff),
    )


def retention_pass(now=None):
    """Remove what the privacy page says is no longer kept; returns how many rows of
    each kind went."""
    now = now or timezone.now()
    notices, pushes = old_notices(now)
    return {
        "unconfirmed_signups": _delete_in_batches(unconfirmed_signups(now)),
        "email_notices": _delete_in_batches(notices),
        "push_notices": _delete_in_batches(pushes),
    }
