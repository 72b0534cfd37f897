"""Games as stored: the engine state (JSON) with a version, and the append-only move log.

Nothing here changes a game: every change goes through the write path, ``rummy.play``.
"""

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from config.db import reads
from leagues.models import BotLevel, League, Season, User
from rummy import engine


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open table")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        VOIDED = "voided", _("Voided")

    # None for a practice game: one person against bots, in no league; only
    # its host may see it (rummy.table.access).
    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, null=True, blank=True, related_name="games"
    )
    # The league's active season when the game started; None counts for no season.
    season = models.ForeignKey(
        "leagues.Season", on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    max_seats = models.PositiveSmallIntegerField(_("seats"), default=4)
    # House settings (R10), copied from the season when the table opens.
    target_score = models.PositiveIntegerField(default=engine.DEFAULT_SETTINGS.target)
    knock_limit = models.PositiveIntegerField(default=engine.DEFAULT_SETTINGS.knock_limit)
    turn_seconds = models.PositiveIntegerField(default=Season.DEFAULT_TURN_SECONDS)
    # The engine's GameState.to_dict(); None until the game starts.
    state = models.JSONField(null=True, blank=True)
    # Bumped by every stored change; each action names the version it was made on.
    version = models.PositiveIntegerField(default=0)
    # Denormalised from the state so lists can ask "whose move" without loading JSON.
    to_move = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the bot (or the bot standing in for an absent player) to move acts: stored as
    # data, so a restarted worker finds it (rummy.clock.bots); None when a person moves.
    bot_due_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The finished game this table is the rematch of: one to one, so that two players
    # asking at once get one rematch table (rummy.play.seating.rematch).
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    # A scheduled season's planned table this game was dealt for (``rummy.play.rounds``):
    # one game per planned table, however many workers deal the round at once.
    scheduled_table = models.OneToOneField(
        "leagues.ScheduledTable",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="game",
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "turn_deadline"]),
            # the bot worker asks this about once a second: only rows with a bot due
            models.Index(
                fields=["bot_due_at"],
                condition=models.Q(bot_due_at__isnull=False),
                name="game_bot_due",
            ),
        ]

    def __str__(self):
        return f"Game {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self):
        return reverse("rummy:table", args=[self.pk])

    def engine_state(self):
        """The stored state as the engine's value, parsed from JSON once per stored
        dict (the state is immutable: every change stores a new dict)."""
        if not self.state:
            return None
        parsed = self.__dict__.get("_parsed_state")
        if parsed is not None and parsed[0] is self.state:
            return parsed[1]
        state = engine.GameState.from_dict(self.state)
        self.__dict__["_parsed_state"] = (self.state, state)
        return state

    def cache_engine_state(self, state):
        """Remember that ``self.state`` is ``state.to_dict()``, so it is not parsed again."""
        self.__dict__["_parsed_state"] = (self.state, state)

    def load_seats(self):
        """Read the seats and their users (``seated``) with one plain query, as
        ``prefetch_related(Prefetch("seats", Seat.objects.select_related("user")))``
        would for this one game, without the prefetch machinery. Returns the game."""
        return self.keep_seats(self.seats.select_related("user"))

    @classmethod
    def with_seats(cls, seats):
        """The game of ``seats`` (rows of one game, read with ``select_related("game")``)
        with those seats kept (``keep_seats``), or None when there are none: each row
        carries its own copy of the game, and one of them becomes everyone's."""
        seats = list(seats)
        if not seats:
            return None
        return seats[0].game.keep_seats(seats)

    def keep_seats(self, seats):
        """Keep ``seats`` (this game's, in order, users loaded) as the game's seats
        (``seated``) until the game is read again. Returns the game."""
        self.kept_seats = list(seats)
        for seat in self.kept_seats:
            seat.game = self
        return self

    def seated(self):
        """The game's seats in order: those kept (``keep_seats``), else ``seats.all()``
        (prefetched or read)."""
        kept = self.__dict__.get("kept_seats")
        return kept if kept is not None else list(self.seats.all())

    def refresh_from_db(self, *args, **kwargs):
        self.__dict__.pop("kept_seats", None)
        super().refresh_from_db(*args, **kwargs)

    @property
    def is_open(self):
        return self.status == self.Status.OPEN

    @property
    def is_active(self):
        return self.status == self.Status.ACTIVE

    @property
    def is_practice(self):
        return self.league_id is None

    def engine_settings(self):
        return engine.Settings(target=self.target_score, knock_limit=self.knock_limit)


