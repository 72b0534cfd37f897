"""What the browser tests share besides fixtures: a phone in a language, the checks every
phone page passes (no sideways scroll, nothing axe calls serious), screenshots, and the
game table on a phone (open it, measure it, tap it). The fixtures, the server and
``run_setup`` are in conftest.py."""

import json
import os
import uuid
from pathlib import Path

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.axe import describe, serious_violations
from tests.e2e.conftest import ARTIFACTS, PHONE, SOCKET_PROBE, WAIT_MS, log_in, run_setup

LANGUAGES = ("en", "lv", "et")
PASSWORD = "pw-for-tests-123"  # every user a setup script makes with the factories
SIGN_UP_PASSWORD = "e2e-Carousel-pass-42"  # one the sign-up form takes
DEMO_PASSWORD = "carousel-demo"  # the demo cast's (manage.py load_demo)
MAX_SHIFT = 8  # px: the most anything under the finger may move on a tap


def shot(page, name, full_page=False):
    """Save what ``page`` (or a locator) shows as ``<name>.png`` in the directory
    ``$E2E_SHOTS`` when it is set, else in test-artifacts/e2e (git-ignored)."""
    folder = Path(os.environ.get("E2E_SHOTS") or ARTIFACTS)
    folder.mkdir(parents=True, exist_ok=True)
    options = {"full_page": True} if full_page else {}
    page.screenshot(path=str(folder / f"{name}.png"), **options)


def no_sideways_scroll(page, slack=0):
    """Whether the page is no wider than the screen (up to ``slack`` px wider)."""
    return page.evaluate(
        "slack => document.documentElement.scrollWidth <= window.innerWidth + slack", slack
    )


def phone_in(browser, server, request, language, username=None, password=PASSWORD):
    """A 360x740 page in ``language``, logged in as ``username`` when one is given; its
    context is closed after the test, and the page saved on failure under the language's
    name."""
    context = browser.new_context(base_url=server, locale=language, **PHONE)
    # The browser's language and the switcher's cookie: a player's stored language
    # (set by earlier visits) must not turn the pages back to another.
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    context.set_default_timeout(WAIT_MS)
    request.addfinalizer(context.close)
    page = context.new_page()
    request.node.e2e_pages = getattr(request.node, "e2e_pages", {})
    request.node.e2e_pages[language] = page
    if username:
        log_in(page, username, password)
    return page


def submit_sign_up(page, username, display_name, address, password):
    """Fill in the sign-up form ``page`` shows and send it (the caller waits for what
    it expects to come next)."""
    page.fill("#id_username", username)
    page.fill("#id_display_name", display_name)
    page.fill("#id_email", address)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.get_by_role("button", name="Sign up").tap()


def check(page, language, what, problems):
    """No sideways scroll and no serious axe finding on what ``page`` shows now; what is
    wrong is added to ``problems``. With ``E2E_SHOTS`` set, every page as it was checked
    is saved there."""
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
    if os.environ.get("E2E_SHOTS"):
        name = what.split(",")[0].replace(" ", "-")
        shot(page, f"{name}-{language}", full_page=True)


# --- the game table -------------------------------------------------------------------

# The start of a table module's setup script: Ann, Ben and Cal (their usernames made
# unique by ``tag``) in a league of Ann's, and what the scripts make games with.
TABLE_CLUB = """
import json
from tests.factories import game_at, make_league, make_season, make_user
from tests.positions import editor_position, table_position
tag = sys.argv[1]
users = [make_user(f"{n}{tag}", display_name=n.title(), password="pw-for-tests-123")
         for n in ("ann", "ben", "cal")]
league = make_league(users[0], members=users[1:], name="Club " + tag)
"""


def table_setup(env, code):
    """``run_setup`` for a script that goes on from ``TABLE_CLUB``."""
    return run_setup(env, TABLE_CLUB + code, uuid.uuid4().hex[:6])


# Night Owls <sys.argv[1]>, Marta's league by invite only (and another league of
# someone else's), and an invite to it: prints the invite's and the league's addresses.
INVITE_LEAGUE = """
from leagues import services
from leagues.models import League, User

run = sys.argv[1]
owner = User.objects.create_user(
    f"owner{run}", f"owner{run}@example.com", "x-unused-password-42", display_name="Marta"
)
league = services.create_league(
    owner, name=f"Night Owls {run}", description="Thursday nights, slow games.",
    visibility=League.Visibility.INVITE,
)
services.create_league(User.objects.create_user(f"other{run}", f"other{run}@example.com",
    "x-unused-password-42", display_name="Zed"), name=f"Other {run}")
invite = services.create_invite(owner, league, max_uses=3)
print(invite.get_absolute_url(), league.get_absolute_url())
"""


# A player (username sys.argv[1], display name sys.argv[2]) who logs in with PASSWORD.
ONE_PLAYER = """
import json
from tests.factories import make_user
user = make_user(sys.argv[1], display_name=sys.argv[2], password="pw-for-tests-123")
print(json.dumps(user.username))
"""


def one_player(env, display_name):
    """A new player (``ONE_PLAYER``) named ``display_name``: their username, the name in
    lower case made unique."""
    return run_setup(env, ONE_PLAYER, display_name.lower() + uuid.uuid4().hex[:6], display_name)


