"""The league's admin record and a scheduled season's planned schedule on a phone: at
360x740 in en, lv and et, no sideways scroll and nothing axe calls serious or critical.
Long, accented names and the season's longest setting labels are the hardest case."""

import pytest

from tests.e2e.conftest import run_setup
from tests.e2e.helpers import LANGUAGES, check, phone_in

pytestmark = pytest.mark.e2e

SETUP = """
import datetime, json
from leagues import seasons, services
from leagues.models import Membership, Season
from tests.factories import make_user, make_league
names = ("Cecīlija Bērziņa-Ozoliņa", "Jüri Tamm-Kõrvits", "Anna Kalniņa", "Mari-Liis Õunapuu",
         "Krišjānis Valdemārs", "Kadri Kõiv")
users = [make_user(display_name=name, password="pw-for-tests-123") for name in names]
league = make_league(users[0], members=users[1:], name="Rīgas kāršu klubs")
owner = league.memberships.get(user=users[0])
season = seasons.create_season(
    league, by=users[0], name="Pavasaris / Kevad", starts_on=datetime.date(2031, 3, 1),
    ends_on=datetime.date(2031, 5, 31), bot_stands_in=True, bot_games_count=True,
    format=Season.Format.SCHEDULED, games_each=4, table_size=3,
    round_start=Season.RoundStart.AFTER_PREVIOUS,
)
services.set_role(owner, league.memberships.get(user=users[1]), Membership.Role.ADMIN)
invite = services.create_invite(users[0], league, max_uses=5)
services.revoke_invite(invite, users[1])
print(json.dumps({"user": users[0].username, "league": league.slug, "season": season.pk}))
"""


@pytest.fixture(scope="module")
def world(server_env):
    return run_setup(server_env, SETUP)


@pytest.mark.parametrize("language", LANGUAGES)
def test_record_and_preview_fit_a_phone_and_pass_axe(browser, server, world, request, language):
    page = phone_in(browser, server, request, language, world["user"])
    problems = []
    page.goto(f"/leagues/{world['league']}/record/")
    assert page.locator(".admin-record > li").count() == 4
    check(page, language, "admin record", problems)
    page.goto(f"/leagues/{world['league']}/record/?action=role_changed")
    assert page.locator(".admin-record > li").count() == 1
    check(page, language, "admin record, filtered", problems)
    page.goto(f"/leagues/{world['league']}/seasons/{world['season']}/")
    assert page.locator("#schedule-preview .schedule-rounds > li").count() >= 4
    check(page, language, "planned schedule", problems)
    assert not problems, "\n".join(problems)