class Seat(models.Model):
    """A player at a table. ``number`` is the engine's seat (R1.1)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats"
    )
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Results, filled when the game ends (standings read these).
    final_score = models.IntegerField(null=True, blank=True)
    rounds_won = models.PositiveIntegerField(default=0)
    is_winner = models.BooleanField(default=False)
    # Turn clock: consecutive timeouts; three in a row mark the player absent.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    # A computer player's seat: its level (the user is a bot User); empty for people.
    bot_level = models.CharField(max_length=10, blank=True)
    # An absent player's seat that a beginner bot plays until they come back (the
    # season's ``bot_stands_in``); cleared by any action of theirs or "I'm back".
    stand_in = models.BooleanField(default=False)
    # The end of the player's vacation while they are on one: copied from
    # ``leagues.Vacation`` by the write path (``rummy.play.reclock``), so that the game
    # page shows it from the game's own rows, and a change reaches it as a new version.
    away_until = models.DateTimeField(null=True, blank=True)
    # At a league's table of people: the player's rating in the league and their chance
    # of finishing first (``leagues.ratings.chances``), set by the write path when the
    # seats change and at the start, so that pages read them with the seats. None at
    # a practice table, with a bot at a seat, or alone at a table.
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    chance_first = models.FloatField(null=True, blank=True)

    class Meta:
        # The id last: seats taken in the same instant (one clock tick, or a
        # frozen clock in tests) still come in the order they were taken, which is the
        # seat order the start gives them (R2.1); without it PostgreSQL may return them
        # either way.
        ordering = ["number", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "number"], name="unique_seat_number"),
        ]

    def __str__(self):
        return f"{self.user} at seat {self.number} of game {self.game_id}"

    ABSENT_AFTER = 3

    @property
    def is_absent(self):
        return self.timeouts_in_row >= self.ABSENT_AFTER

    @property
    def bot_plays(self):
        """The level of the bot that plays this seat now, or "" when a person does."""
        return self.bot_level or (BotLevel.BEGINNER.value if self.stand_in else "")


class Move(models.Model):
    """One entry of a game's append-only log. ``seq`` is the version it produced."""

    class Kind(models.TextChoices):
        START = "start", _("Start")
        DRAW = "draw", _("Draw")
        MELD = "meld", _("Meld")
        KNOCK = "knock", _("Knock")
        PASS = "pass", _("Pass")
        TIMEOUT = "timeout", _("Timeout")
        DEAL = "deal", _("Deal")
        END_EARLY = "end_early", _("Ended early")
        VOID = "void", _("Voided")
        # The player asked the solver for a hint: logged so that the record
        # says so; it changes no state (``rummy.play.replay`` skips it).
        HINT = "hint", _("Hint")
        # The turn clock's own entry: a seat's vacation began or ended, or the
        # mover's deadline moved with their paused time (``rummy.play.reclock``). No
        # change to the state (``rummy.play.replay`` skips it).
        CLOCK = "clock", _("Clock")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The engine action; for start and deal (random), the dealt state itself, so that the
    # log replays exactly. Server-side only: never rendered to players.
    payload = models.JSONField(default=dict)
    # The level of the bot that made this move (a bot's seat, or one standing in for an
    # absent player: "played by a bot" in the record); empty for people and the clock.
    bot_level = models.CharField(max_length=10, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_move_seq")]

    def __str__(self):
        return f"{self.game_id}#{self.seq} {self.kind}"


class Round(models.Model):
    """A finished round with its points (R7), for history and standings."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    # How the round ended: the engine's RoundEnd values (R6, R8).
    REASONS = [
        (engine.RoundEnd.KNOCK.value, pgettext_lazy("how a round ended", "Knock")),
        (engine.RoundEnd.GOING_OUT.value, pgettext_lazy("how a round ended", "Going out")),
        (engine.RoundEnd.STOCK_OUT.value, pgettext_lazy("how a round ended", "The stock ran out")),
        (engine.RoundEnd.ENDED_EARLY.value, pgettext_lazy("how a round ended", "Ended early")),
    ]
    reason = models.CharField(max_length=20, choices=REASONS)
    knocker = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.JSONField()
    winners = models.JSONField()
    hands = models.JSONField()
    ended_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_round_number")
        ]

    def __str__(self):
        return f"{self.game_id} round {self.number} ({self.reason})"


class Draft(models.Model):
    """A player's arrangement in progress (one per game and seat), kept on the server so
    that a reload or a switch of device loses nothing. Tied to the version it started
    from: once the game moves on, the draft starts again from the table as it is."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="drafts")
    seat = models.PositiveSmallIntegerField()
    base_version = models.PositiveIntegerField()
    # {"table": [[card, ...], ...], "hand": [card, ...], "selected": [...]} in notation.
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_draft_per_seat")]

    def __str__(self):
        return f"draft of seat {self.seat} in game {self.game_id}"


class NotificationPrefs(models.Model):
    """What a player wants to be told, per kind and per channel (email, push). No row
    means the defaults: all. Nothing is ever emailed to an unverified address, and
    nothing pushed to a player with no subscribed device, whatever these say; email is
    the fallback for a kind no device of theirs is pushed (``notifications.prefs``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_prefs"
    )
    # Email (the names predate push: unsubscribe links carry them).
    your_move = models.BooleanField(_("when it becomes my move"), default=True)
    reminders = models.BooleanField(_("a reminder before my time runs out"), default=True)
    results = models.BooleanField(_("the result of a game I played"), default=True)
    # Push to the player's subscribed devices: on as soon as a device subscribes.
    push_your_move = models.BooleanField(_("when it becomes my move"), default=True)
    push_reminders = models.BooleanField(_("a reminder before my time runs out"), default=True)
    push_results = models.BooleanField(_("the result of a game I played"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")

    def __str__(self):
        return f"Notification preferences of {self.user}"


class Ledger(models.Model):
    """What a notification ledger is, for email (``Notice``, one row per user) and push
    (``PushNotice``, one row per device): one row per (outlet, game, kind, turn). The
    row is inserted (claimed) BEFORE the notice is sent, so the unique constraints make
    a duplicate impossible, even with two workers or a worker racing a page request;
    stamped (``sent_at``) just before the notice goes to the mail server or push
    service; deleted after a failure, so that the next pass tries again. A claim left
    unstamped by a worker that died before it began to send is dropped after its
    sender's ``stale`` (``rummy.notifications.pipeline``), and the notice is sent by a
    later pass; a stamped one is never sent again, even if its worker died mid-send.

    Two tables, not one: an email's outlet is the user and a push's the device (whose
    rows go when it is unsubscribed), so one table would need a nullable owner of each
    kind and a migration of the rows; the code is the one thing they share."""

    class Kind(models.TextChoices):
        YOUR_MOVE = "your_move", _("Your move")
        REMINDER = "reminder", _("Reminder")
        RESULT = "result", _("Result")

    #: the field that says whom (or which device) a row is about
    OWNER: str

    # Each ledger names its own reverse accessor (Game.notices, Game.push_notices).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # The turn the notice is about (Game.turn_started_at); None for a result.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @classmethod
    def turn_of(cls, game, kind):
        return None if kind == cls.Kind.RESULT else game.turn_started_at

    @classmethod
    def claim(cls, owner, games, kind, stamp=None) -> list:
        """Claim ``kind`` of each of ``games`` for ``owner`` (a user or a device),
        skipping those it already has; returns [(game, row)]. With ``stamp`` the rows
        are made as already told."""
        had = set(
            cls._default_manager.filter(
                **{cls.OWNER: owner}, kind=kind, game__in=[game.pk for game in games]
            ).values_list("game_id", "turn_started_at")
        )
        claimed = []
        for game in games:
            turn = cls.turn_of(game, kind)
            if (game.pk, turn) in had:
                continue
            try:
                with transaction.atomic():
                    fields = {cls.OWNER: owner, "game": game, "turn_started_at": turn}
                    row = cls._default_manager.create(**fields, kind=kind, sent_at=stamp)
            except IntegrityError:  # another worker claimed it meanwhile
                continue
            claimed.append((game, row))
        return claimed

    @classmethod
    def release(cls, rows) -> None:
        """Forget ``rows``' claims: the next pass tries again."""
        cls._default_manager.filter(pk__in=[row.pk for row in rows]).delete()

    @classmethod
    def stamp(cls, rows, when) -> None:
        """``rows`` were sent: never again."""
        cls._default_manager.filter(pk__in=[row.pk for row in rows]).update(sent_at=when)

    @classmethod
    def drop_stale(cls, before) -> int:
        """Release the claims that a worker killed between claim and send left behind."""
        return cls._default_manager.filter(sent_at__isnull=True, claimed_at__lt=before).delete()[0]


class Notice(Ledger):
    """The ledger of emails sent: one row per (user, game, kind, turn) (``Ledger``)."""

    OWNER = "user"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notices")

    class Meta:
        constraints = [
            # NULLs are distinct in a unique index, hence a second constraint for results.
            models.UniqueConstraint(
                fields=["user", "game", "kind", "turn_started_at"],
                condition=models.Q(turn_started_at__isnull=False),
                name="one_notice_per_turn",
            ),
            models.UniqueConstraint(
                fields=["user", "game", "kind"],
                condition=models.Q(turn_started_at__isnull=True),
                name="one_notice_per_game",
            ),
        ]

    def __str__(self):
        return f"{self.kind} to {self.user_id} about game {self.game_id}"


class GameReview(models.Model):
    """A finished game whose turns have all been reviewed (``rummy.history.review``):
    the background pass looks for finished games without one. ``failed``: the log did
    not replay, so the game is left alone rather than retried on every pass."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    done_at = models.DateTimeField(auto_now_add=True)
    failed = models.BooleanField(default=False)

    def __str__(self):
        return f"review of game {self.game_id}"


class TurnReview(models.Model):
    """One turn position of a finished game, solved after the game: what the
    player chose (``count_left``, the hand's count after it, R7.1) against the best meld
    the solver finds. ``seq`` is the move the player chose there (a meld, or a draw,
    knock or pass that declined to meld). The hand and the table are those the seat saw
    then; once the game is over every hand is shown in its replay anyway."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turn_reviews")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    round_no = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Move.Kind.choices)
    # In notation: the hand (one token per card) and the table (one string per meld).
    hand = models.JSONField()
    table = models.JSONField()
    count_left = models.PositiveIntegerField()
    best_count = models.PositiveIntegerField()
    # The solver's whole table after its meld, and the hand cards it plays; None and []
    # when no meld exists.
    best_table = models.JSONField(null=True)
    best_played = models.JSONField(default=list)
    proven = models.BooleanField()

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_review_per_move")]

    def __str__(self):
        return f"review of {self.game_id}#{self.seq}"

    @property
    def missed(self):
        """A better meld existed than what the player chose."""
        return self.best_table is not None and self.best_count < self.count_left


