"""Seats for computer players: a bot added to an open seat, and the
practice game, one person against bots in no league.

A bot is a User row with ``bot_level`` (``leagues.models.User``): a small pool per level,
created on first use, so that one game can seat several bots of a level (one seat per
user and game) and seats, moves, standings and records need nothing new to read.
"""

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.access import require_league_admin
from leagues.models import BotLevel, User
from rummy import engine
from rummy.models import Game, Seat
from rummy.play import store
from rummy.play.errors import ActionRefused, NotAllowed, Result
from rummy.play.seating import _start, sit_down

#: at most this many bots at one game: every seat but one (R1.1's five)
POOL = engine.MAX_PLAYERS
#: practice games one person may have open (not finished) at once: each keeps bots
#: playing and allows hints, so one account must not multiply them
MAX_PRACTICE_GAMES = 3


def bot_level(value) -> str:
    """``value`` as a bot level, or a refusal that says which levels there are."""
    if isinstance(value, str) and value in BotLevel.values:
        return value
    raise ActionRefused(
        _("Choose a bot level: %(levels)s.")
        % {"levels": ", ".join(str(label) for label in BotLevel.labels)},
        code="bad_level",
    )


def bot_user(level, taken=()) -> User:
    """A bot User of ``level`` that is not one of ``taken`` (user ids)."""
    for number in range(1, POOL + 1):
        username = f"bot-{level}-{number}"
        user = User.objects.filter(username=username).first()
        if user is None:
            try:
                with transaction.atomic():
                    user = User.objects.create(
                        username=username,
                        email=f"{username}@bots.invalid",
                        bot_level=level,
                        # Nobody logs in as a bot: no password, not active.
                        is_active=False,
                        password="!",
                    )
            except IntegrityError:
                # Another request created it at the same moment: that row serves.
                user = User.objects.get(username=username)
        if user.pk not in taken:
            return user
    raise ActionRefused(_("This table is full."), code="full")


def _may_add_bots(game: Game, user):
    if game.host_id == getattr(user, "pk", None):
        return
    if game.league_id is None:
        raise NotAllowed(_("Only the host can add a bot."))
    try:
        require_league_admin(user, game.league)
    except PermissionDenied:
        raise NotAllowed(_("Only the host or a league admin can add a bot.")) from None


@transaction.atomic
def add_bot(game_id, user, level, expected_version) -> Result:
    """The host or a league admin seats a bot of ``level`` at an open seat. The version
    is required: the same form sent twice at once seats one bot, the other is stale."""
    level = bot_level(level)
    game = store.locked_game(game_id)
    _may_add_bots(game, user)
    store.check_version(game, expected_version, required=True)
    if game.status != Game.Status.OPEN:
        raise ActionRefused(_("This game has already started."), code="started")
    seats = list(game.seated())
    # At a full table ``sit_down`` refuses, and a bot user made for it is rolled back.
    return sit_down(game, seats, bot_user(level, taken={s.user_id for s in seats}), bot_level=level)


def practice_full(user) -> str:
    """Why ``user`` may not start another practice game now (``MAX_PRACTICE_GAMES`` of
    theirs are open), in words; "" when they may."""
    open_games = Game.objects.filter(
        league=None, host=user, status__in=(Game.Status.OPEN, Game.Status.ACTIVE)
    ).count()
    if open_games < MAX_PRACTICE_GAMES:
        return ""
    return ngettext(
        "You have %(count)d practice game open, the most one may have at once: "
        "finish it before you start another.",
        "You have %(count)d practice games open, the most one may have at once: "
        "finish one before you start another.",
        open_games,
    ) % {"count": open_games}


@transaction.atomic
def start_practice(user, bots, level) -> Game:
    """A private practice game (no league, no season, no standings): ``user`` against
    ``bots`` bots of ``level``, dealt at once (R2), the rule book's settings (R10)."""
    level = bot_level(level)
    try:
        bots = int(bots)
    except (TypeError, ValueError):
        bots = 0
    if not 1 <= bots <= engine.MAX_PLAYERS - 1:
        raise ActionRefused(_("A practice game has 1 to 4 bots."), code="bad_seats")
    # The user's row, locked, orders their requests: many at once count one by one (on
    # SQLite, where this lock does nothing, the IMMEDIATE transaction does the same).
    User.objects.select_for_update().filter(pk=user.pk).first()
    full = practice_full(user)
    if full:
        raise ActionRefused(full, code="too_many_practice_games")
    game = Game.objects.create(league=None, host=user, max_seats=bots + 1)
    Seat.objects.create(game=game, user=user)
    taken = {user.pk}
    for _n in range(bots):
        bot = bot_user(level, taken)
        taken.add(bot.pk)
        Seat.objects.create(game=game, user=bot, bot_level=level)
    return _start(game).game
