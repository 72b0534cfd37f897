"""The ONE way a game changes.

Every action — open, sit, leave, start, draw, meld, knock, pass, timeout, end early —
is one function here. Each runs inside ``transaction.atomic()`` with the game row
locked (``select_for_update``; on SQLite, where that does nothing, the IMMEDIATE
transaction mode set in settings takes the write lock instead) and checks the version
the client acted on, then writes the new state with a conditional
``UPDATE … WHERE version = N``. So a double tap, a second tab or a second server process
can never apply a move twice. The move is appended to the log in the same transaction,
and the broadcast (ids and versions only) happens after commit.
"""

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from rummy import engine
from rummy.engine_messages import rule_error_message
from rummy.models import Game, Move, Round, Seat

# Deals must not be predictable from earlier deals (integrity issue): a CSPRNG.
_system_random = secrets.SystemRandom()


class ActionRefused(Exception):
    """An action that changes nothing. ``status`` is the HTTP status it maps to."""

    status = 400

    def __init__(self, message, code="refused"):
        super().__init__(str(message))
        self.message = str(message)
        self.code = code


class NotAllowed(ActionRefused):
    status = 403


class StaleVersion(ActionRefused):
    status = 409

    def __init__(self, message=None):
        super().__init__(
            message
            or _(
                "The table changed before your action arrived (another tab, or a double "
                "tap). Nothing was done; here is the table as it is now."
            ),
            code="stale",
        )


class RuleRefused(ActionRefused):
    """The engine refused the action (a rule of RULES.md)."""

    def __init__(self, error: "engine.RuleError"):
        super().__init__(rule_error_message(error), code=error.code)


MIN_SEATS, MAX_SEATS = 2, 5


@dataclass(frozen=True)
class Result:
    game: Game
    version: int


# --- Reading --------------------------------------------------------------------------


