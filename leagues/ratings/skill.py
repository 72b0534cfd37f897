"""How much of a league's results is skill: how often the favourite won its rated games,
against how often that would happen by chance alone at those table sizes, and each
player's wins against what their ratings predicted. One query per league, from the
history rows (each keeps the player's predicted chance of finishing first before the
game, ``RatingChange.chance_first``).

- The favourite of a game is the player the ratings gave the highest chance of
  finishing first; a game where that highest chance is shared (every game between new
  players) has no favourite and is left out. The favourite won when they finished
  first (a shared first place counts).
- By chance alone the favourite of a table of n wins 1/n of the time: over the games,
  the sum of 1/n divided by their number.
- The interval is Wilson's 95 % score interval for the favourite's share of wins.
  Wilson's rather than the plain normal one because leagues are small: it stays inside
  0 to 100 % and keeps its coverage with a few dozen games.
- A player's results are compared with their predictions once they have
  ``PLAYER_GAMES`` rated games in the league: the wins expected are the sum of their
  chances, and over- or under-performing is said only when the wins differ from it by
  more than twice its standard deviation (that of a sum of independent chances); a
  smaller difference is what luck alone does.
"""

import math
from dataclasses import dataclass

from leagues.ratings.models import RatingChange, Scope

# Wilson's interval at 95 %.
Z = 1.96
# Games in the league before a player's results are set against their predictions.
PLAYER_GAMES = 10
# Two predicted chances this close are equal (a favourite needs a real margin).
EQUAL = 1e-9


@dataclass(frozen=True)
class LeagueSkill:
    games: int  # rated games with a favourite
    favourite_won: int
    by_chance: float  # share of wins by chance alone
    predicted: float  # share of wins the ratings predicted for the favourites
    low: float  # Wilson's 95 % interval of the favourite's share
    high: float

    @property
    def share(self):
        return self.favourite_won / self.games

    @property
    def beats_chance(self):
        return self.low > self.by_chance

    def percents(self):
        """The figures in whole percent, as the league page says them."""
        return {
            name: round(100 * value)
            for name, value in (
                ("share", self.share),
                ("by_chance", self.by_chance),
                ("predicted", self.predicted),
                ("low", self.low),
                ("high", self.high),
            )
        }


@dataclass(frozen=True)
class PlayerResult:
    user: object
    games: int
    wins: int
    expected: float
    spread: float  # the standard deviation of the wins expected

    @property
    def verdict(self):
        """ "over", "under" or "as": beyond two standard deviations, or within them."""
        if self.wins - self.expected > 2 * self.spread:
            return "over"
        if self.expected - self.wins > 2 * self.spread:
            return "under"
        return "as"


def wilson(successes, trials, z=Z):
    """Wilson's score interval (low, high) of a share of ``successes`` in ``trials``."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    middle = share + z * z / (2 * trials)
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max((middle - half) / scale, 0.0), min((middle + half) / scale, 1.0)


def favourite_figures(tables):
    """``tables``: per game, one (chance of finishing first, place) per player. Returns
    a ``LeagueSkill``, or None when no game had a favourite."""
    games = won = 0
    by_chance = predicted = 0.0
    for table in tables:
        top = max(chance for chance, _ in table)
        favourites = [place for chance, place in table if chance > top - EQUAL]
        if len(favourites) > 1:
            continue
        games += 1
        won += favourites[0] == 1
        by_chance += 1 / len(table)
        predicted += top
    if not games:
        return None
    low, high = wilson(won, games)
    return LeagueSkill(games, won, by_chance / games, predicted / games, low, high)


def league_skill(league):
    """(``LeagueSkill`` or None, [``PlayerResult``] of the players with enough games,
    best over-performers first) for ``league``'s rated games; one query."""
    rows = (
        RatingChange.objects.filter(league=league, scope=Scope.LEAGUE, chance_first__isnull=False)
        .select_related("user")
        .order_by("game_id", "user_id")
    )
    tables, players = {}, {}
    for row in rows:
        tables.setdefault(row.game_id, []).append((row.chance_first, row.place))
        games, wins, expected, variance, _user = players.get(row.user_id, (0, 0, 0.0, 0.0, None))
        p = row.chance_first
        players[row.user_id] = (
            games + 1,
            wins + (row.place == 1),
            expected + p,
            variance + p * (1 - p),
            row.user,
        )
    results = [
        PlayerResult(user, games, wins, expected, math.sqrt(variance))
        for games, wins, expected, variance, user in players.values()
        if games >= PLAYER_GAMES and not user.bot_level and user.is_active
    ]
    results.sort(key=lambda r: (-(r.wins - r.expected), r.user.name.casefold()))
    return favourite_figures(tables.values()), results
