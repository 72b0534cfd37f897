"""Sockets bypass LocaleMiddleware: the consumer picks the page's language itself."""

from rummy.table.guarded import scope_language


def test_language_cookie_wins():
    scope = {"cookies": {"django_language": "et"}, "headers": [(b"accept-language", b"lv")]}
    assert scope_language(scope) == "et"


def test_accept_language_in_order_of_preference():
    scope = {"headers": [(b"accept-language", b"de-DE,lv;q=0.8,en;q=0.5")]}
    assert scope_language(scope) == "lv"


def test_unknown_or_garbage_falls_back_to_default():
    assert scope_language({"headers": [(b"accept-language", b"\xff\xfe;;q=")]}) == "en"
    assert scope_language({}) == "en"
