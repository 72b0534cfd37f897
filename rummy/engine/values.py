"""The rule book's fixed vocabulary as values, defined once: the actions of a turn, the
ways a round ends, and how many may play. ``StrEnum`` members equal their strings, so
they read and write the same JSON (states, logs, vectors) as plain strings did."""

from enum import StrEnum


class Action(StrEnum):
    """What a player may do on a turn (R3, R5, R6, R8)."""

    DRAW = "draw"
    MELD = "meld"
    KNOCK = "knock"
    PASS = "pass"


class RoundEnd(StrEnum):
    """Why a round ended (R6, R8), as ``last_round["reason"]`` records it."""

    KNOCK = "knock"  # R6.1 (an undercut is a knock that lost, R7.2)
    GOING_OUT = "going_out"  # R6.2
    STOCK_OUT = "stock_out"  # R8.3
    ENDED_EARLY = "ended_early"  # a league admin ended the game (engine.end_early)


MIN_PLAYERS, MAX_PLAYERS = 2, 5  # R1.1
