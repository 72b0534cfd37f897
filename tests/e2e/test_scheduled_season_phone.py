"""A scheduled season on a phone, at 360x740 in en, lv and et, no sideways scroll and
nothing axe calls serious or critical: an admin creates one (the form, then the
planned schedule it previews), and a member reads a season under way (the standings
by average with games played and to play, the schedule, their next games)."""

import datetime

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import run_setup
from tests.e2e.helpers import LANGUAGES, check, phone_in

pytestmark = pytest.mark.e2e

SETUP = """
import datetime, json
from django.utils import timezone
from leagues import seasons
from leagues.models import Season
from rummy import play
from tests.factories import make_user, make_league
names = ("Cecīlija Bērziņa-Ozoliņa", "Jüri Tamm-Kõrvits", "Anna Kalniņa", "Mari-Liis Õunapuu",
         "Krišjānis Valdemārs", "Kadri Kõiv", "Ēriks Pūpols")
users = [make_user(display_name=name, password="pw-for-tests-123") for name in names]
league = make_league(users[0], members=users[1:], name="Rīgas kāršu klubs")
today = timezone.localdate()
season = seasons.create_season(
    league, by=users[0], name="Pavasaris / Kevad", starts_on=today,
    ends_on=today + datetime.timedelta(days=60), format=Season.Format.SCHEDULED,
    games_each=3, table_size=3, round_start=Season.RoundStart.ON_DATES, round_days=7,
    leaver_games=Season.LeaverGames.VOID,
)
seasons.start_season(season, by=users[0])
assert play.deal_due_rounds() == 1
print(json.dumps({"owner": users[0].username, "member": users[2].username,
                  "league": league.slug, "season": season.pk}))
"""


@pytest.fixture(scope="module")
def world(server_env):
    return run_setup(server_env, SETUP)


@pytest.mark.parametrize("language", LANGUAGES)
def test_creating_a_scheduled_season_with_its_preview(browser, server, world, request, language):
    page = phone_in(browser, server, request, language, world["owner"])
    problems = []
    page.goto(f"/leagues/{world['league']}/seasons/new/")
    check(page, language, "new season form", problems)
    # Each language's season on its own dates: seasons of a league may not overlap.
    year = 2040 + LANGUAGES.index(language)
    page.fill("#id_name", f"Rudens {language}")
    page.fill("#id_starts_on", datetime.date(year, 9, 1).isoformat())
    page.fill("#id_ends_on", datetime.date(year, 11, 30).isoformat())
    page.select_option("#id_format", "scheduled")
    page.fill("#id_games_each", "4")
    page.fill("#id_table_size", "3")
    page.select_option("#id_round_start", "previous")
    page.select_option("#id_leaver_games", "stand_in")
    page.locator("main form.panel button[type=submit]").click()
    expect(page.locator("#schedule-preview")).to_be_visible()
    assert page.locator("#schedule-preview .schedule-rounds > li").count() >= 4
    check(page, language, "new season preview", problems)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_member_reads_a_season_under_way(browser, server, world, request, language):
    page = phone_in(browser, server, request, language, world["member"])
    problems = []
    page.goto(f"/leagues/{world['league']}/seasons/{world['season']}/")
    expect(page.locator("#scheduled-standings")).to_be_visible()
    expect(page.locator("#next-games li").first).to_be_visible()
    assert page.locator("#season-rounds .schedule-rounds > li").count() >= 3
    # Round 1 is dealt: its tables link to their games.
    assert page.locator("#season-rounds .schedule-tables a").count() >= 2
    check(page, language, "season under way", problems)
    page.goto(f"/leagues/{world['league']}/")
    expect(page.locator("#scheduled-standings")).to_be_visible()
    check(page, language, "league page, scheduled season", problems)
    assert not problems, "\n".join(problems)
