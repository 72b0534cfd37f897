"""A Content Security Policy without inline code: every main page sends the header, and
no page contains anything that the policy would block (inline scripts with a body,
style= attributes, on*= handlers), so the policy never has to be loosened."""

import pytest
from django.urls import reverse

from tests.security.pages import inline_code, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return make_world()


def main_pages(world):
    league, season, game = world.league, world.season, world.game
    return {
        "home": reverse("home"),
        "league": reverse("leagues:detail", args=[league.slug]),
        "leagues": reverse("leagues:list"),
        "members": reverse("leagues:members", args=[league.slug]),
        "seasons": reverse("leagues:seasons", args=[league.slug]),
        "season": reverse("leagues:season", args=[league.slug, season.pk]),
        "table": reverse("rummy:table", args=[game.pk]),
        "profile": reverse("profile", args=[world.player.username]),
        "notifications": reverse("notifications:settings"),
    }


ANONYMOUS_PAGES = ["home", "login", "signup", "password_reset"]


def assert_strict(response):
    csp = response["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp


def test_logged_in_pages_have_csp_and_no_inline_code(client, world):
    client.force_login(world.owner)
    for name, url in main_pages(world).items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        assert_strict(response)
        assert inline_code(response.content.decode()) == [], name


def test_htmx_partials_have_no_inline_code(client, world):
    """The fragments HTMX swaps in are held to the same rule as whole pages."""
    client.force_login(world.owner)
    for name, url in main_pages(world).items():
        response = client.get(url, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, name
        assert inline_code(response.content.decode()) == [], name


def test_anonymous_pages_have_csp_and_no_inline_code(client):
    for name in ANONYMOUS_PAGES:
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        assert_strict(response)
        assert inline_code(response.content.decode()) == [], name


def test_the_scan_finds_inline_code():
    """The scanner itself: each kind of inline code is caught, external scripts are not."""
    assert inline_code('<script src="/static/a.js"></script><p class="x">') == []
    assert len(inline_code("<script>alert(1)</script>")) == 1
    assert len(inline_code('<div style="color:red">')) == 1
    assert len(inline_code('<button onclick="go()">')) == 1
    assert len(inline_code('<a href="javascript:go()">')) == 1
