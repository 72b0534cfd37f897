"""Issue "Playing a game", end to end: two phones, one game, live updates both ways.

Two users sign up in two browser contexts (360x740 touch), A creates a public league,
B joins it, A opens a 3-seat table, B sits, A (the host) starts. Then A draws twice and
melds through the arrangement editor, and B draws three times; each page follows the
other's moves over its WebSocket, without reloading.

The deal is random (R2.1/R2.2), so once the game has started the test rewrites the
dealt state into a known one (as tests/factories.py ``started_game`` does) and both
pages reload once: a deal cannot be fixed before the start, because the start deals.
"""

import re
import time

import pytest

try:
    from playwright.sync_api import Page, expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    Page = expect = None

from tests.e2e.conftest import WAIT_MS
from tests.e2e.helpers import SIGN_UP_PASSWORD, shot, submit_sign_up, wait_live

pytestmark = pytest.mark.e2e

LIVE = WAIT_MS  # how long another page may take to show a move (a busy machine)


# The known deal (2 players: 53 cards). A (to move) holds 7H 8H 9H; the stock's first
# cards are what A, then B, draw (R3.1: draws take the top card, stock[0]).
HAND_A = "7H 8H 9H 2C 5D JS KC 4S QD 3C"
HAND_B = "AS 3D 6C 10S JC 2H 8D QS 5C KD"
STOCK_TOP = "4D 10H 9C 6D AH"

ARRANGE_DEAL = """
from django.db import transaction
from django.utils import timezone
from rummy import engine
from rummy.models import Game

game_id, name_a, name_b, hand_a, hand_b, top = sys.argv[1:7]
game = Game.objects.get(pk=int(game_id))
seat_of = {s.user.username: s.number for s in game.seats.select_related("user")}
hands = [None, None]
hands[seat_of[name_a]], hands[seat_of[name_b]] = hand_a, hand_b
deck = [r + s for s in "CDHS" for r in ("A 2 3 4 5 6 7 8 9 10 J Q K".split())] + ["*"]
dealt = set(hand_a.split()) | set(hand_b.split()) | set(top.split())
stock = top.split() + [c for c in deck if c not in dealt]
assert len(stock) + 20 == 53, len(stock)
state = engine.position(hands, stock=" ".join(stock), turn=seat_of[name_a],
                        target=game.target_score, knock_limit=game.knock_limit)
with transaction.atomic():
    Game.objects.filter(pk=game.pk).update(
        state=state.to_dict(), to_move=game.seats.get(number=state.turn).user,
        turn_started_at=timezone.now())
    game.moves.filter(kind="start").update(payload={"state": state.to_dict()})
print(len(stock))
"""


