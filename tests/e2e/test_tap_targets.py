"""Tap targets: every link and control of the main pages is at least 44x44
CSS px on a 360x740 phone, in en, lv and et.

What is measured: every visible ``a[href]``, ``button``, ``input`` (not hidden),
``select``, ``textarea`` and ``summary``, and the ``label`` of each checkbox and radio
button. The box is the element's border box; for an element laid out inline (a link
that may break over lines) the height is that of its tallest line box, since a finger
lands on one line of it.

The rule, and its two exceptions:

* A checkbox or radio button passes when it or its label is large enough: the label
  toggles it, and the label is the tap target.
* WCAG 2.5.8's inline exception: a link laid out inline inside a sentence (its parent
  holds words of its own, outside any element) may be as tall as the line. The site
  uses it only where a page opts in (``.prose``, ``.helptext``'s rule links,
  ``a.in-text``): by default every link is a 44 px target, a sentence's link too
  (static/css/site.css, "Tap targets").
* Elements that are not rendered (``display: none``, ``visibility: hidden``, no box)
  or are visually hidden for screen readers (``.sr-only``: a 1x1 box) are not tap
  targets.

The table page (/games/<id>/) is measured by its own tests.
"""

import pytest

from tests.e2e.conftest import log_in, run_setup
from tests.e2e.helpers import DEMO_PASSWORD, LANGUAGES, phone_in

pytestmark = pytest.mark.e2e

TAP = 44  # CSS px (WCAG 2.5.5, and the site's --tap)

# The demo cast (load_demo) with finished games in the active season, so the
# standings, the ratings, the results and the profile's table have rows; and one invite link.
SEED = """
import json
from django.core.management import call_command
from django.utils import timezone
from leagues.models import Invite, League, User
from rummy.models import Game, Seat

call_command("load_demo", stdout=open("/dev/null", "w"))
league = League.objects.get(slug="riga-rummy-club")
season = league.seasons.get(status="active")
users = {u.username: u for u in User.objects.filter(username__in="alice bob carol dave".split())}
if not league.games.filter(status=Game.Status.FINISHED).exists():
    for results in (
        [("alice", 104, 3, True), ("bob", 61, 1, False), ("carol", 40, 0, False)],
        [("dave", 101, 2, True), ("alice", 87, 2, False)],
    ):
        now = timezone.now()
        game = Game.objects.create(league=league, season=season, started_at=now,
                                   finished_at=now, status=Game.Status.FINISHED)
        for number, (name, score, rounds, won) in enumerate(results):
            Seat.objects.create(game=game, user=users[name], number=number,
                                final_score=score, rounds_won=rounds, is_winner=won)
# The games above did not go through the write path: rate them (the leaderboard, the
# standings' rating column and the profile's ratings have rows).
call_command("recompute_ratings", stdout=open("/dev/null", "w"))
if not league.invites.exists():
    Invite.objects.create(league=league, created_by=users["alice"], max_uses=5)
print(json.dumps({"slug": league.slug, "season": season.pk}))
"""

LOGGED_OUT = {
    "home": "/",
    "log-in": "/accounts/login/",
    "sign-up": "/accounts/signup/",
    "password reset": "/accounts/password_reset/",
}


def logged_in_pages(slug, season):
    league = f"/leagues/{slug}/"
    return {
        "home": "/",
        "league list": "/leagues/",
        "league": league,
        "members": league + "members/",
        "invites": league + "invites/",
        "seasons": league + "seasons/",
        "season": f"{league}seasons/{season}/",
        "season form": league + "seasons/new/",
        "profile": "/u/alice/",
        "notification settings": "/notifications/",
        "league create": "/leagues/new/",
    }


# Returns the elements below the size, each {what, width, height}.
MEASURE = """
(tap) => {
  const SELECTOR = "a[href], button, input:not([type=hidden]), select, textarea, summary, label";
  const toggles = (el) => el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio");
  function rendered(el) {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") return false;
    const box = el.getBoundingClientRect();
    return box.width > 1 && box.height > 1;  // .sr-only: a 1x1 clipped box
  }
  function size(el) {
    const box = el.getBoundingClientRect();
    let height = box.height;
    if (getComputedStyle(el).display === "inline") {
      height = Math.max(0, ...Array.from(el.getClientRects(), (r) => r.height));
    }
    return {width: box.width, height: height};
  }
  const big = (s) => s.width + 0.01 >= tap && s.height + 0.01 >= tap;
  function inSentence(el) {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    return Array.from(el.parentNode.childNodes).some(
      (n) => n.nodeType === Node.TEXT_NODE && /\\p{L}/u.test(n.textContent));
  }
  function what(el) {
    let name = el.tagName.toLowerCase();
    if (el.type && el.tagName === "INPUT") name += `[type=${el.type}]`;
    if (el.id) name += "#" + el.id;
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim();
    return `${name} "${text.replace(/\\s+/g, " ").slice(0, 40)}"`;
  }
  const small = [];
  for (const el of document.querySelectorAll(SELECTOR)) {
    if (el.tagName === "LABEL" && !(el.control && toggles(el.control))) continue;
    if (!rendered(el) || inSentence(el)) continue;
    const s = size(el);
    if (big(s)) continue;
    const labels = Array.from(el.labels || []);
    if (toggles(el) && labels.some((l) => rendered(l) && big(size(l)))) continue;
    small.push({what: what(el), width: Math.round(s.width), height: Math.round(s.height)});
  }
  return small;
}
"""


def small_targets(page):
    return page.evaluate(MEASURE, TAP)


def report(found):
    lines = []
    for (language, user, page), small in found.items():
        lines.append(f"{page} ({user}, {language}):")
        lines += [f"    {s['what']}: {s['width']}x{s['height']}" for s in small]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def seeded(server, server_env):
    return run_setup(server_env, SEED)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_link_and_control_is_a_44px_target(browser, server, seeded, request, language):
    page = phone_in(browser, server, request, language)
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    found = {}
    for name, path in LOGGED_OUT.items():
        page.goto(path)
        assert page.locator("html").get_attribute("lang") == language
        if small := small_targets(page):
            found[(language, "logged out", name)] = small
    log_in(page, "alice", DEMO_PASSWORD)  # the owner: every admin control is on her pages
    for name, path in logged_in_pages(seeded["slug"], seeded["season"]).items():
        answer = page.goto(path)
        assert answer.status == 200, (path, answer.status)
        assert page.locator("html").get_attribute("lang") == language
        if small := small_targets(page):
            found[(language, "alice", name)] = small
    assert not found, "tap targets smaller than 44x44 CSS px:\n" + report(found)
    # The icons the pages link, and the /favicon.ico a browser asks for, are all there.
    assert page.request.get("/favicon.ico").ok
    assert missing == []


def test_the_measure_finds_a_small_link(browser, server, request):
    """The measure itself: a bare text link is caught, a radio's big label passes it,
    a link in a sentence laid out inline is exempt, a visually hidden one is skipped."""
    page = phone_in(browser, server, request, "en")
    page.set_content(
        """<style>body{font:16px/1.45 sans-serif} label{display:flex;min-height:44px}</style>
        <p><a href="/x" id="bare">Forgot your password?</a></p>
        <p>New here? <a href="/y" id="sentence">Create an account</a></p>
        <label><input type="radio" name="r" id="big"> A roomy label</label>
        <input type="checkbox" id="lonely">
        <a href="/z" style="position:absolute;width:1px;height:1px;overflow:hidden">skip</a>"""
    )
    small = {s["what"].split(" ")[0] for s in small_targets(page)}
    assert small == {"a#bare", "input[type=checkbox]#lonely"}