class PushSubscription(models.Model):
    """One browser of a player that takes web push (RFC 8030): the push service's URL to
    POST to, and the keys the payload is encrypted for (RFC 8291). The endpoint is the
    browser's own: the same browser subscribing again updates its row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=1000, unique=True)
    # base64url: the browser's P-256 public key (65 bytes) and its auth secret (16 bytes).
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    # What the player sees in the list of devices ("Firefox on Android").
    device = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"push subscription {self.pk} of {self.user_id} ({self.device})"


class PushNotice(Ledger):
    """The ledger of pushes, per device: one row per (subscription, game, kind, turn)
    (``Ledger``)."""

    OWNER = "subscription"

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="notices"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="push_notices")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "game", "kind", "turn_started_at"],
                condition=models.Q(turn_started_at__isnull=False),
                name="one_push_per_turn",
            ),
            models.UniqueConstraint(
                fields=["subscription", "game", "kind"],
                condition=models.Q(turn_started_at__isnull=True),
                name="one_push_per_game",
            ),
        ]

    def __str__(self):
        return f"{self.kind} push to {self.subscription_id} about game {self.game_id}"


class QuietHold(models.Model):
    """A player's notifications held by their quiet hours: set by the first pass that
    held something for them. ``since`` is how far back the passes look for what was
    held (so that a turn older than the usual catch-up is still told), until an hour
    after ``until``, the end of the quiet hours (the retries of what failed then)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quiet_hold"
    )
    since = models.DateTimeField()
    until = models.DateTimeField()

    def __str__(self):
        return f"notifications of {self.user_id} held until {self.until}"


