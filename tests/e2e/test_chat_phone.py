"""The table chat on two phones (360x740) in two languages: a typed message and a quick
phrase go both ways live, each phone reads the phrase in its own language, the table
and the hand do not move when a message arrives while arranging, the unread count
follows, and axe finds nothing serious with the chat open. The closed tab lies in the
dock and never over a meld or a card of the hand, at 20 melds, in each language, scrolled
anywhere. ``E2E_SHOTS=dir`` saves what the last test sees as PNGs."""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.axe import describe, serious_violations
from tests.e2e.helpers import box, open_table, shot, table_setup

pytestmark = pytest.mark.e2e

# Goes on from helpers.TABLE_CLUB: Ann, Ben and Cal in a league of theirs.
SETUP = """
game = game_at(editor_position(5, hand_size=10), users, league=league).pk
big = {lang: game_at(editor_position(20, hand_size=10), users, league=league).pk
       for lang in ("en", "lv", "et")}
print(json.dumps({"users": [u.username for u in users], "game": game, "big": big}))
"""


@pytest.fixture
def table(server_env):
    return table_setup(server_env, SETUP)


def unread(page):
    return page.locator("#chat-unread .count")


def clashes(page):
    """What is wrong with where the closed chat tab is: outside the dock, or over a meld
    or a card of the hand (its badge counted with it; of a meld, the part above the dock,
    the rest being behind the dock). [] when all is well."""
    return page.evaluate(
        """() => {
          const tab = document.querySelector("#chat-drawer summary");
          const boxes = [tab.getBoundingClientRect()];
          const badge = document.getElementById("chat-unread");
          if (!badge.hidden) boxes.push(badge.getBoundingClientRect());
          const dock = document.getElementById("dock").getBoundingClientRect();
          const cross = (a, b) => a.left < b.right && b.left < a.right
                                  && a.top < b.bottom && b.top < a.bottom;
          const wrong = [];
          for (const r of boxes) {
            if (r.left < dock.left || r.right > dock.right || r.top < dock.top
                || r.bottom > dock.bottom) wrong.push("outside the dock");
            for (const el of document.querySelectorAll(
                "#table-melds .meld, #btn-new-meld, #hand .card, #hand .sort-toggle a")) {
              const b = el.getBoundingClientRect();
              const seen = el.closest("#dock") ? b : {left: b.left, right: b.right, top: b.top,
                                                      bottom: Math.min(b.bottom, dock.top)};
              if (cross(r, seen))
                wrong.push(el.id || el.dataset.card || el.className);
            }
          }
          return wrong;
        }"""
    )


