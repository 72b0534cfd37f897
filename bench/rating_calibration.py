"""Ratings on a simulated league: bots of known levels play rated games; does the
stronger level's rating end higher, and does the favourite win about as often as the
ratings predict?

    python -m bench.rating_calibration [--games 1000] [--per-level 5] [--seed 1]
        [--levels beginner,expert] [--jobs 2] [--scores FILE] [--fit]

No database: whole games through the engine (``rummy.bots.play_match``, as
``bench.bot_strength``), rated in the order they were drawn by the site's own steps
(``leagues.ratings.rating.places`` and ``rate``, the chances of
``leagues.ratings.chances``, the figures of ``leagues.ratings.skill``). Each simulated
player is a bot of one level; each game seats 2 to 4 of them drawn at random. The games
are played in parallel (who plays whom does not depend on the ratings), then rated one
after another. ``--scores FILE`` keeps the played games' final scores (written when
missing, read when it matches the arguments), so that the rating and the figures can be
run again without playing. ``--fit`` also prints, for a range of the luck parameter
(``leagues.ratings.chances.LUCK``), the chances' mean log loss and the favourites'
predicted chance against their share of wins, and the luck at which these two meet: how
that parameter was chosen (on one seed, then checked on another).

The default levels are beginner and expert, which differ (the strength table:
beginner loses every game to expert); steady and expert play level, so a league of those
two cannot show a stronger level ending higher.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

LEVELS = ("beginner", "expert")
# The bins of predicted chances (of every player, not only favourites) for calibration.
BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)
# The luck parameters --fit tries, 0.25 to 12 (rating points; the library's beta is 25/6).
FIT_GRID = tuple(x / 4 for x in range(1, 49))


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def play(job: tuple[list[str], int, float]) -> list[int]:
    """The final scores of one seeded game of ``levels``."""
    from rummy.bots import play_match

    levels, seed, time_limit = job
    final = play_match(levels, random.Random(seed), time_limit=time_limit)
    return list(final.final_scores or [0] * len(levels))


@dataclass
class Outcome:
    ratings: dict[int, tuple[float, float]]  # player -> (mu, sigma)
    level_of: dict[int, str]
    # Per game: the players seated, and per seat (predicted chance of first, place).
    seated: list[list[int]] = field(default_factory=list)
    tables: list[list[tuple[float, int]]] = field(default_factory=list)
    # Per game: each seat's (mu, sigma) before it, for trying other chance formulas.
    before: list[list[tuple[float, float]]] = field(default_factory=list)


def draw_tables(players: int, games: int, sizes: tuple[int, ...], rng: random.Random):
    return [rng.sample(range(players), rng.choice(sizes)) for _ in range(games)]


def play_all(
    level_of: dict[int, str], tables: list[list[int]], seed: int, time_limit: float, jobs: int
) -> list[list[int]]:
    """The final scores of each game of ``tables``, played in parallel when ``jobs`` > 1."""
    work = [
        ([level_of[p] for p in table], seed * 1_000_003 + n, time_limit)
        for n, table in enumerate(tables)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_setup) as pool:
            return list(pool.map(play, work, chunksize=8))
    return [play(job) for job in work]


def rate_all(level_of: dict[int, str], tables: list[list[int]], scores: list[list[int]]) -> Outcome:
    """Rate the games in order, as the site does, keeping each one's chances before it."""
    from leagues.ratings.chances import first_chances
    from leagues.ratings.model import MODEL
    from leagues.ratings.rating import places, rate

    outcome = Outcome(dict.fromkeys(level_of, (MODEL.mu, MODEL.sigma)), level_of, tables)
    for table, final in zip(tables, scores, strict=True):
        before = [outcome.ratings[p] for p in table]
        ranks = places(final)
        outcome.before.append(before)
        outcome.tables.append(list(zip(first_chances(before), ranks, strict=True)))
        for p, after in zip(table, rate(before, ranks), strict=True):
            outcome.ratings[p] = after
    return outcome


