"""Practice: from the home page a person starts a game against a bot at a
phone's size (360x740) and plays at once; the bot's moves, played by the background
worker (``manage.py run_worker``, its look every half second) after its pause, appear
live on the page (on this one-process set-up, with the in-memory channel layer, the
worker's broadcast cannot reach the server's sockets: they follow a game with bots by
its version, ``rummy.table.bot_follow``), and the bot is shown
as a bot."""

import os
import signal
import subprocess

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import ROOT, _python, log_in
from tests.e2e.helpers import PASSWORD, one_player, shot

pytestmark = pytest.mark.e2e

# The bot's pause is BOT_DELAY (2 to 6 s) per step, a draw and a meld or up to three
# draws: its turn takes up to about 20 s.
BOT_TURN = 40_000


@pytest.fixture
def worker(server_env, tmp_path):
    """The background worker, as `make run` starts it; stopped (SIGTERM) afterwards."""
    log_path = tmp_path / "run_worker.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [_python(), "manage.py", "run_worker"],
            cwd=ROOT,
            env=server_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        yield proc
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def test_practice_against_a_bot_on_a_phone(phone, server_env, worker):
    username = one_player(server_env, "Pia")
    page = phone("pia")
    log_in(page, username, PASSWORD)

    practice = page.locator("#practice")
    expect(practice).to_be_visible()
    practice.get_by_label("Bots").select_option("1")
    practice.get_by_label("Level").select_option("beginner")
    page.locator("#btn-practice").click()
    page.wait_for_url("**/games/*/")
    expect(page.locator(".game-title")).to_contain_text("Practice")
    bot_row = page.locator("#players tr.player", has_text="Bot (beginner)")
    expect(bot_row).to_be_visible()
    expect(bot_row.locator(".bot-icon")).to_be_visible()

    # Whoever deals, it becomes Pia's turn (the bot plays its own live): she draws.
    draw = page.locator("#btn-draw")
    expect(draw).to_be_visible(timeout=BOT_TURN)
    cards = page.locator("#hand .card").count()
    draw.tap()
    expect(page.locator("#hand .card")).to_have_count(cards + 1)
    # Her turn goes on until a third draw ends it; then the bot's moves arrive live.
    while page.locator("#btn-draw").is_visible():
        cards += 1
        page.locator("#btn-draw").tap()
        expect(page.locator("#hand .card")).to_have_count(cards + 1)
    expect(page.locator("#players tr.player.to-move")).to_contain_text("Bot (beginner)")
    expect(page.locator("#btn-draw")).to_be_visible(timeout=BOT_TURN)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "practice-phone", full_page=True)
