"""A table page whose socket drops and comes back is sent only what changed while it was
away, or nothing when nothing did ("the socket's first frame after connect
does not repeat a view the page already holds"). On reconnect static/js/table.js names
the view the page holds now (the form's stamp, kept current by every frame), not the
one it was rendered with; ``rummy.table.consumers.GameConsumer.connect`` answers with
the difference.

The test stands between the page and the server (Playwright's WebSocket routing): it
forwards every frame, holds back those of one move (as if the connection had dropped
before they came), and drops the connection with 1012 ("service restart"), on which
htmx's ws extension reconnects. The page's one socket carries the header's count too
(the table page opens no ``/ws/me/``): it names the count the page shows as well."""

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import eventually, log_in
from tests.e2e.helpers import PASSWORD, ada_and_bo, shot, wait_live

pytestmark = pytest.mark.e2e


class Between:
    """The page's game sockets, through the test: each connection's address and the
    frames the server sent on it; ``hold`` keeps frames from the page."""

    def __init__(self):
        self.urls, self.frames, self.routes, self.servers = [], [], [], []
        self.hold = False

    def __call__(self, ws):
        self.urls.append(ws.url)
        frames = []
        self.frames.append(frames)
        self.routes.append(ws)
        server = ws.connect_to_server()
        self.servers.append(server)

        def from_server(message):
            frames.append(message)
            if not self.hold:
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(server.send)

    def drop(self):
        """Close the newest connection as a restarting server would (code 1012)."""
        self.routes[-1].close(code=1012, reason="restart")

    def probe(self):
        """Send the server, on the newest connection, a frame it cannot read: it answers
        this socket alone with a refusal, after whatever it sent on connect (a consumer
        handles its messages one at a time, the connect first). The answer is held back
        from the page, which is left as it was."""
        self.hold = True
        self.servers[-1].send("not a form")


def open_game(page, username, game_id):
    log_in(page, username, PASSWORD)
    page.goto(f"/games/{game_id}/")
    wait_live(page)


def stamp_of(url):
    return re.search(r"[?&]stamp=([0-9a-f]*)", url).group(1)


def moves_of(url):
    return re.search(r"[?&]moves=([0-9]*)", url).group(1)


def test_a_reconnecting_table_is_sent_only_what_changed_while_away(phone, server_env):
    # Bo (seat 1) to move, before his draw, with 12 melds on the table.
    username, game_id = ada_and_bo(server_env, "table_position", 12, drawn=0, turn=1)
    page = phone("ada")
    between = Between()
    page.route_web_socket(re.compile(r".*/ws/games/.*"), between)
    # Log-in lands on the home page, whose header opens /ws/me/?home=1: wait for that
    # socket, so that it is not taken for one of the table page's.
    with page.expect_websocket(lambda ws: "/ws/me/" in ws.url):
        log_in(page, username, PASSWORD)
    opened = []
    page.on("websocket", lambda ws: opened.append(ws.url))
    page.goto(f"/games/{game_id}/")
    wait_live(page)
    first = page.locator("#view-stamp").get_attribute("value")
    assert stamp_of(between.urls[0]) == first and between.frames[0] == []
    # One socket for the page: the game's, which carries the header's count as well (it
    # is told the count the page shows: nothing to send for it either). htmx opens the
    # sockets of the page's ws-connect elements as it reads the page, the header before
    # #game: with the game's open, any other would have been created already.
    expect(page.locator("[ws-connect]")).to_have_count(1)
    assert page.evaluate("window.__e2e.log.map(entry => entry[1])") == ["game"]
    assert [url for url in opened if "/ws/me/" in url] == [], opened
    assert moves_of(between.urls[0]) == "0"
    cards = page.locator("#hand .card").count()

    # Bo draws three times on his phone (R3.4: his turn ends): the frames arrive and
    # the page's stamp moves on.
    bo = phone("bo")
    open_game(bo, username + "b", game_id)
    for drawn in (1, 2, 3):
        bo.locator("#btn-draw").tap()
        expect(bo.locator("#hand .card")).to_have_count(10 + drawn)
    expect(page.locator("#btn-draw")).to_be_visible()
    # The game now awaits Ada: her header's count follows, in the same frames.
    expect(page.locator("#move-count")).to_have_text("1")
    assert page.locator("#view-stamp").get_attribute("value") != first
    seen = page.locator("#view-stamp").get_attribute("value")
    sent = len(between.frames[0])

    # Ada draws as the connection fails: the tap reaches the server, its answer never
    # reaches the page.
    between.hold = True
    page.locator("#btn-draw").tap()
    eventually(page, lambda: len(between.frames[0]) > sent, "the draw's frame")
    between.hold = False
    expect(page.locator("#hand .card")).to_have_count(cards)

    between.drop()
    wait_live(page, opens=2)
    # The new connection names the view the page holds now, and gets only what changed
    # since: Ada's hand and the stock, not the whole form.
    assert stamp_of(between.urls[1]) == seen and moves_of(between.urls[1]) == "1"
    expect(page.locator("#hand .card")).to_have_count(cards + 1)
    [again] = between.frames[1]
    assert not again.lstrip().startswith("<form"), again[:200]
    assert 'id="hand"' in again and 'id="table-melds"' not in again
    print(f"reconnect after a missed move: {len(again)} bytes")
    now = page.locator("#view-stamp").get_attribute("value")
    assert now != seen

    # Dropped again with nothing new: the page names the view it holds, and nothing comes.
    between.drop()
    wait_live(page, opens=3)
    assert stamp_of(between.urls[2]) == now and moves_of(between.urls[2]) == "1"
    # Nothing before the answer to a later frame: nothing was sent on connect.
    between.probe()
    eventually(page, lambda: between.frames[2] != [], "the answer to the probe")
    assert len(between.frames[2]) == 1, [frame[:200] for frame in between.frames[2]]
    assert "could not be read" in between.frames[2][0], between.frames[2][0][:200]
    expect(page.locator("#hand .card")).to_have_count(cards + 1)
    # And no /ws/me/ of its own all along, through both reconnects.
    assert [url for url in opened if "/ws/me/" in url] == [], opened
    shot(page, "reconnect-after-missed-move")
