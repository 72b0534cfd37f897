"""A hint: the solver's best meld for the player to move, laid out in their
draft so that one tap on "Play" plays it, or the news that no meld exists.

A hint is an action like any other: refused for a game that is not yours, a turn that
is not yours, a stale version, or a season that does not allow hints; and it is logged
(``Move.Kind.HINT``, bumping the version), so the game's record says that a hint was
used and two identical requests at once record one hint (the second is stale).

The solver runs inside the player's request, so what a hint may cost is bounded:

- **A position is solved at most once.** The logged hint keeps what it said and a
  digest of the seat's view it was solved for; asked again for the same view (until
  the player draws again or the turn ends), the kept hint is laid out again, without
  solving, without a new version and without a broadcast. While one
  request solves a position, it holds a claim on it (in Django's cache, shared by every
  worker), so that requests sent at once at one version solve it once: the others are
  told so, or that the game has moved on.
- **At most ``HINTS_PER_TURN`` hints a turn** are given (the kept one counts again; a
  turn has a position to meld from after each of its first two draws, R3).
- **Solver time per user** (``rummy.play.solver_time``): a hint reserves its solve's
  limit before solving, over all of the user's games.

Every check that can refuse comes before the solve, so a refused request spends no
solver time.

Hidden information: the solver is given the position of the seat's own view
(``engine.seat_view`` -> ``solver.position_from_view``), never the game state, so it
cannot read another hand or the stock.
"""

import hashlib
import json
import logging
from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rummy import engine
from rummy.models import Game, Move
from rummy.play import drafts, solver_time, store, turns
from rummy.play.errors import ActionRefused, NotAllowed, Result, StaleVersion
from rummy.play.wording import rule_error_message
from rummy.solver import Solution, position_from_view, solve

logger = logging.getLogger(__name__)

# A hint is solved inside the player's request: well under a second, and
# under the solver's own limit, so that the page answers promptly even when the search
# is cut short (then the best arrangement found so far is offered, not proven).
HINT_SECONDS = 0.5
#: of which the exact tie-break (the fewest table cards moved, ``solve``'s ``tie_break``)
#: may take this much: a hint is laid out moving as few of the player's table cards as
#: it can find, proven the fewest where the search finishes
HINT_TIE_BREAK = 0.25
#: hints one seat is given in one turn: the first is solved, the others lay the same
#: hint out again (a player who changed the draft may want it back)
HINTS_PER_TURN = 3
# How long a claim to solve one position holds: longer than any solve; only a request
# that died while solving leaves one behind, and then the position may be solved again
# after this.
CLAIM_SECONDS = 30
# How long the count of a turn's hints is kept: a day; a turn that lasts longer may be
# given that many hints again (laid out again, not solved: the position is kept).
TURN_COUNT_SECONDS = 24 * 3600


class Advice(str):
    """A message that informs rather than refuses: the page shows it in the message area
    like a refusal, but not styled as an error."""

    is_info = True


class HintLimit(ActionRefused):
    """A hint refused by one of its limits (a turn's hints, the solver time per user):
    429, with the message that says which."""

    status = 429


class HintPending(StaleVersion):
    """Another request is solving this position now."""


@dataclass(frozen=True)
class Hint:
    """What a hint said: kept in its logged move, so that the same view is answered
    again without solving. Cards in notation."""

    found: bool
    count: int
    proven: bool
    goes_out: bool
    table: tuple[tuple[str, ...], ...]
    hand_left: tuple[str, ...]

    @classmethod
    def of(cls, solution: Solution) -> "Hint":
        return cls(
            found=solution.found,
            count=solution.count,
            proven=solution.proven,
            goes_out=solution.goes_out,
            table=tuple(tuple(str(c) for c in meld) for meld in solution.table),
            hand_left=tuple(str(c) for c in solution.hand_left),
        )

    @classmethod
    def kept_in(cls, payload) -> "Hint":
        return cls(
            found=bool(payload["found"]),
            count=int(payload["count"]),
            proven=bool(payload["proven"]),
            goes_out=bool(payload["goes_out"]),
            table=tuple(tuple(meld) for meld in payload["table"]),
            hand_left=tuple(payload["hand_left"]),
        )

    def payload(self, view: str) -> dict:
        """The logged move's payload: what the record reads (``found``, ``count``,
        ``proven``), and what a second request for ``view`` is answered with."""
        return {
            "do": "hint",
            "found": self.found,
            "count": self.count,
            "proven": self.proven,
            "view": view,
            "goes_out": self.goes_out,
            "table": [list(meld) for meld in self.table],
            "hand_left": list(self.hand_left),
        }


@dataclass(frozen=True)
class HintResult(Result):
    """The hint as logged, and what the page says about it. ``kept``: the hint of this
    position was given already and is laid out again (no new version)."""

    hint: Hint | None = None
    message: str = ""
    kept: bool = False


def hints_allowed(game: Game) -> bool:
    """Whether a player of ``game`` may ask for a hint: the season's house setting (off
    by default; a league game outside any season has none). A practice game (no
    league) always allows them."""
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


def view_digest(state, seat_number) -> str:
    """A digest of what the seat sees: the position a hint is solved for."""
    view = engine.seat_view(state, seat_number).to_dict()
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _turn_key(game: Game, seat, view: str) -> str:
    """The cache key of the count of hints given to ``seat`` this turn: the turn is
    when it started (the view, where the game has no such time)."""
    turn = game.turn_started_at.timestamp() if game.turn_started_at else view
    return f"hints-given:{game.pk}:{seat.number}:{turn}"


