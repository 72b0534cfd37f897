"""The game page on a phone (360x740 touch), the last mile: the footer reachable past the
dock, a 20-meld editor in at most 2.5 screens, nothing moving under the finger or the
eye on any editor tap, messages that never hide the melds, one-line action labels with
Hint present in every language, and no sideways scrolling on the profile.

Positions are real sizes (tests/positions.py: 20 melds, a late round). Taps are touches
at the centre of what is on screen (tests/e2e/helpers.py's ``tap``), never a
forced click. The states checked here are saved as PNGs (``shot``).
"""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import PHONE
from tests.e2e.helpers import MAX_SHIFT, box, open_table, shot, table_setup, viewport

pytestmark = pytest.mark.e2e

# Goes on from helpers.TABLE_CLUB: Ann, Ben and Cal in a league of theirs.
SETUP = """
make_season(league, hints_allowed=True)
games = {}
# The profile's filter: a league and a season with long names (the season's option reads
# "<league> · <season>").
wide = make_league(users[0], members=users[1:], name="Rīgas kāršu klubs un Tallinna sõbrad")
make_season(wide, name="Pavasaris un vasara 2026 / Kevad ja suvi 2026")
for name in ("footer", "height", "new", "layoff", "draw-top", "draw-middle", "draw-bottom",
             "draw-instead", "hint", "refusal", "labels"):
    games[name] = game_at(editor_position(20, hand_size=10), users, league=league).pk
print(json.dumps({"users": [u.username for u in users], "games": games}))
"""


@pytest.fixture(scope="module")
def games(server_env):
    return table_setup(server_env, SETUP)


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


def settled(page, frames):
    """Wait for the socket's answer to a tap and for the page to have re-anchored (two
    animation frames after the swap)."""
    page.wait_for_function("n => window.__e2e.frames > n", arg=frames)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def touch(page, selector):
    """A touch at the centre of ``selector`` as it is on screen now; waits for the answer.
    Returns the point touched."""
    b = box(page, selector)
    assert b is not None, f"{selector} is not on the page"
    x, y = b["x"] + b["w"] / 2, b["y"] + b["h"] / 2
    in_dock = page.evaluate("s => !!document.querySelector(s).closest('#dock')", selector)
    bottom = viewport(page)["h"] if in_dock else box(page, "#dock")["y"]
    assert 0 <= y <= bottom, f"{selector} is not in the free part of the screen: {b}"
    frames = page.evaluate("() => window.__e2e.frames")
    page.touchscreen.tap(x, y)
    settled(page, frames)
    return x, y


def first_meld_in_view(page):
    """The id and rectangle of the first meld whose bottom is on screen."""
    return page.evaluate(
        """() => { for (const m of document.querySelectorAll("#table-melds .meld")) {
                     const r = m.getBoundingClientRect();
                     if (r.bottom > 0) return {id: m.id, x: r.left, y: r.top}; }
                   return null; }"""
    )


def moved(before, after):
    return max(abs(after["x"] - before["x"]), abs(after["y"] - before["y"]))


def scroll_to(page, selector, top=120):
    page.evaluate(
        "([s, top]) => window.scrollBy(0, document.querySelector(s).getBoundingClientRect().top"
        " - top)",
        [selector, top],
    )


def open_editor(page):
    page.locator("#btn-meld").click()
    expect(page.locator("#btn-play")).to_be_visible()


def test_the_editor_at_20_melds_fits_in_two_and_a_half_screens(browser, server, request, games):
    """With Hint present (the dock at its tallest) and no target smaller than a card."""
    page = open_table(browser, server, request, "ann", games["users"][0], games["games"]["height"])
    open_editor(page)
    expect(page.locator("#btn-hint")).to_be_visible()
    view = viewport(page)
    height = page_height(page)
    print(f"editor at 20 melds: {height} px ({height / view['h']:.2f} screens)")
    shot(page, "editor-20-full", full_page=True)
    shot(page, "editor-20")
    assert height <= 2.5 * view["h"], f"the editor is {height / view['h']:.2f} screens tall"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= view["w"]
    small = page.evaluate(
        """() => [...document.querySelectorAll(
                 "#table-melds button.card, #table-melds .meld-target, #btn-new-meld")]
               .map(b => b.getBoundingClientRect())
               .filter(r => r.width < 32 || r.height < 44)
               .map(r => [r.width, r.height])"""
    )
    assert small == [], f"targets smaller than a card: {small}"
    # Every meld keeps its cards on as few lines as before: a meld of up to four cards
    # and its "+" slot on one line.
    tall = page.evaluate(
        """() => [...document.querySelectorAll("#table-melds .meld")]
               .filter(m => m.querySelectorAll("button.card").length <= 4)
               .filter(m => m.getBoundingClientRect().height > 70).map(m => m.id)"""
    )
    assert tall == [], f"short melds wrapped onto a second line: {tall}"
    page.context.close()


