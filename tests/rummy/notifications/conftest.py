import pytest


@pytest.fixture(autouse=True)
def _locmem_email(settings):
    # Every email test reads django.core.mail.outbox, with links to one absolute site.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://carousel.example"


@pytest.fixture
def vapid_keys(settings):
    """A VAPID key pair for the site, made for the test (push is on)."""
    from rummy.notifications import vapid

    signer = vapid.new_signer()
    settings.VAPID_PRIVATE_KEY = vapid.private_key_of(signer)
    settings.VAPID_PUBLIC_KEY = vapid.public_key_of(signer)
    settings.VAPID_KEY_FILE = ""
    # The tests' push service listens on plain http on this machine.
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    settings.PUSH_TIMEOUT = 0.5
    return vapid.site_keys()


@pytest.fixture
def service(vapid_keys):
    """A push service on this machine that checks and decrypts what it is sent."""
    from tests.rummy.notifications.push_service import PushService

    service = PushService()
    yield service
    service.close()
