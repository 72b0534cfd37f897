"""A league's board: members post, admins pin announcements (shown on the league page
and on members' home pages until unpinned), hide posts and may lock the board to
admins only; new posts count as unread for members. A muted member may not post, and a
blocked author's posts are hidden for the blocker, as in the table chats."""

import datetime
import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chat import access, announce, reads, services
from chat.models import (
    BOARD_MAX_LENGTH,
    AnnouncementEmailed,
    BoardPost,
    BoardReadMark,
    BoardReport,
    LeagueChat,
    ModerationAction,
    Report,
)
from leagues.access import membership_for
from leagues.models import League
from leagues.validators import has_control_characters, has_format_characters, normalize_newlines

PINNED_SHOWN = 5


def rights(user, league):
    """(read, post, moderate) of ``user`` on ``league``'s board: members read and post
    (admins only when it is locked); owners and admins moderate."""
    membership = membership_for(user, league)
    if membership is None:
        return False, False, False
    locked = LeagueChat.objects.filter(league_id=league.pk, board_locked=True).exists()
    return True, membership.is_admin or not locked, membership.is_admin


def is_locked(league):
    return LeagueChat.objects.filter(league_id=league.pk, board_locked=True).exists()


def _text(value):
    if not isinstance(value, str):
        raise services.ChatRefused(_("The request could not be read."))
    value = normalize_newlines(value).strip()
    if len(value) > BOARD_MAX_LENGTH:
        raise services.ChatRefused(
            ngettext(
                "%(field)s may be at most %(limit)d character long.",
                "%(field)s may be at most %(limit)d characters long.",
                BOARD_MAX_LENGTH,
            )
            % {"field": _("A post"), "limit": BOARD_MAX_LENGTH}
        )
    if has_control_characters(value, allow_newlines=True):
        raise services.ChatRefused(
            _(
                "Please remove the control characters (such as tabs) from this text; "
                "line breaks are fine."
            )
        )
    if has_format_characters(value):
        raise services.ChatRefused(
            _(
                "Please remove the invisible characters (such as direction marks or "
                "zero-width spaces) from this text."
            )
        )
    if not value:
        raise services.ChatRefused(_("Write a message first."))
    return value


def post(user, league, text, token=""):
    read, may_post, _moderate = rights(user, league)
    if not read:
        raise services.ChatRefused(_("Only members of this league can do that."), status=403)
    if not may_post:
        raise services.ChatRefused(
            _("The board is locked: only the league's admins post on it."), status=403
        )
    mute = access.active_mute(user, league.pk)
    if mute is not None:
        raise services.ChatRefused(services.mute_words(mute), status=403)
    text = _text(text)
    token = (token if isinstance(token, str) else "").strip() or uuid.uuid4().hex
    if not services.TOKEN_RE.match(token):
        raise services.ChatRefused(_("The request could not be read."))
    found = BoardPost.objects.filter(league=league, author_id=user.pk, token=token).first()
    if found is not None:
        return found, False
    since = timezone.now() - datetime.timedelta(seconds=services.FLOOD_SECONDS)
    if BoardPost.objects.filter(author_id=user.pk, created_at__gte=since).count() >= (
        services.FLOOD_COUNT
    ):
        raise services.ChatRefused(
            ngettext(
                "Slow down: at most %(count)d messages in %(seconds)d second. Wait a moment.",
                "Slow down: at most %(count)d messages in %(seconds)d seconds. Wait a moment.",
                services.FLOOD_SECONDS,
            )
            % {"count": services.FLOOD_COUNT, "seconds": services.FLOOD_SECONDS},
            status=429,
        )
    try:
        with transaction.atomic():
            created = BoardPost.objects.create(league=league, author=user, text=text, token=token)
    except IntegrityError:
        found = BoardPost.objects.filter(league=league, author_id=user.pk, token=token).first()
        if found is None:
            raise
        return found, False
    mark_read(user, league, created.pk)
    league_id, pk = league.pk, created.pk
    transaction.on_commit(lambda: announce.board_post(league_id, pk))
    return created, True


