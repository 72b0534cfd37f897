"""Missed plays: after a game ends, every turn position of every player is
solved once, by the background pass, never on a page request.

A turn position is the moment a player chose, with a meld allowed (R3.2, R8): they
melded, or declined (drew again, knocked or passed). It is solved from that seat's view
(``engine.seat_view`` -> ``solver.position_from_view``) and stored as a ``TurnReview``:
the count the player's choice left (R7.1) against the best meld's. The record page reads
those rows (``rummy.history.missed``).

The work stays as data: a finished game without a ``GameReview`` still needs one, and
its turns already stored are not solved again, so a pass that runs out of its time
budget (or a clock that is killed) leaves the rest for the next pass.
"""

import logging
import time

from django.db import IntegrityError, transaction

from rummy import engine
from rummy.history.log import game_steps
from rummy.models import Game, GameReview, Move, TurnReview
from rummy.play.replay import ReplayMismatch
from rummy.solver import TIME_LIMIT, SolverError, position_from_view, solve

log = logging.getLogger(__name__)

# The moves a player chooses themselves (a timeout is the clock's, not a choice).
CHOICES = (Move.Kind.MELD, Move.Kind.DRAW, Move.Kind.KNOCK, Move.Kind.PASS)
# Seconds of solving per background pass, so that the clock's timeouts and emails are
# never held up for long; the rest waits for the next pass.
BUDGET = 5.0
# Games looked at per pass at most (most take well under a second each).
PER_PASS = 50


def positions(game):
    """(step, view) for every turn position of ``game``'s log: the move chosen and the
    chooser's view of the state before it."""
    for step in game_steps(game):
        move, before = step.move, step.before
        if move.kind not in CHOICES or move.seat is None or before is None:
            continue
        if before.turn != move.seat or before.round_over:
            continue
        if engine.Action.MELD not in engine.legal_actions(before, move.seat):
            continue  # the turn's first draw: no meld was possible yet (R3.1)
        yield step, engine.seat_view(before, move.seat)


def _row(game, step, view, solution):
    move = step.move
    chosen = step.after.hands[move.seat] if move.kind == Move.Kind.MELD else view.hand
    cards = engine.parse_cards(" ".join(str(c) for c in chosen))
    return TurnReview(
        game=game,
        seq=move.seq,
        seat=move.seat,
        round_no=view.round_no,
        kind=move.kind,
        hand=list(view.hand),
        table=list(view.table),
        count_left=engine.hand_points(cards),
        best_count=solution.count,
        best_table=[engine.format_cards(m) for m in solution.table] if solution.found else None,
        best_played=[str(c) for c in solution.played],
        proven=solution.proven,
    )


def review_game(game, stop, clock=time.perf_counter) -> bool:
    """Solve ``game``'s turn positions not yet stored until ``stop`` (a ``clock``
    instant). True when every position is stored (and the game marked reviewed)."""
    done = set(game.turn_reviews.values_list("seq", flat=True))
    for step, view in positions(game):
        if step.move.seq in done:
            continue
        left = stop - clock()
        if left <= 0:
            return False
        limit = min(TIME_LIMIT, left)
        solution = solve(position_from_view(view), view.settings, time_limit=limit)
        if not solution.proven and limit < TIME_LIMIT:
            return False  # cut short by this pass's budget, not the solver's limit: redo
        # Another clock process may have stored the same turn: the first one stays.
        TurnReview.objects.bulk_create([_row(game, step, view, solution)], ignore_conflicts=True)
    _mark(game, failed=False)
    return True


def _mark(game, failed):
    try:
        with transaction.atomic():
            GameReview.objects.get_or_create(game=game, defaults={"failed": failed})
    except IntegrityError:
        pass  # marked by another clock process at the same moment


def pending():
    """Finished games with no review yet, oldest first."""
    return Game.objects.filter(status=Game.Status.FINISHED, review__isnull=True).order_by(
        "finished_at", "pk"
    )


def review_pass(budget=BUDGET, clock=time.perf_counter) -> int:
    """Review finished games for at most ``budget`` seconds of ``clock``; returns how
    many games were completed. A game whose log does not replay (or holds an
    impossible position) is marked failed and logged, not retried every pass."""
    stop = clock() + budget
    completed = 0
    # A short list read up front, not a cursor held open while the reviews are written
    # (SQLite does not isolate the two on one connection).
    for game in list(pending()[:PER_PASS]):
        if clock() >= stop:
            break
        try:
            finished = review_game(game, stop, clock)
        except (ReplayMismatch, SolverError):
            log.exception("game %s could not be reviewed", game.pk)
            _mark(game, failed=True)
            continue
        if not finished:
            break
        completed += 1
    return completed
