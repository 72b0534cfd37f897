"""The per-seat view (DESIGN "Hidden information"): what one seat may see, nothing else.

Like boardgame.io's ``playerView``: computed at send time from the full state. The
stock's cards and other seats' hands never appear; ``last_round`` may, because a
finished round's hands are revealed for scoring (R7).
"""

from __future__ import annotations

from typing import Any

from .actions import legal_actions
from .cards import format_cards, hand_points
from .state import GameState, _copy_json

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


def seat_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """JSON-ready view for ``seat`` (None: a spectator, who sees no hand)."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.n_players):
        raise ValueError(f"no seat {seat!r}")
    own = state.hands[seat] if seat is not None else None
    return {
        "seat": seat,
        "hand": [str(c) for c in own] if own is not None else [],
        "hand_sizes": [len(h) for h in state.hands],
        "hand_points": hand_points(own) if own is not None else None,
        "table": [format_cards(m) for m in state.table],
        "stock_size": len(state.stock),
        "turn": state.turn,
        "drawn": state.drawn,
        "final_turns": state.final_turns,
        "scores": list(state.scores),
        "rounds_won": list(state.rounds_won),
        "round_no": state.round_no,
        "dealer": state.dealer,
        "legal": legal_actions(state, seat),
        "round_over": state.round_over,
        "last_round": _copy_json(state.last_round),
        "game_over": state.game_over,
        "final_scores": None if state.final_scores is None else list(state.final_scores),
        "game_winners": None if state.game_winners is None else list(state.game_winners),
        "settings": state.settings.to_dict(),
    }