def seat_of(game: Game, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


# --- The transaction ------------------------------------------------------------------


def _locked_game(game_id, with_seats=False) -> Game:
    """The game row, locked. ``with_seats`` (actions that read the seats but never add
    or remove one) also loads the league, season and the seated users, not locked:
    after the commit this very object is what the table's sockets render from
    (``rummy.access.remember``), so none of them has to read the game again."""
    if with_seats:
        games = (
            Game.objects.select_for_update(of=("self",))
            .select_related("league", "season")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        )
    else:
        games = Game.objects.select_for_update()
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise ActionRefused(_("There is no such game."), code="no_game") from None


def _check_version(game: Game, expected_version, required=False):
    if expected_version is None and not required:
        # Only seating changes before the start may omit it (nothing to apply twice).
        return
    try:
        expected = int(expected_version)
    except (TypeError, ValueError):
        raise ActionRefused(_("The request did not say which table version it was made on."),
                            code="bad_version") from None
    if expected != game.version:
        raise StaleVersion()


def _save(game: Game, new_state, moves, **fields):
    """Store a new state with a version-checked conditional UPDATE and log ``moves``
    (a list of (kind, seat, user, payload)), each taking the next version number."""
    old_version = game.version
    new_version = old_version + len(moves)
    old_to_move = game.to_move_id
    now = timezone.now()
    # Whose move and the deadline follow from the state, unless the caller says otherwise.
    fields = {**_turn_fields(game, new_state, now), **fields}
    updated = Game.objects.filter(pk=game.pk, version=old_version).update(
        state=new_state.to_dict() if new_state is not None else game.state,
        version=new_version,
        **fields,
    )
    if updated != 1:
        # Only reachable where the row lock is not real: the guarantee still holds.
        raise StaleVersion()
    try:
        Move.objects.bulk_create(
            [
                Move(game=game, seq=old_version + i + 1, kind=kind, seat=seat, user=user,
                     payload=payload)
                for i, (kind, seat, user, payload) in enumerate(moves)
            ]
        )
    except IntegrityError:
        raise StaleVersion() from None
    # What was written, without reading it back.
    game.version = new_version
    if new_state is not None:
        game.state = new_state.to_dict()
    for name, value in fields.items():
        setattr(game, name, value)
    movers = {old_to_move, game.to_move_id} - {None} if old_to_move != game.to_move_id else set()
    loaded = "seats" in getattr(game, "_prefetched_objects_cache", {})
    transaction.on_commit(
        lambda: _after_commit(game.pk, new_version, movers=movers,
                              game=game if loaded else None)
    )
    return Result(game, new_version)


def _after_commit(game_id, version, movers=None, game=None):
    """Tell open pages (ids and versions only). ``movers``: the users whose count of
    games awaiting their move may have changed (None: every seated player, for changes
    that do not go through ``_save``). ``game``: the game as just saved, complete with
    seats and users, for this process's sockets to render from.

    Emails ("your move", results) are not sent here but by the turn clock's next pass
    (``notifications.clock_pass``, every ``CLOCK_INTERVAL`` seconds): a slow or failing
    mail server must not hold up the player who moved, nor cost the busy web workers."""
    from rummy import access, broadcast

    if game is not None:
        access.remember(game)
    broadcast.game_updated(game_id, version, movers=movers)


def _turn_fields(game: Game, state, now):
    """Whose move it is and until when. A new deadline starts only when the turn passes
    to another seat (or a new round), from the season's current setting, so a limit
    changed mid-season applies to the next turns only."""
    if state is None:
        return {}
    if state.game_over:
        return {"to_move": None, "turn_deadline": None, "turn_started_at": None}
    seats = {s.number: s.user_id for s in game.seats.all()}
    to_move_id = seats.get(state.turn)
    old = game.engine_state()
    same_turn = (
        old is not None
        and not old.game_over
        and old.round_no == state.round_no
        and old.turn == state.turn
        and game.turn_deadline is not None
    )
    if same_turn:
        return {"to_move_id": to_move_id}
    seconds = game.season.turn_seconds if game.season_id else game.turn_seconds
    return {
        "to_move_id": to_move_id,
        "turn_started_at": now,
        "turn_deadline": now + timedelta(seconds=seconds),
    }


# --- Tables ---------------------------------------------------------------------------


@transaction.atomic
def open_table(league, user, max_seats=4) -> Game:
    """A league member opens a table with the active season's settings."""
    from leagues.access import membership_for

    if membership_for(user, league) is None:
        raise NotAllowed(_("Only members of this league can open a table."))
    try:
        max_seats = int(max_seats)
    except (TypeError, ValueError):
        max_seats = 0
    if not MIN_SEATS <= max_seats <= MAX_SEATS:
        raise ActionRefused(_("A table has 2 to 5 seats."), code="bad_seats")
    season = league.active_season()
    game = Game.objects.create(
        league=league,
        host=user,
        max_seats=max_seats,
        target_score=season.target_score if season else 150,
        knock_limit=season.knock_limit if season else 5,
        turn_seconds=season.turn_seconds if season else 24 * 3600,
    )
    Seat.objects.create(game=game, user=user)
    transaction.on_commit(lambda: _after_commit(game.pk, game.version))
    return game


def _bump(game: Game):
    """Seats changed before the start: bump the version so open pages refresh."""
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    game.version += 1
    transaction.on_commit(lambda: _after_commit(game.pk, game.version))


@transaction.atomic
def take_seat(game_id, user, expected_version=None) -> Result:
    from leagues.access import membership_for

    game = _locked_game(game_id)
    _check_version(game, expected_version)
    if membership_for(user, game.league) is None:
        raise NotAllowed(_("Only members of this league can sit at its tables."))
    if game.status != Game.Status.OPEN:
        raise ActionRefused(_("This game has already started."), code="started")
    seats = list(game.seats.all())
    if any(s.user_id == user.pk for s in seats):
        raise ActionRefused(_("You already have a seat at this table."), code="seated")
    if len(seats) >= game.max_seats:
        raise ActionRefused(_("This table is full."), code="full")
    Seat.objects.create(game=game, user=user)
    _bump(game)
    if len(seats) + 1 == game.max_seats:
        # A full table starts by itself.
        return _start(game)
    return Result(game, game.version)


@transaction.atomic
def leave_seat(game_id, user, expected_version=None) -> Result:
    game = _locked_game(game_id)
    _check_version(game, expected_version)
    if game.status != Game.Status.OPEN:
        raise ActionRefused(_("You can only leave a table before the game starts."),
                            code="started")
    seat = seat_of(game, user)
    if seat is None:
        raise ActionRefused(_("You do not have a seat at this table."), code="not_seated")
    seat.delete()
    if not game.seats.exists():
        # The last one out closes the table.
        game.delete()
        return Result(game, game.version)
    if game.host_id == user.pk:
        game.host = game.seats.first().user
        game.save(update_fields=["host"])
    _bump(game)
    return Result(game, game.version)


@transaction.atomic
def start_game(game_id, user, expected_version=None) -> Result:
    game = _locked_game(game_id)
    _check_version(game, expected_version)
    if game.status != Game.Status.OPEN:
        raise ActionRefused(_("This game has already started."), code="started")
    if game.host_id != user.pk:
        raise NotAllowed(_("Only the host can start the game."))
    if game.seats.count() < MIN_SEATS:
        raise ActionRefused(_("At least two players must be seated to start."),
                            code="too_few")
    return _start(game)


def _start(game: Game) -> Result:
    seats = list(game.seats.all())
    # Seat order is the order players sat down; the first dealer is random (R2.1).
    for number, seat in enumerate(seats):
        seat.number = number
    Seat.objects.bulk_update(seats, ["number"])
    game._prefetched_objects_cache = {}
    season = game.league.active_season()
    if season:
        game.season = season
        game.target_score = season.target_score
        game.knock_limit = season.knock_limit
    state = engine.new_game(len(seats), _system_random, settings=game.engine_settings())
    game.status = Game.Status.ACTIVE
    now = timezone.now()
    return _save(
        game,
        state,
        [(Move.Kind.START, None, game.host, {"state": state.to_dict()})],
        status=Game.Status.ACTIVE,
        started_at=now,
        season=season,
        target_score=game.target_score,
        knock_limit=game.knock_limit,
    )


# --- Turns ----------------------------------------------------------------------------

ACTION_KINDS = {
    "draw": Move.Kind.DRAW,
    "meld": Move.Kind.MELD,
    "knock": Move.Kind.KNOCK,
    "pass": Move.Kind.PASS,
}


def _acting_seat(game: Game, user) -> Seat:
    if game.status != Game.Status.ACTIVE:
        raise ActionRefused(_("This game is not in progress."), code="not_active")
    seat = seat_of(game, user)
    if seat is None:
        raise NotAllowed(_("Only the players at this table can act."))
    return seat


def _apply_engine(game: Game, seat_number, action):
    try:
        return engine.apply_action(game.engine_state(), seat_number, action)
    except engine.RuleError as error:
        if error.code == "not_your_turn":
            raise NotAllowed(rule_error_message(error)) from None
        raise RuleRefused(error) from None


@transaction.atomic
def act(game_id, user, expected_version, action: dict) -> Result:
    """Draw, meld, knock or pass for the user's seat (R3, R5, R6, R8)."""
    if not isinstance(action, dict) or action.get("do") not in ACTION_KINDS:
        raise ActionRefused(_("Unknown action."), code="bad_action")
    game = _locked_game(game_id, with_seats=True)
    seat = _acting_seat(game, user)
    _check_version(game, expected_version, required=True)
    new_state = _apply_engine(game, seat.number, action)
    moves = [(ACTION_KINDS[action["do"]], seat.number, user, _loggable(action))]
    if seat.timeouts_in_row:
        # Acting in person clears the absence mark.
        Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=0)
        seat.timeouts_in_row = 0
    return _finish_action(game, new_state, moves)


