"""Ratings on a small simulated league (``bench.rating_calibration``, whose full run's
figures are in docs/benchmarks.md): steady bots, which beat beginners every game, end
rated above them, and the favourite's figures come out of the site's own steps."""

from bench.rating_calibration import calibration, level_means, simulate
from leagues.ratings.skill import favourite_figures


def test_the_stronger_level_ends_rated_higher_and_the_favourite_wins():
    outcome = simulate(per_level=2, games=10, seed=3, sizes=(2,), levels=("beginner", "steady"))
    means = level_means(outcome)
    assert means["steady"] > 25 > means["beginner"]
    # Every steady bot above every beginner.
    steady = [outcome.ratings[p][0] for p, lv in outcome.level_of.items() if lv == "steady"]
    beginner = [outcome.ratings[p][0] for p, lv in outcome.level_of.items() if lv == "beginner"]
    assert min(steady) > max(beginner)
    for table in outcome.tables:
        assert abs(sum(chance for chance, _ in table) - 1) < 1e-9
    # Once the ratings make the steady bot the favourite against a beginner, it wins.
    steady_favourites = 0
    for table, players in zip(outcome.tables, outcome.seated, strict=True):
        (chance_0, _), (chance_1, _) = table
        favourite = 0 if chance_0 > chance_1 else 1 if chance_1 > chance_0 else None
        if favourite is None:
            continue
        levels = (outcome.level_of[players[favourite]], outcome.level_of[players[1 - favourite]])
        if levels == ("steady", "beginner"):
            steady_favourites += 1
            assert table[favourite][1] == 1
    assert steady_favourites
    figures = favourite_figures(outcome.tables)
    assert figures is not None and 0 < figures.predicted < 1
    assert sum(n for *_, n in calibration(outcome.tables)) == 2 * 10
