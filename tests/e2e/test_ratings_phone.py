"""Ratings on a phone: the profile's chart (and its table of points), the league's
leaderboard and skill figures, and the chances of finishing first on an open table, the
home page and the game page, at 360x740 in en, lv and et; no sideways scroll and
nothing axe calls serious or critical."""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import run_setup
from tests.e2e.helpers import LANGUAGES, check, phone_in

pytestmark = pytest.mark.e2e

SETUP = """
import datetime, json, random
from django.utils import timezone
from leagues.ratings.rating import rate_game
from rummy import play
from rummy.models import Game
from tests.factories import make_user, make_league, started_game
from tests.leagues.conftest import make_game, make_season
names = ("Cecīlija Bērziņa-Ozoliņa", "Jüri Tamm-Kõrvits", "Anna Kalniņa", "Mari-Liis Õunapuu")
users = [make_user(display_name=name, password="pw-for-tests-123") for name in names]
league = make_league(users[0], members=users[1:], name="Rīgas kāršu klubs")
season = make_season(league, name="Ziema / Talv")
rng = random.Random(7)
start = timezone.now() - datetime.timedelta(days=30)
for n in range(14):
    players = rng.sample(users, rng.choice((2, 3, 4)))
    # The first of the list is stronger: she wins more often.
    scores = sorted((rng.randrange(0, 300, 5) + (80 if u is users[0] else 0), u) for u in players)
    top = scores[-1][0]
    game = make_game(league, season, [(u, s, 0, s == top) for s, u in scores])
    Game.objects.filter(pk=game.pk).update(finished_at=start + datetime.timedelta(days=2 * n))
    rate_game(game.pk)
table = play.open_table(league, users[1], max_seats=4)
play.take_seat(table.pk, users[0])
play.take_seat(table.pk, users[2])
game = started_game([users[0], users[3], users[2]], league=league, seed=3)
print(json.dumps({"user": users[0].username, "league": league.slug, "table": table.pk,
                  "game": game.pk}))
"""


@pytest.fixture(scope="module")
def world(server_env):
    return run_setup(server_env, SETUP)


@pytest.mark.parametrize("language", LANGUAGES)
def test_ratings_chart_leaderboard_and_chances_fit_a_phone_and_pass_axe(
    browser, server, world, request, language
):
    page = phone_in(browser, server, request, language, world["user"])
    problems = []

    page.goto(f"/u/{world['user']}/")
    chart = page.locator(".rating-chart svg")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and 280 <= box["width"] <= 360, box
    page.locator(".rating-chart details summary").click()
    expect(page.locator(".rating-chart details table")).to_be_visible()
    check(page, language, "profile chart", problems)

    page.goto(f"/leagues/{world['league']}/")
    expect(page.locator("#ratings .leaderboard tbody tr")).to_have_count(4)
    expect(page.locator("#skill-favourite")).to_be_visible()
    check(page, language, "leaderboard and skill", problems)

    page.goto(f"/games/{world['table']}/")
    expect(page.locator("#seating .odds")).to_have_count(3)
    check(page, language, "open table chances", problems)

    page.goto("/")
    expect(page.locator("#open-tables .odds")).to_have_count(1)
    check(page, language, "home chances", problems)

    page.goto(f"/games/{world['game']}/")
    expect(page.locator("#players .odds")).to_have_count(3)
    expect(page.locator("#odds-about")).to_be_visible()
    check(page, language, "game page chances", problems)
    assert not problems, "\n".join(problems)