def _moderated(user, post_id):
    found = BoardPost.objects.select_related("league", "author").filter(pk=post_id).first()
    if found is None or membership_for(user, found.league) is None:
        raise services.not_found()
    if not access.is_moderator(user, found.league):
        raise services.ChatRefused(_("Only the league's owners and admins can do that."), 403)
    return found


def set_pinned(user, post_id, pinned):
    found = _moderated(user, post_id)
    with transaction.atomic():
        BoardPost.objects.filter(pk=found.pk).update(pinned=pinned)
        action = ModerationAction.Action.PINNED if pinned else ModerationAction.Action.UNPINNED
        services._record(found.league_id, user, action, found.text[:80])


def hide(user, post_id, reason=""):
    set_hidden(user, post_id, True, reason)


def set_hidden(user, post_id, hidden, reason=""):
    """Hide a post (others see "hidden by an admin", admins still read it; a pinned one
    is unpinned, and its open reports are closed) or show it again."""
    found = _moderated(user, post_id)
    reason = services._text(reason, services.MAX_REASON, _("A reason"))
    with transaction.atomic():
        if hidden:
            BoardPost.objects.filter(pk=found.pk).update(hidden=True, pinned=False)
            BoardReport.objects.filter(post_id=found.pk).update(closed=True)
        else:
            BoardPost.objects.filter(pk=found.pk).update(hidden=False)
        action = (
            ModerationAction.Action.POST_HIDDEN if hidden else ModerationAction.Action.POST_SHOWN
        )
        services._record(found.league_id, user, action, found.author.name, None, reason)
    found.hidden = hidden
    return found


def for_reader(user, post_id):
    """The post ``post_id`` as ``user`` may see it, with the rights they have on it:
    (post, moderate). Not found (``ChatRefused``, 404) for those who are not members of
    its league, and a hidden post for all but its admins (as on the board)."""
    found = None
    if isinstance(post_id, int):
        found = BoardPost.objects.select_related("league", "author").filter(pk=post_id).first()
    if found is None:
        raise services.not_found()
    read, _post, moderate = rights(user, found.league)
    if not read or (found.hidden and not moderate):
        raise services.not_found()
    return found, moderate


def report(user, post_id, reason, words=""):
    """Any reader of the board reports a post to the league's admins (once per reader),
    with a reason from the table chat's list and optional words."""
    found, _moderate = for_reader(user, post_id)
    if found.author_id == user.pk:
        raise services.ChatRefused(_("You cannot report your own post."))
    if not isinstance(reason, str) or reason not in Report.Reason.values:
        raise services.ChatRefused(_("Choose a reason from the list."))
    words = services._text(words, 300, _("Your words"))
    try:
        with transaction.atomic():
            BoardReport.objects.create(post=found, reporter=user, reason=reason, words=words)
    except IntegrityError:
        pass  # reported already: once is enough
    return found


def close_report(user, league, report_id):
    """An admin closes a report of a post of ``league`` (left as it is)."""
    found = None
    if isinstance(report_id, int):
        found = (
            BoardReport.objects.select_related("post", "post__author")
            .filter(pk=report_id, post__league=league)
            .first()
        )
    if found is None:
        raise services.ChatRefused(_("No such report."), status=404)
    if not access.is_moderator(user, league):
        raise services.ChatRefused(_("Only the league's owners and admins can do that."), 403)
    with transaction.atomic():
        BoardReport.objects.filter(pk=found.pk).update(closed=True)
        services._record(
            league.pk, user, ModerationAction.Action.REPORT_CLOSED, found.post.author.name
        )


def open_reports(league):
    """The league's open reports of board posts, newest first (its admins' page)."""
    return list(
        BoardReport.objects.filter(post__league=league, closed=False)
        .select_related("post", "post__author", "reporter")
        .order_by("-pk")[:100]
    )


