"""A player's record for their profile: the finished games they played (league, date,
players, placement, score), filterable by league and season, and their figures
(games and rounds won, knocks, undercuts suffered, times gone out, the average count
left in hand at a round's end). Reached from ``leagues`` through ``rummy.public``.

Bounded queries: the page of games with their players is three queries whatever the
page, the figures one query over the player's rounds (a few columns each, streamed)
and one count.
"""

from dataclasses import dataclass

from django.db.models import Count, F, Prefetch, Q

from rummy import engine
from rummy.history.sheet import went_out_seat
from rummy.models import Game, Round, Seat


def player_seats(player, leagues, league=None, season=None):
    """``player``'s seats at finished games in ``leagues`` (optionally one league and
    one season), newest first, each game with its league, season and players."""
    seats = Seat.objects.filter(
        user=player, game__league__in=leagues, game__status=Game.Status.FINISHED
    )
    if league is not None:
        seats = seats.filter(game__league=league)
    if season is not None:
        seats = seats.filter(game__season=season)
    return (
        seats.select_related("game", "game__league", "game__season")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("number"))
        )
        .order_by("-game__finished_at", "-game_id")
    )


def game_rows(seats):
    """The rows of a page of ``player_seats``: the game, its players (seat order),
    the player's place (1 is best, equal scores share) and score."""
    rows = []
    for seat in seats:
        players = list(seat.game.seated())
        better = sum(
            1
            for other in players
            if other.final_score is not None
            and seat.final_score is not None
            and other.final_score > seat.final_score
        )
        rows.append(
            {
                "seat": seat,
                "game": seat.game,
                "players": [p.user for p in players],
                "place": better + 1,
                "of": len(players),
                "score": seat.final_score,
                "won": seat.is_winner,
            }
        )
    return rows


@dataclass(frozen=True)
class Figures:
    games: int
    games_won: int
    rounds: int
    rounds_won: int
    knocks: int
    undercuts_suffered: int
    times_gone_out: int
    average_count: float | None


def figures(player, seats):
    """``player``'s figures over the games of ``seats`` (a ``player_seats`` queryset):
    every finished round of those games, read from the player's seat."""
    totals = seats.order_by().aggregate(
        games=Count("pk"), games_won=Count("pk", filter=Q(is_winner=True))
    )
    # The filter on the seat comes first, so the annotation reads that same seat.
    rounds = Round.objects.filter(game__in=seats.values("game"), game__seats__user=player).annotate(
        seat_no=F("game__seats__number")
    )
    n = won = knocks = undercut = out = counted = 0
    for reason, knocker, winners, hands, seat_no in rounds.values_list(
        "reason", "knocker", "winners", "hands", "seat_no"
    ).iterator(chunk_size=2000):
        if seat_no is None or seat_no >= len(hands):
            continue
        n += 1
        won += seat_no in winners
        if knocker == seat_no:
            knocks += 1
            undercut += seat_no not in winners
        out += went_out_seat(reason, hands) == seat_no
        counted += engine.hand_points(engine.parse_cards(hands[seat_no]))
    return Figures(
        games=totals["games"],
        games_won=totals["games_won"],
        rounds=n,
        rounds_won=won,
        knocks=knocks,
        undercuts_suffered=undercut,
        times_gone_out=out,
        average_count=round(counted / n, 1) if n else None,
    )
