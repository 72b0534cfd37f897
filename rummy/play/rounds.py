"""A scheduled season's rounds, dealt by the site (the background work calls these):
when a round starts (on its date, or once the round before has ended, as the season
says), each of its planned tables becomes a game, its seats in the plan's order (R1.1)
and dealt at once, like a full table (``seating._start``): the first dealer is drawn
at random (R2.1), and the player to move hears of it as of any game.

A member who left, in a season where a bot stands in for them, keeps their seat: a bot
plays it (``Seat.stand_in``). Their games under way at the moment they leave are given
to a bot stand-in, or voided, as the season says (``member_left``).
"""

from django.db import transaction
from django.utils import timezone

from leagues.models import Membership, ScheduledRound, Season, User
from leagues.schedules import running
from rummy.models import Game, Seat
from rummy.play import store
from rummy.play.errors import ActionRefused
from rummy.play.seating import _start
from rummy.play.turns import void_game

UNENDED = (Game.Status.OPEN, Game.Status.ACTIVE)


def _is_due(row: ScheduledRound, now) -> bool:
    season = row.season
    earlier = ScheduledRound.objects.filter(season=season, number__lt=row.number)
    if earlier.filter(dealt_at__isnull=True).exists():
        return False  # rounds are dealt in order
    if row.number == 1 or season.round_start == Season.RoundStart.ON_DATES:
        return row.starts_at is not None and row.starts_at <= now
    # When the previous round's games have all ended.
    return not Game.objects.filter(
        scheduled_table__round__season=season,
        scheduled_table__round__number=row.number - 1,
        status__in=UNENDED,
    ).exists()


def due_rounds(now=None) -> list[int]:
    """The ids of the rounds whose time has come: the first round not dealt yet of each
    active scheduled season, if it is due."""
    now = now or timezone.now()
    firsts: dict[int, ScheduledRound] = {}
    for row in (
        ScheduledRound.objects.filter(
            dealt_at__isnull=True,
            season__status=Season.Status.ACTIVE,
            season__format=Season.Format.SCHEDULED,
        )
        .select_related("season")
        .order_by("season_id", "number")
    ):
        firsts.setdefault(row.season_id, row)
    return [row.pk for row in firsts.values() if _is_due(row, now)]


@transaction.atomic
def deal_round(round_id, now=None) -> bool:
    """Deal the round ``round_id`` if it is due and not dealt yet: True when this call
    dealt it. Safe to run twice or at once: the round's row is locked and marked dealt
    in the same transaction, and a planned table has at most one game."""
    now = now or timezone.now()
    row = (
        ScheduledRound.objects.select_for_update()
        .filter(pk=round_id, dealt_at__isnull=True, season__status=Season.Status.ACTIVE)
        .select_related("season", "season__league")
        .first()
    )
    if row is None or not _is_due(row, now):
        return False
    season = row.season
    tables = running.settle_round(row, now)
    users = User.objects.in_bulk([u for table in tables for u in table.players])
    # A planned player whose account is gone since cannot be seated.
    tables = [t for t in tables if len(t.players) >= 2 and all(u in users for u in t.players)]
    if not tables and ScheduledRound.objects.filter(season=season, number__gt=row.number).exists():
        # Everyone who still owes games is away (on vacation): the round waits for
        # them, planned again at the next look, rather than passing empty.
        return False
    members = set(
        Membership.objects.filter(league_id=season.league_id).values_list("user_id", flat=True)
    )
    for table in tables:
        game = Game.objects.create(
            league=season.league,
            season=season,
            host=None,
            max_seats=len(table.players),
            target_score=season.target_score,
            knock_limit=season.knock_limit,
            turn_seconds=season.turn_seconds,
            scheduled_table=table,
        )
        # Created in the plan's seat order: the start numbers the seats in it.
        for user_id in table.players:
            Seat.objects.create(game=game, user=users[user_id], stand_in=user_id not in members)
        _start(game)
    row.dealt_at = now
    row.save(update_fields=["dealt_at"])
    return True


def deal_due_rounds(now=None) -> int:
    """Every due round dealt here, at once (the tests' and ``run_worker --once``'s way
    without the queue); returns how many."""
    return sum(deal_round(round_id, now) for round_id in due_rounds(now))


@transaction.atomic
def member_left(season, user) -> int:
    """``user`` left the league during the scheduled ``season``: each of their games
    under way gets a bot stand-in, or is voided, as the season says. Returns how many
    games changed."""
    games = Game.objects.filter(season=season, status__in=UNENDED, seats__user=user)
    changed = 0
    for game_id in games.values_list("pk", flat=True):
        if season.leaver_games == Season.LeaverGames.VOID:
            try:
                void_game(game_id, None)
            except ActionRefused:
                continue  # ended since
        else:
            game = store.locked_game(game_id, with_seats=True)
            seat = store.seat_of(game, user)
            if seat is None or seat.stand_in:
                continue
            Seat.objects.filter(pk=seat.pk).update(stand_in=True)
            state = game.engine_state()
            if game.is_active and state is not None and state.turn == seat.number:
                # Their turn now: the bot moves after its usual pause.
                Game.objects.filter(pk=game.pk).update(bot_due_at=store.bot_due(timezone.now()))
        changed += 1
    return changed
