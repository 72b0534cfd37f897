"""The quick phrases: sent as an id, shown to each reader in their own language. The
ids are stored in messages and never change; the words may."""

from django.utils.translation import gettext_lazy as _

PHRASES = {
    "good_game": _("Good game"),
    "well_played": _("Well played"),
    "your_move": _("Your move!"),
    "sorry_away": _("Sorry, I was away"),
    "nice_meld": _("Nice meld"),
    "thanks": _("Thanks"),
    "good_luck": _("Good luck"),
    "thinking": _("Thinking, one moment"),
    "back_later": _("Back later today"),
    "rematch": _("Rematch?"),
}


def words(phrase_id):
    """The phrase in the active language ("" for an id no longer known)."""
    phrase = PHRASES.get(phrase_id)
    return str(phrase) if phrase is not None else ""
