"""Rating finished games: Weng-Lin's Plackett-Luce model (``openskill``, pinned in
requirements.in) with the library's defaults (μ 25, σ 25/3, β 25/6, τ 25/300).

What is rated: every finished league game without a bot at a seat
(``rummy.public.rated_game``), its players by their final place; equal final scores
are ties (R9.3: the highest total wins, ties share). Each game changes two ratings of
each player: the one in its league and the site-wide one.

What is not rated:

- practice games (no league): one person against bots, nothing at stake;
- voided games: they count for nothing, as in the standings;
- games with a bot at a seat, whatever the season says about standings: a bot's level
  is not a person's skill, and no bot is ever rated or on a leaderboard.

What is rated although it may look odd:

- a game a league admin ended early (only possible while a player is marked absent) is
  rated on the final scores as they stood, as the standings count it: otherwise
  walking away from a losing game would keep a rating from falling;
- a bot standing in for an absent player leaves the seat that player's: the result is
  theirs, as in the standings.

Rating a game is background work: the job ``rummy.background.tasks.rate_game`` calls
``rate_game`` here. It is offered in the transaction that finishes the game (the job
is saved with the game, or not at all), and the background's periodic look offers it
again for any rated game still without history rows (``unrated_game_ids``): a lost job
is found again. A game is applied at most once: its history rows (``RatingChange``,
unique on game, player and scope) are written in the same transaction as the ratings,
so rating a game again (a retry, two workers at once) changes nothing. ``recompute``
rebuilds everything from the finished games in the order they finished.
"""

import hashlib

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from leagues.ratings.chances import first_chances
from leagues.ratings.model import MODEL
from leagues.ratings.models import Rating, RatingChange, Scope
from rummy.public import rated_game, rated_games


def places(scores):
    """Final places from final scores, highest first; equal scores share a place
    (1, 1, 3)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def rate(before, ranks):
    """The model's step: ``before`` is one (mu, sigma) per player, ``ranks`` their
    places; returns one (mu, sigma) per player, in the same order."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in after]


def _changes(game, current):
    """The history rows ``game`` makes, given ``current``: a dict (user_id, league_id or
    None) -> (mu, sigma, games), which is updated in place. Seats in seat order."""
    seats = sorted(game.seats.all(), key=lambda s: (s.number is None, s.number, s.pk))
    ranks = places([seat.final_score or 0 for seat in seats])
    rows = []
    for scope, league_id in ((Scope.LEAGUE, game.league_id), (Scope.SITE, None)):
        keys = [(seat.user_id, league_id) for seat in seats]
        before = [current.get(key, (MODEL.mu, MODEL.sigma, 0)) for key in keys]
        after = rate([(mu, sigma) for mu, sigma, _ in before], ranks)
        chances = first_chances([(mu, sigma) for mu, sigma, _ in before])
        for key, place, (mu0, sigma0, games), (mu1, sigma1), chance in zip(
            keys, ranks, before, after, chances, strict=True
        ):
            current[key] = (mu1, sigma1, games + 1)
            rows.append(
                RatingChange(
                    game_id=game.pk,
                    user_id=key[0],
                    scope=scope,
                    league_id=league_id,
                    place=place,
                    mu_before=mu0,
                    sigma_before=sigma0,
                    mu_after=mu1,
                    sigma_after=sigma1,
                    chance_first=chance,
                    finished_at=game.finished_at,
                )
            )
    return rows


def _ratable(game):
    return game is not None and len(game.seats.all()) >= 2


def rate_game(game_id):
    """Rate the finished game ``game_id`` if ratings rate it and it has not been rated:
    True when it was rated now, False otherwise (not ratable, or rated before). Safe to
    call any number of times, also at once: the players' ratings are locked, and the
    history rows' unique constraint turns a second application into a no-op."""
    game = rated_game(game_id)
    if not _ratable(game):
        return False
    user_ids = sorted({seat.user_id for seat in game.seats.all()})
    try:
        with transaction.atomic():
            ratings = _locked_ratings(user_ids, game.league_id)
            if RatingChange.objects.filter(game_id=game_id).exists():
                return False
            current = {(r.user_id, r.league_id): (r.mu, r.sigma, r.games) for r in ratings}
            RatingChange.objects.bulk_create(_changes(game, current))
            for r in ratings:
                r.mu, r.sigma, r.games = current[(r.user_id, r.league_id)]
            Rating.objects.bulk_update(ratings, ["mu", "sigma", "games"])
    except IntegrityError:
        return False  # rated at the same moment by another caller
    return True


def _locked_ratings(user_ids, league_id):
    """The league and site-wide ratings of ``user_ids``, created at the start values if
    missing, locked (in one order, so that two games never wait for each other)."""
    Rating.objects.bulk_create(
        [
            Rating(user_id=user_id, league_id=scope, mu=MODEL.mu, sigma=MODEL.sigma)
            for user_id in user_ids
            for scope in (league_id, None)
        ],
        ignore_conflicts=True,
    )
    mine = Rating.objects.filter(user_id__in=user_ids)
    league = mine.filter(league_id=league_id) | mine.filter(league__isnull=True)
    return list(league.select_for_update().order_by("pk"))


def unrated_game_ids(limit=100):
    """The ids of games ratings rate that have no history rows yet, oldest first: the
    jobs that were lost (or not run yet)."""
    rows = RatingChange.objects.filter(game_id=OuterRef("pk"))
    return list(rated_games().exclude(Exists(rows)).values_list("pk", flat=True)[:limit])


@transaction.atomic
def recompute():
    """Rebuild every rating from the rated games in the order they finished (the game id
    breaks a tie), deterministically. Returns (games rated, digest)."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    current, changes, count = {}, [], 0
    for game in rated_games().iterator(chunk_size=500):
        if _ratable(game):
            changes.extend(_changes(game, current))
            count += 1
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    Rating.objects.bulk_create(
        [
            Rating(user_id=user_id, league_id=league_id, mu=mu, sigma=sigma, games=games)
            for (user_id, league_id), (mu, sigma, games) in sorted(
                current.items(), key=lambda item: (item[0][0], item[0][1] or 0)
            )
        ],
        batch_size=1000,
    )
    return count, digest()


def digest():
    """A fingerprint of every stored rating: equal digests, equal ratings (floats to
    the last bit)."""
    lines = sorted(
        f"{user_id} {league_id or 0} {mu!r} {sigma!r} {games}"
        for user_id, league_id, mu, sigma, games in Rating.objects.values_list(
            "user_id", "league_id", "mu", "sigma", "games"
        )
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()
