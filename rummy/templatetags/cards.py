"""One card as HTML, for the table page.

This was an ``{% include %}`` per card; a table page shows up to a hundred cards and
re-renders for every open socket after every move, and a Python tag is several times
cheaper than an include. The markup is the same: ``data-card`` (this round's cards) or
``data-revealed-card`` (a finished round's revealed hands) as the machine-readable
marker; suits told apart by symbol and letter, not by colour alone.
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


def _classes(c, selectable):
    classes = ["card"]
    if c["red"]:
        classes.append("red")
    if c["joker"]:
        classes.append("joker")
    if selectable and c["selected"]:
        classes.append("selected")
    return " ".join(classes)


def _face(c):
    joker = mark_safe('<span class="joker-mark" aria-hidden="true">★</span>') if c["joker"] else ""
    suit = (
        format_html(
            '<span class="suit" aria-hidden="true">{}<small>{}</small></span>',
            c["symbol"],
            c["suit"],
        )
        if c["symbol"]
        else ""
    )
    return format_html(
        '{}<span class="rank" aria-hidden="true">{}</span>{}', joker, c["rank"], suit
    )


@register.simple_tag
def card(c, button=False, revealed=False):
    """``c`` comes from ``rummy.table.presenters.card_info``. With ``button`` (the arrangement
    editor) the card is a submit button selecting it; otherwise an image-like span."""
    if button:
        return format_html(
            '<button type="submit" name="action" value="select:{}" class="{}" data-card="{}" '
            'data-ref="{}" aria-pressed="{}" aria-label="{}">{}</button>',
            c["ref"],
            _classes(c, True),
            c["code"],
            c["ref"],
            "true" if c["selected"] else "false",
            c["label"],
            _face(c),
        )
    marker = "data-revealed-card" if revealed else "data-card"
    return format_html(
        '<span class="{}" {}="{}" role="img" aria-label="{}">{}</span>',
        _classes(c, False),
        marker,
        c["code"],
        c["label"],
        _face(c),
    )