def _too_many() -> HintLimit:
    return HintLimit(
        ngettext(
            "You have had %(count)d hint this turn, the most a turn allows.",
            "You have had %(count)d hints this turn, the most a turn allows.",
            HINTS_PER_TURN,
        )
        % {"count": HINTS_PER_TURN},
        code="hint_limit",
    )


def _count_given(key: str) -> None:
    """Count one more hint given this turn; refused when the turn has had its hints."""
    cache.add(key, 0, timeout=TURN_COUNT_SECONDS)
    try:
        given = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, timeout=TURN_COUNT_SECONDS)
        given = 1
    if given > HINTS_PER_TURN:
        raise _too_many()


def _kept(game: Game, seat, view: str) -> Hint | None:
    """The hint this seat was given for this very view, if any (its latest one)."""
    payload = (
        Move.objects.filter(game_id=game.pk, kind=Move.Kind.HINT, seat=seat.number)
        .order_by("-seq")
        .values_list("payload", flat=True)
        .first()
    )
    if not payload or payload.get("view") != view:
        return None
    return Hint.kept_in(payload)


def hint(game_id, user, expected_version) -> HintResult:
    """The seat's hint: the kept one if this position was solved already, else solve
    it (bounded by ``HINT_SECONDS``, at most once however many ask at once), then log
    the hint and load its meld into the draft, if the game is still at the version
    solved. Every refusal comes before the solve."""
    game = _game(game_id)
    seat, state = _checked(game, user, expected_version)
    view = view_digest(state, seat.number)
    turn_key = _turn_key(game, seat, view)
    if (cache.get(turn_key) or 0) >= HINTS_PER_TURN:
        raise _too_many()
    kept = _kept(game, seat, view)
    if kept is not None:
        return _lay_out_kept(game_id, user, game.version, view, turn_key, kept)
    claim = f"hint-solving:{game.pk}:{seat.number}:{game.version}"
    if not cache.add(claim, 1, timeout=CLAIM_SECONDS):
        raise _taken(game_id, game.version)
    try:
        # Claimed: the game must still be at the version checked (a hint recorded
        # between the check above and the claim has moved it on).
        if Game.objects.filter(pk=game_id).values_list("version", flat=True).first() != (
            game.version
        ):
            raise StaleVersion()
        reservation = solver_time.reserve(user.pk, HINT_SECONDS)
        if reservation is None:
            raise HintLimit(
                _(
                    "You have used the solver time hints may take in a minute. Try again "
                    "in a minute."
                ),
                code="solver_time",
            )
        try:
            solution = solve(
                position_from_view(engine.seat_view(state, seat.number)),
                state.settings,
                time_limit=HINT_SECONDS,
                tie_break=HINT_TIE_BREAK,
            )
        except BaseException:
            solver_time.release(reservation)
            raise
        spent = solver_time.settle(reservation)
        # What hints cost, for whoever runs the site (and the proof that a position
        # is solved once, over every worker: tests/stack).
        logger.info(
            "hint solved: game %s, seat %s, %d ms of CPU", game.pk, seat.number, spent * 1000
        )
        return _record(game_id, user, game.version, view, turn_key, Hint.of(solution))
    except BaseException:
        # Nothing was recorded: another request may solve this position.
        cache.delete(claim)
        raise


def _taken(game_id, version) -> ActionRefused:
    """The refusal of a request that found the position claimed: stale if the game has
    moved on meanwhile (the hint was recorded), else the solve is still under way."""
    if Game.objects.filter(pk=game_id).values_list("version", flat=True).first() != version:
        return StaleVersion()
    return HintPending(
        _(
            "A hint for this position is being worked out already: it is laid out as "
            "soon as it is ready."
        )
    )


@transaction.atomic
def _record(game_id, user, version, view, turn_key, given: Hint) -> HintResult:
    game = store.locked_game(game_id, with_seats=True)
    # Checked again under the lock: the position solved is the one at this version.
    seat, state = _checked(game, user, version)
    _count_given(turn_key)
    result = store.save(game, None, [(Move.Kind.HINT, seat.number, user, given.payload(view))])
    _load(result.game, seat, given)
    return HintResult(result.game, result.version, given, _words(state, seat, given))


@transaction.atomic
def _lay_out_kept(game_id, user, version, view, turn_key, kept: Hint) -> HintResult:
    """The hint given for this view before, laid out again: a draft edit, private to
    the player (no new version, no broadcast)."""
    game = store.locked_game(game_id, with_seats=True)
    seat, state = _checked(game, user, version)
    _count_given(turn_key)
    _load(game, seat, kept)
    return HintResult(game, game.version, kept, _words(state, seat, kept), kept=True)


def _load(game, seat, given: Hint) -> None:
    if given.found:
        drafts.load(game, seat.number, [list(m) for m in given.table], list(given.hand_left))


def _words(state, seat, solution) -> str:
    """What the hint says; ``solution``: a ``Hint`` or the solver's ``Solution``."""
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
    hand_left = [engine.Card.parse(str(c)) for c in solution.hand_left]
    if engine.can_knock_after(state, seat.number, hand_left):
        words += " " + _("You may knock with it (Play and knock).")
    if not solution.proven:
        words += " " + _("It is the best found in the time a hint may take.")
    return Advice(words)
