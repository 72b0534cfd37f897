"""A hint (issue 14): the solver's best meld for the player to move, laid out in their
draft so that one tap on "Play" plays it, or the news that no meld exists.

A hint is an action like any other: refused for a game that is not yours, a turn that
is not yours, a stale version, or a season that does not allow hints; and it is logged
(``Move.Kind.HINT``, bumping the version), so the game's record says that a hint was
used and two identical requests at once record one hint (the second is stale).

Hidden information: the solver is given the position of the seat's own view
(``engine.seat_view`` -> ``solver.position_from_view``), never the game state, so it
cannot read another hand or the stock.
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rummy import engine
from rummy.models import Game, Move
from rummy.play import drafts, store, turns
from rummy.play.errors import ActionRefused, NotAllowed, Result
from rummy.play.wording import rule_error_message
from rummy.solver import Solution, position_from_view, solve

# A hint is solved inside the player's request: well under the one second, and
# under the solver's own limit, so that the page answers promptly even when the search
# is cut short (then the best arrangement found so far is offered, not proven).
HINT_SECONDS = 0.5
#: of which the exact tie-break (the fewest table cards moved, ``solve``'s ``tie_break``)
#: may take this much: a hint is laid out moving as few of the player's table cards as
#: it can find, proven the fewest where the search finishes
HINT_TIE_BREAK = 0.25


class Advice(str):
    """A message that informs rather than refuses: the page shows it in the message area
    like a refusal, but not styled as an error."""

    is_info = True


@dataclass(frozen=True)
class HintResult(Result):
    """The hint as logged, and what the page says about it."""

    solution: Solution | None = None
    message: str = ""


def hints_allowed(game: Game) -> bool:
    """Whether a player of ``game`` may ask for a hint: the season's house setting (off
    by default; a league game outside any season has none). A practice game (no
    league, issue 14) always allows them."""
    if game.league_id is None:
        return True
    season = game.season if game.season_id else None
    return bool(season is not None and season.hints_allowed)


def _game(game_id) -> Game:
    """The game with its season and seats, unlocked: the checks before the solve, so a
    refused request spends no solver time."""
    game = (
        Game.objects.select_related("league", "season")
        .prefetch_related("seats__user")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise ActionRefused(_("There is no such game."), code="no_game")
    return game


def _checked(game: Game, user, expected_version):
    """The seat asking, if it may have a hint now; the same guards as a meld (R3.2)."""
    seat = turns.acting_seat(game, user)
    store.check_version(game, expected_version, required=True)
    if not hints_allowed(game):
        raise NotAllowed(_("Hints are not allowed in this game."))
    state = game.engine_state()
    if state.turn != seat.number:
        raise NotAllowed(rule_error_message(engine.RuleError("not_your_turn")))
    if engine.Action.MELD not in engine.legal_actions(state, seat.number):
        raise ActionRefused(rule_error_message(engine.RuleError("must_draw")), code="must_draw")
    return seat, state


def hint(game_id, user, expected_version) -> HintResult:
    """Solve the seat's position (bounded by ``HINT_SECONDS``), then log the hint and
    load its meld into the draft, if the game is still at the version solved."""
    game = _game(game_id)
    seat, state = _checked(game, user, expected_version)
    view = engine.seat_view(state, seat.number)
    solution = solve(
        position_from_view(view),
        view.settings,
        time_limit=HINT_SECONDS,
        tie_break=HINT_TIE_BREAK,
    )
    return _record(game_id, user, game.version, solution)


@transaction.atomic
def _record(game_id, user, version, solution: Solution) -> HintResult:
    game = store.locked_game(game_id, with_seats=True)
    # Checked again under the lock: the position solved is the one at this version.
    seat, state = _checked(game, user, version)
    payload = {
        "do": "hint",
        "found": solution.found,
        "count": solution.count,
        "proven": solution.proven,
    }
    result = store.save(game, None, [(Move.Kind.HINT, seat.number, user, payload)])
    if solution.found:
        drafts.load(
            result.game,
            seat.number,
            [[str(c) for c in meld] for meld in solution.table],
            [str(c) for c in solution.hand_left],
        )
    return HintResult(result.game, result.version, solution, _words(state, seat, solution))


def _words(state, seat, solution: Solution) -> str:
    if not solution.found:
        if solution.proven:
            return Advice(_("Hint: no meld is possible with your hand and this table."))
        return Advice(_("Hint: no meld was found in the time a hint may take."))
    if solution.goes_out:
        return Advice(_("Hint: you can go out. The meld is laid out for you: tap Play."))
    words = ngettext(
        "Hint: the best meld leaves %(count)d point in your hand. It is laid out for you: "
        "tap Play.",
        "Hint: the best meld leaves %(count)d points in your hand. It is laid out for you: "
        "tap Play.",
        solution.count,
    ) % {"count": solution.count}
    if engine.can_knock_after(state, seat.number, list(solution.hand_left)):
        words += " " + _("You may knock with it (Play and knock).")
    if not solution.proven:
        words += " " + _("It is the best found in the time a hint may take.")
    return Advice(words)
