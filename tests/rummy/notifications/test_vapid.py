"""The site's VAPID keys: from the environment's settings or a key file, checked against
each other, made by ``manage.py vapid_keys`` (a pair to print, or a file made once and
never replaced, as ``make run`` does)."""

import base64
import io
import stat

from django.core.management import call_command

from rummy.notifications import vapid


def run(*args):
    out = io.StringIO()
    call_command("vapid_keys", *args, stdout=out)
    return dict(line.split("=", 1) for line in out.getvalue().splitlines() if "=" in line)


def raw(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_the_command_prints_a_pair_the_settings_take(settings):
    printed = run()
    assert len(raw(printed["VAPID_PRIVATE_KEY"])) == 32
    assert len(raw(printed["VAPID_PUBLIC_KEY"])) == 65
    settings.VAPID_PRIVATE_KEY = printed["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = printed["VAPID_PUBLIC_KEY"]
    assert vapid.site_keys().public_key == printed["VAPID_PUBLIC_KEY"]


def test_a_public_key_of_another_pair_turns_push_off(settings, caplog):
    settings.VAPID_PRIVATE_KEY = run()["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = run()["VAPID_PUBLIC_KEY"]
    assert vapid.site_keys() is None
    assert "not the public half" in caplog.text


def test_an_unreadable_key_turns_push_off(settings, caplog):
    settings.VAPID_PRIVATE_KEY = "not-a-key"
    assert vapid.site_keys() is None
    assert "cannot be read" in caplog.text


def test_no_key_at_all_is_no_push(settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_KEY_FILE = ""
    assert vapid.site_keys() is None


def test_the_key_file_is_made_once_private_and_then_kept(tmp_path, settings):
    path = tmp_path / "carousel" / "vapid-private.pem"
    first = run("--file", str(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    content = path.read_bytes()
    assert content.startswith(b"-----BEGIN PRIVATE KEY-----")
    again = run("--file", str(path))
    assert again == first and path.read_bytes() == content
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEY_FILE = str(path)
    assert vapid.site_keys().public_key == first["VAPID_PUBLIC_KEY"]


def test_the_subject_is_a_mailto_address_by_default():
    from django.conf import settings

    # The from address, without its display name ("Carousel <noreply@localhost>").
    assert settings.VAPID_SUBJECT.startswith("mailto:") and "<" not in settings.VAPID_SUBJECT
