"""What the write path answers when it changes nothing, and what it returns when it
changes a game. Every refusal carries the message to show the player and a code."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from rummy import engine
from rummy.models import Game
from rummy.play.wording import rule_error_message


class ActionRefused(Exception):
    """An action that changes nothing. ``status`` is the HTTP status it maps to."""

    status = 400

    def __init__(self, message, code="refused"):
        super().__init__(str(message))
        self.message = str(message)
        self.code = code


class NotAllowed(ActionRefused):
    status = 403


class StaleVersion(ActionRefused):
    status = 409

    def __init__(self, message=None):
        super().__init__(
            message
            or _(
                "The table changed before your action arrived (another tab, or a double "
                "tap). Nothing was done; here is the table as it is now."
            ),
            code="stale",
        )


class RuleRefused(ActionRefused):
    """The engine refused the action (a rule of RULES.md)."""

    def __init__(self, error: "engine.RuleError"):
        super().__init__(rule_error_message(error), code=error.code)


def bad_version():
    return ActionRefused(
        _("The request did not say which table version it was made on."), code="bad_version"
    )


@dataclass(frozen=True)
class Result:
    """A change that was made: the game as saved, and the version it now has."""

    game: Game
    version: int
