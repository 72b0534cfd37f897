"""Seasons and finished games for the league tests; the people and the leagues are the
suite's one cast (``cast``, ``league``, ``public_league`` in ``tests/conftest.py``)."""

import datetime
import random

import pytest
from django.db import transaction
from django.utils import timezone

from leagues.models import AdminAction, Season
from leagues.ratings.rating import recompute
from leagues.record import record
from leagues.standings import freeze
from rummy.models import Game, Notice, NotificationPrefs, PushNotice, PushSubscription, Seat
from rummy.play import store
from tests import factories
from tests.cast import make_person
from tests.rummy.history.conftest import new_game, play_out

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


# --- Carol's account, for its deletion and download (test_erasure, test_data_export) ---


@pytest.fixture
def seeded_deals(monkeypatch):
    """The write path's deals from a seeded Random: the same games on every run."""
    monkeypatch.setattr(store, "system_random", random.Random(0))


def _chat(league, game, carol, alice, bob):
    """Carol's part of the chat: a message naming her and a quick phrase at the running
    game, a board post, a block, a mute (recorded by Alice), a report of Bob's message
    and one of his board post, his pinned announcement emailed to her, how far she read
    the game's chat and the board, and a moderation action of hers (a league admin's
    rights are not needed for the record's row)."""
    from chat.models import (
        AnnouncementEmailed,
        Block,
        BoardPost,
        BoardReadMark,
        BoardReport,
        Message,
        ModerationAction,
        Mute,
        ReadMark,
        Report,
    )

    Message.objects.create(game=game, league=league, author=carol, text="Carol here", token="c1")
    Message.objects.create(game=game, league=league, author=carol, phrase="thanks", token="c2")
    by_bob = Message.objects.create(game=game, league=league, author=bob, text="hi", token="b1")
    BoardPost.objects.create(league=league, author=carol, text="Carol's cake on Monday", token="p")
    Block.objects.create(blocker=carol, blocked=bob)
    Mute.objects.create(
        league=league,
        user=carol,
        until=timezone.now() + datetime.timedelta(hours=1),
        reason="calm",
        by=alice,
    )
    ModerationAction.objects.create(
        league=league, actor=alice, actor_name="Alice", action="muted", subject="Carol"
    )
    Report.objects.create(message=by_bob, reporter=carol, reason=Report.Reason.RUDE)
    bobs_post = BoardPost.objects.create(
        league=league, author=bob, text="Bob's news", token="b", pinned=True
    )
    BoardReport.objects.create(post=bobs_post, reporter=carol, reason=Report.Reason.SPAM)
    AnnouncementEmailed.objects.create(user=carol, post=bobs_post)
    ReadMark.objects.create(user=carol, game=game, last_seen=by_bob.pk)
    BoardReadMark.objects.create(user=carol, league=league, last_seen=bobs_post.pk - 1)
    ModerationAction.objects.create(
        league=league, actor=carol, actor_name="Carol", action="settings", reason="quiet hours"
    )


@pytest.fixture
def world(cast, league, seeded_deals):
    """Carol's finished game with Bob (rated, in a closed season with frozen standings,
    and an email notice and a push sent about it), a running game of Carol, Alice and
    Bob in an active season, her device, and an admin record naming her."""
    carol, alice, bob = cast.carol, cast.alice, cast.bob
    old = factories.make_season(
        league,
        name="Autumn",
        starts_on=timezone.now().date().replace(year=2020),
        ends_on=timezone.now().date().replace(year=2020, month=12, day=31),
        status=Season.Status.CLOSED,
    )
    finished = new_game([carol, bob], league, seed=7, target=40)
    Game.objects.filter(pk=finished.pk).update(season=old)
    finished = play_out(Game.objects.get(pk=finished.pk), random.Random(1))
    assert finished.status == Game.Status.FINISHED
    recompute()
    freeze(old)
    current = factories.make_season(league, name="Winter", bot_stands_in=True)
    running = new_game([carol, alice, bob], league, seed=8, target=500)
    Game.objects.filter(pk=running.pk).update(season=current)
    running = play_out(
        Game.objects.get(pk=running.pk), random.Random(2), stop=lambda g: g.version > 6
    )
    device = PushSubscription.objects.create(
        user=carol, endpoint="https://push.example/carol", device="Firefox on Android"
    )
    PushNotice.objects.create(subscription=device, game=finished, kind=Notice.Kind.RESULT)
    Notice.objects.create(user=carol, game=finished, kind=Notice.Kind.RESULT)
    NotificationPrefs.objects.create(user=carol, results=False)
    with transaction.atomic():
        record(league, carol, AdminAction.Action.INVITE_CREATED, subject="an invite")
        record(league, alice, AdminAction.Action.ROLE_CHANGED, subject="Carol")
    _chat(league, running, carol, alice, bob)
    return {
        "league": league,
        "finished": finished,
        "running": running,
        "old": old,
        "current": current,
    }
