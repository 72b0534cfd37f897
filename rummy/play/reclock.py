"""The turn clock's own changes to a game: a seat's vacation begins or ends,
or the mover's deadline moves because their paused time changed (a vacation taken,
cancelled or ended early; the turn's quiet hours). Each is a version-checked save with a
logged move of kind ``clock`` (no change to the state), so that open game pages hear it
like any move and ``rummy.play.replay`` skips it."""

from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from leagues.models import Vacation
from rummy.models import Game, Move, Seat
from rummy.play import pauses, store
from rummy.play.errors import Result


@transaction.atomic
def reclock(game_id, now=None) -> Result | None:
    """Bring the game's vacations and deadline up to date; None when nothing changed."""
    game = store.locked_game(game_id, with_seats=True)
    return reclock_locked(game, now or timezone.now())


def reclock_locked(game: Game, now, only_if_paused=False) -> Result | None:
    """``reclock`` on a game the caller has locked. ``only_if_paused`` (the timeout's
    check): the deadline is looked at again only when the mover has paused time in
    this turn; one that nothing pauses stays as the write path set it."""
    if game.status != Game.Status.ACTIVE or game.state is None:
        return None
    seats = list(game.seated())
    away = pauses.away_until([s.user_id for s in seats], game.season, now)
    changed = [s for s in seats if s.away_until != away.get(s.user_id)]
    deadline = game.turn_deadline
    mover = next((s.user for s in seats if s.user_id == game.to_move_id), None)
    if (
        mover is not None
        and game.turn_started_at is not None
        and deadline is not None
        and (not only_if_paused or pauses.may_pause(mover, game.season, game.turn_started_at))
    ):
        deadline = pauses.turn_deadline(mover, game.season, game.turn_started_at, game.turn_seconds)
    if not changed and deadline == game.turn_deadline:
        return None
    for seat in changed:
        seat.away_until = away.get(seat.user_id)
        Seat.objects.filter(pk=seat.pk).update(away_until=seat.away_until)
    payload = {
        "deadline": deadline.isoformat() if deadline else None,
        "away": {str(s.number): _iso(s.away_until) for s in changed},
    }
    return store.save(game, None, [(Move.Kind.CLOCK, None, None, payload)], turn_deadline=deadline)


def _iso(moment):
    return moment.isoformat() if moment is not None else None


def stale_games(now, limit=200):
    """Ids of games in progress where a seat's vacation began or ended (or changed)
    since it was last shown: what the background pass brings up to date."""
    current_end = Subquery(
        Vacation.objects.filter(
            user_id=OuterRef("user_id"),
            season_id=OuterRef("game__season_id"),
            starts_at__lte=now,
            ends_at__gt=now,
        ).values("ends_at")[:1]
    )
    seats = Seat.objects.filter(game__status=Game.Status.ACTIVE, game__season__isnull=False)
    seats = seats.filter(
        Q(away_until__isnull=False) | Q(user__vacations__season_id=F("game__season_id"))
    ).annotate(current_end=current_end)
    stale = seats.filter(
        Q(away_until__isnull=True, current_end__isnull=False)
        | Q(away_until__isnull=False, current_end__isnull=True)
        | (Q(away_until__isnull=False, current_end__isnull=False) & ~Q(away_until=F("current_end")))
    )
    return list(stale.values_list("game_id", flat=True).distinct()[:limit])


def reclock_stale(now, limit=200) -> int:
    """The background pass's share: every stale game reclocked; how many changed."""
    return sum(1 for game_id in stale_games(now, limit) if reclock(game_id, now) is not None)
