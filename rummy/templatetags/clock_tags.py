"""``{% countdown deadline %}``: a turn's deadline as a countdown (``rummy.clock.countdown``)."""

from django import template

from rummy.clock.countdown import countdown

register = template.Library()
register.simple_tag(countdown, name="countdown")
