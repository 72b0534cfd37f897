"""The site's date styles as template filters, one per context (``rummy.clock.text``):
``{{ season.starts_on|day }}``, ``{{ user.date_joined|month }}``,
``{{ invite.expires_at|moment }}``, ``{{ game.turn_deadline|deadline }}``. Each is in
the active language and time zone; nothing (no value) renders as nothing."""

import datetime

from django import template

from rummy.clock import text

register = template.Library()


def _styled(style):
    def apply(value):
        if not isinstance(value, datetime.date):
            return ""
        return style(value)

    return apply


register.filter("day", _styled(text.day_text))
register.filter("month", _styled(text.month_text))
register.filter("moment", _styled(text.moment_text))
register.filter("deadline", _styled(text.deadline_text))
