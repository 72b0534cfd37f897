"""What the chat keeps about a person: their part of the download of their data
(``leagues.data_export``, documented in docs/data-export.md), and what goes when their
account is deleted (``account_deleted``); both hooks are ``leagues.personal``'s,
connected in ``ChatConfig``.

On deletion their words go: the messages and board posts they wrote (a message's words
may name them, and a neutral author's name would not change that), their blocks both
ways, mutes, reports, read marks and which announcements were emailed to them; in the
moderation record, what named them or quoted their words is reworded, as the leagues'
record is.
"""

from __future__ import annotations

from django.db.models import Q

from chat.models import (
    AnnouncementEmailed,
    Block,
    BoardPost,
    BoardReadMark,
    BoardReport,
    Message,
    ModerationAction,
    Mute,
    ReadMark,
    Report,
)
from leagues.personal import section


def _iso(moment):
    return moment.isoformat() if moment is not None else None


def chat_messages(user):
    """Every chat message the player wrote: its words, or the quick phrase's id."""
    return [
        {
            "game": m.game_id,
            "league": m.league.slug if m.league_id else None,
            "sent_at": _iso(m.created_at),
            "text": m.text,
            "phrase": m.phrase or None,
            "hidden": m.hidden,
        }
        for m in Message.objects.filter(author=user).select_related("league").order_by("pk")
    ]


def board_posts(user):
    """Every post the player wrote on a league's board."""
    return [
        {
            "league": p.league.slug,
            "posted_at": _iso(p.created_at),
            "text": p.text,
            "pinned": p.pinned,
            "hidden": p.hidden,
        }
        for p in BoardPost.objects.filter(author=user).select_related("league").order_by("pk")
    ]


def chat_blocks(user):
    """Whom the player blocked (by the name they are shown by)."""
    return [
        {"blocked": b.blocked.name, "since": _iso(b.created_at)}
        for b in Block.objects.filter(blocker=user).select_related("blocked").order_by("pk")
    ]


def chat_mutes(user):
    """Every time a league's admins muted the player, with the reason they were shown."""
    return [
        {"league": m.league.slug, "until": _iso(m.until), "reason": m.reason}
        for m in Mute.objects.filter(user=user).select_related("league").order_by("pk")
    ]


def chat_reports(user):
    """Every report the player made of a message."""
    return [
        {
            "message_game": r.message.game_id,
            "reason": r.reason,
            "words": r.words,
            "reported_at": _iso(r.created_at),
        }
        for r in Report.objects.filter(reporter=user).select_related("message").order_by("pk")
    ]


def board_reports(user):
    """Every report the player made of a post on a league's board."""
    return [
        {
            "league": r.post.league.slug,
            "reason": r.reason,
            "words": r.words,
            "reported_at": _iso(r.created_at),
        }
        for r in BoardReport.objects.filter(reporter=user)
        .select_related("post__league")
        .order_by("pk")
    ]


def chat_moderation(user):
    """What the player did as a league's admin in its chats and on its board (the
    moderation record): the league's own record is ``admin_actions``."""
    rows = ModerationAction.objects.filter(actor=user).select_related("league")
    return [
        {
            "league": a.league.slug,
            "at": _iso(a.at),
            "action": a.action,
            "subject": a.subject,
            "reason": a.reason,
        }
        for a in rows.order_by("at", "pk")
    ]


def read_marks(user):
    """How far the player has read each game's chat and each league's board: the
    newest message or post seen (its number), which is what makes the rest unread."""
    games = [
        {"game": m.game_id, "league": None, "read_up_to": m.last_seen}
        for m in ReadMark.objects.filter(user=user).order_by("pk")
    ]
    boards = [
        {"game": None, "league": m.league.slug, "read_up_to": m.last_seen}
        for m in BoardReadMark.objects.filter(user=user).select_related("league").order_by("pk")
    ]
    return games + boards


def announcements_emailed(user):
    """Which pinned announcements rode along in an email to the player (each once)."""
    rows = AnnouncementEmailed.objects.filter(user=user).select_related("post__league")
    return [
        {
            "league": a.post.league.slug,
            "posted_at": _iso(a.post.created_at),
            "emailed_at": _iso(a.at),
        }
        for a in rows.order_by("at", "pk")
    ]


def register_sections():
    sections = (
        chat_messages,
        board_posts,
        chat_blocks,
        chat_mutes,
        chat_reports,
        board_reports,
        chat_moderation,
        read_marks,
        announcements_emailed,
    )
    for function in sections:
        section(function.__name__)(function)


def forget(sender, user, old_names=(), **kwargs):
    """``account_deleted``: inside the deletion's transaction, after the account was made
    anonymous (``user.name`` is already the neutral one)."""
    quoted = [p.text[:80] for p in BoardPost.objects.filter(author=user)]
    words = ModerationAction.objects.filter(
        Q(message__author=user)
        | Q(
            action__in=[
                ModerationAction.Action.MUTED,
                ModerationAction.Action.UNMUTED,
                # a board post's are recorded by its author's name
                ModerationAction.Action.POST_HIDDEN,
                ModerationAction.Action.POST_SHOWN,
                ModerationAction.Action.REPORT_CLOSED,
            ],
            subject__in=[n for n in old_names if n],
        )
    )
    # The deleted username, as the leagues' record keeps it: its page words it for each
    # reader (``ModerationAction.by``, ``.about``).
    words.update(subject=user.username)
    ModerationAction.objects.filter(actor=user).update(actor_name=user.username)
    ModerationAction.objects.filter(
        action__in=[
            ModerationAction.Action.PINNED,
            ModerationAction.Action.UNPINNED,
            ModerationAction.Action.POST_HIDDEN,
        ],
        subject__in=quoted,
    ).update(subject="")
    Message.objects.filter(author=user).delete()
    BoardPost.objects.filter(author=user).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    Mute.objects.filter(user=user).delete()
    Report.objects.filter(reporter=user).delete()
    BoardReport.objects.filter(reporter=user).delete()
    AnnouncementEmailed.objects.filter(user=user).delete()
    ReadMark.objects.filter(user=user).delete()
    BoardReadMark.objects.filter(user=user).delete()