def draw(game_id, user, expected_version):
    return act(game_id, user, expected_version, {"do": "draw"})


def meld(game_id, user, expected_version, table, knock=False):
    return act(game_id, user, expected_version, {"do": "meld", "table": table, "knock": knock})


def knock(game_id, user, expected_version):
    return act(game_id, user, expected_version, {"do": "knock"})


def pass_turn(game_id, user, expected_version):
    return act(game_id, user, expected_version, {"do": "pass"})


def _loggable(action):
    logged = {"do": action["do"]}
    if action["do"] == "meld":
        # The engine accepted the meld, so each item is a notation string or a list of
        # cards/notation strings; str() of either is notation.
        logged["table"] = [
            m if isinstance(m, str) else " ".join(str(card) for card in m)
            for m in action["table"]
        ]
        logged["knock"] = bool(action.get("knock"))
    return logged


@transaction.atomic
def timeout(game_id, expected_version) -> Result:
    """The turn clock plays an expired turn (async issue): draws until the turn ends
    (R3.4), or passes when the stock is empty (R8). Version-checked like every action,
    so two clock processes can never play one timeout twice."""
    game = _locked_game(game_id, with_seats=True)
    _check_version(game, expected_version, required=True)
    if game.status != Game.Status.ACTIVE:
        raise ActionRefused(_("This game is not in progress."), code="not_active")
    if game.turn_deadline is None or game.turn_deadline > timezone.now():
        raise ActionRefused(_("The deadline has not passed."), code="not_due")
    state = game.engine_state()
    seat = next(s for s in game.seats.all() if s.number == state.turn)
    new_state = engine.play_timeout(state, state.turn)
    Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=seat.timeouts_in_row + 1)
    seat.timeouts_in_row += 1
    moves = [(Move.Kind.TIMEOUT, state.turn, None, {"do": "timeout"})]
    return _finish_action(game, new_state, moves)


