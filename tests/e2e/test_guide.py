"""Learning the game: the "How to play" page on a 360x740 phone, in en, lv
and et: no sideways scroll, a rule link lands on its paragraph (in view, marked), the
card pictures are drawn and named, and the footer link gets there."""

import pytest

pytestmark = pytest.mark.e2e

LANGUAGES = ("en", "lv", "et")


def open_in(phone, server, language, name):
    page = phone(name)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    return page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_guide_fits_a_phone_and_a_rule_link_lands_on_its_paragraph(phone, server, language):
    page = open_in(phone, server, language, f"guide-{language}")
    page.goto("/how-to-play/#R5-2-d")

    assert page.locator("html").get_attribute("lang") == language
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"sideways scroll: {width}"
    target = page.locator("#R5-2-d")
    box = target.bounding_box()
    assert box is not None and 0 <= box["y"] < 740, box  # below the top edge, in view
    # Marked by the :target rule: a side bar, not colour alone.
    assert page.evaluate("getComputedStyle(document.getElementById('R5-2-d')).boxShadow") != "none"
    # Every picture's cards are drawn, none wider than the screen, each named.
    cards = page.locator(".example .card")
    assert cards.count() > 30
    for i in range(cards.count()):
        card = cards.nth(i)
        assert card.get_attribute("aria-label")
        card_box = card.bounding_box()
        assert card_box is not None and card_box["x"] + card_box["width"] <= 360


def test_the_footer_link_opens_the_guide(phone, server):
    page = open_in(phone, server, "en", "home")
    page.goto("/")
    page.locator("#footer-how-to-play").click()

    page.wait_for_url("**/how-to-play/")
    assert page.locator("h1").inner_text() == "How to play"
