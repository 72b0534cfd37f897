"""A table page whose socket is down still plays (static/js/table.js sends the form over
HTTP): the answers keep the page right, and once the page has said which view it shows
(its form's hidden stamp) each answer holds only the parts that changed
(``rummy.table.rendering.Frames.answer``)."""

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import log_in
from tests.e2e.helpers import PASSWORD, ada_and_bo, shot

pytestmark = pytest.mark.e2e


def test_with_its_socket_down_the_table_plays_over_http(phone, server_env):
    # Ada (seat 0) to move, before her draw, with 12 melds on the table.
    username, game_id = ada_and_bo(server_env, "table_position", 12, drawn=0, turn=0)
    page = phone("ada")
    # The table's socket never opens: every tap goes over HTTP.
    page.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close())
    log_in(page, username, PASSWORD)
    page.goto(f"/games/{game_id}/")
    answers = []
    page.on(
        "response",
        lambda r: answers.append(r) if r.request.method == "POST" and "/act/" in r.url else None,
    )
    stamp = page.locator("#view-stamp").get_attribute("value")
    cards = page.locator("#hand .card").count()
    stock = page.locator("#stock-size").inner_text()

    page.locator("#btn-draw").tap()
    expect(page.locator("#hand .card")).to_have_count(cards + 1)
    expect(page.locator("#stock-size")).not_to_have_text(stock)
    expect(page.locator("#view-stamp")).not_to_have_attribute("value", stamp)
    first = answers[-1].text()
    # The page said which view it showed (the one it was rendered with): only what
    # changed came back, not the whole form.
    assert not first.startswith("<form") and 'id="hand"' in first, first[:200]
    assert 'id="table-melds"' not in first

    page.locator("#btn-draw").tap()
    expect(page.locator("#hand .card")).to_have_count(cards + 2)
    second = answers[-1].text()
    assert not second.startswith("<form"), second[:200]
    expect(page.locator("#hand .card.drawn")).to_have_count(1)

    # The editor works the same way: open it, select a card.
    page.locator("#btn-meld").tap()
    expect(page.locator("#table-melds.editing")).to_have_count(1)
    card = page.locator("#hand button.card").first
    card.tap()
    expect(card).to_have_attribute("aria-pressed", "true")
    shot(page, "fallback-post-editing")
