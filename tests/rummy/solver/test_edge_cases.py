"""Hand-made positions for the solver (rummy.solver): every rule of RULES.md it must
honour, each answer applied through the engine (``apply_action``), which must accept it."""

import pytest

from rummy.engine import Settings, apply_action, hand_points, parse_cards
from rummy.engine.cards import JOKER
from rummy.solver import Position, SolverError, solve
from rummy.solver.solve import position_state


def solved(table, hand, decks=2, knock_limit=5, keep=()):
    pos = Position.of(table, hand, decks)
    settings = Settings(knock_limit=knock_limit)
    sol = solve(pos, settings, keep=parse_cards(keep) if keep else ())
    assert sol.proven
    if sol.found:
        state = position_state(pos.table, pos.hand, settings)
        after = apply_action(state, 0, sol.action(knock=False))  # the engine accepts it
        left = after.last_round["hands"][0] if after.round_over else after.hands[0]
        left = parse_cards(left) if isinstance(left, str) else left
        assert hand_points(left) == sol.count
        assert sorted(c.pcode for c in left) == sorted(c.pcode for c in sol.hand_left)
    return sol


def melds(sol):
    return sorted(" ".join(str(c) for c in m) for m in sol.table)


def test_lay_off_and_knock():
    sol = solved(["7H 8H 9H"], "10H JH 2C")
    assert (sol.count, sol.knock, sol.goes_out, sol.moved) == (2, True, False, 0)
    assert melds(sol) == ["7H 8H 9H 10H JH"]


def test_ace_low_and_high_but_never_both():
    # one ace of hearts: A-2-3 or Q-K-A, not both; Q-K-A leaves 2+3 = 5
    sol = solved([], "AH 2H 3H QH KH", decks=1)
    assert sol.count == 5 and melds(sol) == ["QH KH AH"]
    # two aces (two decks): both runs
    sol = solved([], "AH 2H 3H QH KH AH")
    assert sol.goes_out and melds(sol) == ["AH 2H 3H", "QH KH AH"]
    # no wrapping: K-A-2 is no run (R4.3)
    assert not solved([], "KS AS 2S").found


def test_two_identical_cards_split_a_run():
    # R1.2: the second 7H splits 5H..9H into 5H 6H 7H and 7H 8H 9H
    sol = solved(["5H 6H 7H 8H 9H"], "7H KC")
    assert sol.count == 10 and melds(sol) == ["5H 6H 7H", "7H 8H 9H"]
    assert sol.moved == 2  # 8H 9H leave their meld; 5H 6H 7H stay


def test_a_group_never_holds_two_identical_cards():
    assert not solved([], "8S 8S 8H").found
    assert solved([], "8S 8S 8H 8D").count == 8


def test_joker_from_the_hand_takes_any_declaration():
    sol = solved([], "* 5C 6C 9D")
    assert sol.count == 9 and sol.played == tuple(parse_cards("5C 6C")) + (JOKER,)
    sol = solved(["QS KS AS"], "* 2D")  # the joker alone onto a meld (J of spades)
    assert sol.count == 2


def test_table_joker_keeps_its_card_unless_freed():
    # *9H stands in a run; without a real 9H it must keep standing for 9H (R5.2 d)
    assert not solved(["8H *9H 10H"], "KC QD").found
    assert not solved(["*9H 10H JH QH"], "2S 3S").found  # it may not leave as the 4 of spades
    sol = solved(["8H *9H 10H", "4C 5C 6C"], "9H 7C")
    # the real 9H frees the joker, which is used at once (here on 4C..7C or the run)
    assert sol.goes_out
    jokers = [c for m in sol.table for c in m if c.joker]
    assert len(jokers) == 1


def test_freed_joker_reused_at_once_in_a_new_meld():
    # 9H frees the joker; the joker with 2S 3S makes a new run: everything goes out
    sol = solved(["8H *9H 10H"], "9H 2S 3S")
    assert sol.goes_out


