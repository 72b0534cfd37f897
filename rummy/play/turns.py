"""A turn at the table: draw, meld, knock, pass (R3, R5, R6, R8); the clock's timeout;
an admin's ending early and voiding; and what follows a round's end: its record, the
next deal, the game's results and the ``game_finished`` signal."""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.access import require_league_admin
from rummy import engine
from rummy.models import Game, Move, Round, Seat
from rummy.play import reclock, store
from rummy.play.errors import ActionRefused, NotAllowed, Result, RuleRefused
from rummy.play.wording import rule_error_message
from rummy.signals import game_finished

MOVE_KINDS = {
    engine.Action.DRAW: Move.Kind.DRAW,
    engine.Action.MELD: Move.Kind.MELD,
    engine.Action.KNOCK: Move.Kind.KNOCK,
    engine.Action.PASS: Move.Kind.PASS,
}


def acting_seat(game: Game, user) -> Seat:
    """The user's seat at a game in progress; refused for anyone else."""
    if game.status != Game.Status.ACTIVE:
        raise ActionRefused(_("This game is not in progress."), code="not_active")
    seat = store.seat_of(game, user)
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
    if not isinstance(action, dict) or action.get("do") not in MOVE_KINDS:
        raise ActionRefused(_("Unknown action."), code="bad_action")
    game = store.locked_game(game_id, with_seats=True)
    seat = acting_seat(game, user)
    store.check_version(game, expected_version, required=True)
    return act_locked(game, seat, user, action)


def act_locked(game: Game, seat: Seat, user, action: dict) -> Result:
    """``act`` on a game the caller already locked and checked (the draft's "Play")."""
    new_state = _apply_engine(game, seat.number, action)
    moves = [(MOVE_KINDS[action["do"]], seat.number, user, _loggable(action))]
    if seat.timeouts_in_row or seat.stand_in:
        # Acting in person clears the absence mark, and the bot standing in steps back.
        Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=0, stand_in=False)
        seat.timeouts_in_row, seat.stand_in = 0, False
    return _finish_action(game, new_state, moves)


@transaction.atomic
def bot_act(game_id, seat_number, expected_version, action: dict) -> Result:
    """A bot's action for the seat it plays (``rummy.clock.bots``): the same lock,
    version check, engine and log as a person's ``act``. The move records the bot's
    level ("played by a bot"); a bot standing in leaves the absence mark as it is."""
    if not isinstance(action, dict) or action.get("do") not in MOVE_KINDS:
        raise ActionRefused(_("Unknown action."), code="bad_action")
    game = store.locked_game(game_id, with_seats=True)
    store.check_version(game, expected_version, required=True)
    if game.status != Game.Status.ACTIVE:
        raise ActionRefused(_("This game is not in progress."), code="not_active")
    seat = next((s for s in game.seated() if s.number == seat_number), None)
    if seat is None or not seat.bot_plays:
        raise NotAllowed(_("No bot plays this seat."))
    new_state = _apply_engine(game, seat.number, action)
    payload = _loggable(action)
    moves = [(MOVE_KINDS[action["do"]], seat.number, seat.user, payload, seat.bot_plays)]
    return _finish_action(game, new_state, moves)


@transaction.atomic
def back_in_person(game_id, user, expected_version=None) -> Result:
    """ "I'm back": the absent player takes their seat back from the bot standing in
    (their next action would do the same). The game's state does not change, so no move
    is logged and the version stays (it numbers the moves); the player's own page
    redraws from the answer, the others' at the next move."""
    game = store.locked_game(game_id, with_seats=True)
    seat = acting_seat(game, user)
    store.check_version(game, expected_version)
    if not (seat.stand_in or seat.timeouts_in_row):
        raise ActionRefused(_("You are already playing this seat."), code="not_absent")
    Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=0, stand_in=False)
    seat.timeouts_in_row, seat.stand_in = 0, False
    state = game.engine_state()
    due = game.bot_due_at if state.turn != seat.number else None
    Game.objects.filter(pk=game.pk).update(bot_due_at=due)
    game.bot_due_at = due
    store.announce(game.pk, game.version)
    return Result(game, game.version)


def draw(game_id, user, expected_version):
    return act(game_id, user, expected_version, {"do": engine.Action.DRAW})


def meld(game_id, user, expected_version, table, knock=False):
    return act(
        game_id, user, expected_version, {"do": engine.Action.MELD, "table": table, "knock": knock}
    )


def knock(game_id, user, expected_version):
    return act(game_id, user, expected_version, {"do": engine.Action.KNOCK})


def pass_turn(game_id, user, expected_version):
    return act(game_id, user, expected_version, {"do": engine.Action.PASS})


def _loggable(action):
    logged: dict[str, object] = {"do": str(action["do"])}
    if action["do"] == engine.Action.MELD:
        # The engine accepted the meld, so each item is a notation string or a list of
        # cards/notation strings; str() of either is notation.
        logged["table"] = [
            m if isinstance(m, str) else " ".join(str(card) for card in m) for m in action["table"]
        ]
        logged["knock"] = bool(action.get("knock"))
    return logged


