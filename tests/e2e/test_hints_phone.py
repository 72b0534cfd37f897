"""Hints and missed plays on a phone (360x740): a tap on Hint lays the best
meld out in the editor with its words in the message area, one tap on Play plays it;
a finished game's record shows the missed plays as cards, without sideways scrolling.
Both pages are saved as they were checked (``shot``)."""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.helpers import in_reach, no_sideways_scroll, open_table, shot, table_setup, tap

pytestmark = pytest.mark.e2e

# Goes on from helpers.TABLE_CLUB: Ann, Ben and Cal in a league of theirs.
SETUP = """
from rummy import engine, play
from rummy.history import review
make_season(league, hints_allowed=True)
games = {"hint": game_at(editor_position(10, hand_size=10), users, league=league).pk}
# A short finished game with two missed plays of Ann's, reviewed by the background pass.
done = game_at(engine.position(["7H 8H 9H 2C", "KS QS", "3C 5D"], stock="10H 5D JS 2D 3D 4S",
                               scores=[0, 140, 0]), users, league=league)
for user, action in [(0, {"do": "draw"}), (0, {"do": "draw"}),
                     (0, {"do": "meld", "table": ["7H 8H 9H"]}),
                     (1, {"do": "draw"}), (1, {"do": "meld", "table": ["7H 8H 9H", "JS QS KS"]})]:
    done.refresh_from_db()
    play.act(done.pk, users[user], done.version, action)
# The pass takes the oldest finished games first, for a few seconds each time: the
# session's other tests may have left finished games before this one, so it runs until
# it has reached this game (it failed in CI when one pass did not).
from rummy.models import GameReview
for _ in range(100):
    if GameReview.objects.filter(game=done).exists():
        break
    review.review_pass()
assert GameReview.objects.filter(game=done, failed=False).exists()
games["done"] = done.pk
print(json.dumps({"users": [u.username for u in users], "games": games}))
"""


@pytest.fixture(scope="module")
def setup(server_env):
    return table_setup(server_env, SETUP)


def test_a_hint_on_a_phone_lays_out_the_meld_and_play_plays_it(browser, server, request, setup):
    ann = setup["users"][0]
    page = open_table(browser, server, request, "ann", ann, setup["games"]["hint"])
    expect(page.locator("#btn-hint")).to_be_visible()
    hand_before = page.locator("#hand .card").count()
    tap(page, "#btn-hint", measure="#controls .bar.main", expect_message=True)
    expect(page.locator("#flash .message")).to_contain_text("Hint:")
    expect(page.locator("#btn-play")).to_be_visible()
    expect(page.locator("#table-melds.editing .meld.invalid")).to_have_count(0)
    in_reach(page)
    assert no_sideways_scroll(page, slack=1)
    shot(page, "hint-table")
    page.locator("#btn-play").tap()
    expect(page.locator("#btn-play")).to_have_count(0)
    expect(page.locator("#btn-hint")).to_have_count(0)  # Ben's turn now
    assert page.locator("#hand .card").count() < hand_before


def test_the_record_shows_missed_plays_on_a_phone(browser, server, request, setup):
    page = open_table(browser, server, request, "ann", setup["users"][0], setup["games"]["hint"])
    page.goto(f"/games/{setup['games']['done']}/record/")
    expect(page.locator("#missed-plays")).to_be_visible()
    expect(page.locator("#missed-plays .missed-play")).to_have_count(2)
    expect(page.locator("#missed-plays .best-meld").first).to_be_visible()
    assert no_sideways_scroll(page, slack=1)
    page.locator("#missed-plays").scroll_into_view_if_needed()
    shot(page, "record-missed-plays")
