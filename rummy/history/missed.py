"""The record's missed plays: each player's turns where a better meld existed,
read from the ``TurnReview`` rows the background pass stored (``rummy.history.review``).
Reads rows only: the solver is never called on a page request.

Who sees them: everyone who may see the record. The review exists only once the game is
over, and then the replay already shows every hand at every step
(``rummy.history.viewer``, ``Mode.ALL``), so a turn's hand here reveals nothing new.
"""

from collections import Counter

from rummy.history.sheet import players_of
from rummy.models import Game, GameReview
from rummy.templatetags.cards import card_info


def _new_melds(before, after):
    """The melds of the best table that were not on the table before (as it was, meld
    for meld): the part of the arrangement worth showing on a phone; the others stay."""
    # The same cards in another order are the same meld (the solver orders its own).
    left = Counter(_key(m) for m in before)
    out = []
    for meld in after:
        if left[_key(meld)]:
            left[_key(meld)] -= 1
        else:
            out.append(meld)
    return out


def _key(meld):
    return tuple(sorted(meld.split()))


def missed_plays(game):
    """None before the game is reviewed (or for a game that never finished); else one
    entry per player, with their turns where the best meld left less than they did."""
    if game.status != Game.Status.FINISHED:
        return None
    review = GameReview.objects.filter(game=game).first()
    if review is None or review.failed:
        return {"ready": False, "failed": review is not None, "players": []}
    players = players_of(game)
    turns = {p.number: [] for p in players}
    for row in game.turn_reviews.all():
        if not row.missed or row.seat not in turns:
            continue
        turns[row.seat].append(
            {
                "seq": row.seq,
                "round": row.round_no,
                "count_left": row.count_left,
                "best_count": row.best_count,
                "proven": row.proven,
                "melded": row.kind == "meld",
                "hand": [card_info(c) for c in row.hand],
                "played": [card_info(c) for c in row.best_played],
                "melds": [
                    [card_info(c) for c in meld.split()]
                    for meld in _new_melds(row.table, row.best_table)
                ],
            }
        )
    return {
        "ready": True,
        "failed": False,
        "players": [{"player": p, "turns": turns[p.number]} for p in players],
    }
