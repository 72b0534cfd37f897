"""The path converter of every id in an address (``<id:game_id>``, ``<id:pk>``): the
digits of a number a database row can have, else the address matches nothing (a 404,
and a refused handshake for a socket). Django's ``<int:…>`` takes any length, and a
number past 64 bits reached SQLite as an OverflowError: a 500 on every page and socket
with an id.

Registered when this module is first imported: each URL list that uses it imports it
(``rummy.urls``, ``rummy.routing``, ``leagues.urls``, ``rummy.notifications.urls``)."""

from django.urls import register_converter

# The largest id of a 64-bit signed key (BigAutoField, SQLite's INTEGER).
MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value):
        number = int(value)
        if number > MAX_ID:
            # Django reads a ValueError here as "this pattern does not match".
            raise ValueError(f"{value} is past the largest id")
        return number

    def to_url(self, value):
        return str(value)


register_converter(IdConverter, "id")
