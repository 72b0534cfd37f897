"""Validators shared by every form that takes text from a person.

Names end up in email subjects (a header, where a line break is an error or an
injection), in one-line page titles and in other players' screens, where an invisible
control character can hide or reorder text. So no name or free-text field accepts a
control character; multi-line free text (a league's description) accepts line breaks and
nothing else.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# C0 and C1 control characters (Unicode category Cc: U+0000–U+001F, U+007F–U+009F) and
# the Unicode line and paragraph separators, which mail programs and some browsers treat
# as line breaks.
_CONTROL = frozenset([*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029])
_NEWLINE = ord("\n")

MESSAGE = _("Please remove the control characters (such as line breaks or tabs) from this text.")
MULTILINE_MESSAGE = _(
    "Please remove the control characters (such as tabs) from this text; line breaks are fine."
)


def has_control_characters(value, allow_newlines=False):
    return any(
        ord(char) in _CONTROL and not (allow_newlines and ord(char) == _NEWLINE)
        for char in str(value)
    )


def no_control_characters(value):
    """For one-line text: names, usernames, addresses."""
    if has_control_characters(value):
        raise ValidationError(MESSAGE, code="control_characters")


def no_control_characters_but_newlines(value):
    """For multi-line free text. Browsers send a textarea's line breaks as CR LF: the
    form field turns them into LF (``MultilineField``) before this runs."""
    if has_control_characters(value, allow_newlines=True):
        raise ValidationError(MULTILINE_MESSAGE, code="control_characters")


def normalize_newlines(value):
    return value.replace("\r\n", "\n").replace("\r", "\n") if isinstance(value, str) else value
