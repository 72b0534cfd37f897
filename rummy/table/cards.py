"""One card as HTML, for the table page.

A table page shows up to a hundred cards and re-renders for every open socket after
every move, so this is a Python tag (several times cheaper than an include) and the
markup is short. ``data-card`` (this round's cards) or ``data-revealed-card`` (a
finished round's revealed hands) is the machine-readable marker. A card's spoken name
starts with what it shows ("K of spades", WCAG 2.5.3 label in name); suits are told
apart by the symbol's shape as well as its colour.
"""

from django.utils.html import format_html
from django.utils.safestring import mark_safe

from config import caches


def _classes(c, selectable):
    classes = ["card"]
    if c["red"]:
        classes.append("red")
    if c["joker"]:
        classes.append("joker")
    if c.get("drawn"):
        classes.append("drawn")
    if selectable and c["selected"]:
        classes.append("selected")
    return " ".join(classes)


JOKER_MARK = mark_safe('<i class="j">★</i>')


def _face(c):
    return format_html(
        "{}<b>{}</b><i>{}</i>", JOKER_MARK if c["joker"] else "", c["rank"], c["symbol"]
    )


def card(c, button=False, revealed=False):
    """``c``: a ``rummy.table.presenters.CardFace``. With ``button`` (the arrangement
    editor) the card is a submit button selecting it; otherwise an image-like span."""
    # The same card looks the same wherever it lies: its HTML is made once per what it
    # shows (the label carries the language), not once per socket and move.
    return _card_html(
        c.code,
        c.label,
        c.joker,
        c.rank,
        c.symbol,
        c.red,
        c.drawn,
        c.selected,
        c.ref,
        bool(button),
        bool(revealed),
    )


@caches.memo(maxsize=8192)
def _card_html(code, label, joker, rank, symbol, red, drawn, selected, ref, button, revealed):
    c = {
        "code": code,
        "label": label,
        "joker": joker,
        "rank": rank,
        "symbol": symbol,
        "red": red,
        "drawn": drawn,
        "selected": selected,
        "ref": ref,
    }
    if button:
        return format_html(
            # A button in a form submits by default; its value names the card's place.
            '<button name="action" value="select:{}" class="{}" data-card="{}" '
            'aria-pressed="{}" aria-label="{}">{}</button>',
            c["ref"],
            _classes(c, True),
            c["code"],
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
