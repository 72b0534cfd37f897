"""Melds: groups and sequences (R4), and what a joker may stand for (R4.4).

``validate_meld`` answers with the kind or a ``RuleError`` whose message says why.
The table check (R5.2 c) calls ``meld_kind`` on every meld of the table on every
meld action, so the verdict is memoised by the meld's effective cards: validity
depends on nothing else.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence

from .cards import JOKER_AS, REAL_CARDS, SUIT_SYMBOLS, SUITS, Card, rank_name
from .errors import RuleError

GROUP = "group"
SEQUENCE = "sequence"

_CACHE: dict[tuple[int, ...], str | None] = {}
_CACHE_LIMIT = 50_000  # bounded: invalid melds are unbounded in number


def _pretty(ecode: int) -> str:
    return REAL_CARDS[ecode].pretty


def _judge(codes: tuple[int, ...]) -> str | None:
    """Kind of a meld given its sorted effective codes (all >= 0), or None if invalid."""
    n = len(codes)
    if n < 3:
        return None
    ranks = [c % 13 for c in codes]  # 0 = ace ... 12 = king
    suits = [c // 13 for c in codes]
    if len(set(ranks)) == 1:
        # R4.2: 3 or 4 cards, all of different suits.
        return GROUP if n <= 4 and len(set(suits)) == n else None
    if len(set(suits)) != 1 or len(set(ranks)) != n:
        return None
    # R4.3: codes are sorted and one suit, so ranks are ascending.
    if ranks[-1] - ranks[0] == n - 1:
        return SEQUENCE  # ace low (or no ace)
    if ranks[0] == 0:
        high = ranks[1:] + [13]  # ace high: Q-K-A
        if high[-1] - high[0] == n - 1:
            return SEQUENCE
    return None


def forget_verdicts() -> None:
    """Empty the verdicts' memo. The engine may import nothing of ours, so the site
    registers this with its other caches (``config.caches``, from ``rummy.apps``)."""
    _CACHE.clear()


def verdicts_held() -> int:
    """How many verdicts the memo holds."""
    return len(_CACHE)


def meld_kind(cards: Sequence[Card]) -> str | None:
    """Fast verdict: "group", "sequence", or None (invalid or holding an undeclared joker)."""
    codes = tuple(sorted([c.ecode for c in cards]))
    try:
        return _CACHE[codes]
    except KeyError:
        pass
    kind = None if (codes and codes[0] < 0) else _judge(codes)
    if len(_CACHE) < _CACHE_LIMIT:
        _CACHE[codes] = kind
    return kind


def _why_invalid(cards: Sequence[Card]) -> tuple[str, dict[str, str | int], str]:
    """Why an (invalid, fully declared) meld breaks R4: (reason, params, sentence)."""
    codes = sorted(c.ecode for c in cards)
    n = len(codes)
    if n < 3:
        return "too_short", {"n": n}, f"A meld needs at least 3 cards; this one has {n}."
    ranks = [c % 13 + 1 for c in codes]
    suits = [SUITS[c // 13] for c in codes]
    if len(set(ranks)) == 1:
        seen = set()
        for c in codes:
            if c in seen:
                return (
                    "group_identical",
                    {"card": _pretty(c)},
                    f"A group cannot hold two {_pretty(c)}.",
                )
            seen.add(c)
        return (
            "group_too_long",
            {"n": n},
            f"A group has at most 4 cards, one of each suit; this one has {n}.",
        )
    if len(set(suits)) != 1:
        return (
            "mixed",
            {},
            "A meld must be cards of one rank in different suits (a group) "
            "or cards of one suit in consecutive ranks (a sequence).",
        )
    seen = set()
    for c in codes:
        if c in seen:
            return (
                "sequence_identical",
                {"card": _pretty(c)},
                f"A sequence cannot hold two {_pretty(c)}.",
            )
        seen.add(c)
    rs = set(ranks)
    missing = sorted(set(range(1, 14)) - rs)
    if 13 in rs and 2 in rs and missing == list(range(missing[0], missing[-1] + 1)):
        # consecutive only if ranks went round the corner (R4.3: no wrapping)
        return "sequence_wraps", {}, "A sequence cannot wrap from king to ace to two."
    # find the first gap in the more favourable ace reading
    order = sorted(14 if (r == 1 and 12 in rs) else r for r in ranks)
    for a, b in itertools.pairwise(order):
        if b != a + 1:
            sym = SUIT_SYMBOLS[suits[0]]
            lo = rank_name(1 if a == 14 else a) + sym
            hi = rank_name(1 if b == 14 else b) + sym
            return (
                "sequence_gap",
                {"low": lo, "high": hi},
                f"A sequence needs consecutive ranks: there is a gap between {lo} and {hi}.",
            )
    return "not_a_meld", {}, "These cards do not form a group or a sequence."


def meld_problem(cards: Sequence[Card]) -> RuleError | None:
    """The error ``validate_meld`` would raise, or None for a valid meld."""
    cards = list(cards)
    for c in cards:
        if not isinstance(c, Card):
            return RuleError("bad_action", f"{c!r} is not a card.")
        if c.joker and c.declared is None:
            return RuleError("joker_undeclared", "Say which card the joker stands for (R4.4).")
    if meld_kind(cards) is not None:
        return None
    reason, params, sentence = _why_invalid(cards)
    return RuleError("invalid_meld", sentence, reason=reason, params=params)


def validate_meld(cards: Sequence[Card]) -> str:
    """R4: return "group" or "sequence", or raise ``RuleError`` saying why not.

    Codes: ``joker_undeclared`` (Decision under R4.4), ``invalid_meld`` (R4.1-R4.4).
    """
    problem = meld_problem(cards)
    if problem is not None:
        raise problem
    kind = meld_kind(list(cards))
    assert kind is not None  # meld_problem found nothing wrong
    return kind


def joker_options(other_cards: Iterable[Card]) -> list[Card]:
    """Every card a new joker may stand for so that ``other_cards`` + joker is valid.

    R4.4 and its Decision: the interface infers the declaration when exactly one card
    fits and asks when several do (7♥ 8♥ -> 6♥ or 9♥). Sorted by suit (C D H S),
    then rank. An empty list means no declaration can make the meld valid.
    """
    others = list(other_cards)
    if any(c.joker and c.declared is None for c in others):
        return []
    out: list[Card] = []
    for card, joker in zip(REAL_CARDS, JOKER_AS, strict=True):  # joker declared as card
        if meld_kind(others + [joker]) is not None:
            out.append(card)
    return out


# --- The melds a hand holds ------------------------------------------------------------


def hand_groups(hand: Sequence[Card]) -> list[list[Card]]:
    """One group per rank held in three or more suits (R4.2), jokers left out."""
    by_rank: dict[int, dict[str, Card]] = defaultdict(dict)
    for c in hand:
        if not c.joker:
            by_rank[c.rank].setdefault(c.suit, c)
    return [list(s.values())[:4] for s in by_rank.values() if len(s) >= 3]


def hand_runs(hand: Sequence[Card]) -> list[list[Card]]:
    """The longest runs of one suit in ``hand``, jokers left out: each a sequence
    (R4.3). An ace is tried low (A-2-3) and high (Q-K-A), never both in one run, so
    a whole suit gives A..K, never the ace twice."""
    by_suit: dict[str, dict[int, Card]] = defaultdict(dict)
    for c in hand:
        if not c.joker:
            by_suit[c.suit].setdefault(c.rank, c)
            if c.rank == 1:
                by_suit[c.suit].setdefault(14, c)
    runs = []
    for cards in by_suit.values():
        run: list[Card] = []
        prev = None
        for r in sorted(cards):
            # an ace may close a run high only if it did not open it low (R4.3)
            if prev is not None and r == prev + 1 and not (r == 14 and run[0].rank == 1):
                run.append(cards[r])
            else:
                if len(run) >= 3:
                    runs.append(run)
                run = [cards[r]]
            prev = r
        if len(run) >= 3:
            runs.append(run)
    return runs
