"""A league's board on two phones: a post written on one appears on the other's open
board page without a reload, over the header socket the page already has, in the
reader's language; axe finds nothing serious on the board page."""

import uuid

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.axe import describe, serious_violations
from tests.e2e.conftest import log_in, run_setup

pytestmark = pytest.mark.e2e

SETUP = """
import json
from tests.factories import make_user, make_league
tag = sys.argv[1]
users = [make_user(f"{n}{tag}", display_name=n.title(), password="pw-for-tests-123")
         for n in ("ann", "ben")]
league = make_league(users[0], members=users[1:], name="Board club " + tag)
print(json.dumps({"users": [u.username for u in users], "slug": league.slug}))
"""


OPENED = "() => window.__e2e && window.__e2e.log.some((e) => e[0] === 'open')"


@pytest.fixture
def club(server_env):
    return run_setup(server_env, SETUP, uuid.uuid4().hex[:6])


def test_a_new_post_appears_live_on_the_open_board(phone, server, club):
    ann_name, ben_name = club["users"]
    board = f"/leagues/{club['slug']}/board/"
    ben = phone("ben")
    ben.context.add_cookies([{"name": "django_language", "value": "et", "url": server}])
    log_in(ben, ben_name, "pw-for-tests-123")
    ben.goto(board)
    # The header's socket (ws/me/?board=) is open; a mark that a reload would lose.
    ben.wait_for_function(OPENED)
    ben.evaluate("() => { window.__board_mark = 1; }")
    expect(ben.locator("#board-empty")).to_be_visible()
    violations = serious_violations(ben)
    assert not violations, describe(violations)

    ann = phone("ann")
    log_in(ann, ann_name, "pw-for-tests-123")
    ann.goto(board)
    ann.fill("#board-text", "Season starts Monday")
    ann.locator("#board-form button[type=submit]").click()
    expect(ann.locator("#board-posts")).to_contain_text("Season starts Monday")

    # Ben's page, never reloaded, shows it at the top, in Estonian around it.
    expect(ben.locator("#board-posts li").first).to_contain_text("Season starts Monday")
    expect(ben.locator("#board-posts li").first).to_contain_text("Teata või blokeeri")
    expect(ben.locator("#board-empty")).to_have_count(0)
    assert ben.evaluate("() => window.__board_mark") == 1  # no reload
