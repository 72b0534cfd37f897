"""The game state as plain data (DESIGN: "game state as data"), dealing (R2) and settings (R10).

A ``GameState`` is treated as immutable: every action builds a new one, copying only
the lists it changes (so unchanged hands are shared between states; never mutate a
state's lists in place). ``to_dict()`` gives JSON-ready data and
``GameState.from_dict(state.to_dict()) == state``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Card, format_cards, new_deck, parse_cards
from .errors import RuleError

STATE_FORMAT = "carousel-state/1"
HAND_SIZE = 10  # R2.2


@dataclass(frozen=True)
class Settings:
    """R10: the only rules a league or season may change."""

    target: int = 150  # R9.1
    knock_limit: int = 5  # R6.1

    def __post_init__(self) -> None:
        for name in ("target", "knock_limit"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be a whole number")
        if self.target < 1:
            raise ValueError("target must be at least 1")
        if self.knock_limit < 0:
            raise ValueError("knock_limit cannot be negative")

    def to_dict(self) -> dict[str, int]:
        return {"target": self.target, "knock_limit": self.knock_limit}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        return cls(target=d.get("target", 150), knock_limit=d.get("knock_limit", 5))


@dataclass
class GameState:
    """Everything about one game at one moment (a round in progress or just ended).

    ``stock`` is top first (a draw takes ``stock[0]``); ``table`` holds melds with
    every joker declared; ``final_turns`` is None until the stock runs out (R8), then
    the number of turn ends left before the round ends, counting the turn in progress.
    ``last_round`` describes the most recently finished round (revealed hands as
    notation, ``points``, ``winners``, ``knocker``, ``went_out``, ``reason``).
    """

    settings: Settings
    dealer: int
    round_no: int
    hands: list[list[Card]]
    table: list[list[Card]]
    stock: list[Card]
    turn: int
    drawn: int = 0
    final_turns: int | None = None
    scores: list[int] = field(default_factory=list)
    rounds_won: list[int] = field(default_factory=list)
    round_over: bool = False
    last_round: dict[str, Any] | None = None
    game_over: bool = False
    final_scores: list[int] | None = None
    game_winners: list[int] | None = None

    @property
    def n_players(self) -> int:
        return len(self.hands)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "settings": self.settings.to_dict(),
            "dealer": self.dealer,
            "round_no": self.round_no,
            "hands": [format_cards(h) for h in self.hands],
            "table": [format_cards(m) for m in self.table],
            "stock": format_cards(self.stock),
            "turn": self.turn,
            "drawn": self.drawn,
            "final_turns": self.final_turns,
            "scores": list(self.scores),
            "rounds_won": list(self.rounds_won),
            "round_over": self.round_over,
            "last_round": _copy_json(self.last_round),
            "game_over": self.game_over,
            "final_scores": None if self.final_scores is None else list(self.final_scores),
            "game_winners": None if self.game_winners is None else list(self.game_winners),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        if d.get("format", STATE_FORMAT) != STATE_FORMAT:
            raise ValueError(f"unknown state format {d.get('format')!r}")
        return cls(
            settings=Settings.from_dict(d.get("settings", {})),
            dealer=d["dealer"],
            round_no=d["round_no"],
            hands=[parse_cards(h) for h in d["hands"]],
            table=[parse_cards(m) for m in d["table"]],
            stock=parse_cards(d["stock"]),
            turn=d["turn"],
            drawn=d["drawn"],
            final_turns=d.get("final_turns"),
            scores=list(d["scores"]),
            rounds_won=list(d["rounds_won"]),
            round_over=d["round_over"],
            last_round=_copy_json(d.get("last_round")),
            game_over=d.get("game_over", False),
            final_scores=None if d.get("final_scores") is None else list(d["final_scores"]),
            game_winners=None if d.get("game_winners") is None else list(d["game_winners"]),
        )


def _copy_json(value: Any) -> Any:
    """A copy of JSON-like data (``last_round``: a flat dict of scalars and lists of scalars)."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [
            v if isinstance(v, (str, int, float, bool, type(None))) else _copy_json(v)
            for v in value
        ]
    return value


