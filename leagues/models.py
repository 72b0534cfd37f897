"""People and their leagues: users, memberships, invites, seasons."""

import secrets
import zoneinfo
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from config import caches
from leagues import quiet
from leagues.schedules.planner import MAX_GAMES_EACH, MAX_SEATS, MIN_SEATS

# The rule book's defaults (R10) come from the pure engine, the one place they are set.
from rummy.engine import DEFAULT_SETTINGS as DEFAULT_RULES


@caches.memo()
def time_zone_names():
    """Every IANA time zone name this machine knows (``zoneinfo``), read once."""
    return frozenset(zoneinfo.available_timezones())


def is_time_zone(name):
    return isinstance(name, str) and name in time_zone_names()


def validate_time_zone(name):
    if not is_time_zone(name):
        raise ValidationError(
            _("“%(name)s” is not a time zone we know."), code="time_zone", params={"name": name}
        )


def reported_time_zone(value):
    """A time zone name as a browser reported it (``Intl.DateTimeFormat``), or "" when it
    is missing or not one we know: a bad report is ignored, never an error."""
    value = (value or "").strip() if isinstance(value, str) else ""
    return value if is_time_zone(value) else ""


def supported_language(code):
    """``code`` when it is one of ``settings.LANGUAGES``, else ""."""
    return code if code in dict(settings.LANGUAGES) else ""


class BotLevel(models.TextChoices):
    """A computer player's level: the same values as the pure bots'
    ``rummy.bots.Level`` (a test keeps them equal); the labels are for people."""

    BEGINNER = "beginner", _("beginner")
    STEADY = "steady", _("steady")
    EXPERT = "expert", _("expert")


def deleted_username(pk):
    """A deleted account's username: it logs no one in, and it stands for the account
    where a name was stored (``AdminAction.by``)."""
    return f"~deleted-{pk}"


def in_words(stored_name):
    """A stored name as the reader should see it: a deleted account's username by its
    neutral name in the reader's language, anything else as it is."""
    number = stored_name.removeprefix("~deleted-")
    if number != stored_name and number.isdigit():
        return deleted_player_name(int(number))
    return stored_name


def deleted_player_name(pk):
    """What a deleted account is called (``leagues.erasure``): worded when shown, like a
    bot's name, so each reader sees it in their own language; the number tells two
    apart."""
    return _("Deleted player %(number)s") % {"number": pk}


class User(AbstractUser):
    """A player. The display name is what other players see; the username logs in.

    A computer player is a User too (``bot_level`` set, no usable password, inactive), so
    that seats, moves, standings and records need no second kind of player; it is
    named by its level in the reader's language (``name``).

    ``language`` and ``time_zone`` are how the player is spoken to where no browser
    says it: emails, and their pages on a browser without a language cookie. Empty means
    not known yet (the site's default language, UTC)."""

    display_name = models.CharField(_("display name"), max_length=40)
    email = models.EmailField(_("email address"), unique=True)
    email_verified = models.BooleanField(_("email verified"), default=False)
    language = models.CharField(
        _("language"), max_length=10, blank=True, choices=settings.LANGUAGES
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, blank=True, validators=[validate_time_zone]
    )
    # Quiet hours (``leagues.quiet``): wall times in ``zone``, both set or both empty.
    quiet_start = models.TimeField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet hours until"), null=True, blank=True)

    # Empty for people; a computer player's level (rummy.bots).
    bot_level = models.CharField(max_length=10, blank=True, choices=BotLevel.choices)
    # When the player deleted their account (``leagues.erasure``): the row stays, so that
    # their seats, moves and results keep their place in other players' games, but
    # everything that named them is gone and they are shown as "Deleted player N".
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)

    # The stubs do not declare the inner Meta that Django documents inheriting from.
    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]  # see the line above
        constraints = [
            # Half a window, or one that ends where it starts, means nothing: the
            # settings form says so in words; this keeps any other writer honest.
            models.CheckConstraint(
                condition=models.Q(quiet_start__isnull=True, quiet_end__isnull=True)
                | (
                    models.Q(quiet_start__isnull=False, quiet_end__isnull=False)
                    & ~models.Q(quiet_start=models.F("quiet_end"))
                ),
                name="user_quiet_hours_whole",
                violation_error_message=_(
                    "Quiet hours need a start and a different end, or neither."
                ),
            )
        ]

    def __str__(self):
        return self.name

    @property
    def is_bot(self):
        return bool(self.bot_level)

    @property
    def name(self):
        if self.bot_level:
            # Worded when shown, so each reader sees it in their own language.
            return _("Bot (%(level)s)") % {"level": BotLevel(self.bot_level).label}
        if self.deleted_at is not None:
            return deleted_player_name(self.pk)
        return self.display_name or self.username

    @property
    def is_deleted(self):
        return self.deleted_at is not None

    @property
    def language_code(self):
        """The language to write to this player in: theirs, else the site's default."""
        return supported_language(self.language) or settings.LANGUAGE_CODE

    @property
    def zone(self):
        """The player's time zone (a ``ZoneInfo``), else the site's default (UTC)."""
        if is_time_zone(self.time_zone):
            return zoneinfo.ZoneInfo(self.time_zone)
        return timezone.get_default_timezone()

    def quiet_until(self, now):
        """The aware end (in the player's zone) of the quiet window ``now`` falls in,
        else None: also when the player has no quiet hours."""
        if self.quiet_start is None or self.quiet_end is None:
            return None
        return quiet.quiet_until(self.quiet_start, self.quiet_end, self.zone, now)


