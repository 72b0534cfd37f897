"""Carousel's rules engine for Manipulation Rummy: pure Python, no Django.

The rule book is shared/RULES.md (rule ids R1.1 ... R10 are cited in docstrings);
errors carry the codes of shared/conformance/README.md.
"""

from .actions import (
    apply_action,
    can_knock_after,
    effective_final_turns,
    end_early,
    legal_actions,
    play_timeout,
)
from .cards import Card, format_cards, hand_points, new_deck, parse_cards
from .errors import ERROR_CODES, RuleError
from .melds import joker_options, meld_problem, validate_meld
from .scoring import final_result, score_round
from .state import DEFAULT_SETTINGS, GameState, Settings, deal_next_round, new_game, position
from .values import MAX_PLAYERS, MIN_PLAYERS, Action, RoundEnd
from .view import SeatView, seat_view

__all__ = [
    "DEFAULT_SETTINGS",
    "ERROR_CODES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Action",
    "Card",
    "GameState",
    "RoundEnd",
    "RuleError",
    "SeatView",
    "Settings",
    "apply_action",
    "can_knock_after",
    "deal_next_round",
    "effective_final_turns",
    "end_early",
    "final_result",
    "format_cards",
    "hand_points",
    "joker_options",
    "legal_actions",
    "meld_problem",
    "new_deck",
    "new_game",
    "parse_cards",
    "play_timeout",
    "position",
    "score_round",
    "seat_view",
    "validate_meld",
]
