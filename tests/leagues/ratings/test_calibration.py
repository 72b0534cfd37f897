"""Ratings on simulated leagues (``bench.rating_calibration``, whose full run's figures
are in docs/benchmarks.md): steady bots, which beat beginners every game, end rated
above them, and the favourite's figures come out of the site's own steps; on a stored
league of 600 bot games the chances are calibrated (the league page quotes its
figures, ``leagues.ratings.chances.CALIBRATION``)."""

import json
import math
from pathlib import Path

import pytest

from bench.rating_calibration import (
    _library_chances,
    calibration,
    level_means,
    log_loss,
    rechance,
    simulate,
)
from leagues.ratings.chances import CALIBRATION
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


# Final scores of 600 bot games (beginner and expert, 5 of each, tables of 2 to 4) that
# the benchmark played with seed 2: games LUCK was not fitted on (it was fitted on seed
# 1's). Stored, so that this check rates real games without playing them (minutes of
# CPU) and without the solver's time limit, which is wall-clock, making the play depend
# on the machine's load.
LEAGUE = Path(__file__).parent / "data" / "bot_league_seed2.json"


def worst_bin(tables):
    return max(abs(won - predicted) for _, predicted, won, n in calibration(tables) if n >= 50)


def test_on_a_stored_simulated_league_the_chances_are_calibrated():
    stored = json.loads(LEAGUE.read_text())
    outcome = simulate(
        stored["per_level"],
        len(stored["tables"]),
        stored["seed"],
        levels=tuple(stored["levels"]),
        scores_file=LEAGUE,
    )
    assert outcome.before, "the stored games did not match the draw: they would be played"
    for table in outcome.tables:
        assert math.fsum(chance for chance, _ in table) == pytest.approx(1, abs=1e-12)
    # The stronger level ends higher: every expert above every beginner.
    levels = {
        lv: [outcome.ratings[p][0] for p, x in outcome.level_of.items() if x == lv]
        for lv in ("beginner", "expert")
    }
    assert min(levels["expert"]) > max(levels["beginner"])
    # The favourite wins about as often as predicted: the prediction lies inside the 95 %
    # interval of the favourite's share of wins.
    figures = favourite_figures(outcome.tables)
    assert figures is not None and figures.low <= figures.predicted <= figures.high
    # The site's chances score better than the library's predict_win on the same games.
    assert log_loss(outcome.tables) < log_loss(rechance(outcome, _library_chances))
    # By bins of predicted chance (every player; bins of 50 or more), the worst gap
    # between predicted and finished first is under 15 points, and smaller than the
    # library's. Not under 5: one parameter cannot make the chances both sure between
    # levels (a beginner never beats an expert) and even between two experts, whose
    # ratings luck has parted by a few points (docs/benchmarks.md has the bins).
    ours = worst_bin(outcome.tables)
    assert ours < 0.15 and ours < worst_bin(rechance(outcome, _library_chances))
    assert (
        CALIBRATION["games"],
        CALIBRATION["won"],
        CALIBRATION["predicted"],
    ) == (figures.games, round(100 * figures.share), round(100 * figures.predicted))
