"""What the solver is asked: a position (the table, one hand, how many decks) and its checks.

A position is exactly what one seat may see on its turn (DESIGN "Hidden information"):
``position_from_view`` builds it from a ``SeatView``, so a hint never reads another
seat's cards. A position that cannot arise in a game raises ``SolverError`` with a sentence naming
what is wrong: more copies of a card (or more jokers) than the decks hold, a table meld
that breaks R4 (with the engine's reason), a table joker without a declaration or with
one that does not fit its meld (and what would), a joker in the hand carrying a
declaration, anything that is not a card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummy.engine import GameState, SeatView, parse_cards
from rummy.engine.cards import BY_PCODE, JOKER_PCODE, Card, format_cards
from rummy.engine.melds import joker_options, meld_kind, meld_problem


class SolverError(ValueError):
    """The position is impossible or malformed; ``str()`` says why."""


def decks_for(n_players: int) -> int:
    """R1.2: one deck for two players, two decks for three to five."""
    return 1 if n_players == 2 else 2


@dataclass(frozen=True)
class Position:
    """The table (melds, every joker declared), the hand of the seat to move, the decks.

    ``decks`` is 1 (53 cards, one joker) or 2 (106 cards, two jokers), R1.2.
    """

    table: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]
    decks: int = 2

    @classmethod
    def of(
        cls,
        table: Sequence[str | Sequence[Card]],
        hand: str | Sequence[Card],
        decks: int = 2,
    ) -> Position:
        """Build from notation or cards: ``Position.of(["7H 8H 9H"], "10H * 2C")``."""
        melds = tuple(tuple(parse_cards(m) if isinstance(m, str) else m) for m in table)
        cards = tuple(parse_cards(hand) if isinstance(hand, str) else hand)
        pos = cls(table=melds, hand=cards, decks=decks)
        pos.check()
        return pos

    def check(self) -> None:
        """Raise ``SolverError`` unless this position can occur in a game."""
        if self.decks not in (1, 2):
            raise SolverError(f"A game uses one or two decks, not {self.decks!r} (R1.2).")
        for c in self.hand:
            if not isinstance(c, Card):
                raise SolverError(f"{c!r} in the hand is not a card.")
            if c.joker and c.declared is not None:
                raise SolverError("A joker in the hand carries no declaration.")
        for m in self.table:
            for c in m:
                if not isinstance(c, Card):
                    raise SolverError(f"{c!r} on the table is not a card.")
            if meld_kind(m) is None:
                raise SolverError(_meld_fault(m))
        count = Counter(c.pcode for c in self.hand)
        count.update(c.pcode for m in self.table for c in m)
        for pcode, n in count.items():
            limit = self.decks if pcode != JOKER_PCODE else (1 if self.decks == 1 else 2)
            if n > limit:
                card = BY_PCODE[pcode].pretty
                decks = "one deck holds" if self.decks == 1 else "two decks hold"
                raise SolverError(f"{n} × {card} is more than {decks} ({limit}, R1.2).")

    def check_keep(self, keep: Sequence[Card]) -> None:
        """Raise ``SolverError`` unless every card of ``keep`` is in the hand."""
        left = Counter(c.pcode for c in self.hand)
        for c in keep:
            if not isinstance(c, Card) or left[c.pcode] == 0:
                raise SolverError(f"The card to keep, {c!r}, is not in the hand.")
            left[c.pcode] -= 1

    @property
    def table_cards(self) -> int:
        return sum(len(m) for m in self.table)


def _meld_fault(meld: Sequence[Card]) -> str:
    """Why a table meld is no meld: its joker (undeclared, or declared as a card that
    does not fit where one would), else the engine's reason (R4)."""
    shown = format_cards(meld)
    for c in meld:
        if c.joker and c.declared is None:
            return f"The joker in the table meld {shown} has no declaration (R4.4)."
    for i, c in enumerate(meld):
        if c.joker and c.declared is not None:
            fits = joker_options(list(meld[:i]) + list(meld[i + 1 :]))
            if fits:
                could = " or ".join(f.pretty for f in fits)
                return (
                    f"The joker in the table meld {shown} is declared as"
                    f" {c.declared.pretty}, which does not fit there; it could stand for"
                    f" {could} (R4.4)."
                )
    problem = meld_problem(meld)
    why = f" {problem.message}" if problem is not None else ""
    return f"The table meld {shown} is not valid (R4).{why}"


def position_of(state: GameState, seat: int) -> Position:
    """The position ``seat`` faces in ``state`` (its own hand and the table)."""
    pos = Position(
        table=tuple(tuple(m) for m in state.table),
        hand=tuple(state.hands[seat]),
        decks=decks_for(state.n_players),
    )
    pos.check()
    return pos


def position_from_view(view: SeatView) -> Position:
    """The position a seat's view shows: what a hint may read, and nothing more."""
    if view.seat is None:
        raise SolverError("A spectator has no hand to solve.")
    pos = Position(
        table=tuple(tuple(parse_cards(m)) for m in view.table),
        hand=tuple(parse_cards(" ".join(view.hand))),
        decks=decks_for(len(view.hand_sizes)),
    )
    pos.check()
    return pos