def set_locked(user, league, locked):
    if not access.is_moderator(user, league):
        raise services.ChatRefused(_("Only the league's owners and admins can do that."), 403)
    with transaction.atomic():
        LeagueChat.objects.update_or_create(league=league, defaults={"board_locked": bool(locked)})
        services._record(
            league.pk,
            user,
            ModerationAction.Action.SETTINGS,
            _("Board locked to admins") if locked else _("Board open to members"),
        )


def posts(user, league, moderate, limit=100):
    """The board's posts for ``user``: pinned first, then the newest; hidden ones only
    for admins; blocked authors' not at all."""
    found = BoardPost.objects.filter(league=league).exclude(author_id__in=reads.blocked_ids(user))
    if not moderate:
        found = found.filter(hidden=False)
    return list(found.select_related("author").order_by("-pinned", "-pk")[:limit])


def pinned(user, leagues):
    """The pinned announcements of ``leagues`` (newest first) that ``user`` sees."""
    return list(
        BoardPost.objects.filter(league__in=leagues, pinned=True, hidden=False)
        .exclude(author_id__in=reads.blocked_ids(user))
        .select_related("author", "league")
        .order_by("-pk")[:PINNED_SHOWN]
    )


def pinned_for(user):
    """The pinned announcements of every league ``user`` is a member of (home page)."""
    if not user.is_authenticated:
        return []
    return pinned(user, League.objects.filter(memberships__user=user))


def unread(user, league):
    mark = BoardReadMark.objects.filter(user_id=user.pk, league=league).first()
    return (
        BoardPost.objects.filter(league=league, hidden=False, pk__gt=mark.last_seen if mark else 0)
        .exclude(author_id=user.pk)
        .exclude(author_id__in=reads.blocked_ids(user))
        .count()
    )


def mark_read(user, league, last_seen=None):
    if last_seen is None:
        last_seen = (
            BoardPost.objects.filter(league=league).order_by("-pk").values_list("pk", flat=True)
        ).first()
    if not last_seen:
        return
    updated = BoardReadMark.objects.filter(
        user_id=user.pk, league=league, last_seen__lt=last_seen
    ).update(last_seen=last_seen)
    if not updated:
        try:
            with transaction.atomic():
                BoardReadMark.objects.get_or_create(
                    user_id=user.pk, league=league, defaults={"last_seen": last_seen}
                )
        except IntegrityError:
            pass


def claim_for_email(user):
    """The pinned announcements to carry in the email that is about to go to ``user``
    anyway (a game's "your move", reminder or result): those of their leagues that they
    did not write, have not read on the board and were not emailed yet, newest first.
    Each is claimed for ``user`` first (``AnnouncementEmailed``, unique per member and
    post), so that two emails at once carry it once; a failed send gives it back
    (``release_email_claims``). No email is ever sent for an announcement alone."""
    if not user.is_authenticated:
        return []
    found = [p for p in pinned_for(user) if p.author_id != user.pk]
    if not found:
        return []
    read_up_to = dict(
        BoardReadMark.objects.filter(
            user_id=user.pk, league_id__in={p.league_id for p in found}
        ).values_list("league_id", "last_seen")
    )
    emailed = set(
        AnnouncementEmailed.objects.filter(user_id=user.pk, post__in=found).values_list(
            "post_id", flat=True
        )
    )
    claimed = []
    for announcement in found:
        if announcement.pk in emailed or announcement.pk <= read_up_to.get(
            announcement.league_id, 0
        ):
            continue
        try:
            with transaction.atomic():
                AnnouncementEmailed.objects.create(user_id=user.pk, post=announcement)
        except IntegrityError:
            continue  # another email to them carries it
        claimed.append(announcement)
    return claimed


def release_email_claims(user, post_ids):
    """The email that was to carry these announcements was not sent: the next may."""
    AnnouncementEmailed.objects.filter(user_id=user.pk, post_id__in=list(post_ids)).delete()
