"""config.caches: every per-process cache is made there, bounded where it must be, and
emptied by clear_all; a cached function keyed by a language makes its value in it."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from config import caches
from rummy.engine import melds
from rummy.engine.cards import parse_cards
from rummy.table import memory, rendering
from rummy.templatetags.cards import card_info
from tests.factories import make_user, started_game

ROOTS = ("rummy", "leagues", "config")
OWN_CACHE = re.compile(
    r"functools\.(lru_cache|cache)\b|from functools import .*\b(lru_cache|cache)\b|^@cache\b",
    re.M,
)
# Not per process: a value remembered for one response.
PER_RESPONSE = {"rummy/lobby/context_processors.py"}


def test_recent_drops_the_oldest_past_its_size():
    recent = caches.Recent("test-recent", 2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert recent.get("a") == 1  # "a" is now the most recently used
    recent.put("c", 3)
    assert len(recent) == 2
    assert recent.get("b") is None
    assert recent.get("a") == 1 and recent.get("c") == 3


def test_no_module_keeps_a_cache_of_its_own():
    base = Path(settings.BASE_DIR)
    own = [
        str(path.relative_to(base))
        for root in ROOTS
        for path in (base / root).rglob("*.py")
        if path.name != "caches.py" and OWN_CACHE.search(path.read_text())
    ]
    own = [name for name in own if name not in PER_RESPONSE]
    assert own == []


@pytest.mark.django_db
def test_clear_all_empties_every_cache(client):
    users = [make_user("ann"), make_user("ben")]
    game = started_game(users, seed=3)
    client.force_login(users[0])
    assert client.get(game.get_absolute_url()).status_code == 200
    for language in ("lv", "et"):
        with translation.override(language):
            rendering.render_frames(game, users[1], "rank")
    memory.loading["key"] = "task"
    melds.meld_kind(parse_cards("5H 5S 5D"))  # the pure engine's memo, registered
    filled = {name for name, size in caches.sizes().items() if size}
    # The game page fills the table's memory, the card and clock caches, the SQL.
    for name in (
        "fragments",
        "views",
        "loading",
        "rummy.templatetags.cards._card_face",
        "rummy.templatetags.cards._card_html",
        "rummy.clock.countdown._countdown",
        "rummy.table.fragments.reads",
        "config.db.reads",
        "rummy.engine.melds",
    ):
        assert name in filled, name
    memory.clear_all()
    assert {name: size for name, size in caches.sizes().items() if size} == {}


@pytest.mark.django_db
def test_a_card_named_in_another_language_than_the_active_one():
    with translation.override("lv"):
        latvian = card_info("KS").label
    memory.clear_all()
    with translation.override("en"):
        assert card_info("KS", language="lv").label == latvian
        assert card_info("KS").label == "K of spades" != latvian
