"""Cards, their notation and the deck (R1).

Notation (conformance README): ranks ``A 2 … 10 J Q K`` (``T`` accepted for 10 on
input), suits ``C D H S``; ``*`` is a joker in a hand, ``*9H`` a joker on the table
declared as the nine of hearts.

Every card carries two small integers so that the hot paths (table checks, R5.2)
can count cards with plain ``int`` keys instead of hashing dataclasses:

* ``pcode`` - the physical card: 0..51 for rank/suit, 52 for any joker;
* ``ecode`` - the card as judged in a meld (R4.4): a declared joker counts as its
  declaration; an undeclared joker is -1.

``notation`` caches ``str(card)``. All three are derived (``init=False``) and take no
part beyond identity: two cards are equal when physical card and declaration match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import RuleError
from .values import MAX_PLAYERS, MIN_PLAYERS

SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_BY_NAME = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_RANK_BY_NAME.update({str(r): r for r in range(2, 11)})
JOKER_PCODE = 52


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    """One playing card or joker, an immutable value usable as a dict key.

    ``declared`` is set only for a joker on the table (R4.4: the card it stands for).
    """

    rank: int
    suit: str
    joker: bool = False
    declared: Card | None = None
    pcode: int = field(init=False, repr=False)
    ecode: int = field(init=False, repr=False)
    notation: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.joker:
            if self.rank != 0 or self.suit != "":
                raise ValueError("a joker has rank 0 and no suit")
            decl = self.declared
            if decl is not None and (not isinstance(decl, Card) or decl.joker):
                raise ValueError("a joker must be declared as a real card")
            object.__setattr__(self, "pcode", JOKER_PCODE)
            object.__setattr__(self, "ecode", -1 if decl is None else decl.pcode)
            object.__setattr__(self, "notation", "*" if decl is None else "*" + decl.notation)
        else:
            if not (isinstance(self.rank, int) and 1 <= self.rank <= 13) or self.suit not in SUITS:
                raise ValueError(f"no such card: rank {self.rank!r} suit {self.suit!r}")
            if self.declared is not None:
                raise ValueError("only a joker carries a declaration")
            code = SUITS.index(self.suit) * 13 + self.rank - 1
            object.__setattr__(self, "pcode", code)
            object.__setattr__(self, "ecode", code)
            object.__setattr__(self, "notation", rank_name(self.rank) + self.suit)

    # -- identity: (physical card, declaration) ---------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.pcode == other.pcode and self.ecode == other.ecode

    def __hash__(self) -> int:
        return (self.ecode + 1) * 64 + self.pcode

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Suit order C D H S, then rank; jokers last (by declaration)."""
        return (1 if self.joker else 0, self.ecode, self.pcode)

    # -- notation -----------------------------------------------------------------
    @staticmethod
    def parse(text: str) -> Card:
        """Read one card in notation: ``10H``, ``TH``, ``*``, ``*9H``."""
        try:
            return _PARSE_CACHE[text]
        except (KeyError, TypeError):
            pass
        if not isinstance(text, str):
            raise RuleError("bad_action", f"{text!r} is not a card.")
        token = text.strip().upper()
        card = _PARSE_CACHE.get(token)
        if card is None:
            raise RuleError("bad_action", f"{text!r} is not a card.")
        return card

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        """Human form for messages: ``8♠``, ``joker``, ``joker (as 9♥)``."""
        if self.joker:
            return "joker" if self.declared is None else f"joker (as {self.declared.pretty})"
        return rank_name(self.rank) + SUIT_SYMBOLS[self.suit]

    # -- rules ----------------------------------------------------------------------
    @property
    def points(self) -> int:
        """R1.3: joker 25; king, queen, jack 10; 2-10 face value; ace 1."""
        return POINTS[self.pcode]

    @property
    def physical(self) -> Card:
        """The card itself without any declaration (a declared joker -> plain joker)."""
        return JOKER if self.joker else self

    def declare(self, card: Card) -> Card:
        """A joker standing for ``card`` (R4.4)."""
        if not self.joker:
            raise ValueError("only a joker can be declared")
        return JOKER_AS[card.pcode]


POINTS = [min(r, 10) for r in range(1, 14)] * 4 + [25]
REAL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
JOKER = Card(0, "", True)
JOKER_AS: tuple[Card, ...] = tuple(Card(0, "", True, c) for c in REAL_CARDS)
#: pcode -> Card (index 52 is the plain joker)
BY_PCODE: tuple[Card, ...] = REAL_CARDS + (JOKER,)

_PARSE_CACHE: dict[str, Card] = {"*": JOKER}
for _c in REAL_CARDS:
    _PARSE_CACHE[str(_c)] = _c
    if _c.rank == 10:
        _PARSE_CACHE["T" + _c.suit] = _c
for _c, _j in zip(REAL_CARDS, JOKER_AS, strict=True):  # _j is the joker declared as _c
    _PARSE_CACHE[str(_j)] = _j
    if _c.rank == 10:
        _PARSE_CACHE["*T" + _c.suit] = _j
del _c, _j


def parse_cards(text: str) -> list[Card]:
    """Read a space-separated card list (order kept). Unreadable -> ``bad_action``."""
    if not isinstance(text, str):
        raise RuleError("bad_action", f"{text!r} is not a list of cards.")
    tokens = text.split()
    try:
        return [_PARSE_CACHE[t] for t in tokens]
    except KeyError:
        return [Card.parse(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards in notation, space-separated; ``parse_cards`` reads it back."""
    return " ".join([c.notation for c in cards])


def hand_points(cards: Iterable[Card]) -> int:
    """R7.1: the sum of the points (R1.3) of the cards."""
    pts = POINTS
    return sum(pts[c.pcode] for c in cards)


def new_deck(n_players: int) -> list[Card]:
    """R1.2: 2 players one deck + 1 joker (53); 3-5 players two decks + 2 jokers (106).

    Returned in a fixed order; shuffling is the dealer's job (R2.2).
    """
    if (
        not isinstance(n_players, int)
        or isinstance(n_players, bool)
        or not MIN_PLAYERS <= n_players <= MAX_PLAYERS
    ):
        raise ValueError(f"Manipulation Rummy is for 2 to 5 players, not {n_players!r} (R1.1).")
    if n_players == 2:
        return list(REAL_CARDS) + [JOKER]
    return list(REAL_CARDS) * 2 + [JOKER, JOKER]
