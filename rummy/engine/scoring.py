"""Scoring a round (R7) and the end of the game (R9)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, hand_points

UNDERCUT_BONUS = 10  # R7.4
GOING_OUT_BONUS = 25  # R7.5
GAME_BONUS = 100  # R9.2
ROUND_WON_BONUS = 25  # R9.2


def score_round(
    hands: Sequence[Sequence[Card]], knocker: int | None, went_out: int | None = None
) -> tuple[list[int], list[int]]:
    """R7: the round's points per seat and the winners (ascending seats).

    ``knocker`` is the seat that knocked, or None when the round ended by going out
    or by the final lap (R8.3). ``went_out`` is the seat that went out; when it is
    None and nobody knocked, a seat with an empty hand is taken to have gone out
    (as in the conformance ``score`` vectors).
    """
    counts = [hand_points(h) for h in hands]  # R7.1
    low = min(counts)
    winners = [s for s, c in enumerate(counts) if c == low]
    # R7.2: a knocker who only ties for lowest is not a winner.
    if knocker is not None and knocker in winners and len(winners) > 1:
        winners.remove(knocker)
    if went_out is not None:
        out_seats = {went_out}
    elif knocker is None:
        out_seats = {s for s, h in enumerate(hands) if len(h) == 0}
    else:
        out_seats = set()
    points = [0] * len(hands)  # R7.6: the others score 0
    for w in winners:
        # R7.3: summed over every other player (co-winners add 0 to each other).
        pts = sum(c - counts[w] for s, c in enumerate(counts) if s != w)
        if knocker is not None and w != knocker:
            pts += UNDERCUT_BONUS  # R7.4
        if w in out_seats:
            pts += GOING_OUT_BONUS  # R7.5
        points[w] = pts
    return points, winners


def final_result(
    scores: Sequence[int], rounds_won: Sequence[int], target: int = 150, force: bool = False
) -> tuple[bool, list[int] | None, list[int] | None]:
    """R9: (game_over, final_scores, game_winners); the last two are None while the game goes on.

    R9.1 the game ends once anyone has ``target`` (R10) or more; R9.2 +100 to each
    such player and +25 per round won to everyone; R9.3 the highest total wins, ties
    share. ``force`` computes the result even if nobody reached the target (a game
    ended early, see ``end_early``).
    """
    if not force and not any(s >= target for s in scores):
        return False, None, None
    final = [
        s + (GAME_BONUS if s >= target else 0) + ROUND_WON_BONUS * w
        for s, w in zip(scores, rounds_won, strict=False)
    ]
    top = max(final)
    return True, final, [s for s, f in enumerate(final) if f == top]
