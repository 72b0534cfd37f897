"""What a bot does on its turn, from its own seat's view only.

Every level draws first (R3.1: there is nothing else to do before a draw), then melds
when it finds a meld, else knocks if its policy says so, else draws again, and passes
in the final lap (R8) when nothing else is left. Melding ends the turn (R3.2), so the
meld a bot plays is the whole of its turn after the draws.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

from rummy.engine import Action, SeatView, format_cards, hand_points, parse_cards
from rummy.engine.cards import JOKER, Card
from rummy.engine.melds import hand_groups, hand_runs
from rummy.solver import Solution, position_from_view, solve

#: the solver's time limit for a bot's turn, in the solve's own CPU seconds (so that a
#: busy server does not make the bots play worse): well under a second
TIME_LIMIT = 0.5


class Level(StrEnum):
    BEGINNER = "beginner"
    STEADY = "steady"
    EXPERT = "expert"


#: a beginner knocks whenever the rules let it (R6.1): it does not weigh the risk
BEGINNER_KNOCK = True


def choose(
    view: SeatView, level: Level | str, rng: random.Random, time_limit: float = TIME_LIMIT
) -> dict[str, Any]:
    """The action for ``view.seat``, whose turn it is. Only the view is read."""
    level = Level(level)
    legal = view.legal
    if not legal:
        raise ValueError("It is not this seat's turn.")
    if Action.MELD in legal:
        hand = parse_cards(" ".join(view.hand))
        if level is Level.BEGINNER:
            action = _beginner_meld(view, hand, rng)
        else:
            action = _solver_meld(view, hand, level, time_limit)
        if action is not None:
            return action
        if Action.KNOCK in legal and _knocks(view, level, hand_points(hand)):
            return {"do": Action.KNOCK}
    if Action.DRAW in legal:
        return {"do": Action.DRAW}
    if Action.PASS in legal:
        return {"do": Action.PASS}
    # MELD was legal but the policy found nothing and cannot draw: the third draw is
    # never reached here (it ends the turn), so this is the final lap's meld-or-pass.
    raise ValueError(f"No action for {level} in {legal}.")


def _knocks(view: SeatView, level: Level, count: int) -> bool:
    if level is Level.BEGINNER:
        return BEGINNER_KNOCK
    if level is Level.STEADY:
        return steady_knocks(view, count)
    return expert_knocks(view, count)


def steady_knocks(view: SeatView, count: int) -> bool:
    """Cautious: only with a count of at most half the knock limit (2 at the default 5),
    where an undercut (R7.2) is unlikely, or when the stock is nearly gone."""
    limit = view.settings.knock_limit
    if count > limit:
        return False
    return count <= limit // 2 or view.stock_size <= len(view.hand_sizes)


def expert_knocks(view: SeatView, count: int) -> bool:
    """Reads the others' hand sizes. Every card counts at least 1 point (R1.3), so an
    opponent holding more cards than our count cannot match it: when that is true of
    every opponent the knock cannot be undercut (R7.2) and wins the round for sure.
    Otherwise it knocks only when an opponent is close to going out (two cards or
    fewer: waiting risks their +25, R7.5) and our count is very low (at most 1)."""
    if count > view.settings.knock_limit:
        return False
    others = [n for s, n in enumerate(view.hand_sizes) if s != view.seat]
    if min(others) > count:
        return True
    return min(others) <= 2 and count <= 1


# --- Beginner: plain melds from the hand (R5.3), laid beside the table -----------------


def _beginner_meld(view: SeatView, hand: list[Card], rng: random.Random) -> dict[str, Any] | None:
    """Groups and sequences of real cards from the hand, greedily; the table is left as
    it is (no manipulation, no jokers, no laying off)."""
    left = list(hand)
    melds: list[list[Card]] = []
    while True:
        found = hand_groups(left) + hand_runs(left)
        if not found:
            break
        meld = rng.choice(found)
        for c in meld:
            left.remove(c)
        melds.append(meld)
    if not melds:
        return None
    knock = bool(left) and hand_points(left) <= view.settings.knock_limit and BEGINNER_KNOCK
    table = list(view.table) + [format_cards(m) for m in melds]
    return {"do": Action.MELD, "table": table, "knock": knock}


# --- Steady and expert: the solver ----------------------------------------------------

#: expert keeps a joker in hand when that leaves at most this many points more (not
#: counting the joker's own 25, R1.3), the round is young and nobody is close to out
JOKER_KEEP_COST = 4
JOKER_KEEP_STOCK = 12
JOKER_KEEP_OTHERS = 5


def _solver_meld(
    view: SeatView, hand: list[Card], level: Level, time_limit: float
) -> dict[str, Any] | None:
    position = position_from_view(view)
    best = solve(position, view.settings, time_limit=time_limit)
    if not best.found:
        return None
    if level is Level.EXPERT:
        kept = _keeping_joker(view, hand, best, time_limit)
        if kept is not None:
            best = kept
    knocks = best.knock and _knocks(view, level, best.count)
    return best.action(knock=knocks)


def _keeping_joker(
    view: SeatView, hand: list[Card], best: Solution, time_limit: float
) -> Solution | None:
    """The expert's joker policy: a joker in hand makes later melds easy (it fits almost
    anything), but it counts 25 if the round ends (R1.3). So keep it only while the
    round is young (a big stock), every opponent still holds many cards (nobody can
    knock or go out soon), the best meld neither goes out nor allows a safe knock, and
    keeping it costs at most ``JOKER_KEEP_COST`` points of the rest of the hand."""
    if JOKER not in hand or JOKER in best.hand_left or best.goes_out:
        return None
    if best.knock and expert_knocks(view, best.count):
        return None  # a knock that cannot be undercut is worth more than the joker
    others = [n for s, n in enumerate(view.hand_sizes) if s != view.seat]
    if view.stock_size < JOKER_KEEP_STOCK or min(others) < JOKER_KEEP_OTHERS:
        return None
    kept = solve(position_from_view(view), view.settings, time_limit=time_limit, keep=[JOKER])
    if not kept.found:
        return None
    jokers_kept = sum(1 for c in kept.hand_left if c.joker) - sum(
        1 for c in best.hand_left if c.joker
    )
    if kept.count - 25 * jokers_kept - best.count <= JOKER_KEEP_COST:
        return kept
    return None
