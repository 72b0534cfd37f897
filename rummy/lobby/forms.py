from django import forms
from django.utils.translation import gettext_lazy as _

from leagues.models import BotLevel
from rummy.engine import MAX_PLAYERS, MIN_PLAYERS


class OpenTableForm(forms.Form):
    """R1.1: 2 to 5 players."""

    seats = forms.TypedChoiceField(
        label=_("Seats"),
        choices=[(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        initial=4,
    )


class PracticeForm(forms.Form):
    """A practice game: you and 1 to 4 bots of one level (R1.1's 2 to 5)."""

    bots = forms.TypedChoiceField(
        label=_("Bots"),
        choices=[(n, str(n)) for n in range(1, MAX_PLAYERS)],
        coerce=int,
        initial=1,
    )
    level = forms.ChoiceField(label=_("Level"), choices=BotLevel.choices, initial="steady")
