"""Game history on a phone ("works in en, lv and et; every new page usable at
360 px"): the score sheet, a replay step after one tap on "next", the player's profile
and the league page with its past seasons, at 360x740 in each language, have no
sideways scroll and nothing axe calls serious or critical.

The game is played to its end through the write path by the engine's bots with seeded
deals (as tests/rummy/history does), in a season that is then closed; the players'
names are long and accented, the hardest case for a narrow score sheet.
"""

import json
import os

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.axe import describe, serious_violations
from tests.e2e.conftest import PHONE, WAIT_MS

pytestmark = pytest.mark.e2e

LANGUAGES = ["en", "lv", "et"]
PASSWORD = "pw-for-tests-123"

SETUP = """
import itertools, json, random
from leagues import seasons
from rummy.play import store
from tests import factories
from tests.factories import make_user, make_league
from tests.leagues.conftest import make_season
from tests.rummy.history.conftest import new_game, play_out
factories._counter = itertools.count(random.randrange(10**6, 10**7))
names = ("Cecīlija Bērziņa-Ozoliņa", "Jüri Tamm-Kõrvits", "Anna Kalniņa")
users = [make_user(display_name=name, password="pw-for-tests-123") for name in names]
league = make_league(users[0], members=users[1:], name="Rīgas kāršu klubs")
season = make_season(league, name="Ziema / Talv", target_score=60)  # the game's own
store.system_random = random.Random(5)
game = play_out(new_game(users, league, seed=5, target=60), random.Random(5))
assert game.status == "finished" and game.season_id == season.pk, game.status
seasons.close_season(season)
print(json.dumps({"user": users[0].username, "game": game.pk, "league": league.slug,
                  "rounds": game.rounds.count()}))
"""


@pytest.fixture(scope="module")
def history(server_env):
    import subprocess

    from tests.e2e.conftest import ROOT, _python

    done = subprocess.run(
        [_python(), "-c", "import django, sys\ndjango.setup()\n" + SETUP],
        cwd=ROOT,
        env=server_env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def phone_in(browser, server, request, language, username):
    context = browser.new_context(base_url=server, locale=language, **PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    context.set_default_timeout(WAIT_MS)
    request.addfinalizer(context.close)
    page = context.new_page()
    request.node.e2e_pages = getattr(request.node, "e2e_pages", {})
    request.node.e2e_pages[language] = page
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def check(page, language, what, problems):
    """No sideways scroll and no serious axe finding on what ``page`` shows now."""
    assert page.locator("html").get_attribute("lang") == language, what
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if widths[0] > widths[1]:
        wide = page.evaluate(
            """() => [...document.querySelectorAll('main *')]
                 .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
                 .slice(0, 5).map(e => e.outerHTML.slice(0, 120))"""
        )
        problems.append(f"{what} ({language}): sideways scroll {widths}: {wide}")
    if found := serious_violations(page):
        problems.append(describe(found, f" on {what} ({language})"))
    if shots := os.environ.get("E2E_SHOTS"):  # a directory: every page as it was checked
        name = what.split(",")[0].replace(" ", "-")
        page.screenshot(path=f"{shots}/{name}-{language}.png", full_page=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_history_pages_fit_a_phone_and_pass_axe(browser, server, history, request, language):
    page = phone_in(browser, server, request, language, history["user"])
    problems = []
    game = history["game"]

    page.goto(f"/games/{game}/record/")
    expect(page.locator("main h1")).to_be_visible()
    check(page, language, "score sheet", problems)

    page.goto(f"/games/{game}/replay/")
    first = page.locator("#replay").inner_html()
    page.locator("#step-next").tap()
    page.wait_for_url("**/replay/?at=*")
    expect(page.locator("#move-list [aria-current=step]")).to_have_count(1)
    assert page.locator("#replay").inner_html() != first, "next did not move the replay"
    check(page, language, "replay step", problems)

    page.goto(f"/u/{history['user']}/")
    check(page, language, "profile", problems)

    page.goto(f"/leagues/{history['league']}/")
    expect(page.locator("#past-seasons .podium li")).to_have_count(3)
    check(page, language, "league page, past seasons", problems)
    assert not problems, "\n".join(problems)
