"""A scheduled season's round dealt by many workers at once on PostgreSQL: one of them
deals it, each planned table gets one game, and the others find it dealt."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from leagues.models import ScheduledRound, Season
from leagues.seasons import create_season, start_season
from rummy import play
from rummy.models import Game
from tests.factories import make_league, make_user

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def test_a_round_dealt_by_eight_workers_at_once_is_dealt_once():
    people = [make_user() for _ in range(7)]
    league = make_league(people[0], members=people[1:])
    today = timezone.localdate()
    season = create_season(
        league,
        name="Rounds",
        starts_on=today,
        ends_on=today + timedelta(days=30),
        format=Season.Format.SCHEDULED,
        games_each=2,
        table_size=3,
        round_start=Season.RoundStart.AFTER_PREVIOUS,
    )
    start_season(season)
    first = ScheduledRound.objects.get(season=season, number=1)
    callers = 8
    barrier = threading.Barrier(callers)
    results = [None] * callers

    def deal(i):
        try:
            barrier.wait()
            results[i] = play.deal_round(first.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=deal, args=(i,)) for i in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sorted(results) == [False] * (callers - 1) + [True]
    assert Game.objects.filter(season=season).count() == first.tables.count()
