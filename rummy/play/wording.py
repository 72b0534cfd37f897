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


# Why one meld is not valid (R4), by the engine's reason code; parameters are card
# names such as "8♠", which read the same in every language.
MELD_REASONS = {
    "too_short": _("A meld needs at least 3 cards; this one has %(n)d."),
    "group_identical": _("A group cannot hold two %(card)s."),
    "group_too_long": _("A group has at most 4 cards, one of each suit; this one has %(n)d."),
    "mixed": _(
        "A meld must be cards of one rank in different suits (a group) or cards of one "
        "suit in consecutive ranks (a sequence)."
    ),
    "sequence_identical": _("A sequence cannot hold two %(card)s."),
    "sequence_wraps": _("A sequence cannot wrap from king to ace to two."),
    "sequence_gap": _(
        "A sequence needs consecutive ranks: there is a gap between %(low)s and %(high)s."
    ),
    "not_a_meld": _("These cards do not form a group or a sequence."),
}


def rule_error_message(error) -> str:
    message = MESSAGES.get(error.code)
    return str(message) if message else str(getattr(error, "message", error))


def meld_problem_message(error) -> str:
    """Why one meld is not valid, in the player's language."""
    template = MELD_REASONS.get(getattr(error, "reason", None) or "")
    if template is None:
        return rule_error_message(error)
    try:
        return str(template) % error.params
    except (KeyError, TypeError, ValueError):
        return rule_error_message(error)
