"""Cards, notation and decks (R1.2, R1.3; conformance README "Card notation")."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy.engine import Card, RuleError, format_cards, hand_points, new_deck, parse_cards
from rummy.engine.cards import JOKER, JOKER_AS, REAL_CARDS

ALL_TOKENS = [str(c) for c in REAL_CARDS] + ["*"] + [str(j) for j in JOKER_AS]


@pytest.mark.parametrize("token", ALL_TOKENS)
def test_notation_round_trip_and_pasteable_repr(token):
    card = Card.parse(token)
    assert str(card) == token
    assert eval(repr(card), {"Card": Card}) == card


def test_fields_of_cards_and_jokers():
    ten = Card.parse("10H")
    assert (ten.rank, ten.suit, ten.joker, ten.declared) == (10, "H", False, None)
    joker = Card.parse("*")
    assert (joker.rank, joker.suit, joker.joker, joker.declared) == (0, "", True, None)
    nine = Card.parse("*9H")
    assert nine.joker and nine.declared == Card(9, "H")
    assert nine.physical == joker and ten.physical is ten


def test_ten_alias_and_lowercase_on_input():
    assert Card.parse("TH") == Card.parse("10H") == Card.parse("th")
    assert str(Card.parse("*TS")) == "*10S"


@pytest.mark.parametrize(
    "bad", ["", "1H", "11H", "XX", "H9", "10", "**", "*9X", "9H9H", "0S", "*JOKER"]
)
def test_unreadable_cards_are_bad_action(bad):
    with pytest.raises(RuleError) as e:
        Card.parse(bad)
    assert e.value.code == "bad_action" and repr(bad) in e.value.message


def test_parse_cards_reports_bad_token_and_non_string():
    with pytest.raises(RuleError) as e:
        parse_cards("7H XH 9H")
    assert e.value.code == "bad_action"
    with pytest.raises(RuleError):
        parse_cards(None)
    assert parse_cards("") == [] and parse_cards("  7H   8H ") == [Card(7, "H"), Card(8, "H")]


def test_constructor_refuses_impossible_cards():
    for args in [(14, "H"), (0, "H"), (5, "X"), (5, "")]:
        with pytest.raises(ValueError):
            Card(*args)
    with pytest.raises(ValueError):
        Card(5, "H", declared=Card(5, "H"))
    with pytest.raises(ValueError):
        Card(0, "", True, declared=JOKER)


def test_R1_3_points():
    assert [c.points for c in parse_cards("* KS QH JD 10C 9S 2H AD")] == [
        25,
        10,
        10,
        10,
        10,
        9,
        2,
        1,
    ]
    assert Card.parse("*9H").points == 25
    assert hand_points(parse_cards("* AH 5S")) == 31 and hand_points([]) == 0


def test_cards_work_as_dict_keys_and_in_counters():
    cards = parse_cards("8S 8S 8H *8H *8S *")
    counts = Counter(cards)
    assert counts[Card(8, "S")] == 2 and counts[Card.parse("*8H")] == 1 and len(counts) == 5
    assert Card(8, "H") != Card.parse("*8H") and hash(Card(8, "H")) == hash(Card.parse("8H"))
    assert Card(8, "H") != "8H"


def test_cards_are_frozen():
    with pytest.raises(AttributeError):  # dataclasses.FrozenInstanceError
        Card(8, "H").rank = 9


def test_sorting_is_suit_then_rank_jokers_last():
    assert format_cards(sorted(parse_cards("* 2S AH KC 10D 3C"))) == "3C KC 10D AH 2S *"


@pytest.mark.parametrize(
    "n, size, jokers, copies", [(2, 53, 1, 1), (3, 106, 2, 2), (4, 106, 2, 2), (5, 106, 2, 2)]
)
def test_R1_2_decks(n, size, jokers, copies):
    deck = new_deck(n)
    counts = Counter(deck)
    assert len(deck) == size and counts[JOKER] == jokers
    assert all(counts[c] == copies for c in REAL_CARDS)


@pytest.mark.parametrize("n", [0, 1, 6, True, "3"])
def test_R1_1_two_to_five_players(n):
    with pytest.raises(ValueError):
        new_deck(n)


@given(st.lists(st.sampled_from(ALL_TOKENS), max_size=30))
def test_card_lists_round_trip(tokens):
    text = " ".join(tokens)
    cards = parse_cards(text)
    assert format_cards(cards) == text
    assert parse_cards(format_cards(cards)) == cards
