"""Rebuild a game's state from its move log: the proof that the log is complete.

Random events (the start of the game, each new deal) are logged with the dealt state,
since the shuffle comes from a CSPRNG and cannot be repeated; every other move is a
pure engine action applied to the state before it.
"""

from rummy import engine
from rummy.models import Move


class ReplayMismatch(Exception):
    pass


def replay(game, up_to=None):
    """The state the move log of ``game`` leads to (None for a game never started);
    with ``up_to``, the state at that version."""
    state = None
    expected_seq = None
    moves = game.moves.order_by("seq")
    if up_to is not None:
        moves = moves.filter(seq__lte=up_to)
    for move in moves:
        if expected_seq is not None and move.seq != expected_seq:
            raise ReplayMismatch(f"game {game.pk}: move {expected_seq} is missing")
        expected_seq = move.seq + 1
        state = apply_move(state, move)
    return state


def apply_move(state, move):
    """The state after one logged ``move`` (a ``Move``, or anything with its ``kind``,
    ``seat`` and ``payload``) from ``state``: the one reading of the log, shared by this
    module and the read-only history (``rummy.history``), which steps through it."""
    if move.kind in (Move.Kind.START, Move.Kind.DEAL):
        return engine.GameState.from_dict(move.payload["state"])
    if move.kind == Move.Kind.TIMEOUT:
        return engine.play_timeout(state, move.seat)
    if move.kind == Move.Kind.END_EARLY:
        return engine.end_early(state)
    if move.kind == Move.Kind.CLOCK:
        return state  # the clock moved a deadline or marked a vacation: no state change
    if move.kind == Move.Kind.HINT:
        return state  # a hint only loads the player's draft: the game is as it was
    if move.kind == Move.Kind.VOID:
        return state  # voided by a league admin: the state stays as it was, counting for nothing
    return engine.apply_action(state, move.seat, move.payload)


def check(game):
    """Raise ReplayMismatch unless the stored state equals the replay of the log."""
    state = replay(game)
    stored = game.engine_state()
    if (state.to_dict() if state else None) != (stored.to_dict() if stored else None):
        raise ReplayMismatch(f"game {game.pk}: stored state differs from its move log")
    return state
