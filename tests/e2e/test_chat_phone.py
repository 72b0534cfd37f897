"""The table chat on two phones (360x740) in two languages: a typed message and a quick
phrase go both ways live, each phone reads the phrase in its own language, the table
and the hand do not move when a message arrives while arranging, the unread count
follows, and axe finds nothing serious with the chat open."""

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
print(json.dumps({"users": [u.username for u in users], "game": game}))
"""


@pytest.fixture
def table(server_env):
    return table_setup(server_env, SETUP)


def unread(page):
    return page.locator("#chat-unread .count")


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
    drawer = box(ann, "#chat-drawer")
    assert drawer["y"] + drawer["h"] <= box(ann, "#dock")["y"]  # never over the hand

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