class JobKey(models.Model):
    """One piece of background work handed to the task queue (``rummy.background``),
    by a key that names it: ``timeout:<game>:<version>``, ``bot:<game>:<version>``,
    ``every:<pass>``. Every worker looks for due work, and only the one that inserts
    the key (or takes over one whose ``leased_until`` has passed) enqueues the job:
    two workers looking at once enqueue it once. While the job waits or runs, the key
    holds it; the job drops its key when done (a pass sets its next time instead), and
    a key left by a worker that died expires, so that the next look enqueues it again."""

    key = models.CharField(max_length=100, unique=True)
    leased_until = models.DateTimeField()

    def __str__(self):
        return f"{self.key} until {self.leased_until}"


# The read of every move and socket update (``config.db.reads.joined``).


def seats_of_game(game_id: int, lock: bool = False) -> list[Seat]:
    """What ``Seat.objects.select_related("game__league", "game__season", "user")
    .filter(game_id=…)`` (with ``select_for_update(of=("game",))`` when ``lock``)
    returns: the game's seats in ``Seat.Meta.ordering``, each with its user, and one
    game shared by all of them with its league and season ([] when none). Its SQL is
    written once: for this query Django's compiler cost about as much CPU as the rest
    of the read, and it runs for every action (docs/benchmarks.md)."""
    chain: tuple[reads.Join, ...] = (
        (Seat, None),
        (Game, ("INNER", Seat, "game")),
        (League, ("LEFT OUTER", Game, "league")),
        (Season, ("LEFT OUTER", Game, "season")),
        (User, ("INNER", Seat, "user")),
    )
    rows = reads.joined(
        "seats_of_game",
        chain,
        (chain[1][0], chain[2][0], chain[3][0]),
        "game",
        game_id,
        lock_of=Game if lock else None,
    )
    seats: list[Seat] = []
    game = None
    for seat, this_game, league, season, user in rows:
        if game is None:
            game = this_game
            game.league = league
            game.season = season
        seat.game = game
        seat.user = user
        seats.append(seat)
    return seats
