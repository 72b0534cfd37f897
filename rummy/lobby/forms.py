from django import forms
from django.utils.translation import gettext_lazy as _

from rummy.engine import MAX_PLAYERS, MIN_PLAYERS


class OpenTableForm(forms.Form):
    """R1.1: 2 to 5 players."""

    seats = forms.TypedChoiceField(
        label=_("Seats"),
        choices=[(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        initial=4,
    )