def test_new_meld_moves_nothing_in_view(browser, server, request, games):
    """Each "+ New meld" tap: the melds in view stay where they were, and the new meld
    appears where the finger was (the slot moves on)."""
    page = open_table(browser, server, request, "ann", games["users"][0], games["games"]["new"])
    open_editor(page)
    scroll_to(page, "#btn-new-meld", top=300)
    for i in range(3):
        count = page.locator("#table-melds .meld").count()
        touch(page, "#hand button.card:not(.joker)")
        before, slot = first_meld_in_view(page), box(page, "#btn-new-meld")
        touch(page, "#btn-new-meld")
        expect(page.locator("#table-melds .meld")).to_have_count(count + 1)
        after = box(page, f"#{before['id']}")
        assert moved(before, after) <= MAX_SHIFT, f"tap {i}: {before['id']} moved"
        new = box(page, f"#meld-{count}")
        assert moved(slot, new) <= MAX_SHIFT, f"tap {i}: the new meld is not where the slot was"
    shot(page, "new-meld-after-three")
    page.locator("#btn-close").click()
    page.context.close()


def test_a_lay_off_on_plus_leaves_plus_under_the_finger(browser, server, request, games):
    """A card laid off on a meld's "+" joins the meld; the "+" stays where it was, so the
    next tap at the same point lays off again; the melds in view do not move."""
    page = open_table(browser, server, request, "ann", games["users"][0], games["games"]["layoff"])
    open_editor(page)
    scroll_to(page, "#meld-3")
    for meld in (3, 4, 4, 5, 2):  # a meld grows from three cards to four, then five
        target = f"#meld-{meld} .meld-target"
        touch(page, "#hand button.card:not(.joker)")
        before, plus = first_meld_in_view(page), box(page, target)
        cards = page.locator(f"#meld-{meld} button.card").count()
        x, y = touch(page, target)
        expect(page.locator(f"#meld-{meld} button.card")).to_have_count(cards + 1)
        assert moved(plus, box(page, target)) <= MAX_SHIFT, f"the + of meld {meld} moved"
        assert moved(before, box(page, f"#{before['id']}")) <= MAX_SHIFT, (
            f"laying off on meld {meld} moved {before['id']}"
        )
        under = page.evaluate("([x, y]) => document.elementFromPoint(x, y).className", [x, y])
        assert "meld-target" in under, f"after the lay-off the finger is on {under}"
    shot(page, "lay-off-after-five")
    page.locator("#btn-reset").click()
    page.locator("#btn-close").click()
    page.context.close()


@pytest.mark.parametrize("where", ["top", "middle", "bottom"])
def test_a_draw_moves_nothing_in_view(browser, server, request, games, where):
    page = open_table(
        browser, server, request, "ann", games["users"][0], games["games"][f"draw-{where}"]
    )
    if where == "middle":
        scroll_to(page, "#meld-9")
    elif where == "bottom":
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    # What the player looks at: the first meld in view, and the players' panel if it is.
    watched = [f"#{first['id']}"] if (first := first_meld_in_view(page)) else []
    if box(page, "#players")["y"] < box(page, "#dock")["y"]:
        watched.append("#players")
    assert watched
    for draw in range(2):  # the second and third draw (the third ends the turn, R3.4)
        before = {w: box(page, w) for w in watched}
        touch(page, "#btn-draw")
        for w in watched:
            assert moved(before[w], box(page, w)) <= MAX_SHIFT, f"draw {draw} moved {w}"
    page.context.close()


def test_draw_instead_keeps_the_meld_in_view(browser, server, request, games):
    """Drawing from the editor closes it: the first meld in view stays at its height."""
    page = open_table(
        browser, server, request, "ann", games["users"][0], games["games"]["draw-instead"]
    )
    for where in ("#meld-9", "#btn-new-meld"):
        open_editor(page)
        scroll_to(page, where, top=200)
        before = first_meld_in_view(page)
        touch(page, "#btn-draw")
        expect(page.locator("#btn-play")).to_have_count(0)
        after = box(page, f"#{before['id']}")
        assert abs(after["y"] - before["y"]) <= MAX_SHIFT, f"{before['id']} moved: {after}"


