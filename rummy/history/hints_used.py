"""The hints a game's players asked for, for its record: which round, who,
and the step of the replay where it happened. Only the fact is shown, never what the
hint said (that was the player's hand)."""

from bisect import bisect_right

from rummy.models import Move


def hints_used(game, deals, names):
    """One row per logged hint, in order. ``deals``: ``viewer.deals_of(game)`` (where
    each round starts); ``names``: seat number -> name. One query."""
    starts = [d.seq for d in deals]
    rows = []
    for seq, seat in (
        game.moves.filter(kind=Move.Kind.HINT).order_by("seq").values_list("seq", "seat")
    ):
        i = bisect_right(starts, seq) - 1
        rows.append(
            {
                "seq": seq,
                "round": deals[i].round_no if i >= 0 else None,
                "name": names.get(seat, "?"),
            }
        )
    return rows