@transaction.atomic
def timeout(game_id, expected_version) -> Result | None:
    """The turn clock plays an expired turn: draws until the turn ends
    (R3.4), or passes when the stock is empty (R8). Version-checked like every action,
    so two clock processes can never play one timeout twice.

    None when the deadline, brought up to date first, has not passed after all: the
    mover's paused time grew since it was set (a vacation taken or begun), and
    the later deadline is stored instead. So no timeout is ever played against a
    player on vacation, whoever asks (the background pass or a page load)."""
    game = store.locked_game(game_id, with_seats=True)
    store.check_version(game, expected_version, required=True)
    if game.status != Game.Status.ACTIVE:
        raise ActionRefused(_("This game is not in progress."), code="not_active")
    now = timezone.now()
    if game.turn_deadline is None or game.turn_deadline > now:
        raise ActionRefused(_("The deadline has not passed."), code="not_due")
    moved = reclock.reclock_locked(game, now, only_if_paused=True)
    if moved is not None and game.turn_deadline > now:
        return None
    state = game.engine_state()
    seat = next(s for s in game.seated() if s.number == state.turn)
    new_state = engine.play_timeout(state, state.turn)
    seat.timeouts_in_row += 1
    if seat.is_absent and not seat.bot_level and _season_allows_stand_in(game):
        # Three timeouts in a row (the absence mark): a beginner bot plays the seat from
        # its next turn until the player is back (``store`` makes its turns due).
        seat.stand_in = True
    Seat.objects.filter(pk=seat.pk).update(
        timeouts_in_row=seat.timeouts_in_row, stand_in=seat.stand_in
    )
    moves = [(Move.Kind.TIMEOUT, state.turn, None, {"do": "timeout"})]
    return _finish_action(game, new_state, moves)


@transaction.atomic
def player_gone(game_id, user_id) -> Result | None:
    """The player at a seat of this game in progress deleted their account
    (``leagues.erasure``, through ``rummy.public``): the seat stays in the game under
    their neutral name, marked absent, and from now on a beginner bot plays it where the
    season lets a bot stand in for an absent player; elsewhere each of its turns is up
    at once (``pauses.turn_deadline``) and the clock times it out. Logged as a move of
    the clock (no change to the state), so that open pages redraw with the new name.
    None when the game is not in progress or the user has no seat of their own there."""
    game = store.locked_game(game_id, with_seats=True)
    if game.status != Game.Status.ACTIVE or game.state is None:
        return None
    seat = next((s for s in game.seated() if s.user_id == user_id), None)
    if seat is None or seat.bot_level:
        return None
    seat.timeouts_in_row = max(seat.timeouts_in_row, Seat.ABSENT_AFTER)
    seat.stand_in = _season_allows_stand_in(game)
    Seat.objects.filter(pk=seat.pk).update(
        timeouts_in_row=seat.timeouts_in_row, stand_in=seat.stand_in
    )
    fields = {}
    if game.engine_state().turn == seat.number:
        now = timezone.now()
        if seat.stand_in:
            fields["bot_due_at"] = store.bot_due(now)
        else:
            fields["turn_deadline"] = now
    payload = {"gone": seat.number}
    return store.save(game, None, [(Move.Kind.CLOCK, seat.number, None, payload)], **fields)


@transaction.atomic
def end_early(game_id, user, expected_version=None) -> Result:
    """A league admin ends a game in which a player is absent; the engine scores it as
    it stands (``engine.end_early``)."""
    game = store.locked_game(game_id, with_seats=True)
    try:
        require_league_admin(user, game.league)
    except PermissionDenied as denied:
        raise NotAllowed(str(denied)) from None
    store.check_version(game, expected_version)
    if game.status != Game.Status.ACTIVE:
        raise ActionRefused(_("This game is not in progress."), code="not_active")
    if not any(s.is_absent for s in game.seated()):
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
    now, counts for nothing, and its state stays as it was (``rummy.play.replay``
    knows). Permission is the caller's (``leagues.seasons``)."""
    game = store.locked_game(game_id)
    if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
        raise ActionRefused(_("Only a game that has not ended can be voided."), code="not_active")
    return store.save(
        game,
        game.engine_state(),
        [(Move.Kind.VOID, None, user, {})],
        status=Game.Status.VOIDED,
        finished_at=timezone.now(),
        # The same names as the derived turn fields, so that these win over them.
        to_move_id=None,
        turn_deadline=None,
        bot_due_at=None,
    )


def _season_allows_stand_in(game: Game) -> bool:
    return game.season is not None and game.season.bot_stands_in


def _finish_action(game: Game, new_state, moves, **fields):
    """Record a finished round, finish the game or deal the next round by itself."""
    if new_state.round_over:
        _record_round(game, new_state)
        if new_state.game_over:
            fields.update(status=Game.Status.FINISHED, finished_at=timezone.now())
        else:
            new_state = engine.deal_next_round(new_state, store.system_random)
            moves.append((Move.Kind.DEAL, None, None, {"state": new_state.to_dict()}))
    # A turn writes no draft: the broadcast says none belongs to the new version. It
    # carries the game too, unless the game ends (its seats' results are written next).
    result = store.save(
        game, new_state, moves, draft_free=True, ship=not new_state.game_over, **fields
    )
    if new_state.game_over:
        _record_results(result.game, new_state)
    return result


def _record_round(game: Game, state):
    last = state.last_round
    if not last or last.get("reason") == engine.RoundEnd.ENDED_EARLY:
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
    seats = list(game.seated())
    for seat in seats:
        seat.final_score = state.final_scores[seat.number]
        seat.rounds_won = state.rounds_won[seat.number]
        seat.is_winner = seat.number in winners
    Seat.objects.bulk_update(seats, ["final_score", "rounds_won", "is_winner"])
    # The leagues app updates its standings (connected in leagues/apps.py).
    transaction.on_commit(lambda: game_finished.send(sender=Game, game=game))
