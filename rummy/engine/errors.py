"""Rule errors carrying the codes of the conformance README (shared/conformance/README.md).

The Django layer translates by ``code``; ``message`` is a plain English sentence a
player can read, usually more specific than the default in ``ERROR_CODES``.
"""

from __future__ import annotations

from collections.abc import Mapping

#: code -> default message. The order is the README's check order (first match wins).
ERROR_CODES: dict[str, str] = {
    "round_over": "The round has ended.",
    "bad_action": "That action could not be understood.",
    "not_your_turn": "It is not your turn.",
    "stock_empty": "The stock is empty: you cannot draw.",
    "must_draw": "Draw a card first.",
    "table_card_missing": "Every card that was on the table must stay on the table.",
    "not_in_hand": "You added a card to the table that is not in your hand.",
    "nothing_added": "Add at least one card from your hand to the table.",
    "joker_undeclared": "Every joker on the table must say which card it stands for.",
    "invalid_meld": "Every meld on the table must be a valid group or sequence.",
    "joker_locked": "A joker on the table must keep its card until a real one replaces it.",
    "knock_limit": "Your hand counts too many points to knock.",
    "cannot_pass": "You can only pass once the stock is empty.",
    "game_over": "The game has ended.",
    "round_not_over": "The round is still being played.",
}


class RuleError(Exception):
    """An action or input broke a rule.

    ``code`` is one of ``ERROR_CODES``; ``message`` says why, in words.
    """

    def __init__(
        self,
        code: str,
        message: str | None = None,
        reason: str | None = None,
        params: Mapping[str, str | int] | None = None,
    ):
        if code not in ERROR_CODES:
            raise ValueError(f"unknown rule error code {code!r}")
        self.code = code
        self.message = message or ERROR_CODES[code]
        # A finer, machine-readable "why" (e.g. "sequence_gap") with its parameters,
        # so that the interface can word it in the player's language.
        self.reason = reason
        self.params: dict[str, str | int] = dict(params or {})
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
