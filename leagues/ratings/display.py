"""How a rating is shown: a Lichess-like figure around 1500, and "?" while it is
provisional.

The figure is 1500 + 40·(μ − 25), rounded to the nearest 10: a new player (μ 25) shows
1500, and the start's uncertainty (σ 25/3) is about ±330, close to Lichess's 350. It
is never shown finer than 10 because one game moves it by tens.

Provisional (shown "1540?") while σ is above 7, i.e. until the model is sure enough of
the player; with three or four players at a table that takes about ten to twenty games.
Leaderboards list established ratings first.
"""

from dataclasses import dataclass

BASE = 1500
SCALE = 40
START_MU = 25.0
STEP = 10
PROVISIONAL_SIGMA = 7.0


@dataclass(frozen=True)
class Shown:
    figure: int
    provisional: bool
    games: int = 0


def figure(mu):
    """The displayed figure of ``mu``, rounded half up to ``STEP``."""
    value = BASE + SCALE * (mu - START_MU)
    return int((value + STEP / 2) // STEP) * STEP


def shown(rating):
    """What a page shows of ``rating`` (a ``Rating``)."""
    return Shown(figure(rating.mu), rating.sigma > PROVISIONAL_SIGMA, rating.games)


def figure_text(mu, sigma):
    """The figure of (``mu``, ``sigma``) as plain text, "?" marking a provisional one
    ("1540?"), for the places that show it in a few characters (the game page)."""
    return f"{figure(mu)}{'?' if sigma > PROVISIONAL_SIGMA else ''}"
