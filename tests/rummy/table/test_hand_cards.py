"""A hand's cards outside the editor are worked out once per hand, order, mark and
language (``presenters._hand_cards``) and shared by every render that shows that hand:
the same cards, names and points as built afresh, in each language."""

import pytest
from django.utils import translation

from rummy import engine
from rummy.table import presenters
from rummy.templatetags.cards import card_info

HAND = ["KS", "2C", "*", "10H", "2C", "AD"]


@pytest.mark.parametrize("language", ["en", "lv", "et"])
@pytest.mark.parametrize("sort", ["suit", "rank"])
def test_shared_hand_cards_are_those_built_afresh(language, sort):
    drawn = presenters.drawn_positions(HAND, ["AD"])
    with translation.override(language):
        cards, points = presenters._hand_cards(tuple(HAND), sort, frozenset(drawn), language)
        afresh = [
            card_info(code, f"h{i}", False, i in drawn, language)
            for code, i in presenters.sort_hand(HAND, sort)
        ]
    assert list(cards) == afresh
    assert points == engine.hand_points(engine.parse_cards(" ".join(HAND)))
    # Shared: the same hand again is the same object, not built again.
    assert presenters._hand_cards(tuple(HAND), sort, frozenset(drawn), language)[0] is cards


def test_each_language_has_its_own_names():
    with translation.override("en"):
        en = presenters._hand_cards(("KS",), "suit", frozenset(), "en")[0][0].label
    with translation.override("lv"):
        lv = presenters._hand_cards(("KS",), "suit", frozenset(), "lv")[0][0].label
    assert en == "K of spades" and lv != en