def sign_up(page: Page, username, name):
    page.goto("/accounts/signup/")
    submit_sign_up(page, username, name, f"{username}@example.com", SIGN_UP_PASSWORD)
    # Sign-up logs nobody in (its answer must not tell whether the address was new):
    # it lands on the log-in page with a "check your email" message.
    expect(page.get_by_text("Thank you for signing up!")).to_be_visible()
    page.fill("#id_username", username)
    page.fill("#id_password", SIGN_UP_PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def no_horizontal_scroll(page: Page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways at 360 px ({width} px wide)"


def player_row(page: Page, seat):
    return page.locator(f'#players tr.player[data-seat="{seat}"]')


def stock(n):
    return re.compile(rf"^\s*{n} cards in the stock\s*$")


def test_two_phones_play_several_turns_live(phone, server, django_snippet):
    run = str(int(time.time() * 1000))[-8:]
    name_a, name_b = f"ann{run}", f"ben{run}"
    a, b = phone("A"), phone("B")

    # --- Sign up, league, table --------------------------------------------------------
    sign_up(a, name_a, "Ann")
    sign_up(b, name_b, "Ben")

    a.goto("/leagues/new/")
    a.fill("#id_name", f"Tuesday Club {run}")
    a.locator('input[name="visibility"][value="public"]').check()
    a.get_by_role("button", name="Create league").tap()
    expect(a.get_by_text("League created. You are its owner.")).to_be_visible()
    league_url = a.url

    b.goto(league_url)  # Ann shares the league's address
    b.get_by_role("button", name="Join this league").tap()
    expect(b.get_by_text(re.compile(r"You joined Tuesday Club"))).to_be_visible()

    a.reload()
    a.select_option("#id_seats", "3")
    a.get_by_role("button", name="Open a table").tap()
    a.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/", a.url).group(1))
    wait_live(a)
    expect(a.locator("#controls")).not_to_contain_text("Start")  # alone at the table

    b.goto(league_url)
    b.locator(f'#league-tables .league-table[data-game="{game_id}"] a').tap()
    b.wait_for_url(re.compile(rf"/games/{game_id}/$"))
    wait_live(b)
    b.locator("#controls").get_by_role("button", name="Sit").tap()
    # Ann's page shows Ben seated, and the Start button, without reloading.
    expect(a.locator("#players")).to_contain_text("Ben", timeout=LIVE)
    start = a.locator("#controls").get_by_role("button", name="Start")
    expect(start).to_be_visible(timeout=LIVE)
    start.tap()
    expect(a.locator("#stock-size")).to_be_visible(timeout=LIVE)
    expect(b.locator("#stock-size")).to_be_visible(timeout=LIVE)
    expect(b.locator("#hand [data-card]")).to_have_count(10, timeout=LIVE)

    # --- A known deal (see the module docstring), then both pages reload once ----------
    left = django_snippet(ARRANGE_DEAL, game_id, name_a, name_b, HAND_A, HAND_B, STOCK_TOP)
    assert int(left) == 33
    for page in (a, b):
        page.reload()
        wait_live(page)
    seat = {
        name: int(a.locator("#players tr.player", has_text=label).get_attribute("data-seat"))
        for name, label in (("A", "Ann"), ("B", "Ben"))
    }
    for page in (a, b):
        expect(page.locator("#stock-size")).to_have_text(stock(33))
        expect(player_row(page, seat["A"])).to_have_class(re.compile(r"\bto-move\b"))
    expect(a.locator("#status")).to_contain_text("Your turn.")
    expect(b.locator("#status")).to_contain_text("Ann’s turn.")
    expect(b.locator("#controls button")).to_have_count(0)
    for card in HAND_A.split():
        expect(a.locator(f'#hand [data-card="{card}"]')).to_have_count(1)
    no_horizontal_scroll(a)
    no_horizontal_scroll(b)

    # --- A draws twice; B's page follows ------------------------------------------------
    a.locator("#btn-draw").tap()
    expect(b.locator("#stock-size")).to_have_text(stock(32), timeout=LIVE)
    expect(player_row(b, seat["A"]).locator(".hand-size")).to_have_text("11", timeout=LIVE)
    expect(b.locator("#status")).to_contain_text("Drawn 1 card so far.", timeout=LIVE)
    expect(a.locator('#hand [data-card="4D"]')).to_have_count(1, timeout=LIVE)

    a.locator("#btn-draw").tap()
    expect(b.locator("#stock-size")).to_have_text(stock(31), timeout=LIVE)
    expect(player_row(b, seat["A"]).locator(".hand-size")).to_have_text("12", timeout=LIVE)
    expect(a.locator('#hand [data-card="10H"]')).to_have_count(1, timeout=LIVE)
    expect(a.locator("#hint")).to_contain_text("You have drawn 2 cards")
    # The card just drawn is marked until the next action.
    expect(a.locator("#hand .card.drawn")).to_have_count(1)
    expect(a.locator('#hand .card.drawn[data-card="10H"]')).to_have_count(1)

    # --- A melds 7H 8H 9H through the arrangement editor ---------------------------------
    a.locator("#btn-meld").tap()
    expect(a.locator("#btn-play")).to_be_visible(timeout=LIVE)
    expect(a.locator("#table-melds.editing")).to_have_count(1)
    for card in ("7H", "8H", "9H"):
        button = a.locator(f'#hand button.card[data-card="{card}"]')
        button.tap()
        expect(button).to_have_attribute("aria-pressed", "true", timeout=LIVE)
    # The cards are selected: the hand's count and points follow the draft once moved.
    a.locator("#btn-new-meld").tap()
    meld = a.locator('#table-melds .meld[data-meld="0"]')
    expect(meld.locator(".meld-verdict")).to_contain_text("✓ valid", timeout=LIVE)
    for card in ("7H", "8H", "9H"):
        expect(meld.locator(f'[data-card="{card}"]')).to_have_count(1)
        expect(a.locator(f'#hand [data-card="{card}"]')).to_have_count(0)
    # The draft is private: B's table is still empty.
    expect(b.locator("#table-melds [data-card]")).to_have_count(0)
    no_horizontal_scroll(a)
    shot(a, "play-editing", full_page=True)

    a.locator("#btn-play").tap()
    for card in ("7H", "8H", "9H"):
        expect(b.locator(f'#table-melds [data-card="{card}"]')).to_have_count(1, timeout=LIVE)
    expect(player_row(b, seat["A"]).locator(".hand-size")).to_have_text("9", timeout=LIVE)
    expect(player_row(b, seat["B"])).to_have_class(re.compile(r"\bto-move\b"), timeout=LIVE)
    expect(b.locator("#status")).to_contain_text("Your turn.", timeout=LIVE)
    expect(b.locator("#btn-draw")).to_be_visible(timeout=LIVE)
    expect(a.locator("#table-melds.editing")).to_have_count(0, timeout=LIVE)
    expect(a.locator("#status")).to_contain_text("Ben’s turn.", timeout=LIVE)
    expect(a.locator("#hand [data-card]")).to_have_count(9)
    # The header's "games awaiting your move" badge follows too (carried by the table's
    # own socket: the table page opens no ws/me/).
    expect(b.locator("#move-count")).to_have_text("1", timeout=LIVE)
    expect(a.locator("#move-count")).to_have_text("", timeout=LIVE)
    expect(a.locator("#flash")).to_have_text(re.compile(r"^\s*$"))

    # --- B draws three times: the third ends the turn (R3.4); A's page follows ---------
    for n, card in enumerate(("9C", "6D", "AH"), start=1):
        b.locator("#btn-draw").tap()
        expect(a.locator("#stock-size")).to_have_text(stock(31 - n), timeout=LIVE)
        expect(player_row(a, seat["B"]).locator(".hand-size")).to_have_text(
            str(10 + n), timeout=LIVE
        )
        expect(b.locator(f'#hand [data-card="{card}"]')).to_have_count(1, timeout=LIVE)
        if n < 3:
            expect(b.locator("#btn-meld")).to_be_visible(timeout=LIVE)
    expect(a.locator("#status")).to_contain_text("Your turn.", timeout=LIVE)
    expect(a.locator("#btn-draw")).to_be_visible(timeout=LIVE)
    expect(player_row(a, seat["A"])).to_have_class(re.compile(r"\bto-move\b"))
    expect(b.locator("#status")).to_contain_text("Ann’s turn.", timeout=LIVE)
    expect(b.locator("#controls button")).to_have_count(0, timeout=LIVE)
    expect(a.locator("#move-count")).to_have_text("1", timeout=LIVE)
    expect(b.locator("#move-count")).to_have_text("", timeout=LIVE)
    # The meld stayed on both tables.
    for page in (a, b):
        expect(page.locator("#table-melds .meld [data-card]")).to_have_count(3)
        no_horizontal_scroll(page)

    # Everything above came over ONE table socket per page, opened once since the reload
    # (no reconnects, and no second socket: the badge's socket on <body> used to make
    # htmx's ws extension connect #game twice).
    for page in (a, b):
        log = page.evaluate("JSON.stringify(window.__e2e.log)")
        assert page.evaluate("window.__e2e.opens") == 1, log
        assert page.evaluate("window.__e2e.closes") == 0, log

    # One success screenshot of each table page (test-artifacts/ is git-ignored).
    shot(a, "play-final-A", full_page=True)
    shot(b, "play-final-B", full_page=True)
