"""Simple computer players, for the benchmark and the randomized tests.

They are not meant to play well; they exercise the rules. ``choose_action`` picks an
action for the seat to move:

* level 0 ("simple"): melds from the hand, lays cards off onto table melds, knocks
  when it can, passes in the final lap;
* level 1 ("manipulator"): also plays jokers from the hand, frees table jokers with
  real cards (R5.2 d), takes cards off the end of long melds, splits sequences with
  an identical card and rearranges the table (joins and splits runs) (R5.1).

Every table a bot proposes is built from valid melds step by step, so the engine
should accept it; the randomized tests assert exactly that.
"""

from __future__ import annotations

import random
from typing import Any

from .actions import legal_actions
from .cards import JOKER, JOKER_AS, Card, hand_points
from .melds import hand_groups, hand_runs, joker_options, meld_kind
from .state import GameState
from .values import Action


def _take(hand: list[Card], cards: list[Card]) -> None:
    for c in cards:
        hand.remove(c)


def _melds_from_hand(hand: list[Card], rng: random.Random) -> list[list[Card]]:
    """Greedy: take groups and runs from the hand while they last (R5.3)."""
    out: list[list[Card]] = []
    while True:
        found = hand_groups(hand) + hand_runs(hand)
        if not found:
            return out
        meld = rng.choice(found)
        _take(hand, meld)
        out.append(meld)


def _room(meld: list[Card]) -> set[int]:
    """Effective codes of real cards that might extend ``meld`` (same rank or same suit)."""
    eff = [c.ecode for c in meld]
    rank, suit = eff[0] % 13, eff[0] // 13
    if all(e % 13 == rank for e in eff):
        return {s * 13 + rank for s in range(4)} - set(eff)
    return {suit * 13 + r for r in range(13)} - set(eff)


def _lay_off(table: list[list[Card]], hand: list[Card], rng: random.Random) -> bool:
    """Add one real hand card to a table meld, if any fits."""
    cards = [c for c in hand if not c.joker]
    rng.shuffle(cards)
    order = list(range(len(table)))
    rng.shuffle(order)
    rooms: dict[int, set[int]] = {}
    for c in cards:
        for i in order:
            m = table[i]
            room = rooms.get(i)
            if room is None:
                room = rooms[i] = _room(m)
            if c.ecode in room and meld_kind(m + [c]) is not None:
                table[i] = m + [c]
                hand.remove(c)
                return True
    return False


def _place_joker(table: list[list[Card]], hand: list[Card], rng: random.Random) -> Card | None:
    """Place a joker (from the hand or just freed): onto a meld, or into a new meld with
    two hand cards. Returns the declared joker placed, or None."""
    order = list(range(len(table)))
    rng.shuffle(order)
    for i in order:
        opts = joker_options(table[i])
        if opts:
            j = JOKER_AS[rng.choice(opts).pcode]
            table[i] = table[i] + [j]
            return j
    real = [c for c in hand if not c.joker]
    rng.shuffle(real)
    for a in range(len(real)):
        for b in range(a + 1, min(len(real), a + 6)):
            opts = joker_options([real[a], real[b]])
            if opts:
                j = JOKER_AS[rng.choice(opts).pcode]
                table.append([real[a], real[b], j])
                hand.remove(real[a])
                hand.remove(real[b])
                return j
    return None


def _free_joker(table: list[list[Card]], hand: list[Card], rng: random.Random) -> bool:
    """R5.2 (d): replace a table joker by the real card it stands for; reuse the joker."""
    for i, m in enumerate(table):
        for k, c in enumerate(m):
            if c.joker and c.declared in hand:
                real = c.declared
                new_m = m[:k] + [real] + m[k + 1 :]
                if meld_kind(new_m) is None:
                    continue
                trial = [list(x) for x in table]
                trial[i] = new_m
                trial_hand = list(hand)
                trial_hand.remove(real)
                if _place_joker(trial, trial_hand, rng) is not None:
                    table[:] = trial
                    hand[:] = trial_hand
                    return True
    return False


