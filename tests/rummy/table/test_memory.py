"""rummy.table.memory: the per-process caches are bounded and clear_all empties them."""

from rummy.table import memory


def test_recent_drops_the_oldest_past_its_size():
    recent = memory.Recent(2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert recent.get("a") == 1  # "a" is now the most recently used
    recent.put("c", 3)
    assert len(recent) == 2
    assert recent.get("b") is None
    assert recent.get("a") == 1 and recent.get("c") == 3


def test_clear_all_empties_every_cache():
    for cache in (memory.recent_games, memory.view_checks, memory.fragments):
        cache.put("key", "value")
    memory.loading["key"] = "task"
    memory.clear_all()
    for cache in (memory.recent_games, memory.view_checks, memory.fragments):
        assert len(cache) == 0 and cache.get("key") is None
    assert memory.loading == {}
