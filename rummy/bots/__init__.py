"""Computer players that fill seats: pure, beside the engine.

``choose(view, level, rng)`` picks the next action of the seat whose view it is given.
It reads only that seat's ``SeatView`` (DESIGN "Hidden information"): a bot knows what
a person in its seat would know, never another hand or the stock. The background
workers (``rummy.clock.bots``) apply what it returns through the write path
(``rummy.play.bot_act``) like any person's action.

Levels (``Level``): beginner draws and melds plain melds from its hand; steady plays the
solver's best meld each turn and knocks cautiously; expert adds a knock policy that
reads the others' hand sizes and keeps a joker when that costs little (``policy``).
"""

from .match import play_match
from .policy import TIME_LIMIT, Level, choose, expert_knocks, steady_knocks

__all__ = ["TIME_LIMIT", "Level", "choose", "expert_knocks", "play_match", "steady_knocks"]
