import pytest


@pytest.fixture(autouse=True)
def _locmem_email(settings):
    # Every email test reads django.core.mail.outbox, with links to one absolute site.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://carousel.example"
