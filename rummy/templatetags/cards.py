"""One card as HTML, ``{% card c %}``, and what it shows (``CardFace``): the game page's,
the history's and the guide's cards are drawn alike.

The template tags are a low room: they draw what the rooms above them pass in (a card, a
deadline, a date, a message with rule ids) and import none of those rooms.

A game page shows up to a hundred cards and re-renders for every open socket after
every move, so this is a Python tag (several times cheaper than an include) and the
markup is short. ``data-card`` (this round's cards) or ``data-revealed-card`` (a
finished round's revealed hands) is the machine-readable marker. A card's spoken name
starts with what it shows ("K of spades", WCAG 2.5.3 label in name); suits are told
apart by the symbol's shape as well as its colour.
"""

from dataclasses import dataclass

from django import template
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config import caches
from rummy import engine

register = template.Library()

SUIT_NAMES = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_name(card, drawn=False):
    """Words for a screen reader that start with what the card shows (WCAG 2.5.3):
    "10 of hearts", "K of spades", "joker as 9 of hearts"."""
    if card.joker:
        if card.declared is None:
            name = str(_("joker"))
        else:
            name = _("joker as %(card)s") % {"card": card_name(card.declared)}
    else:
        rank = engine.cards.rank_name(card.rank)
        name = _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[card.suit]}
    if drawn:
        return _("%(card)s, just drawn") % {"card": name}
    return name


@dataclass(frozen=True, slots=True)
class CardFace:
    """What the ``card`` tag shows of one card: its notation, spoken name and face, its
    place in the editor (``ref``: "h3" in the hand, "t1.0" on the table), and whether it
    is selected or was just drawn."""

    code: str
    label: str
    joker: bool
    rank: str
    suit: str
    symbol: str
    red: bool
    ref: str | None = None
    selected: bool = False
    drawn: bool = False


def card_info(code, ref=None, selected=False, drawn=False, language=None) -> CardFace:
    """One card's ``CardFace``: its face and spoken name are the same for a card, a mark
    and a language wherever it lies, so they are worked out once per process; ``ref``
    and ``selected`` are the editor's. ``language``: the active one, when the caller has
    it (``where``)."""
    code = code if isinstance(code, str) else str(code)
    face = _card_face(code, drawn, language or translation.get_language())
    if ref is None and not selected:
        return face
    return CardFace(
        face.code,
        face.label,
        face.joker,
        face.rank,
        face.suit,
        face.symbol,
        face.red,
        ref,
        selected,
        drawn,
    )


@caches.memo(maxsize=2048)
def _card_face(code, drawn, language) -> CardFace:
    # About 110 codes (a joker may stand for any card) x 2 marks x 3 languages.
    card = engine.Card.parse(code)
    face = card.declared if card.joker else card
    with translation.override(language):
        label = card_name(card, drawn)
    return CardFace(
        code=str(card),
        label=label,
        joker=card.joker,
        rank=engine.cards.rank_name(face.rank) if face else "★",
        suit=face.suit if face else "",
        symbol=SUIT_SYMBOLS[face.suit] if face else "",
        red=face is not None and face.suit in ("D", "H"),
        drawn=drawn,
    )


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
    """``c``: a ``CardFace``. With ``button`` (the arrangement
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


register.simple_tag(card, name="card")
