"""The per-seat view (DESIGN "Hidden information"): what one seat may see, nothing else.

Like boardgame.io's ``playerView``: computed at send time from the full state. The
stock's cards and other seats' hands never appear; ``last_round`` may, because a
finished round's hands are revealed for scoring (R7).

``seat_view`` returns a frozen ``SeatView``; ``SeatView.to_dict()`` is its JSON-ready
form (keys in ``VIEW_KEYS``, in that order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import legal_actions
from .cards import format_cards, hand_points
from .state import GameState, Settings, _copy_json
from .values import Action

VIEW_KEYS = (
    "seat",
    "hand",
    "hand_sizes",
    "hand_points",
    "table",
    "stock_size",
    "turn",
    "drawn",
    "final_turns",
    "scores",
    "rounds_won",
    "round_no",
    "dealer",
    "legal",
    "round_over",
    "last_round",
    "game_over",
    "final_scores",
    "game_winners",
    "settings",
)


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` (None: a spectator) may know of a game; fields in ``VIEW_KEYS`` order.

    Cards are in notation (``hand``: one token per card; ``table``: one string per meld).
    Sequences are tuples so that the view cannot be changed; ``last_round`` is a copy of
    the state's, so changing it does not reach the state either.
    """

    seat: int | None
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    hand_points: int | None
    table: tuple[str, ...]
    stock_size: int
    turn: int
    drawn: int
    final_turns: int | None
    scores: tuple[int, ...]
    rounds_won: tuple[int, ...]
    round_no: int
    dealer: int
    legal: tuple[Action, ...]
    round_over: bool
    last_round: Mapping[str, Any] | None
    game_over: bool
    final_scores: tuple[int, ...] | None
    game_winners: tuple[int, ...] | None
    settings: Settings

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready view: plain lists and dicts, a fresh copy on every call."""
        return {
            "seat": self.seat,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "hand_points": self.hand_points,
            "table": list(self.table),
            "stock_size": self.stock_size,
            "turn": self.turn,
            "drawn": self.drawn,
            "final_turns": self.final_turns,
            "scores": list(self.scores),
            "rounds_won": list(self.rounds_won),
            "round_no": self.round_no,
            "dealer": self.dealer,
            "legal": list(self.legal),
            "round_over": self.round_over,
            "last_round": _copy_json(self.last_round),
            "game_over": self.game_over,
            "final_scores": None if self.final_scores is None else list(self.final_scores),
            "game_winners": None if self.game_winners is None else list(self.game_winners),
            "settings": self.settings.to_dict(),
        }


def seat_view(state: GameState, seat: int | None) -> SeatView:
    """The view for ``seat`` (None: a spectator, who sees no hand)."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.n_players):
        raise ValueError(f"no seat {seat!r}")
    own = state.hands[seat] if seat is not None else None
    return SeatView(
        seat=seat,
        hand=tuple(str(c) for c in own) if own is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        hand_points=hand_points(own) if own is not None else None,
        table=tuple(format_cards(m) for m in state.table),
        stock_size=len(state.stock),
        turn=state.turn,
        drawn=state.drawn,
        final_turns=state.final_turns,
        scores=tuple(state.scores),
        rounds_won=tuple(state.rounds_won),
        round_no=state.round_no,
        dealer=state.dealer,
        legal=tuple(legal_actions(state, seat)),
        round_over=state.round_over,
        last_round=_copy_json(state.last_round),
        game_over=state.game_over,
        final_scores=None if state.final_scores is None else tuple(state.final_scores),
        game_winners=None if state.game_winners is None else tuple(state.game_winners),
        settings=state.settings,
    )
