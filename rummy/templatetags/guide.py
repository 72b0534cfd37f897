"""The "How to play" page's tags, and the filter that links rule ids in messages.

``{{ message|rule_links }}``: the message escaped, each rule id in it ("(R5.2 b)") a
link to its section of the guide (``rummy.guide.links``). ``{% rule_url "R5.2 d" %}``:
that section's address. ``{% example_cards "8S 8H *8D" %}``: a row of small cards drawn
like the game page's (the ``card`` tag), for the guide's pictures.
"""

from django import template
from django.utils.html import format_html, format_html_join

from rummy.guide import links
from rummy.templatetags.cards import card, card_info

register = template.Library()


@register.filter(is_safe=False)
def rule_links(text):
    return links.rule_links("" if text is None else text)


@register.simple_tag
def rule_url(rule_id=None):
    return links.guide_url(rule_id)


@register.simple_tag
def example_cards(codes, label=""):
    """``codes``: card notation separated by spaces ("10H", "*9H" a joker declared as 9♥).
    ``label`` names the row for a screen reader ("A group of eights")."""
    cards = format_html_join("", "{}", ((card(card_info(c)),) for c in codes.split()))
    if label:
        return format_html(
            '<div class="cards small example-cards" role="group" aria-label="{}">{}</div>',
            label,
            cards,
        )
    return format_html('<div class="cards small example-cards">{}</div>', cards)
