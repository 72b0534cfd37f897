"""Seasons and finished games for the league tests; the people and the leagues are the
suite's one cast (``cast``, ``league``, ``public_league`` in ``tests/conftest.py``)."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import Season
from rummy.models import Game, Seat
from tests.cast import make_person

__all__ = ["make_game", "make_person", "make_season"]


def make_season(league, status=Season.Status.ACTIVE, start=None, days=60, **fields):
    start = start or datetime.date(2025, 1, 1)
    return Season.objects.create(
        league=league,
        name=fields.pop("name", f"Season from {start}"),
        starts_on=start,
        ends_on=start + datetime.timedelta(days=days),
        status=status,
        **fields,
    )


@pytest.fixture
def season(league):
    return make_season(league)


def make_game(league, season, results, status=Game.Status.FINISHED):
    """A game with seats; ``results`` is [(user, final_score, rounds_won, is_winner)]."""
    game = Game.objects.create(
        league=league,
        season=season,
        status=status,
        started_at=timezone.now(),
        finished_at=timezone.now() if status == Game.Status.FINISHED else None,
    )
    for number, (user, score, rounds, winner) in enumerate(results):
        Seat.objects.create(
            game=game,
            user=user,
            number=number,
            final_score=score if status == Game.Status.FINISHED else None,
            rounds_won=rounds,
            is_winner=winner,
        )
    return game