def _check_players(n_players: int) -> None:
    if not isinstance(n_players, int) or isinstance(n_players, bool) or not 2 <= n_players <= 5:
        raise ValueError(f"Manipulation Rummy is for 2 to 5 players, not {n_players!r} (R1.1).")


# R10's defaults, the one place they are set: what a league plays unless it changes them.
DEFAULT_SETTINGS = Settings()


def _deal(n_players: int, dealer: int, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """R2.2: shuffle, deal 10 each one at a time from the dealer's left; the rest is the stock."""
    deck = new_deck(n_players)
    rng.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(n_players)]
    for i in range(HAND_SIZE * n_players):
        hands[(dealer + 1 + i) % n_players].append(deck[i])
    return hands, deck[HAND_SIZE * n_players :]


def new_game(
    n_players: int, rng: random.Random, settings: Settings = Settings(), dealer: int | None = None
) -> GameState:
    """Start a game: R2.1 random first dealer (unless given), R2.2 deal, R2.3 first turn
    left of dealer."""
    _check_players(n_players)
    if dealer is None:
        dealer = rng.randrange(n_players)
    elif not 0 <= dealer < n_players:
        raise ValueError(f"no seat {dealer}")
    hands, stock = _deal(n_players, dealer, rng)
    return GameState(
        settings=settings,
        dealer=dealer,
        round_no=1,
        hands=hands,
        table=[],
        stock=stock,
        turn=(dealer + 1) % n_players,
        scores=[0] * n_players,
        rounds_won=[0] * n_players,
    )


def deal_next_round(state: GameState, rng: random.Random) -> GameState:
    """R9.1/R2.1: deal the next round; the player left of the previous dealer deals.

    Errors: ``game_over`` once the game has ended, ``round_not_over`` while the round
    is still being played. Scores, rounds won and ``last_round`` carry over.
    """
    if state.game_over:
        raise RuleError("game_over")
    if not state.round_over:
        raise RuleError("round_not_over")
    n = state.n_players
    dealer = (state.dealer + 1) % n
    hands, stock = _deal(n, dealer, rng)
    return replace(
        state,
        dealer=dealer,
        round_no=state.round_no + 1,
        hands=hands,
        table=[],
        stock=stock,
        turn=(dealer + 1) % n,
        drawn=0,
        final_turns=None,
        scores=list(state.scores),
        rounds_won=list(state.rounds_won),
        round_over=False,
    )


def _cards(value: str | Sequence[Card]) -> list[Card]:
    if isinstance(value, str):
        return parse_cards(value)
    return list(value)


def position(
    hands: Sequence[str | Sequence[Card]],
    table: Sequence[str | Sequence[Card]] = (),
    stock: str | Sequence[Card] = "",
    turn: int = 0,
    drawn: int = 0,
    final_turns: int | None = None,
    scores: Sequence[int] | None = None,
    rounds_won: Sequence[int] | None = None,
    knock_limit: int = 5,
    target: int = 150,
) -> GameState:
    """Build an arbitrary position in conformance notation (the ``game`` vectors).

    The position is taken as given (it need not hold a full deck); the dealer is the
    seat before ``turn``. A joker in a hand or the stock carries no declaration.
    """
    n = len(hands)
    _check_players(n)
    return GameState(
        settings=Settings(target=target, knock_limit=knock_limit),
        dealer=(turn - 1) % n,
        round_no=1,
        hands=[[c.physical for c in _cards(h)] for h in hands],
        table=[_cards(m) for m in table],
        stock=[c.physical for c in _cards(stock)],
        turn=turn,
        drawn=drawn,
        final_turns=final_turns,
        scores=list(scores) if scores is not None else [0] * n,
        rounds_won=list(rounds_won) if rounds_won is not None else [0] * n,
    )
