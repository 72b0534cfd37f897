"""Every change to the chat, one function per action. Each checks who may do it
(``chat.access``) and refuses in words (``ChatRefused``); each moderation action is
recorded (``ModerationAction``) in its own transaction."""

import datetime
import re
import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chat import access, announce
from chat.models import (
    MAX_LENGTH,
    Block,
    LeagueChat,
    Message,
    ModerationAction,
    Mute,
    ReadMark,
    Report,
)
from chat.phrases import PHRASES
from leagues.validators import has_control_characters, has_format_characters

# The flood limit: at most this many messages per user in this many seconds.
FLOOD_COUNT = 5
FLOOD_SECONDS = 10
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_MUTE_DAYS = 365
MAX_REASON = 200


class ChatRefused(Exception):
    """An action refused, with the words to show and the HTTP status of the refusal."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.message = message
        self.status = status


def not_found():
    return ChatRefused(_("No such chat."), status=404)


def _text(value, limit, field_name):
    if not isinstance(value, str):
        raise ChatRefused(_("The request could not be read."))
    value = value.strip()
    if len(value) > limit:
        raise ChatRefused(
            ngettext(
                "%(field)s may be at most %(limit)d character long.",
                "%(field)s may be at most %(limit)d characters long.",
                limit,
            )
            % {"field": field_name, "limit": limit}
        )
    if has_control_characters(value):
        raise ChatRefused(
            _("Please remove the control characters (such as line breaks or tabs) from this text.")
        )
    if has_format_characters(value):
        raise ChatRefused(
            _(
                "Please remove the invisible characters (such as direction marks or "
                "zero-width spaces) from this text."
            )
        )
    return value


def mute_words(mute):
    return _("You are muted in this league's chats until %(until)s: %(reason)s") % {
        "until": date_format(timezone.localtime(mute.until), "DATETIME_FORMAT"),
        "reason": mute.reason,
    }


def post(user, game, text="", phrase="", token=""):
    """Store ``user``'s message (words or a quick phrase's id) in ``game``'s chat, once
    per ``token``. Returns ``(message, created)``."""
    rights = access.game_access(user, game)
    if not rights.read:
        raise not_found()
    if not rights.write:
        raise ChatRefused(
            _("Only the players may write here; the league's admins may let members talk."),
            status=403,
        )
    mute = access.active_mute(user, game.league_id)
    if mute is not None:
        raise ChatRefused(mute_words(mute), status=403)
    if not isinstance(phrase, str) or not isinstance(token, str):
        raise ChatRefused(_("The request could not be read."))
    text = _text(text, MAX_LENGTH, _("A message"))
    if phrase:
        if phrase not in PHRASES:
            raise ChatRefused(_("There is no such quick phrase."))
        text = ""
    elif not text:
        raise ChatRefused(_("Write a message first."))
    token = token.strip() or uuid.uuid4().hex
    if not TOKEN_RE.match(token):
        raise ChatRefused(_("The request could not be read."))
    found = Message.objects.filter(game_id=game.pk, author_id=user.pk, token=token).first()
    if found is not None:
        return found, False
    since = timezone.now() - datetime.timedelta(seconds=FLOOD_SECONDS)
    if Message.objects.filter(author_id=user.pk, created_at__gte=since).count() >= FLOOD_COUNT:
        raise ChatRefused(
            ngettext(
                "Slow down: at most %(count)d messages in %(seconds)d second. Wait a moment.",
                "Slow down: at most %(count)d messages in %(seconds)d seconds. Wait a moment.",
                FLOOD_SECONDS,
            )
            % {"count": FLOOD_COUNT, "seconds": FLOOD_SECONDS},
            status=429,
        )
    try:
        with transaction.atomic():
            message = Message.objects.create(
                game_id=game.pk,
                league_id=game.league_id,
                author=user,
                text=text,
                phrase=phrase,
                token=token,
            )
            _mark_read(user.pk, game.pk, message.pk)
    except IntegrityError:
        found = Message.objects.filter(game_id=game.pk, author_id=user.pk, token=token).first()
        if found is None:
            raise
        return found, False
    transaction.on_commit(lambda: announce.message(game.pk, message.pk, new=True))
    return message, True


def _mark_read(user_id, game_id, last_seen):
    updated = ReadMark.objects.filter(
        user_id=user_id, game_id=game_id, last_seen__lt=last_seen
    ).update(last_seen=last_seen)
    if not updated and not ReadMark.objects.filter(user_id=user_id, game_id=game_id).exists():
        try:
            with transaction.atomic():
                ReadMark.objects.create(user_id=user_id, game_id=game_id, last_seen=last_seen)
        except IntegrityError:
            ReadMark.objects.filter(
                user_id=user_id, game_id=game_id, last_seen__lt=last_seen
            ).update(last_seen=last_seen)


def mark_read(user, game, last_seen):
    """``user`` has seen ``game``'s messages up to ``last_seen`` (an id)."""
    if not isinstance(last_seen, int) or not 0 < last_seen < 2**62:
        return
    if not access.game_access(user, game).read:
        return
    newest = Message.objects.filter(game_id=game.pk).order_by("-pk").values_list("pk", flat=True)
    last_seen = min(last_seen, newest.first() or 0)
    if last_seen:
        _mark_read(user.pk, game.pk, last_seen)


