"""The game page on a phone (360x740 touch), the last mile: the footer reachable past the
dock, a 20-meld editor in at most 2.5 screens, nothing moving under the finger or the
eye on any editor tap, messages that never hide the melds, one-line action labels with
Hint present in every language, and no sideways scrolling on the profile.

Positions are real sizes (tests/positions.py: 20 melds, a late round). Taps are touches
at the centre of what is on screen (tests/e2e/test_table_phone.py's ``tap``), never a
forced click. ``E2E_SHOTS=dir`` saves the states checked here as PNGs.
"""

import json
import os
import subprocess
import uuid
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import ROOT, _python
from tests.e2e.test_table_phone import box, open_table

pytestmark = pytest.mark.e2e

SETUP = """
import itertools, json, random
from tests import factories
from tests.factories import make_user, make_league, make_season, game_at
from tests.positions import editor_position
factories._counter = itertools.count(random.randrange(10**6, 10**7))
tag = sys.argv[1]
users = [make_user(f"{n}{tag}", display_name=n.title(), password="pw-for-tests-123")
         for n in ("ann", "ben", "cal")]
league = make_league(users[0], members=users[1:], name="Club " + tag)
make_season(league, hints_allowed=True)
games = {}
for name in ("footer", "height", "new", "layoff", "draw", "hint", "labels", "refusal"):
    games[name] = game_at(editor_position(20, hand_size=10), users, league=league).pk
print(json.dumps({"users": [u.username for u in users], "games": games}))
"""


@pytest.fixture(scope="module")
def games(server_env):
    done = subprocess.run(
        [_python(), "-c", "import django, sys\ndjango.setup()\n" + SETUP, uuid.uuid4().hex[:6]],
        cwd=ROOT,
        env=server_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def shot(page, name, full_page=False):
    if shots := os.environ.get("E2E_SHOTS"):
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=full_page)


def page_height(page):
    return page.evaluate("() => document.documentElement.scrollHeight")


def to_the_bottom(page):
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function(
        "() => Math.abs(window.scrollY + window.innerHeight"
        " - document.documentElement.scrollHeight) < 2"
    )


@pytest.mark.parametrize("arranging", [False, True])
def test_the_footer_is_reachable_past_the_dock(browser, server, request, games, arranging):
    """Scrolled to the very end, the footer's links and language form take a real tap
    (Playwright refuses the tap while the dock would receive it)."""
    page = open_table(browser, server, request, "ann", games["users"][0], games["games"]["footer"])
    if arranging:
        page.locator("#btn-meld").click()
        expect(page.locator("#btn-play")).to_be_visible()
    to_the_bottom(page)
    link, dock = box(page, "#footer-how-to-play"), box(page, "#dock")
    assert link["y"] + link["h"] <= dock["y"], f"the dock covers the footer: {link} {dock}"
    button = box(page, ".language-form button")
    assert button["y"] + button["h"] <= dock["y"], "the dock covers the language form"
    shot(page, f"footer-{'arranging' if arranging else 'waiting'}")
    page.locator("#footer-how-to-play").tap(timeout=5_000)
    page.wait_for_url(lambda url: "/how-to-play/" in url)
    page.go_back()
    page.wait_for_function("() => window.__e2e && window.__e2e.opens >= 1")
    to_the_bottom(page)
    page.select_option("#language-select", "lv")
    page.locator(".language-form button").tap(timeout=5_000)
    page.wait_for_function("() => document.documentElement.lang === 'lv'")
    page.context.close()
