"""One reading of a table page's form, shared by the HTTP view and the WebSocket consumer.

Every control of the table page is a submit button ``name="action"`` of one form that
also carries the ``version`` the page was rendered from. Over HTTP the form is POSTed;
over the socket htmx's ``ws-send`` sends the same fields as JSON. Both arrive here, so
the two paths cannot drift apart, and both end in the write path (``rummy.play``).

Action values: ``draw knock pass`` (turn, R3/R6/R8), ``sit leave start`` (seating),
``add_bot`` (with ``bot_level``), ``back`` (an absent player's "I'm back"),
``meld close reset new_meld to_hand play play_knock`` (the editor), ``select:<ref>``,
``move:<meld>``, ``declare:<ref>:<card>``, and ``hint`` (the solver's best meld, laid out
in the draft).
"""

from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from config import metrics
from rummy import engine, play
from rummy.models import Game
from rummy.play import ActionRefused
from rummy.table.access import remember

MAX_FIELD = 64  # no legitimate field is longer; anything else is refused unread


@dataclass(frozen=True)
class Outcome:
    # True when the game itself changed (everyone's view re-renders via the broadcast);
    # False for a draft edit (only the acting player's page changes).
    game_changed: bool
    game_deleted: bool = False
    # The version the action produced (game-changing actions), so that the page can be
    # rendered from a game at least that new.
    version: int | None = None
    # The game as the write path saved it, seats and users loaded (turn actions and
    # "Play"): the page renders from it without reading the game again.
    game: Game | None = None
    # What to tell the acting player alone (a hint's advice), in the message area.
    flash: str | None = None
    # True when no draft can belong to the version made (a turn action or "Play": a
    # draft starts from a version, and this one is brand new), so that the page
    # renders without reading the draft. A hint lays its meld into a draft of the
    # new version, so it is never set for one.
    no_draft: bool = False


def _field(data, name, required=True):
    value = data.get(name) if hasattr(data, "get") else None
    if isinstance(value, list):  # QueryDict.getlist or a JSON list: take one value only
        value = value[0] if len(value) == 1 else None
    if value is None or value == "":
        if required:
            raise ActionRefused(
                _("The request is missing “%(name)s”.") % {"name": name}, code="bad_request"
            )
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool) or len(str(value)) > MAX_FIELD:
        raise ActionRefused(_("The request could not be read."), code="bad_request")
    return str(value)


def perform(game_id, user, data) -> Outcome:
    """Run one action for ``user`` at game ``game_id``; raise ActionRefused if refused.
    Counted for the metrics by control and outcome."""
    try:
        outcome = _perform(game_id, user, data)
    except ActionRefused:
        metrics.ACTIONS.labels(_control(data), "refused").inc()
        raise
    metrics.ACTIONS.labels(_control(data), "applied" if outcome.game_changed else "draft").inc()
    return outcome


def _control(data) -> str:
    """The control's name as a label: one of the page's own, else "other" (a label
    taken from what a client sent would let anyone grow the metrics without end)."""
    value = data.get("action") if hasattr(data, "get") else None
    name = str(value).partition(":")[0] if isinstance(value, (str, int)) else ""
    return name if name in CONTROLS else "other"


def _perform(game_id, user, data) -> Outcome:
    action = _field(data, "action")
    # The version is read here, once; everything below compares the int.
    version = play.parse_version(_field(data, "version", required=False))
    name, _sep, arg = action.partition(":")
    if name in TURN_ACTIONS:
        return replace(_saved(TURN_ACTIONS[name](game_id, user, version)), no_draft=True)
    if name in SEATING:
        result = SEATING[name](game_id, user, version)
        deleted = not type(result.game).objects.filter(pk=result.game.pk).exists()
        return Outcome(game_changed=True, game_deleted=deleted, version=result.version)
    if name == "hint":
        result = play.hint(game_id, user, version)
        if result.kept:  # laid out again: like a draft edit, this page alone
            return Outcome(game_changed=False, flash=result.message)
        return replace(_saved(result), flash=result.message)
    if name == "add_bot":
        result = play.add_bot(game_id, user, _field(data, "bot_level", required=False), version)
        return Outcome(game_changed=True, version=result.version)
    if name == "back":
        return _saved(play.back_in_person(game_id, user, version))
    if name in ("play", "play_knock"):
        played = play.play_draft(game_id, user, version, knock=name == "play_knock")
        return replace(_saved(played), no_draft=True)
    if name in DRAFT_ACTIONS:
        DRAFT_ACTIONS[name](game_id, user, version)
    elif name == "select":
        play.select(game_id, user, version, arg)
    elif name == "move":
        play.move_selection(game_id, user, version, arg)
    elif name == "declare":
        ref, _sep, card = arg.partition(":")
        play.declare_joker(game_id, user, version, ref, card)
    else:
        raise ActionRefused(_("Unknown action."), code="bad_action")
    return Outcome(game_changed=False)


def _saved(result) -> Outcome:
    """A turn's outcome (committed by now): the game as the write path saved it, seats
    and users loaded, is what this process's sockets render from too, so none of them
    reads it again; both doors (view and consumer) get it from here."""
    remember(result.game)
    return Outcome(game_changed=True, version=result.version, game=result.game)


# The page's controls (the value of its submit buttons) and what each one does.
TURN_ACTIONS = {
    engine.Action.DRAW: play.draw,
    engine.Action.KNOCK: play.knock,
    engine.Action.PASS: play.pass_turn,
}
SEATING = {"sit": play.take_seat, "leave": play.leave_seat, "start": play.start_game}
DRAFT_ACTIONS = {
    engine.Action.MELD: play.open_editor,
    "close": play.close_editor,
    "reset": play.reset,
    "new_meld": play.new_meld,
    "to_hand": play.to_hand,
}
# Every control's name (the label of the actions' metric).
CONTROLS = {
    *(getattr(name, "value", name) for name in TURN_ACTIONS),
    *SEATING,
    *(getattr(name, "value", name) for name in DRAFT_ACTIONS),
    *("hint", "add_bot", "back", "play", "play_knock", "select", "move", "declare"),
}