def _record(league_id, actor, action, subject="", message=None, reason=""):
    return ModerationAction.objects.create(
        league_id=league_id,
        actor=actor,
        actor_name=actor.name,
        action=action,
        subject=str(subject)[:200],
        message=message,
        reason=str(reason)[:300],
    )


def _moderated_message(user, message_id):
    message = (
        Message.objects.select_related("author", "game", "league").filter(pk=message_id).first()
    )
    if message is None or message.league is None:
        raise not_found()
    if not access.game_access(user, message.game).read:
        raise not_found()
    if not access.is_moderator(user, message.league):
        raise ChatRefused(_("Only the league's owners and admins can do that."), status=403)
    return message


def set_hidden(user, message_id, hidden, reason=""):
    """Hide a message (others see "hidden by an admin"; admins still see it) or show it
    again."""
    message = _moderated_message(user, message_id)
    reason = _text(reason, MAX_REASON, _("A reason"))
    with transaction.atomic():
        Message.objects.filter(pk=message.pk).update(hidden=hidden)
        action = ModerationAction.Action.HIDDEN if hidden else ModerationAction.Action.SHOWN
        _record(message.league_id, user, action, message.author.name, message, reason)
        if hidden:
            Report.objects.filter(message=message).update(closed=True)
    game_id, pk = message.game_id, message.pk
    transaction.on_commit(lambda: announce.message(game_id, pk, new=False))
    message.hidden = hidden
    return message


def mute(user, league, member, days, reason):
    """Keep ``member`` silent in ``league``'s chats for ``days`` days, saying why."""
    if not access.is_moderator(user, league):
        raise ChatRefused(_("Only the league's owners and admins can do that."), status=403)
    if member is None or member.pk == user.pk:
        raise ChatRefused(_("Choose a member to mute."))
    if access.is_moderator(member, league):
        raise ChatRefused(_("Admins cannot be muted."), status=403)
    reason = _text(reason, MAX_REASON, _("A reason"))
    if not reason:
        raise ChatRefused(_("Say why: the member is shown the reason."))
    if not isinstance(days, int) or not 1 <= days <= MAX_MUTE_DAYS:
        raise ChatRefused(_("A mute lasts from 1 to %(days)d days.") % {"days": MAX_MUTE_DAYS})
    until = timezone.now() + datetime.timedelta(days=days)
    with transaction.atomic():
        found = Mute.objects.create(league=league, user=member, until=until, reason=reason, by=user)
        _record(league.pk, user, ModerationAction.Action.MUTED, member.name, reason=reason)
    return found


def unmute(user, league, member):
    if not access.is_moderator(user, league):
        raise ChatRefused(_("Only the league's owners and admins can do that."), status=403)
    with transaction.atomic():
        ended = Mute.objects.filter(league=league, user=member, until__gt=timezone.now()).update(
            until=timezone.now()
        )
        if ended:
            _record(league.pk, user, ModerationAction.Action.UNMUTED, member.name)


def report(user, message_id, reason, words=""):
    """Any reader reports a message to the league's admins (once per reader)."""
    message = Message.objects.select_related("game", "game__league").filter(pk=message_id).first()
    if message is None or not access.game_access(user, message.game).read:
        raise not_found()
    if reason not in Report.Reason.values:
        raise ChatRefused(_("Choose a reason from the list."))
    words = _text(words, 300, _("Your words"))
    try:
        with transaction.atomic():
            Report.objects.create(message=message, reporter=user, reason=reason, words=words)
    except IntegrityError:
        pass  # reported already: once is enough
    return message


def close_report(user, report_id):
    found = Report.objects.select_related("message", "message__league").filter(pk=report_id)
    found = found.first()
    if found is None or found.message.league is None:
        raise not_found()
    if not access.is_moderator(user, found.message.league):
        raise ChatRefused(_("Only the league's owners and admins can do that."), status=403)
    with transaction.atomic():
        Report.objects.filter(pk=found.pk).update(closed=True)
        _record(
            found.message.league_id,
            user,
            ModerationAction.Action.REPORT_CLOSED,
            found.message.author.name,
            found.message,
        )


def set_block(user, other, blocked):
    """``user`` blocks (or unblocks) ``other``: their messages are hidden for ``user``."""
    if other is None or other.pk == user.pk:
        raise ChatRefused(_("You cannot block yourself."))
    if blocked:
        try:
            with transaction.atomic():
                Block.objects.create(blocker=user, blocked=other)
        except IntegrityError:
            pass
    else:
        Block.objects.filter(blocker=user, blocked=other).delete()


def set_spectators_may_talk(user, league, allowed):
    if not access.is_moderator(user, league):
        raise ChatRefused(_("Only the league's owners and admins can do that."), status=403)
    with transaction.atomic():
        LeagueChat.objects.update_or_create(
            league=league, defaults={"spectators_may_talk": bool(allowed)}
        )
        _record(
            league.pk,
            user,
            ModerationAction.Action.SETTINGS,
            _("Spectators may talk") if allowed else _("Only players talk"),
        )
