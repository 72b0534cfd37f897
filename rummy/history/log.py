"""Reading the move log: every logged move with the state before and after it, and the
same for many games at once in bounded memory (a chunk of games at a time, their moves
streamed), for the downloads and ``verify_games``."""

from dataclasses import dataclass
from itertools import groupby
from typing import Any, NamedTuple

from rummy import engine
from rummy.models import Game, Move
from rummy.play.replay import ReplayMismatch, apply_move

ACTION_KINDS = (Move.Kind.DRAW, Move.Kind.MELD, Move.Kind.KNOCK, Move.Kind.PASS)
TURN_KINDS = (*ACTION_KINDS, Move.Kind.TIMEOUT)
DEAL_KINDS = (Move.Kind.START, Move.Kind.DEAL)
MOVE_FIELDS = ("game_id", "seq", "kind", "seat", "user_id", "payload", "bot_level")


class LoggedMove(NamedTuple):
    """A row of the move log as read here: a plain tuple (reading thousands of them as
    model instances would cost a third of the time of replaying them)."""

    game_id: int
    seq: int
    kind: str
    seat: int | None
    user_id: int | None
    payload: Any
    # the level of the bot that made the move ("played by a bot"); "" for people
    bot_level: str = ""


def read_moves(moves):
    """The queryset ``moves`` as ``LoggedMove`` tuples, streamed."""
    return (LoggedMove(*row) for row in moves.values_list(*MOVE_FIELDS).iterator(chunk_size=2000))


@dataclass(frozen=True)
class Step:
    """One logged move and the engine states around it (``before`` is None for the
    start of the game)."""

    move: LoggedMove
    before: engine.GameState | None
    after: engine.GameState | None

    @property
    def ends_round(self):
        """Whether this player's move (or timeout) ended a round: deals never do."""
        return (
            self.move.kind in TURN_KINDS
            and self.after is not None
            and self.after.round_over
            and not (self.before is not None and self.before.round_over)
        )


def steps(moves, state=None, first_seq=None):
    """Replay ``moves`` (in seq order) from ``state``, yielding a ``Step`` for each.
    Raises ``ReplayMismatch`` for a gap in the log or a move the engine refuses."""
    expected = first_seq
    for move in moves:
        if expected is not None and move.seq != expected:
            raise ReplayMismatch(f"move {expected} is missing")
        expected = move.seq + 1
        try:
            after = apply_move(state, move)
        except (engine.RuleError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise ReplayMismatch(
                f"move {move.seq} ({move.kind}) does not replay: {error}"
            ) from None
        yield Step(move, state, after)
        state = after


def game_steps(game):
    """Every step of ``game``'s log, streamed from the database (seating before the
    start bumps the version without a move, so the log starts where the start was)."""
    return steps(read_moves(game.moves.order_by("seq")))


def games_with_moves(games, chunk=200):
    """(game, its moves in seq order) for every game of the queryset ``games``, in
    primary-key order, holding one chunk of games at a time: a keyset page of games,
    then their moves in one streamed query. The moves of a game must be consumed
    before the next game is taken."""
    last = 0
    while True:
        batch = list(games.filter(pk__gt=last).order_by("pk")[:chunk])
        if not batch:
            return
        last = batch[-1].pk
        moves = read_moves(
            Move.objects.filter(game_id__in=[g.pk for g in batch]).order_by("game_id", "seq")
        )
        groups = groupby(moves, key=lambda m: m.game_id)
        pending = next(groups, None)
        for game in batch:
            if pending is not None and pending[0] == game.pk:
                yield game, pending[1]
                pending = next(groups, None)
            else:
                yield game, iter(())


def finished(games):
    return games.filter(status=Game.Status.FINISHED)
