"""Melds (R4): groups, sequences, jokers, and the reasons given for invalid ones."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine import (
    RuleError,
    format_cards,
    joker_options,
    meld_problem,
    parse_cards,
    validate_meld,
)
from rummy.engine.cards import JOKER_AS, REAL_CARDS
from rummy.engine.melds import hand_runs


def kind(text):
    return validate_meld(parse_cards(text))


def error(text):
    with pytest.raises(RuleError) as e:
        validate_meld(parse_cards(text))
    return e.value


@pytest.mark.parametrize(
    "text, expected",
    [
        ("8S 8H 8D", "group"),
        ("8S 8H 8D 8C", "group"),
        ("AS AH AD", "group"),  # R4.2
        ("7H 8H 9H", "sequence"),
        ("9H 7H 8H", "sequence"),  # R4.3
        ("AH 2H 3H", "sequence"),
        ("QH KH AH", "sequence"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "sequence"),
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "sequence"),
        ("7H *8H 9H", "sequence"),
        ("*8S *8H 8D", "group"),
        ("QD KD *AD", "sequence"),  # R4.4
    ],
)
def test_valid_melds(text, expected):
    assert kind(text) == expected
    assert meld_problem(parse_cards(text)) is None


@pytest.mark.parametrize(
    "text, reason",
    [
        ("7H 8H", "at least 3 cards"),  # R4.1
        ("8S 8S 8H", "two 8♠"),  # R4.2
        ("8S 8H 8D 8C 8S", "two 8♠"),
        ("KS AS 2S", "cannot wrap"),
        ("QH KH AH 2H", "cannot wrap"),  # R4.3
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "two A♠"),
        ("7H 9H 10H", "gap between 7♥ and 9♥"),
        ("7H 8S 9H", "one rank"),
        ("7H 7H 8H", "two 7♥"),
        ("7H *8S 9H", "one rank"),  # R4.4
        ("7H *10H 9H", "gap"),
        ("8S *8S 8H", "two 8♠"),
    ],
)
def test_invalid_melds_say_why(text, reason):
    e = error(text)
    assert e.code == "invalid_meld"
    assert reason in e.message
    assert meld_problem(parse_cards(text)).code == "invalid_meld"


def test_decision_R4_4_undeclared_joker_is_not_valid():
    assert error("7H 8H *").code == "joker_undeclared"
    assert meld_problem(parse_cards("7H 8H *")).code == "joker_undeclared"


@pytest.mark.parametrize(
    "others, options",
    [
        ("7H 8H", "6H 9H"),  # the Decision's own example
        ("8S 8H", "8C 8D"),
        ("QH KH", "AH JH"),  # ace high fits after the king
        ("AH 2H", "3H"),  # no wrap below the ace
        ("7H 9H", "8H"),
        ("8S 8H 8D", "8C"),
        ("8S 8H 8D 8C", ""),  # a group of four is full
        ("7H 9S", ""),  # nothing can fix it
        ("7H", ""),  # two cards are never a meld
        ("7H *8H", "6H 9H"),
        ("7H 8H *", ""),  # an undeclared joker among the others
    ],
)
def test_R4_4_joker_options(others, options):
    assert joker_options(parse_cards(others)) == parse_cards(options)


# -- an independent reference for R4, to compare against on random melds ----------------


def reference_kind(cards):
    if any(c.joker and c.declared is None for c in cards):
        return "undeclared"
    eff = [c.declared if c.joker else c for c in cards]
    if len(eff) < 3:
        return None
    if len({c.rank for c in eff}) == 1:
        return "group" if len(eff) <= 4 and len({c.suit for c in eff}) == len(eff) else None
    if len({c.suit for c in eff}) != 1:
        return None
    for ace in (1, 14):
        ranks = sorted(ace if c.rank == 1 else c.rank for c in eff)
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return "sequence"
    return None


CARD_POOL = list(REAL_CARDS) + list(JOKER_AS) + [parse_cards("*")[0]]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(CARD_POOL), min_size=0, max_size=14))
def test_validate_meld_matches_reference(cards):
    expected = reference_kind(cards)
    problem = meld_problem(cards)
    if expected == "undeclared":
        assert problem.code == "joker_undeclared"
    elif expected is None:
        assert problem.code == "invalid_meld" and problem.message
    else:
        assert problem is None and validate_meld(cards) == expected


@settings(max_examples=200)
@given(st.lists(st.sampled_from(list(REAL_CARDS)), min_size=2, max_size=5))
def test_joker_options_are_exactly_the_fitting_cards(others):
    options = set(joker_options(others))
    for joker in JOKER_AS:
        fits = reference_kind(others + [joker]) in ("group", "sequence")
        assert (joker.declared in options) == fits


@pytest.mark.parametrize(
    "meld, reason, params",
    [
        ("7H 8H", "too_short", {"n": 2}),
        ("8S 8S 8H", "group_identical", {"card": "8♠"}),
        ("8S 8H 8D 8C 8S", "group_identical", {"card": "8♠"}),
        ("7H 8S 9H", "mixed", {}),
        ("7H 7H 8H", "sequence_identical", {"card": "7♥"}),
        ("KS AS 2S", "sequence_wraps", {}),
        ("7H 9H 10H", "sequence_gap", {"low": "7♥", "high": "9♥"}),
    ],
)
def test_invalid_meld_carries_a_reason_code_for_translation(meld, reason, params):
    """R4: the interface words the reason in the player's language from code + params."""
    problem = meld_problem(parse_cards(meld))
    assert (problem.code, problem.reason, problem.params) == ("invalid_meld", reason, params)


def test_a_whole_suit_is_one_run_from_ace_to_king_never_the_ace_twice():
    # R4.3: the ace is low or high, never both: A..K is the longest sequence.
    hand = parse_cards("KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS 5D")
    assert [format_cards(run) for run in hand_runs(hand)] == [
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    ]
    assert [format_cards(run) for run in hand_runs(parse_cards("QS KS AS 2S 3S"))] == [
        "AS 2S 3S",
        "QS KS AS",
    ]
    assert hand_runs(parse_cards("KS AS 2S")) == []  # no wrapping
