"""Carousel's rules engine for Manipulation Rummy: pure Python, no Django.

The rule book is shared/RULES.md (rule ids R1.1 ... R10 are cited in docstrings);
errors carry the codes of shared/conformance/README.md.
"""

from .actions import (apply_action, can_knock_after, effective_final_turns, end_early,
                      legal_actions, play_timeout)
from .cards import Card, format_cards, hand_points, new_deck, parse_cards
from .errors import ERROR_CODES, RuleError
from .melds import joker_options, meld_problem, validate_meld
from .scoring import final_result, score_round
from .state import DEFAULT_SETTINGS, GameState, Settings, deal_next_round, new_game, position
from .values import MAX_PLAYERS, MIN_PLAYERS, Action, RoundEnd
from .view import seat_view

__all__ = [
    "Card", "parse_cards", "format_cards", "hand_points", "new_deck",
    "validate_meld", "meld_problem", "joker_options",
    "RuleError", "ERROR_CODES",
    "Settings", "DEFAULT_SETTINGS", "GameState", "new_game", "deal_next_round", "position",
    "apply_action", "legal_actions", "can_knock_after", "effective_final_turns",
    "play_timeout", "end_early",
    "score_round", "final_result",
    "seat_view",
    "Action", "RoundEnd", "MIN_PLAYERS", "MAX_PLAYERS",
]