@pytest.mark.parametrize("lang", ["en", "lv", "et"])
def test_every_action_label_fits_on_one_line_with_hint(browser, server, request, games, lang):
    page = open_table(
        browser, server, request, "ann", games["users"][0], games["games"]["labels"], lang=lang
    )
    for state in ("your turn", "arranging"):
        if state == "arranging":
            open_editor(page)
        expect(page.locator("#btn-hint")).to_be_visible()
        labels = page.evaluate(
            """() => [...document.querySelectorAll("#controls button")].map(b => {
                 const text = document.createRange(); text.selectNodeContents(b);
                 const lines = new Set([...text.getClientRects()].map(r => Math.round(r.top)));
                 const r = b.getBoundingClientRect(), t = text.getBoundingClientRect();
                 return {id: b.id, label: b.textContent.trim(), lines: lines.size,
                         room: Math.min(t.left - r.left, r.right - t.right)}; })"""
        )
        for label in labels:
            assert label["lines"] == 1, f"{state}, {lang}: {label} wraps"
            assert label["room"] >= 6, f"{state}, {lang}: {label} touches its border"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport(page)["w"]
        shot(page, f"labels-{lang}-{state.replace(' ', '-')}")
    page.locator("#btn-close").click()
    page.context.close()


def hidden_melds(page, melds):
    """Which of ``melds`` (ids) are not wholly in the part of the screen that neither the
    message nor the dock covers."""
    return page.evaluate(
        """ids => { const flash = document.querySelector("#flash .message");
                    const dock = document.querySelector("#dock").getBoundingClientRect();
                    const bottom = flash ? flash.getBoundingClientRect().top : dock.top;
                    return ids.filter(id => { const r = document.getElementById(id)
                                                .getBoundingClientRect();
                                              return r.top < 0 || r.bottom > bottom; }); }""",
        melds,
    )


def melds_now(page):
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("#table-melds .meld")].map(
             m => [m.id, [...m.querySelectorAll("[data-card]")].map(c => c.dataset.card)
                          .join(" ")]))"""
    )


@pytest.mark.parametrize("scrolled", ["top", "end"])
def test_a_hint_shows_the_melds_it_laid_out(browser, server, request, games, scrolled):
    page = open_table(browser, server, request, "ann", games["users"][0], games["games"]["hint"])
    if scrolled == "end":
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    before = melds_now(page)
    touch(page, "#btn-hint")
    expect(page.locator("#flash .message")).to_contain_text("Hint:")
    after = melds_now(page)
    changed = [m for m in after if before.get(m) != after[m]]
    assert changed, "the hint changed no meld"
    shot(page, f"hint-{scrolled}")
    assert hidden_melds(page, changed[:1]) == [], (
        f"the message or the dock hides {changed[0]}, which the hint laid out"
    )
    page.locator("#btn-reset").click()
    page.locator("#btn-close").click()
    expect(page.locator("#btn-meld")).to_be_visible()
    page.context.close()


def test_a_refused_play_shows_the_meld_that_is_not_valid(browser, server, request, games):
    page = open_table(browser, server, request, "ann", games["users"][0], games["games"]["refusal"])
    open_editor(page)
    scroll_to(page, "#btn-new-meld", top=200)
    touch(page, "#hand button.card:not(.joker)")
    count = page.locator("#table-melds .meld").count()
    touch(page, "#btn-new-meld")  # a meld of one card: not valid (R4.1)
    expect(page.locator("#table-melds .meld.invalid")).to_have_count(1)
    page.evaluate("() => window.scrollTo(0, 0)")
    touch(page, "#btn-play")
    expect(page.locator("#flash .message.error")).to_be_visible()
    shot(page, "play-refused")
    invalid = page.evaluate("() => document.querySelector('#table-melds .meld.invalid').id")
    assert invalid == f"meld-{count}"
    assert hidden_melds(page, [invalid]) == [], "the refusal hides the meld it is about"
    page.locator("#btn-reset").click()
    page.locator("#btn-close").click()
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "lv", "et"])
def test_the_profile_filter_does_not_scroll_sideways(browser, server, request, games, lang):
    page = open_table(
        browser, server, request, "ann", games["users"][0], games["games"]["footer"], lang=lang
    )
    page.goto(f"/u/{games['users'][0]}/")
    expect(page.locator(".history-filter")).to_be_visible()
    # The phone's width, not innerWidth: a mobile browser widens its layout viewport to
    # content that overflows, which is what is measured here.
    width = PHONE["viewport"]["width"]
    outside = page.evaluate(
        """w => [...document.querySelectorAll(".history-filter, .history-filter *")]
               .map(e => [e.tagName + (e.id ? "#" + e.id : ""), e.getBoundingClientRect()])
               .filter(([, r]) => r.width && (r.left + scrollX < 0 || r.right + scrollX > w))
               .map(([name, r]) => `${name}: ${Math.round(r.left)}-${Math.round(r.right)}`)""",
        width,
    )
    assert outside == [], f"past the screen's edge at {width} px: {outside}"
    assert page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]") == [
        width,
        width,
    ]
    page.locator(".history-filter").scroll_into_view_if_needed()
    assert page.evaluate("() => scrollX") == 0, "the page scrolled sideways to the form"
    shot(page, f"profile-filter-{lang}")
    page.select_option("#filter-season", index=1)
    page.locator(".history-filter button").tap(timeout=5_000)
    page.wait_for_url(lambda url: "season=" in url)
    page.context.close()