@contextmanager
def speaking_to(user):
    """Everything inside is worded in ``user``'s language, with times in their zone: an
    email or anything else made for one player outside their own request."""
    with translation.override(user.language_code), timezone.override(user.zone):
        yield


class League(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone can join")
        INVITE = "invite", _("Invite only")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=90, unique=True)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.INVITE
    )
    created_at = models.DateTimeField(auto_now_add=True)
    members: "models.ManyToManyField[User, Membership]" = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="leagues"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:detail", args=[self.slug])

    @property
    def is_public(self):
        return self.visibility == self.Visibility.PUBLIC

    def active_season(self):
        return self.seasons.filter(status=Season.Status.ACTIVE).first()


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ADMIN = "admin", _("Admin")
        MEMBER = "member", _("Member")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]
        ordering = ["joined_at"]

    def __str__(self):
        return f"{self.user} in {self.league} ({self.role})"

    @property
    def is_admin(self):
        return self.role in (self.Role.OWNER, self.Role.ADMIN)


def new_invite_token():
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """An invite link. The token is unguessable; admins may revoke it or let it expire."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    max_uses = models.PositiveIntegerField(_("use limit"), null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Invite to {self.league} ({self.token[:6]}…)"

    def get_absolute_url(self):
        return reverse("leagues:join_invite", args=[self.token])

    def problem(self, now=None):
        """Why this invite cannot be used now, or None when it can."""
        now = now or timezone.now()
        if self.revoked_at:
            return _("This invite link has been revoked.")
        if self.expires_at and self.expires_at <= now:
            return _("This invite link has expired.")
        if self.max_uses is not None and self.uses >= self.max_uses:
            return _("This invite link has been used as many times as allowed.")
        return None


# The most days between two rounds of a scheduled season: a round a quarter apart is
# no longer one season.
MAX_ROUND_DAYS = 90
DEFAULT_ROUND_DAYS = 7

# The most vacation days a season can give: a season's clock must still mean something.
MAX_VACATION_DAYS = 60


class Season(models.Model):
    """A league's season, with its house settings (R10) and turn time limit.

    Its format: open tables (members open tables and others sit down) or scheduled
    (``leagues.schedules.planner`` seats every member for ``games_each`` games at
    tables of ``table_size``, in rounds; the season's page previews the plan). A
    scheduled season's plan is stored when it starts (``ScheduledRound``,
    ``ScheduledTable``), and the background work deals each round's tables when the
    round starts, as ``round_start`` says (``leagues.schedules.running``).
    """

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        ACTIVE = "active", _("Active")
        CLOSED = "closed", _("Closed")

    class Format(models.TextChoices):
        OPEN = "open", _("Open tables")
        SCHEDULED = "scheduled", _("Scheduled")

    class RoundStart(models.TextChoices):
        ON_DATES = "dates", _("On dates")
        AFTER_PREVIOUS = "previous", _("When the previous round's games have all ended")

    class LeaverGames(models.TextChoices):
        STAND_IN = "stand_in", _("A bot plays them in the member's place")
        VOID = "void", _("They are voided")

    # Turn time limits offered to admins: 1 hour to 7 days.
    TURN_LIMIT_CHOICES = [
        (3600, _("1 hour")),
        (3 * 3600, _("3 hours")),
        (6 * 3600, _("6 hours")),
        (12 * 3600, _("12 hours")),
        (24 * 3600, _("24 hours")),
        (2 * 86400, _("2 days")),
        (3 * 86400, _("3 days")),
        (7 * 86400, _("7 days")),
    ]
    DEFAULT_TURN_SECONDS = 24 * 3600

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("start date"))
    ends_on = models.DateField(_("end date"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    target_score = models.PositiveIntegerField(_("target score"), default=DEFAULT_RULES.target)
    knock_limit = models.PositiveIntegerField(_("knock limit"), default=DEFAULT_RULES.knock_limit)
    turn_seconds = models.PositiveIntegerField(
        _("time for a turn"), choices=TURN_LIMIT_CHOICES, default=DEFAULT_TURN_SECONDS
    )
    # Off by default: in a league game a hint is the solver's help, which not every
    # league wants to count towards its standings. Practice games always allow.
    hints_allowed = models.BooleanField(_("hints allowed"), default=False)
    # League time policy, both off by default: the clock of the player to move
    # stands still in their quiet hours, and each player may stop their clocks on this
    # many days of the season (``leagues.vacations``; ``rummy.play.pauses`` reads both).
    quiet_pause = models.BooleanField(_("turn clock pauses in quiet hours"), default=False)
    vacation_days = models.PositiveSmallIntegerField(
        _("vacation days per player"),
        default=0,
        validators=[MaxValueValidator(MAX_VACATION_DAYS)],
    )
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Frozen at close: the standings as they stood, and the champion(s).
    final_standings = models.JSONField(null=True, blank=True)
    champions = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="championships"
    )
    # Computer players. Off by default: a game with a bot at a seat counts
    # for nobody's standings, and an absent player's turns wait for the clock.
    bot_games_count = models.BooleanField(
        _("games with bots count toward the standings"), default=False
    )
    bot_stands_in = models.BooleanField(
        _("a bot plays for a player marked absent, until they come back"), default=False
    )
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.OPEN
    )
    # Scheduled seasons only (empty for open tables).
    games_each = models.PositiveSmallIntegerField(
        _("games each member plays"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_GAMES_EACH)],
    )
    table_size = models.PositiveSmallIntegerField(
        _("table size"),
        null=True,
        blank=True,
        validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)],
    )
    round_start = models.CharField(
        _("rounds start"), max_length=10, choices=RoundStart.choices, blank=True
    )
    # Rounds on dates: the first on the season's start date, each next one this many
    # days after the one before.
    round_days = models.PositiveSmallIntegerField(
        _("days between rounds"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUND_DAYS)],
    )
    leaver_games = models.CharField(
        _("games of a member who leaves"), max_length=10, choices=LeaverGames.choices, blank=True
    )

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["league"],
                condition=models.Q(status="active"),
                name="one_active_season_per_league",
            ),
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
                violation_error_message=_("A season cannot end before it starts."),
            ),
        ]

    def __str__(self):
        return f"{self.league}: {self.name}"

    def get_absolute_url(self):
        return reverse("leagues:season", args=[self.league.slug, self.pk])

    @property
    def turn_time(self):
        return timedelta(seconds=self.turn_seconds)

    @property
    def is_active(self):
        return self.status == self.Status.ACTIVE

    @property
    def is_closed(self):
        return self.status == self.Status.CLOSED

    def overlapping(self):
        """Other seasons of the same league whose dates share at least one day."""
        if not (self.league_id and self.starts_on and self.ends_on):
            return Season.objects.none()
        return Season.objects.filter(
            league_id=self.league_id, starts_on__lte=self.ends_on, ends_on__gte=self.starts_on
        ).exclude(pk=self.pk)

    def clean(self):
        # Checked here as well as in the database so that forms (ours and the Django
        # admin's) answer with a message instead of an IntegrityError.
        super().clean()
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season cannot end before it starts.")})
        if self.format == self.Format.SCHEDULED:
            missing = {
                name: _("A scheduled season needs this.")
                for name in ("games_each", "table_size", "round_start")
                if not getattr(self, name)
            }
            # Left unsaid (an older form): a bot stands in, and rounds a week apart.
            self.leaver_games = self.leaver_games or self.LeaverGames.STAND_IN
            if self.round_start == self.RoundStart.ON_DATES:
                self.round_days = self.round_days or DEFAULT_ROUND_DAYS
            else:
                self.round_days = None
            if missing:
                raise ValidationError(missing)
        else:
            # Open tables: the schedule's numbers mean nothing.
            self.games_each = self.table_size = self.round_days = None
            self.round_start = self.leaver_games = ""
        clash = self.overlapping().first()
        if clash:
            raise ValidationError(
                _("These dates overlap the season “%(name)s” (%(start)s – %(end)s).")
                # A day in the one style of a day (DATE_FORMAT, as ``rummy.clock.text``).
                % {
                    "name": clash.name,
                    "start": date_format(clash.starts_on),
                    "end": date_format(clash.ends_on),
                }
            )


class Vacation(models.Model):
    """Days on which a player's turn clocks stop, within one season
    (``leagues.vacations`` takes, cancels and ends them; ``days`` is what it costs of
    ``Season.vacation_days``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))
    days = models.PositiveSmallIntegerField(_("days"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        indexes = [models.Index(fields=["season", "user", "ends_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="vacation_ends_after_start",
            )
        ]

    def __str__(self):
        return f"{self.user} on vacation {self.starts_at:%Y-%m-%d} – {self.ends_at:%Y-%m-%d}"


class RecordedAction:
    """An entry of a record of actions (``AdminAction``, ``chat.models.ModerationAction``):
    written once, in the transaction of the action itself, and never changed; it keeps
    who acted (``actor_name``) and what to (``subject``) as words, shown in the
    reader's."""

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError(f"A recorded {self._meta.verbose_name} is never changed.")
        super().save(*args, **kwargs)

    @property
    def by(self):
        """Who acted, in the reader's words (``in_words``)."""
        return in_words(self.actor_name)

    @property
    def about(self):
        """What the action was done to, in the reader's words (``in_words``)."""
        return in_words(self.subject)


class AdminAction(RecordedAction, models.Model):
    """One thing a league's owner or admin did, with the values before and after.

    A small model of our own rather than django-auditlog, django-pghistory or
    django-simple-history: those record rows changed, whereas this record is of actions
    (a season started, a game voided) as the admins think of them, written by the same
    service function and in the same transaction as the action itself
    (``leagues.record``), so a refused or rolled-back action leaves no entry.
    Once written an entry is never changed: ``save`` refuses an update.
    """

    class Action(models.TextChoices):
        SEASON_CREATED = "season_created", _("Season created")
        SEASON_STARTED = "season_started", _("Season started")
        SEASON_CLOSED = "season_closed", _("Season closed")
        SEASON_ENDED_EARLY = "season_ended_early", _("Season ended early")
        SEASON_CHANGED = "season_changed", _("Season settings changed")
        GAME_VOIDED = "game_voided", _("Game voided")
        ROLE_CHANGED = "role_changed", _("Role changed")
        MEMBER_REMOVED = "member_removed", _("Member removed")
        INVITE_CREATED = "invite_created", _("Invite link created")
        INVITE_REVOKED = "invite_revoked", _("Invite link revoked")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="admin_actions")
    # Who acted; the name is kept too, so that the record still says who after the
    # account is deleted.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    actor_name = models.CharField(_("by"), max_length=150, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now)
    action = models.CharField(_("action"), max_length=30, choices=Action.choices)
    # What the action was done to, in words: a season's name, a member's name, a game.
    subject = models.CharField(_("subject"), max_length=200, blank=True)
    before = models.JSONField(_("before"), default=dict, blank=True)
    after = models.JSONField(_("after"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["league", "-at"])]

    def __str__(self):
        return f"{self.league}: {self.action} by {self.actor_name or '—'}"

    def changes(self):
        """``(field, before, after)`` for every value named on either side, in order."""
        keys = list(self.before) + [key for key in self.after if key not in self.before]
        return [(key, self.before.get(key), self.after.get(key)) for key in keys]


class ScheduledRound(models.Model):
    """A round of a scheduled season's stored plan: its tables are dealt together
    (``dealt_at``) when it starts, on ``starts_at`` (rounds on dates) or once the round
    before has ended. The rounds not dealt yet are planned again when the members
    change or someone is on vacation at a round's start
    (``leagues.schedules.running``)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()  # from 1, as the page shows it
    starts_at = models.DateTimeField(null=True, blank=True)
    dealt_at = models.DateTimeField(null=True, blank=True)
    # Members not seated in it: due but resting, or away (on vacation at its start).
    resting = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="one_round_number")
        ]

    def __str__(self):
        return f"{self.season}: round {self.number}"


class ScheduledTable(models.Model):
    """One planned game of a round: its players (user ids) in seat order (R1.1). Its
    game, once dealt, is the ``rummy.Game`` whose ``scheduled_table`` this is."""

    round = models.ForeignKey(ScheduledRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    players = models.JSONField(default=list)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_number")]

    def __str__(self):
        return f"{self.round}, table {self.number}"
