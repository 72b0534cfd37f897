"""Randomized play (DESIGN: "play thousands of random games to check invariants").

Seeded bots play complete games for 2-5 players: they draw, meld from the hand, lay
off, rearrange the table, play and free jokers, knock and pass in the final lap; now
and then they send a broken action, which must be refused with the right code and
leave the state unchanged. After every action: all cards accounted for (R1.2), every
table meld valid (R5.2 c), JSON round trip, scores per R7/R9, bounded game length.

ENGINE_RANDOM_GAMES=20000 runs more games than the default.
"""

import json
import os
import random
from collections import Counter

import pytest

from rummy.engine import (
    GameState,
    RuleError,
    Settings,
    apply_action,
    deal_next_round,
    end_early,
    final_result,
    hand_points,
    new_deck,
    new_game,
    parse_cards,
    play_timeout,
    score_round,
)
from rummy.engine.bots import choose_action
from rummy.engine.cards import JOKER, JOKER_PCODE, REAL_CARDS
from rummy.engine.melds import meld_kind

GAMES = int(os.environ.get("ENGINE_RANDOM_GAMES", "2000"))
MAX_ROUNDS = 60
MAX_ACTIONS_PER_ROUND = 3 * 86 + 6 * 10  # at most 3 draws per stock card, plus the final lap


class Stats(Counter):
    pass


def physical(state):
    codes = [c.pcode for h in state.hands for c in h]
    codes += [c.pcode for m in state.table for c in m]
    codes += [c.pcode for c in state.stock]
    return Counter(codes)


def check_invariants(state, deck):
    assert physical(state) == deck  # R1.2: every card accounted for
    for m in state.table:
        assert meld_kind(m) is not None, m  # R5.2 (c)
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    n = state.n_players
    assert 0 <= state.turn < n and 0 <= state.drawn < 3
    if state.stock:
        assert state.final_turns is None
    elif not state.round_over:
        assert state.final_turns is not None and 1 <= state.final_turns <= n + 1  # R8


def check_round_end(before, after):
    """R7 / R9 bookkeeping when an action ended the round."""
    lr = after.last_round
    hands = [parse_cards(h) for h in lr["hands"]]
    assert (lr["points"], lr["winners"]) == score_round(hands, lr["knocker"], lr["went_out"])
    assert after.scores == [a + b for a, b in zip(before.scores, lr["points"], strict=False)]
    assert after.rounds_won == [a + (s in lr["winners"]) for s, a in enumerate(before.rounds_won)]
    if lr["reason"] == "knock":
        assert hand_points(hands[lr["knocker"]]) <= after.settings.knock_limit  # R6.1
    elif lr["reason"] == "going_out":
        assert hands[lr["went_out"]] == []  # R6.2
    else:
        assert lr["reason"] == "stock_out" and after.final_turns == 0 and not after.stock  # R8.3
    over, final, winners = final_result(after.scores, after.rounds_won, after.settings.target)
    assert (after.game_over, after.final_scores, after.game_winners) == (over, final, winners)


def refused(state, seat, action, code):
    before = state.to_dict()
    try:
        apply_action(state, seat, action)
    except RuleError as e:
        assert e.code == code, (code, e.code, e.message, action)
    else:
        raise AssertionError(f"accepted a broken action, expected {code}: {action}")
    assert state.to_dict() == before


def broken_meld(state, seat, action, rng):
    """A deliberately wrong version of the bot's meld, and the code it must get."""
    table = [list(m) for m in action["table"]]
    old = Counter(c.pcode for m in state.table for c in m)
    new = Counter(c.pcode for m in table for c in m)
    hand = Counter(c.pcode for c in state.hands[seat])
    kinds = []
    kept = [p for p in old if new[p] == old[p]]
    if kept:
        kinds.append("table_card_missing")
    if [p for p in range(52) if hand[p] == 0]:
        kinds.append("not_in_hand")
    if any(c.joker for m in table for c in m):
        kinds.append("joker_undeclared")
    left = hand - (new - old)
    if any(p != JOKER_PCODE for p in left):
        kinds.append("invalid_meld")
    leftover = [REAL_CARDS[p] if p < 52 else JOKER for p in left.elements()]
    if leftover and hand_points(leftover) > state.settings.knock_limit:
        kinds.append("knock_limit")
    if not kinds:
        return None, None
    kind = rng.choice(kinds)
    if kind == "table_card_missing":
        p = rng.choice(kept)
        for m in table:
            for c in m:
                if c.pcode == p:
                    m.remove(c)
                    break
            else:
                continue
            break
    elif kind == "not_in_hand":
        table.append([REAL_CARDS[rng.choice([p for p in range(52) if hand[p] == 0])]])
    elif kind == "joker_undeclared":
        for m in table:
            for k, c in enumerate(m):
                if c.joker:
                    m[k] = JOKER
                    break
    elif kind == "invalid_meld":
        table.append([REAL_CARDS[rng.choice([p for p in left if p != JOKER_PCODE])]])
    else:
        return {"do": "meld", "table": table, "knock": True}, kind
    return {"do": "meld", "table": table, "knock": action.get("knock", False)}, kind


