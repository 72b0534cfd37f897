"""Moves as functions: ``apply_action(state, seat, action) -> new state`` (R3, R5, R6, R8).

Errors follow the conformance README's check order (first match wins): round_over,
bad_action, not_your_turn, then the per-action list. A rejected action raises
``RuleError`` and, since states are never mutated, leaves the given state unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .cards import BY_PCODE, JOKER_PCODE, Card, format_cards, hand_points, parse_cards
from .errors import RuleError
from .melds import meld_kind, meld_problem
from .scoring import final_result, score_round
from .state import GameState
from .values import Action, RoundEnd

ACTIONS = tuple(Action)
MAX_DRAWS = 3  # R3.4


# -- reading an action ------------------------------------------------------------------


def _read_meld(meld: Any) -> list[Card]:
    if isinstance(meld, str):
        return parse_cards(meld)
    if isinstance(meld, (list, tuple)):
        out = []
        for c in meld:
            if isinstance(c, Card):
                out.append(c)
            elif isinstance(c, str):
                out.append(Card.parse(c))
            else:
                raise RuleError("bad_action", f"{c!r} is not a card.")
        return out
    raise RuleError("bad_action", "Each meld must be a list of cards.")


def _read_action(
    state: GameState, seat: Any, action: Any
) -> tuple[str, list[list[Card]] | None, bool]:
    """Step 2 of the check order: everything that makes an action unreadable."""
    if not isinstance(action, Mapping):
        raise RuleError("bad_action", "An action must be a mapping with a 'do' key.")
    do = action.get("do")
    if not isinstance(do, str) or do not in ACTIONS:
        raise RuleError(
            "bad_action", f"Unknown action {do!r}; expected one of {', '.join(ACTIONS)}."
        )
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n_players:
        raise RuleError("bad_action", f"There is no seat {seat!r} at this table.")
    table = None
    knock = False
    if do == Action.MELD:
        raw = action.get("table")
        if not isinstance(raw, (list, tuple)):
            raise RuleError("bad_action", "A meld must give the whole table after the meld.")
        table = [_read_meld(m) for m in raw]
        knock = action.get("knock", False)
        if knock is None:
            knock = False
        if not isinstance(knock, bool):
            raise RuleError("bad_action", "'knock' must be true or false.")
    return do, table, knock


# -- the actions ------------------------------------------------------------------------


def apply_action(state: GameState, seat: int, action: Mapping[str, Any]) -> GameState:
    """Apply one player's action and return the new state (the input is not changed).

    Actions: ``{"do": "draw"}``, ``{"do": "meld", "table": [...], "knock": bool}`` (the
    whole table after the meld, melds as notation strings or lists of ``Card``),
    ``{"do": "knock"}``, ``{"do": "pass"}``.
    """
    if state.round_over:
        raise RuleError("round_over", "The game has ended." if state.game_over else None)
    do, table, knock = _read_action(state, seat, action)
    if seat != state.turn:
        raise RuleError("not_your_turn")
    if do == Action.DRAW:
        return _draw(state, seat)
    if do == Action.MELD:
        assert table is not None
        return _meld(state, seat, table, knock)
    if do == Action.KNOCK:
        return _knock(state, seat)
    return _pass(state)


def _draw(state: GameState, seat: int) -> GameState:
    """R3.1-R3.4: take the top stock card; the third draw ends the turn at once."""
    if not state.stock:
        raise RuleError("stock_empty")
    stock = state.stock[1:]
    hands = list(state.hands)
    hands[seat] = state.hands[seat] + [state.stock[0]]
    final_turns = state.final_turns
    if not stock:
        # R8.1/R8.2: the turn in progress, then one final turn for each player.
        final_turns = state.n_players + 1
    new = replace(state, hands=hands, stock=stock, drawn=state.drawn + 1, final_turns=final_turns)
    if new.drawn >= MAX_DRAWS:
        return _end_turn(new)
    return new


def _must_have_drawn(state: GameState, what: str) -> None:
    """R3.1/R6.1: draw first - unless the stock is empty (R8.2 final turns have no draw)."""
    if state.drawn == 0 and state.stock:
        raise RuleError("must_draw", f"Draw a card before you {what}.")


def _cards_named(counts: Mapping[int, int]) -> str:
    return ", ".join(BY_PCODE[p].pretty for p, k in sorted(counts.items()) for _ in range(k))


def _meld(state: GameState, seat: int, new_table: list[list[Card]], knock: bool) -> GameState:
    """R5: the arrangement at the end of the meld must satisfy R5.2 (a)-(d)."""
    _must_have_drawn(state, Action.MELD)
    old_table = state.table
    old_count = Counter([c.pcode for m in old_table for c in m])
    new_count = Counter([c.pcode for m in new_table for c in m])
    missing = old_count - new_count
    if missing:  # R5.2 (b)
        raise RuleError(
            "table_card_missing",
            f"Every card on the table must stay there; missing: {_cards_named(missing)}.",
        )
    added = new_count - old_count
    hand = state.hands[seat]
    lacking = added - Counter([c.pcode for c in hand])
    if lacking:
        raise RuleError("not_in_hand", f"You do not hold: {_cards_named(lacking)}.")
    if not added:  # R5.2 (a)
        raise RuleError("nothing_added", "Add at least one card from your hand to the table.")
    for m in new_table:  # Decision under R4.4
        for c in m:
            if c.ecode < 0:
                raise RuleError(
                    "joker_undeclared", f"Say which card the joker in {format_cards(m)} stands for."
                )
    for m in new_table:  # R5.2 (c)
        if meld_kind(m) is None:
            problem = meld_problem(m)
            why = problem.message if problem else "not a valid meld."
            raise RuleError("invalid_meld", f"{format_cards(m)}: {why}" if m else why)
    _check_jokers_kept(old_table, new_table, new_count)
    # The hand loses exactly the added cards; the rest keep their order.
    to_remove = dict(added)
    new_hand = []
    for c in hand:
        k = to_remove.get(c.pcode)
        if k:
            to_remove[c.pcode] = k - 1
        else:
            new_hand.append(c)
    if new_hand and knock:
        # R6.1: meld, then knock - the limit applies to the hand after the meld.
        _check_knock_limit(state, new_hand)
    hands = list(state.hands)
    hands[seat] = new_hand
    new = replace(state, hands=hands, table=[list(m) for m in new_table])
    if not new_hand:
        # R6.2: going out ends the round at once and is not a knock.
        return _end_round(new, knocker=None, went_out=seat, reason=RoundEnd.GOING_OUT)
    if knock:
        return _end_round(new, knocker=seat, went_out=None, reason=RoundEnd.KNOCK)
    return _end_turn(new)  # R3.2: melding ends the turn


def _check_jokers_kept(
    old_table: Sequence[Sequence[Card]],
    new_table: Sequence[Sequence[Card]],
    new_count: Mapping[int, int],
) -> None:
    """R5.2 (d): a table joker keeps its declared card X unless a real X is on the table.

    Jokers are interchangeable: for each X, at least (old jokers declaring X) minus
    (real X on the new table) jokers must still declare X. Jokers from the hand, and
    those freed, may take any declaration.
    """
    old_decl = Counter([c.ecode for m in old_table for c in m if c.pcode == JOKER_PCODE])
    if not old_decl:
        return
    new_decl = Counter([c.ecode for m in new_table for c in m if c.pcode == JOKER_PCODE])
    for x, k in old_decl.items():
        if x < 0:
            continue  # an undeclared joker (only in a hand-made position) holds no card
        need = k - new_count.get(x, 0)
        if need > 0 and new_decl.get(x, 0) < need:
            card = BY_PCODE[x].pretty
            raise RuleError(
                "joker_locked",
                f"The joker standing for {card} must keep standing for {card} "
                f"until a real {card} takes its place.",
            )


def _check_knock_limit(state: GameState, hand: Sequence[Card]) -> None:
    limit = state.settings.knock_limit
    pts = hand_points(hand)
    if pts > limit:
        raise RuleError(
            "knock_limit",
            f"Your hand counts {pts} points; you may knock only with {limit} or fewer.",
        )


def _knock(state: GameState, seat: int) -> GameState:
    """R6.1: knock after a draw, or in a final turn, with a hand within the knock limit."""
    _must_have_drawn(state, Action.KNOCK)
    _check_knock_limit(state, state.hands[seat])
    return _end_round(state, knocker=seat, went_out=None, reason=RoundEnd.KNOCK)


def _pass(state: GameState) -> GameState:
    """R8.1/R8.2: passing exists only once the stock is empty."""
    if state.stock:
        raise RuleError("cannot_pass", "You can pass only once the stock is empty; draw instead.")
    return _end_turn(state)


def effective_final_turns(state: GameState) -> int | None:
    """``final_turns``, or ``n`` for a hand-made position whose stock is already empty."""
    if state.final_turns is None and not state.stock:
        return state.n_players
    return state.final_turns


def _end_turn(state: GameState) -> GameState:
    """A turn ends: next seat, no cards drawn; in the final lap count down (R8.2/R8.3)."""
    final_turns = effective_final_turns(state)
    new = replace(state, turn=(state.turn + 1) % state.n_players, drawn=0)
    if final_turns is not None:
        final_turns -= 1
        new = replace(new, final_turns=final_turns)
        if final_turns <= 0:
            return _end_round(new, knocker=None, went_out=None, reason=RoundEnd.STOCK_OUT)
    return new


def _end_round(
    state: GameState, knocker: int | None, went_out: int | None, reason: RoundEnd
) -> GameState:
    """R7 scoring, then R9.1: the game ends once anyone reaches the target."""
    points, winners = score_round(state.hands, knocker, went_out)
    scores = [a + b for a, b in zip(state.scores, points, strict=False)]
    rounds_won = list(state.rounds_won)
    for w in winners:
        rounds_won[w] += 1  # R7.6
    over, final_scores, game_winners = final_result(scores, rounds_won, state.settings.target)
    last_round = {
        "round_no": state.round_no,
        "hands": [format_cards(h) for h in state.hands],
        "table": [format_cards(m) for m in state.table],
        "points": points,
        "winners": winners,
        "knocker": knocker,
        "went_out": went_out,
        "reason": reason,
    }
    return replace(
        state,
        round_over=True,
        scores=scores,
        rounds_won=rounds_won,
        last_round=last_round,
        game_over=over,
        final_scores=final_scores,
        game_winners=game_winners,
    )


# -- helpers for the interface and the clock ----------------------------------------------


def legal_actions(state: GameState, seat: int | None) -> list[Action]:
    """What ``seat`` may do now, in the order draw, meld, knock, pass ([] if not their turn).

    "meld" means melding is possible in principle (R3.2, R8.2); "knock" is listed only
    when R6.1 allows it with the hand as it is.
    """
    if state.round_over or seat is None or seat != state.turn:
        return []
    out: list[Action] = []
    may_play = state.drawn >= 1 or not state.stock
    if state.stock and state.drawn < MAX_DRAWS:
        out.append(Action.DRAW)
    if may_play and state.drawn < MAX_DRAWS:
        out.append(Action.MELD)
        if hand_points(state.hands[seat]) <= state.settings.knock_limit:
            out.append(Action.KNOCK)
    if not state.stock:
        out.append(Action.PASS)
    return out


def can_knock_after(state: GameState, seat: int, hand_after: Sequence[Card]) -> bool:
    """Could ``seat`` "meld, then knock" leaving ``hand_after`` (R6.1)?

    False for an empty hand: melding the last card is going out (R6.2), not a knock.
    """
    if state.round_over or seat != state.turn or (state.drawn == 0 and state.stock):
        return False
    return bool(hand_after) and hand_points(hand_after) <= state.settings.knock_limit


def play_timeout(state: GameState, seat: int) -> GameState:
    """What the turn clock does when ``seat``'s time runs out.

    Draw until the turn ends (R3.4), or pass once the stock is empty (R8) - also when
    the stock runs out part-way. Every step goes through ``apply_action``.
    """
    if state.round_over:
        raise RuleError("round_over")
    if seat != state.turn:
        raise RuleError("not_your_turn")
    for _ in range(MAX_DRAWS + 1):
        if state.round_over or state.turn != seat:
            break
        state = apply_action(state, seat, {"do": Action.DRAW if state.stock else Action.PASS})
    return state


def end_early(state: GameState) -> GameState:
    """A league admin ends the game early (the engine's decision, not a card-game rule).

    The round in progress is discarded: nobody scores for it. The game is over and is
    settled by R9.2/R9.3 on the scores as they stand: +100 only for players at or above
    the target, +25 per round won, highest total wins (ties share). ``last_round``
    records reason "ended_early". Error ``game_over`` if the game has already ended.
    """
    if state.game_over:
        raise RuleError("game_over")
    _, final_scores, game_winners = final_result(
        state.scores, state.rounds_won, state.settings.target, force=True
    )
    n = state.n_players
    last_round = {
        "round_no": state.round_no,
        "hands": [format_cards(h) for h in state.hands],
        "table": [format_cards(m) for m in state.table],
        "points": [0] * n,
        "winners": [],
        "knocker": None,
        "went_out": None,
        "reason": RoundEnd.ENDED_EARLY,
    }
    return replace(
        state,
        round_over=True,
        last_round=last_round,
        game_over=True,
        final_scores=final_scores,
        game_winners=game_winners,
    )
