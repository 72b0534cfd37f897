"""``{% card c %}``: one card as HTML (``rummy.table.cards``)."""

from django import template

from rummy.table.cards import card

register = template.Library()
register.simple_tag(card, name="card")
