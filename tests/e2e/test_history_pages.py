"""Game history on a phone ("works in en, lv and et; every new page usable at
360 px"): the score sheet, a replay step after one tap on "next", the player's profile
and the league page with its past seasons, at 360x740 in each language, have no
sideways scroll and nothing axe calls serious or critical.

The game is played to its end through the write path by the engine's bots with seeded
deals (as tests/rummy/history does), in a season that is then closed; the players'
names are long and accented, the hardest case for a narrow score sheet.
"""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import run_setup
from tests.e2e.helpers import LANGUAGES, check, phone_in

pytestmark = pytest.mark.e2e

SETUP = """
import json, random
from leagues import seasons
from rummy.play import store
from tests.factories import make_user, make_league
from tests.leagues.conftest import make_season
from tests.rummy.history.conftest import new_game, play_out
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
    return run_setup(server_env, SETUP)


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
