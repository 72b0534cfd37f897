"""Error codes (conformance README "Error codes") and the RuleError value."""

import pytest

from rummy.engine import ERROR_CODES, RuleError

README_CODES = [
    "round_over",
    "bad_action",
    "not_your_turn",
    "stock_empty",
    "must_draw",
    "table_card_missing",
    "not_in_hand",
    "nothing_added",
    "joker_undeclared",
    "invalid_meld",
    "joker_locked",
    "knock_limit",
    "cannot_pass",
]


def test_every_readme_code_has_a_default_message_plus_engine_codes():
    assert set(ERROR_CODES) == set(README_CODES) | {"game_over", "round_not_over"}
    assert all(isinstance(m, str) and m.endswith(".") for m in ERROR_CODES.values())


def test_rule_error_carries_code_and_readable_message():
    e = RuleError("must_draw")
    assert e.code == "must_draw" and e.message == ERROR_CODES["must_draw"] and str(e) == e.message
    e = RuleError("invalid_meld", "A group cannot hold two 8♠.")
    assert e.message == "A group cannot hold two 8♠."
    assert "invalid_meld" in repr(e)


def test_unknown_code_is_a_programming_error():
    with pytest.raises(ValueError):
        RuleError("nope")