def simulate(
    per_level: int,
    games: int,
    seed: int = 1,
    sizes: tuple[int, ...] = (2, 3, 4),
    levels: tuple[str, ...] = LEVELS,
    time_limit: float = 0.05,
    jobs: int = 1,
    scores_file: Path | None = None,
) -> Outcome:
    """Play and rate ``games`` games among ``per_level`` bots of each of ``levels``."""
    rng = random.Random(seed)
    level_of = {i: levels[i // per_level] for i in range(per_level * len(levels))}
    tables = draw_tables(len(level_of), games, sizes, rng)
    key = {"seed": seed, "levels": list(levels), "per_level": per_level, "tables": tables}
    scores = None
    if scores_file is not None and scores_file.exists():
        stored = json.loads(scores_file.read_text())
        if {k: stored.get(k) for k in key} == key:
            scores = stored["scores"]
    if scores is None:
        scores = play_all(level_of, tables, seed, time_limit, jobs)
        if scores_file is not None:
            scores_file.write_text(json.dumps({**key, "scores": scores}))
    return rate_all(level_of, tables, scores)


def level_means(outcome: Outcome) -> dict[str, float]:
    """Each level's mean μ at the end."""
    means = {}
    for level in dict.fromkeys(outcome.level_of.values()):
        mus = [outcome.ratings[p][0] for p, lv in outcome.level_of.items() if lv == level]
        means[level] = sum(mus) / len(mus)
    return means


def rechance(outcome: Outcome, chances) -> list[list[tuple[float, int]]]:
    """The games' (chance, place) per seat with ``chances`` (a function of the ratings
    before the game) instead of the site's."""
    return [
        list(zip(chances(before), (place for _, place in table), strict=True))
        for before, table in zip(outcome.before, outcome.tables, strict=True)
    ]


def log_loss(tables) -> float:
    """The mean over games of -ln(the chance given to whoever finished first; the sum of
    the chances of those sharing first place): lower is better, ln(n) is a blind guess."""
    total = 0.0
    for table in tables:
        total -= math.log(max(sum(c for c, place in table if place == 1), 1e-300))
    return total / len(tables)


def fit_luck(outcome: Outcome, grid=FIT_GRID) -> list[tuple[float, float, float, float]]:
    """(luck, mean log loss, favourites' mean predicted chance, favourites' share of wins)
    for each luck of ``grid``, over the outcome's games."""
    from leagues.ratings.chances import first_chances
    from leagues.ratings.skill import favourite_figures

    rows = []
    for luck in grid:
        tables = rechance(outcome, lambda before, luck=luck: first_chances(before, luck))
        figures = favourite_figures(tables)
        assert figures is not None
        rows.append((luck, log_loss(tables), figures.predicted, figures.share))
    return rows


def best_luck(rows: list[tuple[float, float, float, float]]) -> float:
    """The luck of ``fit_luck``'s rows at which the favourites' predicted chance comes
    closest to their share of wins."""
    return min(rows, key=lambda row: abs(row[2] - row[3]))[0]


def calibration(tables) -> list[tuple[float, float, float, int]]:
    """Per bin of predicted chance: (bin's low end, mean predicted, share that finished
    first, players)."""
    rows = []
    for low, high in itertools.pairwise(BINS):
        inside = [(c, place) for table in tables for c, place in table if low <= c < high]
        if inside:
            predicted = sum(c for c, _ in inside) / len(inside)
            won = sum(place == 1 for _, place in inside) / len(inside)
            rows.append((low, predicted, won, len(inside)))
    return rows


def _library_chances(before):
    from leagues.ratings.model import MODEL

    return MODEL.predict_win([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--per-level", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=0.05)
    ap.add_argument("--scores", type=Path, default=None)
    ap.add_argument("--fit", action="store_true")
    args = ap.parse_args(argv)
    _setup()
    from leagues.ratings.chances import LUCK
    from leagues.ratings.display import PROVISIONAL_SIGMA, figure
    from leagues.ratings.skill import favourite_figures

    began, cpu = time.perf_counter(), time.process_time()
    levels = tuple(args.levels.split(","))
    outcome = simulate(
        args.per_level,
        args.games,
        args.seed,
        levels=levels,
        jobs=args.jobs,
        time_limit=args.time_limit,
        scores_file=args.scores,
    )
    print(
        f"{args.games} games at tables of 2 to 4, {args.per_level} bots of each of "
        f"{', '.join(levels)}, seed {args.seed}, solver limit {args.time_limit} s: "
        f"{time.perf_counter() - began:.0f} s wall, {time.process_time() - cpu:.0f} s CPU "
        f"in this process, load average {os.getloadavg()[0]:.1f}"
    )
    print("\n| level | mean μ | figures (low–high) | provisional |")
    print("| --- | --- | --- | --- |")
    for level, mean in level_means(outcome).items():
        own = [outcome.ratings[p] for p, lv in outcome.level_of.items() if lv == level]
        shown = sorted(figure(mu) for mu, _ in own)
        provisional = sum(sigma > PROVISIONAL_SIGMA for _, sigma in own)
        print(f"| {level} | {mean:.2f} | {shown[0]}–{shown[-1]} | {provisional} of {len(own)} |")
    half = len(outcome.tables) // 2
    formulas = (
        (f"site (luck {LUCK:g})", outcome.tables),
        ("library's predict_win", rechance(outcome, _library_chances)),
    )
    print(
        "\n| chances | games | with a favourite | favourite won | 95% interval | predicted "
        "| by chance | log loss |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, tables in formulas:
        for name, part in (("all", tables), ("second half", tables[half:])):
            f = favourite_figures(part)
            if f is None:
                continue
            print(
                f"| {label} | {name} | {f.games} | {100 * f.share:.1f}% "
                f"| {100 * f.low:.1f}–{100 * f.high:.1f}% | {100 * f.predicted:.1f}% "
                f"| {100 * f.by_chance:.1f}% | {log_loss(part):.3f} |"
            )
    for label, tables in formulas:
        print(f"\n{label}, every player, second half:\n")
        print("| predicted chance | mean predicted | finished first | players |")
        print("| --- | --- | --- | --- |")
        for low, predicted, won, n in calibration(tables[half:]):
            band = f"{100 * low:.0f}–{100 * low + 10:.0f}%"
            print(f"| {band} | {100 * predicted:.1f}% | {100 * won:.1f}% | {n} |")
    if args.fit:
        rows = fit_luck(outcome)
        print("\n| luck | log loss | favourites predicted | favourites won |")
        print("| --- | --- | --- | --- |")
        for luck, loss, predicted, share in rows[::2]:
            print(f"| {luck:g} | {loss:.4f} | {100 * predicted:.1f}% | {100 * share:.1f}% |")
        print(f"\nthe favourites' prediction closest to their wins at luck {best_luck(rows):g}")


if __name__ == "__main__":
    main()
