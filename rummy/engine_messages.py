"""Player-facing, translatable wording for the engine's rule errors.

The engine (pure, no Django) raises ``RuleError`` with a code from the conformance
README and an English detail; here each code gets a sentence marked for translation.
"""

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "round_over": _("The round is over."),
    "game_over": _("The game is over."),
    "bad_action": _("That action could not be read."),
    "not_your_turn": _("It is not your turn."),
    "stock_empty": _("The stock is empty: you cannot draw (R8). Meld, knock or pass."),
    "must_draw": _("Draw a card first: a turn starts with a draw (R3.1)."),
    "table_card_missing": _("Every card that was on the table must stay on the table (R5.2 b)."),
    "not_in_hand": _("You added a card to the table that is not in your hand."),
    "nothing_added": _("A meld must add at least one card from your hand (R5.2 a)."),
    "joker_undeclared": _("Say which card each joker stands for (R4.4)."),
    "invalid_meld": _("Every meld on the table must be a valid group or sequence (R4)."),
    "joker_locked": _(
        "A joker on the table keeps the card it stands for until a real card of that "
        "rank and suit is on the table (R5.2 d)."
    ),
    "knock_limit": _("Your hand counts more than the knock limit: you cannot knock (R6.1)."),
    "cannot_pass": _("You can only pass when the stock is empty (R8)."),
    "round_not_over": _("The round is still being played."),
}


def rule_error_message(error) -> str:
    message = MESSAGES.get(error.code)
    return str(message) if message else str(getattr(error, "message", error))
