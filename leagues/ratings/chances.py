"""Each player's chance of finishing first at a table, from their ratings before the
game: Plackett-Luce's probability of winning (``openskill``'s ``predict_win``), which
sums to 1 over the table. A player not rated yet counts at the start values; ties are
not in the model, so a shared first place is not a chance of its own.

The write path asks for them when the seats of a league's table change and when the
game starts (``rummy.play.seating``), and stores them on the seats: pages read them
with the seats, never predict per view.
"""

from leagues.ratings.model import MODEL
from leagues.ratings.models import Rating


def first_chances(ratings):
    """The chance of finishing first of each of ``ratings`` ((mu, sigma) pairs, at
    least two), in the same order."""
    return MODEL.predict_win([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings])


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
