"""CSRF on every state-changing request, HTMX included: a POST to any route of the site
without the token is refused (403) before the view runs. The routes come from the URL
resolver, so a route added later is covered without touching this file."""

import pytest
from django.test import Client

from tests.security.pages import make_world
from tests.security.routes import all_routes

pytestmark = pytest.mark.django_db

# Exempt on purpose, each with its reason:
CSRF_EXEMPT = {
    # RFC 8058 one-click unsubscribe: the mail client POSTs without a page or a cookie;
    # the signed token in the URL is the proof, and it can only turn emails off.
    "notifications:unsubscribe",
}


@pytest.fixture
def world():
    return make_world()


def sample_values(world):
    return {
        "slug": world.league.slug,
        "pk": world.player.pk,
        "game_id": world.game.pk,
        "game_pk": world.game.pk,
        "token": "sometoken",
        "uidb64": "MQ",
        "username": world.player.username,
        "vacation_pk": 1,  # refused before any view runs: no vacation needed
    }


def post_targets(world):
    values = sample_values(world)
    urls = []
    for route in all_routes():
        if route.name in CSRF_EXEMPT:
            continue
        if route.name == "admin":
            urls += ["/admin/login/", "/admin/logout/", "/admin/leagues/league/add/"]
        else:
            urls.append(route.url(**values))
    return urls


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_every_post_without_token_is_refused(world, htmx):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = world.game.version
    for url in post_targets(world):
        response = client.post(url, {"version": before, "do": "draw"}, **headers)
        assert response.status_code == 403, (url, response.status_code)
    world.game.refresh_from_db()
    assert world.game.version == before


def test_a_forged_token_is_refused(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    client.cookies["csrftoken"] = "a" * 32
    response = client.post(
        f"/leagues/{world.league.slug}/leave/", HTTP_X_CSRFTOKEN="b" * 32, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403


def test_htmx_header_token_passes(world):
    """The control: the token HTMX sends from <body hx-headers> gets through, so the
    403s above are the CSRF check and not something else."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.member)
    page = client.get("/")
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else None
    assert token, "pages must set the CSRF cookie that hx-headers relies on"
    html = page.content.decode()
    assert "hx-headers" in html and "X-CSRFToken" in html
    response = client.post(
        f"/leagues/{world.league.slug}/leave/", HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true"
    )
    assert response.status_code != 403
    assert not world.league.memberships.filter(user=world.member).exists()


def test_unsubscribe_is_exempt_but_changes_nothing_without_a_valid_token(world):
    response = Client(enforce_csrf_checks=True).post("/notifications/unsubscribe/forged/")
    assert response.status_code == 400