def _steal_end(table: list[list[Card]], hand: list[Card], rng: random.Random) -> bool:
    """Take a card from a meld of 4+ (the rest stays valid) and meld it with two hand cards."""
    real = [c for c in hand if not c.joker]
    if len(real) < 2:
        return False
    for i, m in enumerate(table):
        if len(m) < 4:
            continue
        for k, c in enumerate(m):
            e = c.declared or c
            # only hand cards that could share a group or a short run with this card
            near = [
                h
                for h in real
                if h.rank == e.rank
                or (h.suit == e.suit and abs(h.rank - e.rank) <= 2)
                or (h.suit == e.suit and {h.rank, e.rank} & {1} and {h.rank, e.rank} & {12, 13})
            ]
            if len(near) < 2:
                continue
            rest = m[:k] + m[k + 1 :]
            if meld_kind(rest) is None:
                continue
            for a in range(len(near)):
                for b in range(a + 1, len(near)):
                    new = [c, near[a], near[b]]
                    if meld_kind(new) is not None:
                        table[i] = rest
                        table.append(new)
                        hand.remove(near[a])
                        hand.remove(near[b])
                        return True
    return False


def _split_with_identical(table: list[list[Card]], hand: list[Card]) -> bool:
    """Two decks: a hand card identical to one inside a run splits the run in two."""
    for i, m in enumerate(table):
        if len(m) < 5 or meld_kind(m) != "sequence":
            continue
        for c in hand:
            if c.joker or c not in m:
                continue
            rest = list(m)
            rest.remove(c)
            lo = [x for x in rest if _seq_rank(x, m) < _seq_rank(c, m)] + [c]
            hi = [x for x in rest if _seq_rank(x, m) > _seq_rank(c, m)]
            hi.append(c)
            if (
                meld_kind(lo) is not None
                and meld_kind(hi) is not None
                and len(lo) + len(hi) == len(m) + 1
            ):
                table[i] = lo
                table.append(hi)
                hand.remove(c)
                return True
    return False


def _seq_rank(card: Card, meld: list[Card]) -> int:
    r = (card.declared or card).rank
    high = any((x.declared or x).rank == 13 for x in meld)
    return 14 if r == 1 and high else r


def _rearrange(table: list[list[Card]], rng: random.Random) -> None:
    """R5.1: join two melds into one, or split a long run, keeping every meld valid."""
    if len(table) >= 2 and rng.random() < 0.5:
        i, j = rng.sample(range(len(table)), 2)
        joined = table[i] + table[j]
        if meld_kind(joined) is not None:
            table[i] = joined
            del table[j]
            return
    for i, m in enumerate(table):
        if len(m) >= 6 and meld_kind(m) == "sequence":
            ordered = sorted(m, key=lambda x: _seq_rank(x, m))
            cut = rng.randrange(3, len(m) - 2)
            a, b = ordered[:cut], ordered[cut:]
            if meld_kind(a) is not None and meld_kind(b) is not None:
                table[i] = a
                table.append(b)
                return


def plan_table(
    state: GameState, seat: int, rng: random.Random, level: int = 0
) -> tuple[list[list[Card]], list[Card]] | None:
    """A new table (and the hand left) for a meld by ``seat``, or None if it finds nothing."""
    hand = list(state.hands[seat])
    table = [list(m) for m in state.table]
    start = len(hand)
    if level >= 1 and rng.random() < 0.3:
        _rearrange(table, rng)
    table.extend(_melds_from_hand(hand, rng))
    if level >= 1:
        for _ in range(3):
            if not (
                _free_joker(table, hand, rng)
                or _split_with_identical(table, hand)
                or _steal_end(table, hand, rng)
            ):
                break
        while JOKER in hand and _place_joker(table, hand, rng) is not None:
            hand.remove(JOKER)
    while _lay_off(table, hand, rng):
        pass
    if len(hand) == start:
        return None
    rng.shuffle(table)
    return table, hand


def choose_action(
    state: GameState, seat: int, rng: random.Random, level: int = 0, knock_chance: float = 0.8
) -> dict[str, Any]:
    """Pick a legal action for ``seat`` (whose turn it is)."""
    legal = legal_actions(state, seat)
    if Action.MELD in legal:
        plan = plan_table(state, seat, rng, level)
        if plan is not None:
            table, hand = plan
            knock = (
                bool(hand)
                and hand_points(hand) <= state.settings.knock_limit
                and rng.random() < knock_chance
            )
            return {"do": Action.MELD, "table": table, "knock": knock}
        if Action.KNOCK in legal and rng.random() < knock_chance:
            return {"do": Action.KNOCK}
    if Action.DRAW in legal:
        return {"do": Action.DRAW}
    if Action.PASS in legal:
        return {"do": Action.PASS}
    raise AssertionError(f"no legal action for seat {seat}: {legal}")


__all__ = ["choose_action", "plan_table"]
