"""The chat's tables: a game's messages, the league's chat settings, mutes, blocks,
reports and the record of every moderation action.

A message keeps either its words or a quick phrase's id (``chat.phrases``), never the
phrase's words: each reader sees it in their own language, and the game's record keeps
the id. The client's token makes a double submit (a double tap, a frame sent again after
a reconnect) one message: it is unique per author and game.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from leagues.models import RecordedAction

MAX_LENGTH = 500


class Message(models.Model):
    game = models.ForeignKey("rummy.Game", on_delete=models.CASCADE, related_name="+")
    # Kept with the message so a league's moderators find its reports in one query.
    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, related_name="+", null=True
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(_("message"), max_length=MAX_LENGTH, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=20, blank=True)
    token = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    hidden = models.BooleanField(_("hidden by an admin"), default=False)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "author", "token"], name="chat_one_message_per_token"
            )
        ]
        indexes = [models.Index(fields=["game", "id"]), models.Index(fields=["author", "-id"])]

    def __str__(self):
        return f"{self.author} in game {self.game_id}: {self.phrase or self.text[:40]}"


class ReadMark(models.Model):
    """The newest message of a game a user has seen: the rest is unread."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("rummy.Game", on_delete=models.CASCADE, related_name="+")
    last_seen = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="chat_one_read_mark")]

    def __str__(self):
        return f"{self.user_id} read game {self.game_id} up to {self.last_seen}"


class LeagueChat(models.Model):
    """A league's chat settings, chosen by its admins; a league without a row has the
    defaults."""

    league = models.OneToOneField(
        "leagues.League", on_delete=models.CASCADE, related_name="chat_settings"
    )
    spectators_may_talk = models.BooleanField(
        _("members watching a game may write in its chat"), default=False
    )
    board_locked = models.BooleanField(_("only admins post on the board"), default=False)

    def __str__(self):
        return f"chat settings of league {self.league_id}"


class Mute(models.Model):
    """A member may not write in the league's chats until ``until``; they are shown why."""

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    until = models.DateTimeField(_("until"))
    reason = models.CharField(_("reason"), max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["league", "user", "-until"])]

    def __str__(self):
        return f"{self.user_id} muted in league {self.league_id} until {self.until}"


class Block(models.Model):
    """``blocker`` sees none of ``blocked``'s messages, anywhere."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="chat_one_block")
        ]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"


class ReportBase(models.Model):
    """A reader's report of something written to the league's admins: one of the
    reasons, optional words, open until an admin closes it. Once per reader and item
    (each report's constraint)."""

    class Reason(models.TextChoices):
        RUDE = "rude", _("Rude or abusive")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Talk about cheating")
        PRIVATE = "private", _("Shares someone's private details")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    words = models.CharField(_("in your words (optional)"), max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    closed = models.BooleanField(default=False)

    class Meta:
        abstract = True
        ordering = ["-pk"]


class Report(ReportBase):
    """A report of a table message."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")

    class Meta(ReportBase.Meta):
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_one_report")
        ]

    def __str__(self):
        return f"report of message {self.message_id}: {self.reason}"


class ModerationAction(RecordedAction, models.Model):
    """One moderation action, with who, when and why. Written in the transaction of the
    action itself; never changed afterwards (site staff read it in Django's admin)."""

    class Action(models.TextChoices):
        HIDDEN = "hidden", _("Message hidden")
        SHOWN = "shown", _("Message shown again")
        MUTED = "muted", _("Member muted")
        UNMUTED = "unmuted", _("Member unmuted")
        REPORT_CLOSED = "report_closed", _("Report closed")
        SETTINGS = "settings", _("Chat settings changed")
        PINNED = "pinned", _("Announcement pinned")
        UNPINNED = "unpinned", _("Announcement unpinned")
        POST_HIDDEN = "post_hidden", _("Board post hidden")
        POST_SHOWN = "post_shown", _("Board post shown again")

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    actor_name = models.CharField(_("by"), max_length=150, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    subject = models.CharField(_("subject"), max_length=200, blank=True)
    message = models.ForeignKey(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.league_id}: {self.action} by {self.actor_name or '—'}"


BOARD_MAX_LENGTH = 2000


class BoardPost(models.Model):
    """A post on a league's board. A pinned one (an admin's announcement) shows on the
    league page and on its members' home pages until it is unpinned."""

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_posts"
    )
    text = models.TextField(_("post"), max_length=BOARD_MAX_LENGTH)
    token = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now)
    pinned = models.BooleanField(_("pinned"), default=False)
    hidden = models.BooleanField(_("hidden by an admin"), default=False)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "author", "token"], name="board_one_post_per_token"
            )
        ]
        indexes = [models.Index(fields=["league", "-id"])]

    def __str__(self):
        return f"{self.author_id} on the board of league {self.league_id}"


class BoardReadMark(models.Model):
    """The newest post of a league's board a member has seen: the rest is unread."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="+")
    last_seen = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "league"], name="board_one_read_mark")
        ]

    def __str__(self):
        return f"{self.user_id} read the board of league {self.league_id} up to {self.last_seen}"


class BoardReport(ReportBase):
    """A report of a board post, with the reasons of a table message's report."""

    post = models.ForeignKey(BoardPost, on_delete=models.CASCADE, related_name="reports")

    class Meta(ReportBase.Meta):
        constraints = [
            models.UniqueConstraint(fields=["post", "reporter"], name="board_one_report")
        ]

    def __str__(self):
        return f"report of board post {self.post_id}: {self.reason}"


class AnnouncementEmailed(models.Model):
    """A pinned announcement that rode along in an email to ``user``: each goes to a
    member at most once. Claimed before the email is sent, and given back if it fails."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    post = models.ForeignKey(BoardPost, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "post"], name="announcement_emailed_once")
        ]

    def __str__(self):
        return f"board post {self.post_id} emailed to {self.user_id}"
