"""A scheduled season under way: the plan stored at the start (the one the preview
showed), rounds dealt in order when they are due, once, members who join entering from
the next round, rounds on dates, the standings' order and the page's schedule."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from leagues import services, vacations
from leagues.models import Membership, ScheduledRound, ScheduledTable, Season
from leagues.schedule_preview import preview
from leagues.schedules import planner
from leagues.schedules.running import next_games
from leagues.seasons import create_season, start_season
from leagues.standings import compute_standings
from rummy import play
from rummy.background import background_pass, scan
from rummy.models import Game
from tests.cast import make_person
from tests.leagues.conftest import make_game


def _people(league, count):
    people = []
    for n in range(count):
        person = make_person(f"member{n}")
        Membership.objects.create(league=league, user=person)
        people.append(person)
    return people


def _scheduled(league, owner, **fields):
    today = timezone.localdate()
    values = {
        "name": "Rounds",
        "starts_on": today,
        "ends_on": today + timedelta(days=60),
        "format": Season.Format.SCHEDULED,
        "games_each": 2,
        "table_size": 3,
        "round_start": Season.RoundStart.AFTER_PREVIOUS,
        **fields,
    }
    return create_season(league, by=owner, **values)


def _end_games(season):
    """The round's games ended (how is the write path's business, tested elsewhere)."""
    Game.objects.filter(season=season, status=Game.Status.ACTIVE).update(
        status=Game.Status.FINISHED, finished_at=timezone.now()
    )


def _dealt_to(season):
    counts = {}
    for table in ScheduledTable.objects.filter(round__season=season, round__dealt_at__isnull=False):
        for user_id in table.players:
            counts[user_id] = counts.get(user_id, 0) + 1
    return counts


def test_the_stored_plan_is_the_one_the_preview_showed(league, cast):
    _people(league, 3)
    season = _scheduled(league, cast.owner)
    shown = preview(season)
    start_season(season, by=cast.owner)
    stored = list(ScheduledRound.objects.filter(season=season).order_by("number"))
    assert len(stored) == len(shown["rounds"])
    names = {m.user.pk: m.user.name for m in league.memberships.select_related("user")}
    for row, round_ in zip(stored, shown["rounds"], strict=True):
        tables = [[names[u] for u in t.players] for t in row.tables.order_by("number")]
        assert tables == [list(t) for t in round_["tables"]]


def test_rounds_are_dealt_in_order_once_each_when_the_one_before_has_ended(league, cast):
    _people(league, 3)
    season = _scheduled(league, cast.owner)
    start_season(season, by=cast.owner)
    first = ScheduledRound.objects.get(season=season, number=1)
    assert play.due_rounds() == [first.pk]
    assert play.deal_round(first.pk) is True
    # Again, as a second worker or a job run twice would: nothing more is dealt.
    assert play.deal_round(first.pk) is False
    games = Game.objects.filter(season=season)
    assert games.count() == first.tables.count() == 2
    assert all(g.status == Game.Status.ACTIVE and g.to_move_id for g in games)
    # Round 2 waits while a game of round 1 runs.
    assert play.due_rounds() == []
    _end_games(season)
    assert play.deal_due_rounds() == 1
    assert set(_dealt_to(season).values()) == {2}


def test_the_workers_look_offers_a_due_round_once(league, cast):
    _people(league, 3)
    season = _scheduled(league, cast.owner)
    start_season(season, by=cast.owner)
    first = ScheduledRound.objects.get(season=season, number=1)
    assert scan.look() >= 1
    # A second worker's look: the round's key is held.
    scan.look()
    keys = [job.args_kwargs["args"][0] for job in DBTaskResult.objects.all()]
    assert keys.count(f"round:{first.pk}") == 1


def test_a_member_who_joins_enters_from_the_next_round_and_plays_every_game(league, cast):
    _people(league, 3)
    season = _scheduled(league, cast.owner)
    start_season(season, by=cast.owner)
    play.deal_due_rounds()
    late = make_person("latecomer")
    Membership.objects.create(league=league, user=late)
    assert all(late.pk not in t.players for t in ScheduledTable.objects.filter(round__number=1))
    for _round in range(6):
        _end_games(season)
        if not play.deal_due_rounds():
            break
    assert not ScheduledRound.objects.filter(season=season, dealt_at__isnull=True).exists()
    dealt = _dealt_to(season)
    assert dealt[late.pk] == 2
    assert all(count == 2 for count in dealt.values())
    # No one twice in a round.
    for row in ScheduledRound.objects.filter(season=season):
        seated = [u for t in row.tables.all() for u in t.players]
        assert len(seated) == len(set(seated))


def test_rounds_on_dates_start_on_their_date_even_with_games_running(league, cast):
    _people(league, 3)
    season = _scheduled(league, cast.owner, round_start=Season.RoundStart.ON_DATES, round_days=3)
    start_season(season, by=cast.owner)
    now = timezone.now()
    play.deal_due_rounds(now)
    second = ScheduledRound.objects.get(season=season, number=2)
    assert second.starts_at == ScheduledRound.objects.get(
        season=season, number=1
    ).starts_at + timedelta(days=3)
    assert play.deal_due_rounds(second.starts_at - timedelta(seconds=1)) == 0
    assert play.deal_due_rounds(second.starts_at) == 1


def test_a_closed_season_deals_no_more_rounds(league, cast):
    _people(league, 3)
    season = _scheduled(league, cast.owner)
    start_season(season, by=cast.owner)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.CLOSED)
    assert play.due_rounds() == []


def test_a_closed_seasons_undealt_rounds_say_they_were_not_played(client, league, cast):
    _people(league, 3)
    season = _scheduled(league, cast.owner)
    start_season(season, by=cast.owner)
    assert play.deal_due_rounds() == 1
    Season.objects.filter(pk=season.pk).update(status=Season.Status.CLOSED)
    client.force_login(cast.member)
    page = client.get(reverse("leagues:season", args=[league.slug, season.pk])).content.decode()
    rounds = page.split('id="season-rounds"')[1]
    assert "dealt" in rounds and "not played: the season was closed first" in rounds
    assert "starts when the round before has ended" not in rounds
    assert 'id="next-games"' not in page


def test_a_leaver_under_void_has_their_running_game_voided(league, cast):
    people = _people(league, 3)
    season = _scheduled(league, cast.owner, leaver_games=Season.LeaverGames.VOID)
    start_season(season, by=cast.owner)
    play.deal_due_rounds()
    leaver = people[0]
    theirs = Game.objects.get(season=season, seats__user=leaver)
    services.leave(leaver, league)
    theirs.refresh_from_db()
    assert theirs.status == Game.Status.VOIDED
    others = Game.objects.filter(season=season).exclude(pk=theirs.pk)
    assert all(g.status == Game.Status.ACTIVE for g in others)


def test_a_leaver_under_stand_in_keeps_their_seat_played_by_a_bot(league, cast):
    people = _people(league, 3)
    season = _scheduled(league, cast.owner, leaver_games=Season.LeaverGames.STAND_IN)
    start_season(season, by=cast.owner)
    play.deal_due_rounds()
    leaver = people[0]
    game = Game.objects.get(season=season, seats__user=leaver)
    services.leave(leaver, league)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    seat = game.seats.get(user=leaver)
    assert seat.stand_in and seat.bot_plays
    if game.to_move_id == leaver.pk:
        assert game.bot_due_at is not None


def test_scheduled_standings_rank_by_average_with_the_stated_tie_breaks(client, league, cast):
    a, b, c = cast["owner"], cast["admin"], cast["member"]
    late = make_person("late")
    Membership.objects.create(league=league, user=late)
    season = _scheduled(league, a)
    start_season(season, by=a)
    # a: 2 games, 150 points (75 each); b: 1 game, 75 (equal average, more games
    # decides after the share of games won); c: 1 game, 80.
    make_game(league, season, [(a, 150, 2, True), (b, 75, 1, False)])
    make_game(league, season, [(a, 0, 0, False), (c, 80, 1, True)])
    rows = compute_standings(season)
    order = [row["username"] for row in rows]
    assert order[:3] == ["carol", "alice", "bob"]
    by_name = {row["username"]: row for row in rows}
    assert by_name["carol"]["average"] == 80
    assert (by_name["alice"]["average"], by_name["alice"]["rank"]) == (75, 2)
    # Bob's share of games won is 0 against Alice's 1/2.
    assert by_name["bob"]["rank"] == 3
    # Who has not finished a game yet comes last, with the games still to play.
    assert by_name["late"]["played"] == 0 and by_name["late"]["average"] is None
    assert order[-1] == "late"
    assert by_name["late"]["to_play"] == 2
    client.force_login(c)
    page = client.get(reverse("leagues:season", args=[league.slug, season.pk])).content.decode()
    assert "Ranked by average game points per finished game" in page
    assert 'id="scheduled-standings"' in page
    assert 'id="season-rounds"' in page and 'id="next-games"' in page
    assert next_games(season, c)


def test_plan_rest_seats_what_is_owed_and_no_one_away_in_its_first_round():
    owed = [3, 3, 2, 3, 0, 3, 1, 3]
    rounds = planner.plan_rest(owed, 3, seed=1, away={1, 5}, met=[[0] * 8 for _ in range(8)])
    assert all(1 not in t and 5 not in t for t in rounds[0].tables)
    assert {1, 5} <= set(rounds[0].resting)
    played = [0] * 8
    for round_ in rounds:
        seated = [m for t in round_.tables for m in t]
        assert len(seated) == len(set(seated))
        for m in seated:
            played[m] += 1
    assert played == owed


@pytest.mark.parametrize("owed", [[], [2], [0, 0, 0]])
def test_plan_rest_with_nothing_to_plan_plans_nothing(owed):
    assert planner.plan_rest(owed, 3) == ()


def test_the_player_to_move_at_each_dealt_table_is_told_by_email(league, cast):
    people = _people(league, 3)
    for person in [cast.owner, cast.admin, cast.member, *people]:
        type(person).objects.filter(pk=person.pk).update(email_verified=True)
    season = _scheduled(league, cast.owner)
    start_season(season, by=cast.owner)
    # The background pass deals the due round and sends the notices of what changed.
    background_pass()
    games = list(Game.objects.filter(season=season).select_related("to_move"))
    assert len(games) == 2
    told = {address for message in mail.outbox for address in message.to}
    assert {game.to_move.email for game in games} <= told


def test_a_round_waits_while_everyone_who_owes_games_is_away(league, cast):
    season = _scheduled(league, cast.owner, vacation_days=3)
    start_season(season, by=cast.owner)
    now = timezone.now()
    assert play.deal_due_rounds(now) == 1
    _end_games(season)
    # Two of the three on vacation at round 2's start: no table can be made.
    vacations.start_now(cast.admin, season, 1, now=now)
    vacations.start_now(cast.member, season, 1, now=now)
    assert play.deal_due_rounds(now + timedelta(minutes=1)) == 0
    rounds = ScheduledRound.objects.filter(season=season).count()
    for minutes in range(2, 5):
        assert play.deal_due_rounds(now + timedelta(minutes=minutes)) == 0
    # Waiting adds no rounds, however often the workers look.
    assert ScheduledRound.objects.filter(season=season).count() == rounds
    later = now + timedelta(days=2)
    assert play.deal_due_rounds(later) == 1
    second = ScheduledRound.objects.get(season=season, number=2)
    assert sorted(u for t in second.tables.all() for u in t.players) == sorted(
        [cast.owner.pk, cast.admin.pk, cast.member.pk]
    )


@pytest.mark.parametrize("leavers", [Season.LeaverGames.STAND_IN, Season.LeaverGames.VOID])
def test_a_deleted_account_in_a_scheduled_season(league, cast, leavers):
    """An account deleted during a scheduled season (``leagues.erasure``) is a member who
    left: under STAND_IN the rounds still to come keep their place, dealt to a bot under
    the neutral name; under VOID they drop out of those rounds. Their game under way goes
    on either way (a bot or the clock, as the season's ``bot_stands_in`` says)."""
    from leagues.erasure import delete_account

    people = _people(league, 3)
    season = _scheduled(league, cast.owner, leaver_games=leavers, bot_stands_in=True)
    start_season(season, by=cast.owner)
    play.deal_due_rounds()
    gone = people[0]
    delete_account(gone)
    assert Game.objects.filter(season=season, seats__user=gone, status=Game.Status.ACTIVE).exists()
    # Every round to come, dealt in turn.
    while ScheduledRound.objects.filter(season=season, dealt_at__isnull=True).exists():
        _end_games(season)
        assert play.deal_due_rounds() == 1
    later = Game.objects.filter(season=season, status=Game.Status.ACTIVE)
    seats = [s for g in later for s in g.seats.all() if s.user_id == gone.pk]
    if leavers == Season.LeaverGames.STAND_IN:
        assert seats and _dealt_to(season)[gone.pk] == season.games_each
        assert all(s.stand_in and s.bot_plays for s in seats)
        assert all(str(s.user.name) == f"Deleted player {gone.pk}" for s in seats)
    else:
        assert seats == [] and _dealt_to(season)[gone.pk] < season.games_each
