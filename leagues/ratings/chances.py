"""Each player's chance of finishing first at a table, from their ratings before the
game: the Plackett-Luce model's own probability of finishing first (the model the
ratings are computed with), exp(μ/c) over the table's sum of exp(μ/c), with
c = √(Σ(σ² + LUCK²)) over the table. It sums to 1 over the table. A player not rated
yet counts at the start values; ties are not in the model, so a shared first place is
not a chance of its own.

``LUCK`` is how much one game's result scatters around a player's skill, in rating
points, for the chances only: the ratings are computed with the library's β (25/6).
It was fitted on a simulated league of bots (``bench.rating_calibration --fit``, seed
1): the luck at which the favourites' predicted chance equals their share of wins; on
another league (seed 2, ``CALIBRATION``) the favourite's share of wins then matched the
prediction, where β itself and the library's ``predict_win`` predicted less (figures:
docs/benchmarks.md). ``predict_win`` is not used: it averages pairwise chances, so at
tables of three or more it caps a sure winner (one far above three equals gets 50 %)
and leaves sure losers a share; it is not Plackett-Luce's probability.

The write path asks for them when the seats of a league's table change and when the
game starts (``rummy.play.seating``), and stores them on the seats: pages read them
with the seats, never predict per view.
"""

import math

from leagues.ratings.model import MODEL
from leagues.ratings.models import Rating

# The scatter of one game's result around skill, in rating points, for the chances only
# (the ratings keep the library's beta, 25/6); fitted on a simulated league.
LUCK = 2.25
# What the league page says of it: on simulated games that LUCK was not fitted on (seed
# 2 of the benchmark), how often the favourite finished first (%) against the prediction.
CALIBRATION = {"games": 598, "won": 67, "predicted": 67}


def first_chances(ratings, luck=LUCK):
    """The chance of finishing first of each of ``ratings`` ((mu, sigma) pairs, at
    least two), in the same order."""
    c = math.sqrt(sum(sigma * sigma + luck * luck for _, sigma in ratings))
    top = max(mu for mu, _ in ratings)
    weights = [math.exp((mu - top) / c) for mu, _ in ratings]  # shifted: no overflow
    total = sum(weights)
    return [weight / total for weight in weights]


def league_ratings(league_id, user_ids):
    """(mu, sigma) of each of ``user_ids`` in the league, the start values for those not
    rated yet; one query."""
    stored = {
        user_id: (mu, sigma)
        for user_id, mu, sigma in Rating.objects.filter(
            league_id=league_id, user_id__in=user_ids
        ).values_list("user_id", "mu", "sigma")
    }
    return [stored.get(user_id, (MODEL.mu, MODEL.sigma)) for user_id in user_ids]


def percent(chance):
    """A chance as a page shows it: whole percent, never "0 %" or "100 %" for what
    is only unlikely or likely."""
    return min(max(round(chance * 100), 1), 99)
