"""Ratings on a simulated league: bots of known levels play rated games; does the
stronger level's rating end higher, and does the favourite win about as often as the
ratings predict?

    python -m bench.rating_calibration [--games 300] [--per-level 4] [--seed 1] [--jobs 2]

No database: whole games through the engine (``rummy.bots.play_match``, as
``bench.bot_strength``), rated in the order they were drawn by the site's own steps
(``leagues.ratings.rating.places`` and ``rate``, the chances of
``leagues.ratings.chances``, the figures of ``leagues.ratings.skill``). Each simulated
player is a bot of one level; each game seats 2 to 4 of them drawn at random. The games
are played in parallel (who plays whom does not depend on the ratings), then rated one
after another.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

LEVELS = ("beginner", "steady", "expert")
# The bins of predicted chances (of every player, not only favourites) for calibration.
BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)


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


def draw_tables(players: int, games: int, sizes: tuple[int, ...], rng: random.Random):
    return [rng.sample(range(players), rng.choice(sizes)) for _ in range(games)]


def simulate(
    per_level: int,
    games: int,
    seed: int = 1,
    sizes: tuple[int, ...] = (2, 3, 4),
    levels: tuple[str, ...] = LEVELS,
    time_limit: float = 0.05,
    jobs: int = 1,
) -> Outcome:
    """Play and rate ``games`` games among ``per_level`` bots of each of ``levels``."""
    from leagues.ratings.chances import first_chances
    from leagues.ratings.model import MODEL
    from leagues.ratings.rating import places, rate

    rng = random.Random(seed)
    level_of = {i: levels[i // per_level] for i in range(per_level * len(levels))}
    tables = draw_tables(len(level_of), games, sizes, rng)
    work = [
        ([level_of[p] for p in table], seed * 1_000_003 + n, time_limit)
        for n, table in enumerate(tables)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_setup) as pool:
            scores = list(pool.map(play, work, chunksize=4))
    else:
        scores = [play(job) for job in work]
    outcome = Outcome(dict.fromkeys(level_of, (MODEL.mu, MODEL.sigma)), level_of, tables)
    for table, final in zip(tables, scores, strict=True):
        before = [outcome.ratings[p] for p in table]
        ranks = places(final)
        outcome.tables.append(list(zip(first_chances(before), ranks, strict=True)))
        for p, after in zip(table, rate(before, ranks), strict=True):
            outcome.ratings[p] = after
    return outcome


def level_means(outcome: Outcome) -> dict[str, float]:
    """Each level's mean μ at the end."""
    means = {}
    for level in dict.fromkeys(outcome.level_of.values()):
        mus = [outcome.ratings[p][0] for p, lv in outcome.level_of.items() if lv == level]
        means[level] = sum(mus) / len(mus)
    return means


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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--per-level", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=0.05)
    args = ap.parse_args(argv)
    _setup()
    from leagues.ratings.display import PROVISIONAL_SIGMA, figure
    from leagues.ratings.skill import favourite_figures

    began = time.perf_counter()
    outcome = simulate(
        args.per_level, args.games, args.seed, jobs=args.jobs, time_limit=args.time_limit
    )
    print(
        f"{args.games} games at tables of 2 to 4, {args.per_level} bots per level, seed "
        f"{args.seed}, solver limit {args.time_limit} s: {time.perf_counter() - began:.0f} s"
    )
    print("\n| level | mean μ | figures (low–high) | provisional |")
    print("| --- | --- | --- | --- |")
    for level, mean in level_means(outcome).items():
        own = [outcome.ratings[p] for p, lv in outcome.level_of.items() if lv == level]
        shown = sorted(figure(mu) for mu, _ in own)
        provisional = sum(sigma > PROVISIONAL_SIGMA for _, sigma in own)
        print(f"| {level} | {mean:.2f} | {shown[0]}–{shown[-1]} | {provisional} of {len(own)} |")
    half = len(outcome.tables) // 2
    print("\n| games | with a favourite | favourite won | 95% interval | predicted | by chance |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, tables in (("all", outcome.tables), ("second half", outcome.tables[half:])):
        f = favourite_figures(tables)
        if f is None:
            continue
        print(
            f"| {name} | {f.games} | {100 * f.share:.1f}% | {100 * f.low:.1f}–{100 * f.high:.1f}% "
            f"| {100 * f.predicted:.1f}% | {100 * f.by_chance:.1f}% |"
        )
    print("\n| predicted chance | mean predicted | finished first | players |")
    print("| --- | --- | --- | --- |")
    for low, predicted, won, n in calibration(outcome.tables[half:]):
        band = f"{100 * low:.0f}–{100 * low + 10:.0f}%"
        print(f"| {band} | {100 * predicted:.1f}% | {100 * won:.1f}% | {n} |")


if __name__ == "__main__":
    main()
