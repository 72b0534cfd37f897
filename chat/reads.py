"""What a reader may see of a game's chat: the messages, without their blocked
authors', and how many are unread."""

from django.db.models import Exists, F, OuterRef, Subquery
from django.db.models.functions import Coalesce

from chat.models import Block, Message, ReadMark

THREAD = 50  # the newest messages a page shows; the chat's own page shows more


def blocked_ids(user):
    return set(Block.objects.filter(blocker_id=user.pk).values_list("blocked_id", flat=True))


def visible(user, game_id, after=0, limit=THREAD):
    """The newest ``limit`` messages after id ``after``, oldest first."""
    found = (
        Message.objects.filter(game_id=game_id, pk__gt=after)
        .exclude(author_id__in=blocked_ids(user))
        .select_related("author")
        .order_by("-pk")[:limit]
    )
    return list(reversed(found))


def last_seen(user, game_id):
    mark = ReadMark.objects.filter(user_id=user.pk, game_id=game_id).first()
    return mark.last_seen if mark is not None else 0


def unread_count(user, game_id):
    return (
        Message.objects.filter(game_id=game_id, pk__gt=last_seen(user, game_id))
        .exclude(author_id=user.pk)
        .exclude(author_id__in=blocked_ids(user))
        .count()
    )


def unread_games(user, game_ids):
    """Of ``game_ids``, those with a message ``user`` has not seen (theirs and blocked
    authors' aside): one query, whatever the number of games."""
    if not user.is_authenticated or not game_ids:
        return set()
    seen = ReadMark.objects.filter(user_id=user.pk, game_id=OuterRef("game_id"))
    blocks = Block.objects.filter(blocker_id=user.pk, blocked_id=OuterRef("author_id"))
    unread = (
        Message.objects.filter(game_id__in=game_ids)
        .exclude(author_id=user.pk)
        .exclude(Exists(blocks))
        .annotate(seen=Coalesce(Subquery(seen.values("last_seen")[:1]), 0))
        .filter(pk__gt=F("seen"))
        .values_list("game_id", flat=True)
        .distinct()
    )
    return set(unread)