def test_two_phones_talk_in_two_languages(browser, server, request, table):
    ann_name, ben_name = table["users"][:2]
    game = table["game"]
    ann = open_table(browser, server, request, "ann-lv", ann_name, game, lang="lv")
    ben = open_table(browser, server, request, "ben-et", ben_name, game, lang="et")

    # Ann arranges the table; the chat is a closed tab above the dock.
    ann.locator("#btn-meld").click()
    expect(ann.locator("#btn-close")).to_be_visible()
    expect(unread(ann)).to_be_hidden()
    meld_before, hand_before = box(ann, "#table-melds .meld"), box(ann, "#hand")
    assert clashes(ann) == []  # in the dock, clear of the table and the hand

    # Ben opens the chat and types a message.
    ben.locator("#chat-drawer summary").click()
    ben.fill("#chat-text", "Tere, Ann!")
    ben.locator("#chat-send").click()
    expect(ben.locator("#chat-log")).to_contain_text("Tere, Ann!")
    expect(ben.locator("#chat-text")).to_have_value("")

    # It arrives at Ann's phone while she arranges: only the count changes.
    expect(unread(ann)).to_have_text("1")
    expect(unread(ann)).to_be_visible()
    assert box(ann, "#table-melds .meld") == meld_before
    assert box(ann, "#hand") == hand_before
    expect(ann.locator("#btn-close")).to_be_visible()  # still arranging
    shot(ann, "chat-ann-unread")

    # Ann opens the chat: the message is there, the count gone; axe is content.
    ann.locator("#chat-drawer summary").click()
    expect(ann.locator("#chat-log")).to_contain_text("Tere, Ann!")
    expect(unread(ann)).to_be_hidden()
    found = serious_violations(ann)
    assert not found, "chat open: " + describe(found)
    shot(ann, "chat-ann-open")

    # A quick phrase from Ann (Latvian), read by Ben in Estonian.
    phrase = ann.locator('.chat-phrase[data-phrase="well_played"]')
    expect(phrase).to_have_text("Labi nospēlēts")
    phrase.click()
    expect(ann.locator("#chat-log")).to_contain_text("Labi nospēlēts")
    expect(ben.locator("#chat-log")).to_contain_text("Hästi mängitud")
    shot(ben, "chat-ben-open")

    # Ben closes the chat; Ann's next message counts as unread on his phone.
    ben.locator("#chat-drawer summary").click()
    ann.fill("#chat-text", "Labvakar!")
    ann.locator("#chat-send").click()
    expect(unread(ben)).to_have_text("1")
    ben.locator("#chat-drawer summary").click()
    expect(ben.locator("#chat-log")).to_contain_text("Labvakar!")
    expect(unread(ben)).to_be_hidden()
    found = serious_violations(ben)
    assert not found, "chat open (et): " + describe(found)


@pytest.mark.parametrize("lang", ["en", "lv", "et"])
def test_the_closed_tab_lies_in_the_dock(browser, server, request, table, lang):
    """At 20 melds, waiting and arranging (scrolled to the top, the middle, the end), with
    and without an unread message: the closed tab is inside the dock and over no meld and
    no card of the hand; it is a 44 px target; it opens on demand."""
    ann_name, ben_name = table["users"][:2]
    game = table["big"][lang]
    ann = open_table(browser, server, request, f"ann-{lang}", ann_name, game, lang=lang)
    assert clashes(ann) == [], "waiting"
    tab = box(ann, "#chat-drawer summary")
    assert tab["w"] >= 44 and tab["h"] >= 44, f"the tab is a small target: {tab}"
    shot(ann, f"chat-tab-{lang}-waiting")

    ann.locator("#btn-meld").click()
    expect(ann.locator("#btn-close")).to_be_visible()
    for where in ("top", "middle", "end"):
        if where == "middle":
            ann.evaluate(
                "() => window.scrollBy(0, document.getElementById('meld-9')"
                ".getBoundingClientRect().top - 200)"
            )
        elif where == "end":
            ann.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        assert clashes(ann) == [], f"arranging, scrolled to the {where}"
        shot(ann, f"chat-tab-{lang}-arranging-{where}")

    # A message arrives while Ann arranges: the count shows on the tab, still in the dock.
    ann.evaluate("() => window.scrollTo(0, 0)")
    ben = open_table(browser, server, request, f"ben-{lang}", ben_name, game, lang=lang)
    ben.locator("#chat-drawer summary").click()
    ben.fill("#chat-text", "Hi")
    ben.locator("#chat-send").click()
    expect(unread(ann)).to_have_text("1")
    expect(unread(ann)).to_be_visible()
    assert clashes(ann) == [], "with an unread message"
    shot(ann, f"chat-tab-{lang}-unread")

    # Opened on demand: the panel over the table, the tab where it was.
    ann.locator("#chat-drawer summary").click()
    expect(ann.locator("#chat-log")).to_contain_text("Hi")
    expect(unread(ann)).to_be_hidden()
    assert clashes(ann) == [], "the tab of the open chat"
    shot(ann, f"chat-tab-{lang}-open")
    ann.locator("#chat-drawer summary").click()
    ann.locator("#btn-close").click()
