from django import forms
from django.utils.translation import gettext_lazy as _

from rummy.services import MAX_SEATS, MIN_SEATS


class OpenTableForm(forms.Form):
    """R1.1: 2 to 5 players."""

    seats = forms.TypedChoiceField(
        label=_("Seats"),
        choices=[(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        coerce=int,
        initial=4,
    )