def note_manipulation(stats, before, after):
    old = Counter(tuple(sorted(c.ecode for c in m)) for m in before.table)
    new = Counter(tuple(sorted(c.ecode for c in m)) for m in after.table)
    if old - new:
        stats["rearranged"] += 1
    old_j = Counter(c.ecode for m in before.table for c in m if c.joker)
    new_j = Counter(c.ecode for m in after.table for c in m if c.joker)
    if old_j - new_j:
        stats["joker_redeclared"] += 1


def play_game(seed, stats):
    rng = random.Random(seed)
    n = rng.randint(2, 5)
    settings = Settings(target=rng.choice([15, 30, 60, 150]), knock_limit=rng.choice([5, 5, 10, 0]))
    levels = [rng.choice([0, 1, 1]) for _ in range(n)]
    deck = Counter(c.pcode for c in new_deck(n))
    state = new_game(n, rng, settings)
    check_invariants(state, deck)
    for _ in range(MAX_ROUNDS):
        for _ in range(MAX_ACTIONS_PER_ROUND):
            seat = state.turn
            if rng.random() < 0.03:
                refused(state, (seat + rng.randint(1, n - 1)) % n, {"do": "draw"}, "not_your_turn")
                if not state.stock:
                    refused(state, seat, {"do": "draw"}, "stock_empty")
                elif state.drawn == 0:
                    refused(state, seat, {"do": "knock"}, "must_draw")
                else:
                    refused(state, seat, {"do": "pass"}, "cannot_pass")
            if rng.random() < 0.02:
                after = play_timeout(state, seat)
                stats["timeouts"] += 1
            else:
                action = choose_action(state, seat, rng, levels[seat])
                if action["do"] == "meld" and rng.random() < 0.08:
                    broken, code = broken_meld(state, seat, action, rng)
                    if broken is not None:
                        refused(state, seat, broken, code)
                        stats["refused_" + code] += 1
                after = apply_action(state, seat, action)
                stats[action["do"]] += 1
                if action["do"] == "meld":
                    note_manipulation(stats, state, after)
            check_invariants(after, deck)
            if after.round_over:
                if not state.round_over and after.last_round["reason"] != "ended_early":
                    check_round_end(state, after)
                stats[after.last_round["reason"]] += 1
                state = after
                break
            state = after
        else:
            raise AssertionError(f"game {seed}: a round did not end")
        refused(state, state.turn, {"do": "draw"}, "round_over")
        if state.game_over:
            stats["games"] += 1
            return state
        if rng.random() < 0.01:
            state = end_early(state)
            assert state.game_over and state.last_round["reason"] == "ended_early"
            stats["ended_early"] += 1
            return state
        state = deal_next_round(state, rng)
        check_invariants(state, deck)
    raise AssertionError(f"game {seed}: did not end within {MAX_ROUNDS} rounds")


CHUNKS = 8


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk):
    """Games ``chunk``, ``chunk + 8``, ... (seeded: a failure names its seed and replays
    exactly)."""
    stats = Stats()
    for seed in range(chunk, GAMES, CHUNKS):
        try:
            final = play_game(seed, stats)
        except AssertionError as e:
            raise AssertionError(f"random game seed {seed}: {e}") from e
        assert final.game_over and final.final_scores is not None and final.game_winners
    # the bots really exercised the rules, not just drawing
    if GAMES // CHUNKS >= 200:
        for key in (
            "meld",
            "knock",
            "pass",
            "going_out",
            "stock_out",
            "timeouts",
            "rearranged",
            "joker_redeclared",
            "refused_table_card_missing",
            "refused_not_in_hand",
            "refused_invalid_meld",
            "refused_joker_undeclared",
            "refused_knock_limit",
        ):
            assert stats[key] > 0, (key, dict(stats))
