"""The forms' fields describe themselves properly, checked with axe-core.

The shared form template (templates/registration/_form.html) used to leave each
input's ``aria-describedby`` (Django names ``<id>_helptext`` and ``<id>_error``) pointing
at ids that did not exist. Sign-up, log-in, the league form and the season form, fresh
and after a rejected submission, in en, lv and et: every id an ``aria-describedby``
names exists, and axe (tests/e2e/axe.py, from the pinned package) reports nothing
serious or critical.
"""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.axe import describe, serious_violations
from tests.e2e.conftest import log_in, run_django
from tests.e2e.helpers import DEMO_PASSWORD, LANGUAGES, phone_in

pytestmark = pytest.mark.e2e

# Ids named by aria-describedby / aria-labelledby / label[for] that no element has.
MISSING_IDS = """
() => {
  const missing = [];
  for (const el of document.querySelectorAll("[aria-describedby], [aria-labelledby]")) {
    for (const attr of ["aria-describedby", "aria-labelledby"]) {
      for (const id of (el.getAttribute(attr) || "").split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) missing.push(`${el.id || el.tagName} ${attr}=${id}`);
      }
    }
  }
  for (const label of document.querySelectorAll("label[for]")) {
    if (!document.getElementById(label.htmlFor)) missing.push(`label for=${label.htmlFor}`);
  }
  return missing;
}
"""

LOAD_DEMO = """
from django.core.management import call_command
call_command("load_demo")
"""


def check(page, where):
    found = serious_violations(page)
    assert not found, describe(found, f" on {where}")
    assert page.evaluate(MISSING_IDS) == [], where


@pytest.fixture(scope="module")
def alice(server, server_env):
    """The demo cast (Alice owns the Riga Rummy Club) in the server's database."""
    run_django(server_env, LOAD_DEMO)
    return "alice"


@pytest.mark.parametrize("language", LANGUAGES)
def test_sign_up_and_log_in_forms(browser, server, request, language):
    page = phone_in(browser, server, request, language)
    page.goto("/accounts/login/")
    check(page, f"log-in ({language})")
    page.goto("/accounts/signup/")
    check(page, f"sign-up ({language})")
    # Rejected: passwords that differ and are short, so help texts and errors both show.
    page.fill("#id_username", f"axe-{language}")
    page.fill("#id_display_name", "Axe")
    page.fill("#id_email", f"axe-{language}@example.com")
    page.fill("#id_password1", "short")
    page.fill("#id_password2", "other")
    page.locator("main form button[type=submit]").click()
    # The form comes back with the error (a new page: wait for it, not for the old one),
    # and axe looks at it once its styles are in (colour contrast).
    expect(page.locator("#id_password2")).to_have_attribute("aria-invalid", "true")
    page.wait_for_load_state()
    describedby = page.locator("#id_password2").get_attribute("aria-describedby").split()
    assert "id_password2_error" in describedby
    check(page, f"sign-up with errors ({language})")


@pytest.mark.parametrize("language", LANGUAGES)
def test_league_and_season_forms(browser, server, alice, request, language):
    page = phone_in(browser, server, request, language)
    log_in(page, alice, DEMO_PASSWORD)
    page.goto("/leagues/new/")
    # The help text the input points at is there, and is the one shown under it.
    name = page.locator("#id_name")
    for id_ in (name.get_attribute("aria-describedby") or "").split():
        assert page.locator(f"#{id_}").count() == 1, id_
    check(page, f"league form ({language})")
    page.fill("#id_name", " ")  # required, so only the server can reject it
    page.locator("main form button[type=submit]").click()
    # The form comes back with the error (a new page: wait for it, not for the old one),
    # and axe looks at it once its styles are in (colour contrast).
    expect(page.locator("#id_name")).to_have_attribute("aria-invalid", "true")
    page.wait_for_load_state()
    check(page, f"league form with errors ({language})")

    page.goto("/leagues/riga-rummy-club/seasons/new/")
    assert page.locator("#id_target_score").get_attribute("aria-describedby")
    check(page, f"season form ({language})")
    page.fill("#id_name", "Axe season")
    page.fill("#id_starts_on", "2031-05-01")
    page.fill("#id_ends_on", "2031-04-01")  # before it starts: rejected
    page.fill("#id_target_score", "5")  # below the minimum: rejected
    page.locator("main form button[type=submit]").click()
    # The form comes back with the error (a new page: wait for it, not for the old one),
    # and axe looks at it once its styles are in (colour contrast).
    expect(page.locator("#id_target_score")).to_have_attribute("aria-invalid", "true")
    page.wait_for_load_state()
    check(page, f"season form with errors ({language})")
