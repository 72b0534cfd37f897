"""Rule refusals and meld verdicts are worded through gettext, by code and reason."""

import pytest
from django.utils import translation

from rummy import engine
from rummy.play.wording import MELD_REASONS, MESSAGES, meld_problem_message


def test_every_engine_error_code_has_a_translatable_message():
    assert set(engine.ERROR_CODES) <= set(MESSAGES)


@pytest.mark.parametrize("meld", ["7H 8H", "8S 8S 8H", "7H 8S 9H", "KS AS 2S", "7H 9H 10H"])
def test_meld_verdicts_come_from_the_catalogue(meld):
    problem = engine.meld_problem(engine.parse_cards(meld))
    assert problem.reason in MELD_REASONS
    with translation.override("en"):
        assert meld_problem_message(problem) == problem.message


def test_unknown_reason_falls_back_to_the_code_message():
    error = engine.RuleError("invalid_meld", "x", reason="no_such_reason")
    assert meld_problem_message(error) == str(MESSAGES["invalid_meld"])
