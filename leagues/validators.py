"""Validators shared by every form that takes text from a person.

Names end up in email subjects (a header, where a line break is an error or an
injection), in one-line page titles and in other players' screens, where an invisible
character can hide or reorder text. So no name or free-text field accepts a control
character (Unicode category Cc, and the line and paragraph separators) or a format
character (category Cf: the direction overrides and marks such as U+202E, the zero-width
space U+200B and joiners, the byte order mark U+FEFF, soft hyphens, tag characters);
multi-line free text (a league's description) accepts line breaks and nothing else of
these. A format character is refused even where it only joins (the zero-width joiner of
an emoji sequence, such as a family): the same joiner can hide a name inside another.
"""

import unicodedata

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
FORMAT_MESSAGE = _(
    "Please remove the invisible characters (such as direction marks or zero-width spaces) "
    "from this text."
)


def has_control_characters(value, allow_newlines=False):
    return any(
        ord(char) in _CONTROL and not (allow_newlines and ord(char) == _NEWLINE)
        for char in str(value)
    )


def has_format_characters(value):
    return any(unicodedata.category(char) == "Cf" for char in str(value))


def no_control_characters(value):
    """For one-line text: names, usernames, addresses."""
    if has_control_characters(value):
        raise ValidationError(MESSAGE, code="control_characters")
    if has_format_characters(value):
        raise ValidationError(FORMAT_MESSAGE, code="format_characters")


def no_control_characters_but_newlines(value):
    """For multi-line free text. Browsers send a textarea's line breaks as CR LF: the
    form field turns them into LF (``MultilineField``) before this runs."""
    if has_control_characters(value, allow_newlines=True):
        raise ValidationError(MULTILINE_MESSAGE, code="control_characters")
    if has_format_characters(value):
        raise ValidationError(FORMAT_MESSAGE, code="format_characters")


def normalize_newlines(value):
    return value.replace("\r\n", "\n").replace("\r", "\n") if isinstance(value, str) else value
