"""A real network drop on a phone (360x740): the server closes the game page's socket,
or the phone goes offline for a while (every attempt to reconnect fails) and comes back.
The page says it is reconnecting, comes back by itself, shows what happened meanwhile,
and a draft in progress (the arrangement on the table) is not lost.

The test stands between the page and the server (Playwright's WebSocket routing, as in
test_reconnect.py): it can close the connection as the server would, and refuse new ones
while "offline"."""

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import log_in
from tests.e2e.helpers import PASSWORD, ada_and_bo, wait_live

pytestmark = pytest.mark.e2e

OFFLINE_TEXT = "Connection lost: reconnecting"


class Network:
    """The page's game sockets through the test: ``drop`` closes the newest as the server
    would; while ``offline`` every new connection is refused at once."""

    def __init__(self):
        self.offline = False
        self.routes = []
        self.refused = 0

    def __call__(self, ws):
        if self.offline:
            self.refused += 1
            ws.close(code=1006, reason="offline")
            return
        self.routes.append(ws)
        server = ws.connect_to_server()
        server.on_message(ws.send)
        ws.on_message(server.send)

    def drop(self, code=1012):
        self.routes[-1].close(code=code, reason="dropped")


@pytest.fixture
def game(server_env):
    # Ada (seat 0) to move, having drawn once, 20 melds on the table; Bo watches.
    return ada_and_bo(server_env, "editor_position", 20)


def arranging(page, username, game_id, network):
    """Ada's page, with a draft: a joker laid off on the group of eights (8S)."""
    page.route_web_socket(re.compile(r".*/ws/games/.*"), network)
    log_in(page, username, PASSWORD)
    page.goto(f"/games/{game_id}/")
    wait_live(page)
    page.locator("#btn-meld").tap()
    expect(page.locator("#btn-play")).to_be_visible()
    page.locator("#hand button.card.joker").first.tap()
    page.locator("#meld-1 .meld-target").tap()
    expect(page.locator('#meld-1 [data-card="*8S"]')).to_have_count(1)


def draft_is_there(page):
    expect(page.locator("#btn-play")).to_be_visible()
    expect(page.locator('#meld-1 [data-card="*8S"]')).to_have_count(1)


@pytest.mark.parametrize("how", ["server closes", "offline a while"])
def test_the_page_reconnects_by_itself_and_keeps_the_draft(phone, game, how):
    username, game_id = game
    network = Network()
    page = phone("ada")
    arranging(page, username, game_id, network)
    if how == "offline a while":
        network.offline = True
    network.drop(code=1006 if how == "offline a while" else 1012)
    expect(page.locator("#connection")).to_contain_text(OFFLINE_TEXT)
    if how == "offline a while":
        # Several attempts fail (htmx backs off between them); the notice stays.
        page.wait_for_function("() => window.__e2e.closes >= 3", timeout=60_000)
        expect(page.locator("#connection")).to_contain_text(OFFLINE_TEXT)
        network.offline = False
    # htmx's ws extension backs off between attempts (up to seconds): waited for, not slept.
    page.wait_for_function("() => window.__e2e.opens >= 2", timeout=90_000)
    expect(page.locator("#connection")).to_have_text("")
    draft_is_there(page)
    # And it works on: a tap goes over the new socket.
    page.locator("#btn-reset").tap()
    expect(page.locator('#meld-1 [data-card="*8S"]')).to_have_count(0)
    page.locator("#btn-close").tap()


def test_what_happened_while_away_shows_and_the_draft_survives_a_reload(phone, game):
    """Bo watches; his phone goes offline while Ada plays her draft; back online, his page
    shows her move without a reload. Ada's draft survived her own drop and a reload."""
    username, game_id = game
    ada_network, bo_network = Network(), Network()
    ada = phone("ada")
    arranging(ada, username, game_id, ada_network)
    bo = phone("bo")
    bo.route_web_socket(re.compile(r".*/ws/games/.*"), bo_network)
    log_in(bo, username + "b", PASSWORD)
    bo.goto(f"/games/{game_id}/")
    wait_live(bo)
    expect(bo.locator('#meld-1 [data-card="*8S"]')).to_have_count(0)

    bo_network.offline = True
    bo_network.drop(code=1006)
    expect(bo.locator("#connection")).to_contain_text(OFFLINE_TEXT)

    ada_network.drop()
    wait_live(ada, opens=2)
    ada.reload()
    wait_live(ada)
    draft_is_there(ada)
    ada.locator("#btn-play").tap()
    expect(ada.locator("#btn-play")).to_have_count(0)

    bo_network.offline = False
    bo.wait_for_function("() => window.__e2e.opens >= 2", timeout=90_000)
    expect(bo.locator('#meld-1 [data-card="*8S"]')).to_have_count(1)
    expect(bo.locator("#connection")).to_have_text("")
    expect(bo.locator("#btn-draw")).to_be_visible()  # Bo's turn now