@transaction.atomic
def end_early(game_id, user, expected_version=None) -> Result:
    """A league admin ends a game in which a player is absent; the engine scores it as
    it stands (``engine.end_early``)."""
    from leagues.access import require_league_admin

    game = _locked_game(game_id, with_seats=True)
    try:
        require_league_admin(user, game.league)
    except PermissionDenied as denied:
        raise NotAllowed(str(denied)) from None
    _check_version(game, expected_version)
    if game.status != Game.Status.ACTIVE:
        raise ActionRefused(_("This game is not in progress."), code="not_active")
    if not any(s.is_absent for s in game.seats.all()):
        raise ActionRefused(
            _("A game can only be ended early when a player is marked absent."),
            code="nobody_absent",
        )
    new_state = engine.end_early(game.engine_state())
    moves = [(Move.Kind.END_EARLY, None, user, {"do": "end_early"})]
    return _finish_action(game, new_state, moves)


@transaction.atomic
def void_game(game_id, user) -> Result:
    """A league admin voids an open or running game (when its season closes): it ends
    now, counts for nothing, and its state stays as it was (``rummy.replay`` knows).
    Permission is the caller's (``leagues.seasons``)."""
    game = _locked_game(game_id)
    if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
        raise ActionRefused(_("Only a game that has not ended can be voided."),
                            code="not_active")
    return _save(
        game,
        game.engine_state(),
        [(Move.Kind.VOID, None, user, {})],
        status=Game.Status.VOIDED,
        finished_at=timezone.now(),
        # The same names as the derived turn fields, so that these win over them.
        to_move_id=None,
        turn_deadline=None,
    )


def _finish_action(game: Game, new_state, moves, **fields):
    """Record a finished round, finish the game or deal the next round by itself."""
    if new_state.round_over:
        _record_round(game, new_state)
        if new_state.game_over:
            fields.update(status=Game.Status.FINISHED, finished_at=timezone.now())
        else:
            new_state = engine.deal_next_round(new_state, _system_random)
            moves.append((Move.Kind.DEAL, None, None, {"state": new_state.to_dict()}))
    result = _save(game, new_state, moves, **fields)
    if new_state.game_over:
        _record_results(result.game, new_state)
    return result


def _record_round(game: Game, state):
    last = state.last_round
    if not last or last.get("reason") == "ended_early":
        return
    Round.objects.create(
        game=game,
        number=state.round_no,
        reason=last["reason"],
        knocker=last.get("knocker"),
        points=last["points"],
        winners=last["winners"],
        hands=last["hands"],
    )


def _record_results(game: Game, state):
    winners = set(state.game_winners or [])
    seats = list(game.seats.all())
    for seat in seats:
        seat.final_score = state.final_scores[seat.number]
        seat.rounds_won = state.rounds_won[seat.number]
        seat.is_winner = seat.number in winners
    Seat.objects.bulk_update(seats, ["final_score", "rounds_won", "is_winner"])
    from leagues import standings

    transaction.on_commit(lambda: standings.game_finished(game))