def test_real_card_already_on_the_table_frees_the_joker():
    # two decks: a real 9H already on the table frees *9H (the Decision under R5.2 d)
    sol = solved(["9H 9C 9D", "*9H 10H JH QH"], "2S 3S")
    assert sol.goes_out


def test_one_real_card_frees_at_most_one_joker():
    # two jokers stand for 9H; one real 9H frees only one of them
    sol = solved(["8H *9H 10H", "*9H 9S 9C"], "9H 2D 3D")
    assert sol.found
    assert sum(1 for m in sol.table for c in m if c.joker and str(c.declared) == "9H") >= 1


def test_no_meld():
    sol = solved(["7H 8H 9H"], "2C 5D KS")
    assert not sol.found and sol.count == 17 and sol.table == Position.of(["7H 8H 9H"], "").table
    with pytest.raises(ValueError):
        sol.action()


def test_keep_the_joker():
    sol = solved([], "* 5C 6C 7C", keep="*")
    assert sol.count == 25 and JOKER in sol.hand_left


def test_knock_limit_setting():
    assert solved(["7H 8H 9H"], "10H 6D", knock_limit=5).knock is False
    assert solved(["7H 8H 9H"], "10H 6D", knock_limit=10).knock is True


def test_rearranging_the_table():
    # the hand's 4C joins two cards taken off two long melds
    sol = solved(["4D 5D 6D 7D", "4H 4S 4C 4D"], "4C 8D")
    assert sol.goes_out


@pytest.mark.parametrize(
    "table,hand,decks,why",
    [
        # more copies of a card than the decks hold (R1.2), in the hand or across both
        ([], "AH AH", 1, "2 × A♥ is more than one deck holds"),
        ([], "AH AH AH", 2, "3 × A♥ is more than two decks hold"),
        (["AH 2H 3H", "AH AS AC"], "AH", 2, "3 × A♥ is more than two decks hold"),
        # too many jokers: three in two decks, two in one
        ([], "* * *", 2, "3 × joker is more than two decks hold"),
        (["*9H 10H JH"], "* *", 2, "3 × joker is more than two decks hold"),
        (["*9H 10H JH"], "*", 1, "2 × joker is more than one deck holds"),
        # an invalid table meld, with the engine's reason (R4)
        (["7H 8H"], "2C", 2, "7H 8H is not valid .*at least 3 cards"),
        (["7H 8H 5C"], "2C", 2, "7H 8H 5C is not valid .*one rank in different suits"),
        (["9H 9C 9D 9S 9H"], "", 2, "cannot hold two 9♥"),
        # a declared joker that does not fit its meld, and what would
        (["7H 8H *5C"], "2C", 2, r"declared as 5♣, which does not fit .*6♥ or 9♥"),
        (["9H 9C *9H"], "2C", 2, r"declared as 9♥, which does not fit .*9♦ or 9♠"),
        # a joker in the hand carries no declaration; one or two decks only
        (["*9H 10H JH"], "*9H", 2, "no declaration"),
        ([], "2C", 3, "one or two decks"),
    ],
)
def test_impossible_positions_raise_a_clear_error(table, hand, decks, why):
    with pytest.raises(SolverError, match=why):
        Position.of(table, hand, decks)


def test_an_undeclared_table_joker_is_named():
    pos = Position(table=((JOKER, *parse_cards("8H 9H")),), hand=tuple(parse_cards("2C")))
    with pytest.raises(SolverError, match=r"joker in the table meld \* 8H 9H has no declaration"):
        solve(pos)


def test_a_card_to_keep_must_be_in_the_hand():
    pos = Position.of(["7H 8H 9H"], "10H 2C")
    with pytest.raises(SolverError, match=r"to keep.*not in the hand"):
        solve(pos, keep=parse_cards("*"))
    with pytest.raises(SolverError, match=r"to keep.*not in the hand"):
        solve(pos, keep=parse_cards("10H 10H"))
