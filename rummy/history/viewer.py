"""One step of a game's replay, as the viewer may see it (DESIGN "Hidden information").

Who sees what is decided here, on the server, from the game's status and the viewer's
seat:

- while the game runs, a seated player sees each step as their seat saw it then: the
  table, their own hand, the others' hand sizes, the stock's size (``engine.seat_view``);
- a spectator (a viewer with no seat) sees the view of no seat;
- a round's revealed hands (R7) are shown at the step that ended it, to everyone;
- once the game is over (finished or voided) every hand is shown at every step.

A step is a move of the log (``at`` is its ``seq``, the version it made). Reading one
costs a fixed number of queries however long the game: the deals (one row per round)
and the moves of the step's round up to the step.
"""

from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext as _

from rummy import engine
from rummy.history.log import DEAL_KINDS, read_moves, steps
from rummy.history.words import describe
from rummy.models import Game
from rummy.table.presenters import last_round_rows
from rummy.templatetags.cards import card_info


class Mode(StrEnum):
    ALL = "all"  # the game is over: every hand
    SEAT = "seat"  # a seated player of a running game: their own hand
    PUBLIC = "public"  # a spectator of a running game: no hand


def mode_for(game, seat_number):
    if game.status in (Game.Status.FINISHED, Game.Status.VOIDED):
        return Mode.ALL
    return Mode.SEAT if seat_number is not None else Mode.PUBLIC


@dataclass(frozen=True)
class Deal:
    seq: int
    round_no: int
    dealer: int


class NoSuchStep(Exception):
    """A step or round the game does not have; the message says which it has."""

    def __init__(self, message, status=404):
        super().__init__(message)
        self.message = message
        self.status = status


def deals_of(game):
    """Every deal of the game (one query, one row per round): where each round starts."""
    rows = (
        game.moves.filter(kind__in=DEAL_KINDS)
        .order_by("seq")
        .values_list("seq", "payload__state__round_no", "payload__state__dealer")
    )
    return [Deal(seq, round_no, dealer) for seq, round_no, dealer in rows]


def parse_position(deals, last, at=None, round_no=None):
    """The step to show: ``at`` (a move's seq), else the first move of round
    ``round_no``, else the first step. Raw query values in, ``NoSuchStep`` out."""
    first = deals[0].seq
    if round_no not in (None, ""):
        try:
            wanted = int(str(round_no).strip())
        except ValueError:
            raise NoSuchStep(
                _("“%(value)s” is not a round number.") % {"value": round_no}, 400
            ) from None
        for deal in deals:
            if deal.round_no == wanted:
                return deal.seq
        raise NoSuchStep(
            _("This game has no round %(round)d; it has rounds %(first)d to %(last)d.")
            % {"round": wanted, "first": deals[0].round_no, "last": deals[-1].round_no}
        )
    if at in (None, ""):
        return first
    try:
        seq = int(str(at).strip())
    except ValueError:
        raise NoSuchStep(_("“%(value)s” is not a step number.") % {"value": at}, 400) from None
    if not first <= seq <= last:
        raise NoSuchStep(
            _("This game has no step %(step)d; its steps are %(first)d to %(last)d.")
            % {"step": seq, "first": first, "last": last}
        )
    return seq


def replay_step(game, seat_number, deals, seq):
    """Everything the replay shows at step ``seq`` for a viewer at ``seat_number``
    (None: no seat). ``deals`` from ``deals_of``; reads the round's moves (one query)."""
    mode = mode_for(game, seat_number)
    start = max((d for d in deals if d.seq <= seq), key=lambda d: d.seq)
    moves = read_moves(game.moves.filter(seq__gte=start.seq, seq__lte=seq).order_by("seq"))
    round_steps = list(steps(moves))
    current = round_steps[-1]
    state = current.after
    seats = {s.number: s.user for s in game.seated() if s.number is not None}
    names = {n: user.name for n, user in seats.items()}
    bot_seats = frozenset(n for n, user in seats.items() if user.is_bot)

    def shows_hand(seat):
        return mode == Mode.ALL or (mode == Mode.SEAT and seat == seat_number)

    view = engine.seat_view(state, seat_number if mode == Mode.SEAT else None)
    players = []
    for n in range(state.n_players):
        players.append(
            {
                "number": n,
                "name": names.get(n, "?"),
                "hand_size": view.hand_sizes[n],
                "score": view.scores[n],
                "is_dealer": n == view.dealer,
                "is_turn": n == view.turn and not view.round_over,
                "is_me": n == seat_number,
                # Only a hand the viewer may see at this step: their own (as their seat's
                # view has it), or every hand once the game is over.
                "cards": (
                    [card_info(c) for c in view.hand]
                    if mode == Mode.SEAT and n == seat_number
                    else [card_info(str(c)) for c in state.hands[n]]
                    if mode == Mode.ALL
                    else None
                ),
                "own": mode == Mode.SEAT and n == seat_number,
            }
        )
    first, last = deals[0].seq, game.version
    return {
        "mode": str(mode),
        "seq": seq,
        "round_no": view.round_no,
        "step_number": seq - first + 1,
        "step_count": last - first + 1,
        "first": first,
        "last": last,
        "previous": seq - 1 if seq > first else None,
        "next": seq + 1 if seq < last else None,
        "rounds": [{"number": d.round_no, "seq": d.seq} for d in deals],
        "players": players,
        "melds": [[card_info(c) for c in meld.split()] for meld in view.table],
        "stock_size": view.stock_size,
        "words": describe(current, names, shows_hand, bot_seats),
        "moves": [
            {
                "seq": s.move.seq,
                "words": describe(s, names, shows_hand, bot_seats),
                "current": s is current,
            }
            for s in round_steps
        ],
        "result": _result(view, names) if view.round_over and current.ends_round else None,
        "final": _final(view, names) if view.game_over else None,
    }


def _result(view, names):
    """The round that this step ended: its revealed hands are public now (R7)."""
    return {"rows": last_round_rows(view.last_round, names)}


def _final(view, names):
    return [
        {
            "name": names.get(n, "?"),
            "final": score,
            "winner": n in (view.game_winners or ()),
        }
        for n, score in enumerate(view.final_scores or ())
    ]
