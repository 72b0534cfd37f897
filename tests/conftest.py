import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    # Real hashing costs a noticeable time per login; the tests are about behaviour.
    # Engine tests run without Django at all, so only touch settings when it is there.
    if request.config.pluginmanager.hasplugin("django"):
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