# Ada and Bo (usernames sys.argv[1] and sys.argv[1] + "b") in a league of Ada's, and a
# two-player game of theirs, hands of 10, in the position tests.positions' function
# sys.argv[2] makes of sys.argv[3] melds and the keywords in JSON sys.argv[4].
ADA_AND_BO = """
import json
from tests import positions
from tests.factories import make_league, make_user, started_game
a = make_user(sys.argv[1], display_name="Ada", password="pw-for-tests-123")
b = make_user(sys.argv[1] + "b", display_name="Bo", password="pw-for-tests-123")
make_position = getattr(positions, sys.argv[2])
position = make_position(int(sys.argv[3]), players=2, hand_size=10, **json.loads(sys.argv[4]))
game = started_game([a, b], league=make_league(a, members=[b]), state=position)
print(game.pk)
"""


def ada_and_bo(env, position, melds, **options):
    """Ada and Bo's game (``ADA_AND_BO``; ``position``: ``"table_position"`` or
    ``"editor_position"``): (Ada's username, the game's id); Bo's is Ada's + "b", both
    log in with ``PASSWORD``."""
    username = "ada" + uuid.uuid4().hex[:6]
    return username, run_setup(env, ADA_AND_BO, username, position, melds, json.dumps(options))


# Bytes of every frame the table's socket received, and the page's live counters.
FRAME_LOG = """
(() => {
  window.__sizes = [];
  document.addEventListener("htmx:wsAfterMessage", (e) => {
    if (e.target && e.target.id === "game") { window.__sizes.push(e.detail.message.length); }
  });
})();
"""


def open_table(browser, server, request, name, username, game_id, size=None, lang="en"):
    """A page logged in as ``username`` on the game's table, its socket open: a phone
    (``size``: another screen) whose browser and language cookie are ``lang``."""
    context = browser.new_context(base_url=server, locale=lang, **(size or PHONE))
    context.set_default_timeout(WAIT_MS)
    context.add_cookies([{"name": "django_language", "value": lang, "url": server}])
    context.add_init_script(SOCKET_PROBE)
    context.add_init_script(FRAME_LOG)
    request.node.e2e_pages = getattr(request.node, "e2e_pages", {})
    page = context.new_page()
    request.node.e2e_pages[name] = page
    log_in(page, username, PASSWORD)  # logged in first
    page.goto(f"/games/{game_id}/")
    page.wait_for_function("() => window.__e2e && window.__e2e.opens >= 1")
    if page.locator("#btn-close").count():  # an earlier test left the editor open
        page.locator("#btn-close").click()
        expect(page.locator("#btn-close")).to_have_count(0)
    return page


def wait_live(page, opens=1):
    """The table page's socket is open (its first frame comes only when the view changed
    since the page was rendered: rummy.table.rendering.Frames.stamp)."""
    page.wait_for_function(
        "n => window.__e2e && window.__e2e.opens >= n",
        arg=opens,
        timeout=WAIT_MS,
    )


def box(page, selector):
    """The element's rectangle on screen (viewport coordinates), or None."""
    return page.evaluate(
        """s => { const e = document.querySelector(s); if (!e) return null;
                  const r = e.getBoundingClientRect();
                  return {x: r.left, y: r.top, w: r.width, h: r.height}; }""",
        selector,
    )


def viewport(page):
    return page.evaluate("() => ({w: window.innerWidth, h: window.innerHeight})")


def dock_top(page):
    return box(page, "#dock")["y"]


def bring_into_view(page, selector):
    """Scroll (as a person would, before tapping) so that ``selector`` sits in the part
    of the screen the dock leaves free."""
    b = box(page, selector)
    assert b is not None, f"{selector} is not on the page"
    if "#dock" in selector or page.evaluate(
        "s => !!document.querySelector(s).closest('#dock')", selector
    ):
        return
    free_bottom = dock_top(page) - 10
    if b["y"] < 60 or b["y"] + b["h"] > free_bottom:
        page.evaluate("dy => window.scrollBy(0, dy)", b["y"] - 120)


def tap(page, selector, measure=None, expect_message=False):
    """Tap ``selector`` at its centre; wait for the answer; return the shift (dx, dy) of
    ``measure`` (default: what was tapped) and check the message is on screen."""
    measure = measure or selector
    bring_into_view(page, selector)
    target = box(page, selector)
    before = box(page, measure)
    frames = page.evaluate("() => window.__e2e.frames")
    x, y = target["x"] + target["w"] / 2, target["y"] + target["h"] / 2
    if viewport(page)["w"] < 700:  # a phone: a touch
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    page.wait_for_function("n => window.__e2e.frames > n", arg=frames)
    # Two rendered frames: the swap has settled and the page re-anchored (the dock's
    # ResizeObserver runs in the first).
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    after = box(page, measure)
    assert after is not None, f"{measure} is gone after the tap on {selector}"
    shift = (round(after["x"] - before["x"], 1), round(after["y"] - before["y"], 1))
    assert abs(shift[0]) <= MAX_SHIFT and abs(shift[1]) <= MAX_SHIFT, (
        f"tapping {selector} moved {measure} by {shift}"
    )
    flash = box(page, "#flash .message")
    if expect_message:
        assert flash is not None, f"tapping {selector} showed no message"
    if flash is not None:
        view = viewport(page)
        assert flash["y"] >= 0 and flash["y"] + flash["h"] <= view["h"], "message off screen"
    in_reach(page)
    return shift


def in_reach(page):
    """The hand and the buttons are on screen without scrolling."""
    view = viewport(page)
    for part in ("#hand", "#controls"):
        b = box(page, part)
        assert b is not None and b["y"] >= 0 and b["y"] + b["h"] <= view["h"] + 1, (
            f"{part} is not on screen: {b}"
        )
