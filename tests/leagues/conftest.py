"""A fixed cast: alice owns, bob is an admin, carol a member, dave an outsider."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import League, Membership, Season, User
from rummy.models import Game, Seat

PASSWORD = "a-long-test-password-42"
ROLES = ["owner", "admin", "member", "outsider"]


def make_user(username, **extra):
    return User.objects.create_user(
        username=username,
        email=f"{username}@example.com",
        password=PASSWORD,
        display_name=extra.pop("display_name", username.title()),
        **extra,
    )


@pytest.fixture
def cast(db):
    return {
        "owner": make_user("alice"),
        "admin": make_user("bob"),
        "member": make_user("carol"),
        "outsider": make_user("dave"),
    }


def _league(cast, slug, visibility):
    league = League.objects.create(name=slug.title(), slug=slug, visibility=visibility)
    Membership.objects.create(league=league, user=cast["owner"], role=Membership.Role.OWNER)
    Membership.objects.create(league=league, user=cast["admin"], role=Membership.Role.ADMIN)
    Membership.objects.create(league=league, user=cast["member"], role=Membership.Role.MEMBER)
    return league


@pytest.fixture
def league(cast):
    """Invite-only."""
    return _league(cast, "private-club", League.Visibility.INVITE)


@pytest.fixture
def public_league(cast):
    return _league(cast, "open-club", League.Visibility.PUBLIC)


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
