import pytest
from hypothesis import settings as hypothesis_settings

# Tests never assert wall-clock times: Hypothesis's default 200 ms deadline per example
# is one (an engine property failed at 519 ms on a loaded machine), so it is off.
hypothesis_settings.register_profile("carousel", deadline=None)
hypothesis_settings.load_profile("carousel")


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    # Real hashing costs a noticeable time per login; the tests are about behaviour.
    # Engine tests run without Django at all, so only touch settings when it is there.
    if request.config.pluginmanager.hasplugin("django"):
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # Bots act at the next poll instead of after a human-like pause.
        settings.BOT_DELAY = (0.0, 0.0)


@pytest.fixture(autouse=True)
def _fresh_socket_caches(request):
    # The sockets' per-process memory (rummy.table.access) is keyed by ids, which a flushed
    # test database hands out again: start every test without it.
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from rummy.table import memory

    memory.clear_all()
    yield
    memory.clear_all()


@pytest.fixture(autouse=True)
def _default_language(request):
    # LocaleMiddleware activates a request's language in the test's thread and nothing
    # deactivates it: a test that asked for Latvian would leave it on for the next one.
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_django_cache(request):
    # The log-in throttle, the rate limits and the socket counts live in Django's cache
    # (local memory here, Redis on the stack lane): every test starts with none.
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def cast(db):
    """Alice the owner, Bob an admin, Carol a member, Dave an outsider, and
    ``cast.anonymous`` (``tests/cast.py``)."""
    from tests.cast import make_cast

    return make_cast()


@pytest.fixture
def league(cast):
    """Invite-only, with the cast in their roles."""
    from tests.cast import invite_league

    return invite_league(cast)


@pytest.fixture
def public_league(cast):
    from tests.cast import public_league

    return public_league(cast)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "unreplayable: the test leaves a game whose move log does not replay on purpose "
        "(skips the check that every game replays)",
    )


def _uses_database(item):
    names = getattr(item, "fixturenames", ())
    return item.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db", "django_db_reset_sequences"} & set(names)
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """After a test that passed, every game it left must replay from its move log
    (``rummy.play.replay.check``): a position set by hand, without a logged move, fails
    here. Live-server lanes (e2e, stack) are left out."""
    result = yield
    if (
        _uses_database(item)
        and item.get_closest_marker("unreplayable") is None
        and item.get_closest_marker("e2e") is None
        and item.get_closest_marker("stack") is None
    ):
        from rummy.models import Game
        from rummy.play import replay

        for game in Game.objects.all():
            replay.check(game)
    return result
