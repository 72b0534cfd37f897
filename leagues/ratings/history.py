"""A player's rating over time: the points of the profile's chart per league (drawn on
the server as SVG, with a table of the same points), and what one game did to each
player's rating (the game's record page). Each read is one query, however many games
were rated.

The chart's x axis counts the league's rated games (evenly spaced: a month without
games is no gap to read into); its y axis is the displayed figure, so the chart never
shows more precision than the figure beside it. A point whose rating was still
provisional is drawn hollow.
"""

from dataclasses import dataclass
from datetime import datetime

from leagues.ratings.display import PROVISIONAL_SIGMA, figure
from leagues.ratings.models import RatingChange, Scope

# The chart's drawing box (SVG user units; it scales to the page's width).
WIDTH = 320
HEIGHT = 160
LEFT = 44  # room for the figures of the y axis
RIGHT = 10
TOP = 10
BOTTOM = 26  # room for the game numbers of the x axis
# The last games a chart shows: enough for a season's story, light on a phone.
SHOWN = 100
# The smallest span of the y axis, in figure points: one game's step does not fill
# the chart and look like a cliff.
MIN_SPAN = 100
TICK = 50


@dataclass(frozen=True)
class Point:
    number: int  # the player's rated games in the league after this one (0: the start)
    game_id: int | None
    finished_at: datetime | None
    figure: int
    provisional: bool
    change: int  # in displayed figures, from the point before
    x: float
    y: float

    @property
    def signed_change(self):
        return signed(self.change)


def signed(change):
    """A change of a figure with its sign ("+40", "−20", "0"): a real minus sign."""
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "0"


@dataclass(frozen=True)
class Chart:
    league: object
    points: list[Point]
    polyline: str
    y_ticks: list[tuple[float, int]]  # (y, figure)
    x_ticks: list[tuple[float, int]]  # (x, game number)
    low: int
    high: int
    games: int  # all the player's rated games in the league; the chart shows the last

    @property
    def shown(self):
        return len(self.points) - 1

    @property
    def start(self):
        return self.points[0].figure

    @property
    def end(self):
        return self.points[-1].figure

    @property
    def cut(self):
        return self.games > self.shown


def player_history(player, leagues):
    """``player``'s league ratings over time in ``leagues``: one ``Chart`` per league
    with rated games, by league name; one query."""
    rows = (
        RatingChange.objects.filter(user=player, scope=Scope.LEAGUE, league__in=leagues)
        .select_related("league")
        .order_by("league_id", "finished_at", "game_id")
    )
    per_league = {}
    for row in rows:
        per_league.setdefault(row.league_id, []).append(row)
    charts = [chart(changes[0].league, changes) for changes in per_league.values()]
    charts.sort(key=lambda c: c.league.name.casefold())
    return charts


def chart(league, changes):
    """The chart of one league's ``changes`` (``RatingChange`` rows in the order they
    were applied): the last ``SHOWN`` games, and the rating before the first of them."""
    games = len(changes)
    shown = changes[-SHOWN:]
    first = games - len(shown)
    values = [(first, None, None, shown[0].mu_before, shown[0].sigma_before)]
    values += [
        (first + i + 1, c.game_id, c.finished_at, c.mu_after, c.sigma_after)
        for i, c in enumerate(shown)
    ]
    figures = [figure(mu) for *_, mu, _sigma in values]
    low, high = _y_range(figures)
    last = values[-1][0]

    def x_of(number):
        span = max(last - first, 1)
        return round(LEFT + (WIDTH - LEFT - RIGHT) * (number - first) / span, 1)

    def y_of(value):
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low), 1)

    points = []
    for i, (number, game_id, finished_at, _mu, sigma) in enumerate(values):
        points.append(
            Point(
                number=number,
                game_id=game_id,
                finished_at=finished_at,
                figure=figures[i],
                provisional=sigma > PROVISIONAL_SIGMA,
                change=figures[i] - figures[i - 1] if i else 0,
                x=x_of(number),
                y=y_of(figures[i]),
            )
        )
    return Chart(
        league=league,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        y_ticks=[(y_of(v), v) for v in (low, (low + high) // 2, high)],
        x_ticks=[(x_of(n), n) for n in sorted({first, (first + last) // 2, last})],
        low=low,
        high=high,
        games=games,
    )


def _y_range(figures):
    """The y axis: the figures' range, widened to ``MIN_SPAN`` and to whole ``TICK``s
    (an even number of them, so that the middle tick is a round figure too)."""
    low, high = min(figures), max(figures)
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    low = int(low // TICK) * TICK
    high = -int(-high // TICK) * TICK
    if (high - low) // TICK % 2:
        high += TICK
    return low, high


@dataclass(frozen=True)
class GameChange:
    user: object
    before: int
    after: int
    change: int
    provisional: bool  # after this game

    @property
    def signed_change(self):
        return signed(self.change)


def game_changes(game_id):
    """What the game ``game_id`` did to each player's rating in its league, by final
    place (then name); empty when it was not rated. One query."""
    rows = RatingChange.objects.filter(game_id=game_id, scope=Scope.LEAGUE).select_related("user")
    changes = []
    for row in sorted(rows, key=lambda r: (r.place, r.user.name.casefold())):
        before, after = figure(row.mu_before), figure(row.mu_after)
        changes.append(
            GameChange(row.user, before, after, after - before, row.sigma_after > PROVISIONAL_SIGMA)
        )
    return changes
