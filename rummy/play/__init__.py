"""The write path: the ONE way a game changes (DESIGN "Services").

Every action is one function, each a transaction that locks the game, checks the
version the client acted on and logs its move (``store``): seating before the game
(``seating``), the turn and what follows it (``turns``), the arrangement editor's
draft (``drafts``), the solver's hint laid out in it (``hints``), a scheduled season's rounds
(``rounds``). ``replay`` rebuilds
a game from its log; ``wording`` words the engine's refusals; ``broadcast`` tells open
pages after commit. Callers outside this
package use the names below, never ``store``.
"""

from rummy.play.bot_seats import add_bot, practice_full, start_practice
from rummy.play.drafts import (
    close_editor,
    declare_joker,
    move_selection,
    new_meld,
    open_editor,
    reset,
    select,
    to_hand,
)
from rummy.play.drafts import play as play_draft
from rummy.play.errors import ActionRefused, NotAllowed, Result, RuleRefused, StaleVersion
from rummy.play.hints import Advice, hint, hints_allowed
from rummy.play.reclock import reclock, reclock_stale
from rummy.play.rounds import deal_due_rounds, deal_round, due_rounds, member_left
from rummy.play.seating import leave_seat, open_table, start_game, take_seat
from rummy.play.store import parse_version, seat_of
from rummy.play.turns import (
    act,
    back_in_person,
    bot_act,
    draw,
    end_early,
    knock,
    meld,
    pass_turn,
    player_gone,
    timeout,
    void_game,
)

__all__ = [
    "ActionRefused",
    "Advice",
    "NotAllowed",
    "Result",
    "RuleRefused",
    "StaleVersion",
    "act",
    "add_bot",
    "back_in_person",
    "bot_act",
    "close_editor",
    "deal_due_rounds",
    "deal_round",
    "declare_joker",
    "draw",
    "due_rounds",
    "end_early",
    "hint",
    "hints_allowed",
    "knock",
    "leave_seat",
    "meld",
    "member_left",
    "move_selection",
    "new_meld",
    "open_editor",
    "open_table",
    "parse_version",
    "pass_turn",
    "play_draft",
    "player_gone",
    "practice_full",
    "reclock",
    "reclock_stale",
    "reset",
    "seat_of",
    "select",
    "start_game",
    "start_practice",
    "take_seat",
    "timeout",
    "to_hand",
    "void_game",
]
