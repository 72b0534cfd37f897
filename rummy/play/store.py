"""The transaction every change to a game goes through: the locked read, the version
check, and the save with its logged moves (DESIGN "Services").

Each action runs inside ``transaction.atomic()`` with the game row locked
(``select_for_update``; on SQLite, where that does nothing, the IMMEDIATE transaction
mode set in settings takes the write lock instead), checks the version the client acted
on, then writes the new state with a conditional ``UPDATE … WHERE version = N``. So a
double tap, a second tab or a second server process can never apply a move twice. The
moves are appended to the log in the same transaction, and the broadcast (ids and
versions, and after a turn the game as plain data: ``rummy.play.snapshot``) happens
after commit. Only the modules of ``rummy.play`` use this one.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.db import writes
from rummy.models import Game, Move, Seat, seats_of_game
from rummy.play import broadcast, pauses, snapshot
from rummy.play.errors import ActionRefused, Result, StaleVersion, bad_version

# Deals must not be predictable from earlier deals: a CSPRNG.
system_random = secrets.SystemRandom()


def parse_version(value, required=True):
    """The client's version as an int, read once, where it enters the write path.
    Missing (when required) or garbage is a 400, never a 500."""
    if value is None or value == "":
        if required:
            raise bad_version()
        return None
    if isinstance(value, bool):
        raise bad_version()
    try:
        version = int(str(value).strip())
    except (TypeError, ValueError):
        raise bad_version() from None
    if version < 0:
        raise bad_version()
    return version


def seat_of(game: Game, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    for seat in game.seated():
        if seat.user_id == user.pk:
            return seat
    return None


def locked_game(game_id, with_seats=False) -> Game:
    """The game row, locked. ``with_seats`` (actions that read the seats but never add
    or remove one) also loads the league, season and the seated users, not locked."""
    if with_seats:
        # One query, the hot path of every move: the seats with their users and, through
        # them, the game (the only row locked), its league and season (rummy.models).
        game = Game.with_seats(seats_of_game(game_id, lock=True))
        if game is not None:
            return game
        games = Game.objects.select_for_update(of=("self",)).select_related("league", "season")
    else:
        games = Game.objects.select_for_update()
    try:
        game = games.get(pk=game_id)
    except Game.DoesNotExist:
        raise ActionRefused(_("There is no such game."), code="no_game") from None
    return game.keep_seats([]) if with_seats else game  # a table nobody sits at


def check_version(game: Game, expected: int | None, required=False):
    """``expected`` is what ``parse_version`` read. Only seating changes before the
    start may omit it (nothing there to apply twice)."""
    if not isinstance(expected, int) or isinstance(expected, bool):
        # Callers pass what parse_version read; anything else is read here, once.
        expected = parse_version(expected, required=required)
    if expected is None:
        return
    if expected != game.version:
        raise StaleVersion()


def save(game: Game, new_state, moves, *, draft_free=False, ship=False, **fields):
    """Store a new state with a version-checked conditional UPDATE and log ``moves``
    (a list of (kind, seat, user, payload), with the bot's level as a fifth item for a
    bot's move), each taking the next version number.
    ``new_state`` is the engine state (or None to keep the stored one). ``draft_free``:
    the caller writes no draft of the new version (a turn), so the broadcast may say
    that none exists (``announce``). ``ship``: the caller changes nothing more of the
    game or its seats in this transaction, so the game as written here is the new
    version, and the broadcast carries it (``rummy.play.snapshot``)."""
    old_version = game.version
    new_version = old_version + len(moves)
    old_to_move = game.to_move_id
    now = timezone.now()
    # Whose move and the deadline follow from the state, unless the caller says otherwise.
    fields = {**_turn_fields(game, new_state, now), **fields}
    # The conditional UPDATE and the INSERT are written once (config.db.writes).
    updated = writes.update(
        Game,
        {
            "state": new_state.to_dict() if new_state is not None else game.state,
            "version": new_version,
            **fields,
        },
        pk=game.pk,
        version=old_version,
    )
    if updated != 1:
        # Only reachable where the row lock is not real: the guarantee still holds.
        raise StaleVersion()
    try:
        writes.insert(
            [
                Move(
                    game=game,
                    seq=old_version + i + 1,
                    kind=kind,
                    seat=seat,
                    user=user,
                    payload=payload,
                    bot_level=bot[0] if bot else "",
                )
                for i, (kind, seat, user, payload, *bot) in enumerate(moves)
            ]
        )
    except IntegrityError:
        raise StaleVersion() from None
    # What was written, without reading it back.
    game.version = new_version
    if new_state is not None:
        game.state = new_state.to_dict()
        game.cache_engine_state(new_state)
    for name, value in fields.items():
        setattr(game, name, value)
    # Whose count of games awaiting their move changed, and whether this one now does.
    movers = {}
    if old_to_move != game.to_move_id:
        awaits = game.to_move_id if game.is_active else None
        movers = {u: u == awaits for u in (old_to_move, game.to_move_id) if u is not None}
    shipped = snapshot.dump(game) if ship else None
    announce(game.pk, new_version, movers=movers, draft_free=draft_free, snapshot=shipped)
    return Result(game, new_version)


def announce(game_id, version, movers=None, draft_free=False, snapshot=None):
    """After commit, tell open pages that the game changed: its id and version and, after
    a turn, the game as written (``snapshot``). ``movers``: {user id: whether the game now
    awaits their move} for the users whose count of games awaiting their move changed
    (None: every seated player, who count again). ``draft_free``:
    no draft belongs to ``version`` when it is committed (a draft starts from a version
    and this one is new; a hint's save writes one), so that the player to move's socket
    renders without asking (``rummy.table.rendering.render_remembered``). ``snapshot``:
    the game at ``version`` (``rummy.play.snapshot.dump``), so that no socket process
    reads it.

    Emails and pushes ("your move", results) are not sent here but by the background
    workers' next pass (``rummy.notifications.pipeline``): a slow or failing mail server
    or push service must not hold up the player who moved, nor cost the busy web
    workers."""
    transaction.on_commit(
        lambda: broadcast.game_updated(
            game_id, version, movers=movers, draft_free=draft_free, snapshot=snapshot
        )
    )


def _turn_fields(game: Game, state, now):
    """Whose move it is and until when. A new deadline starts only when the turn passes
    to another seat (or a new round), from the season's current setting, so a limit
    changed mid-season applies to the next turns only."""
    if state is None:
        return {}
    if state.game_over:
        return {
            "to_move": None,
            "turn_deadline": None,
            "turn_started_at": None,
            "bot_due_at": None,
        }
    by_number = {s.number: s for s in game.seated()}
    seat = by_number.get(state.turn)
    to_move_id = seat.user_id if seat else None
    due = {"bot_due_at": bot_due(now) if seat is not None and seat.bot_plays else None}
    old = game.engine_state()
    same_turn = (
        old is not None
        and not old.game_over
        and old.round_no == state.round_no
        and old.turn == state.turn
        and game.turn_deadline is not None
    )
    if same_turn:
        return {"to_move_id": to_move_id, **due}
    season = game.season if game.season_id else None
    seconds = season.turn_seconds if season is not None else game.turn_seconds
    mover = next((s.user for s in game.seated() if s.user_id == to_move_id), None)
    return {
        "to_move_id": to_move_id,
        "turn_started_at": now,
        # The turn's own limit, kept: a deadline moved later (``reclock``) counts from it,
        # not from a setting changed since.
        "turn_seconds": seconds,
        # ``seconds`` of time in which the mover's clock runs (``pauses``: their vacations,
        # their quiet hours where the season says so).
        "turn_deadline": pauses.turn_deadline(mover, season, now, seconds),
        **due,
    }


def bot_due(now):
    """When a bot to move acts: after a human-like pause (``BOT_DELAY``, a range), so
    its moves read like a person's; every step of its turn waits again."""
    low, high = settings.BOT_DELAY
    return now + timedelta(seconds=system_random.uniform(low, max(low, high)))
