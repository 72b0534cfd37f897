"""Vacations stop the clock: no timeout against a player on vacation (their
deadline moves by the vacation's span, through the write path, as a logged ``clock``
move), played after it; the background pass notices vacations that begin or end; the
game page's players part shows who is on vacation and until when. Time travel: the
machine's clock is moved and ``now`` passed to the pass."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from leagues import vacations
from leagues.models import Vacation
from rummy import engine, play
from rummy.clock import deadlines
from rummy.models import Game, Move
from rummy.play import replay
from rummy.table import memory, rendering
from rummy.table.access import rights
from rummy.table.presenters import game_page
from tests.factories import make_league, make_season, make_user, started_game

pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
H, DAY = timedelta(hours=1), timedelta(days=1)
OOB_IDS = re.compile(r'<[a-z]+ id="([^"]+)"[^>]*hx-swap-oob="true"')


@pytest.fixture
def game():
    with time_machine.travel(START, tick=False):
        alice, bob = make_user(), make_user()
        league = make_league(alice, members=[bob])
        make_season(league, turn_seconds=3 * 3600, vacation_days=5)
        state = engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C 8C 2S 3S")
        return started_game([alice, bob], league=league, state=state)


def fresh(game):
    return Game.objects.get(pk=game.pk)


def frames(game, user):
    memory.clear_all()
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    return rendering.build_frames(game_page(game, user, "suit", rights=rights(user, game)))


def test_a_vacation_begun_now_moves_the_movers_deadline_by_its_span(game):
    mover, season = game.to_move, game.season
    old_deadline = game.turn_deadline  # 13:00
    with time_machine.travel(START + H, tick=False):
        vacations.start_now(mover, season, 2, now=START + H)
    moved = fresh(game)
    # An hour was used before the vacation; two hours are left after it.
    assert moved.turn_deadline == START + H + 2 * DAY + 2 * H == old_deadline + 2 * DAY
    assert moved.version == game.version + 1
    clock = moved.moves.get(kind=Move.Kind.CLOCK)
    assert clock.payload["away"] == {
        str(moved.seats.get(user=mover).number): (START + H + 2 * DAY).isoformat()
    }
    assert moved.seats.get(user=mover).away_until == START + H + 2 * DAY
    replay.check(moved)  # the clock's entry changes no state


def test_no_timeout_during_the_vacation_and_one_after_it(game):
    mover, season = game.to_move, game.season
    with time_machine.travel(START + H, tick=False):
        vacations.start_now(mover, season, 1, now=START + H)
    for moment in (START + 3 * H + timedelta(seconds=1), START + 20 * H, START + DAY + 2 * H):
        with time_machine.travel(moment, tick=False):
            assert deadlines.tick(moment) == 0, moment
    assert not fresh(game).moves.filter(kind=Move.Kind.TIMEOUT).exists()
    after = START + DAY + 3 * H + timedelta(seconds=1)
    with time_machine.travel(after, tick=False):
        assert deadlines.tick(after) == 1
    done = fresh(game)
    assert done.moves.filter(kind=Move.Kind.TIMEOUT).count() == 1
    assert done.to_move != mover


def test_a_page_load_never_plays_a_timeout_against_a_player_on_vacation(game):
    """Even when the vacation reached the database without the write path hearing of it
    (the lazy path checks again inside the lock)."""
    mover, season = game.to_move, game.season
    Vacation.objects.create(
        user=mover, season=season, starts_at=START + H, ends_at=START + DAY, days=1
    )
    late = START + 4 * H
    with time_machine.travel(late, tick=False):
        assert deadlines.enforce_deadline(fresh(game)) is False
    moved = fresh(game)
    assert not moved.moves.filter(kind=Move.Kind.TIMEOUT).exists()
    assert moved.turn_deadline == START + DAY + 2 * H


def test_a_vacation_taken_ahead_is_noticed_by_the_pass_when_it_begins_and_ends(game):
    waiting = next(s.user for s in game.seats.all() if s.user_id != game.to_move_id)
    season = game.season
    with time_machine.travel(START, tick=False):
        vacation = vacations.take_ahead(waiting, season, START.date() + DAY, START.date() + DAY)
    assert fresh(game).version == game.version  # nothing to show yet, no deadline of theirs
    begun = vacation.starts_at + timedelta(minutes=1)  # Dec. 2, 00:01 UTC
    with time_machine.travel(begun, tick=False):
        # The mover's time ran out at 13:00: that timeout is played; the turn passes to
        # the player now on vacation, whose three hours begin when it ends.
        assert deadlines.tick(begun) == 1
    moved = fresh(game)
    assert moved.seats.get(user=waiting).away_until == vacation.ends_at
    assert moved.to_move == waiting
    assert moved.turn_deadline == vacation.ends_at + 3 * H
    ended = vacation.ends_at + timedelta(minutes=1)
    with time_machine.travel(ended, tick=False):
        assert deadlines.tick(ended) == 0
    assert fresh(game).seats.get(user=waiting).away_until is None


def test_ending_a_vacation_early_brings_the_deadline_back(game):
    mover, season = game.to_move, game.season
    with time_machine.travel(START + H, tick=False):
        vacation = vacations.start_now(mover, season, 3, now=START + H)
    back = START + 5 * H
    with time_machine.travel(back, tick=False):
        vacations.stop(mover, season, vacation.pk, now=back)
    moved = fresh(game)
    # One hour before, four hours away, then the two hours that were left.
    assert moved.turn_deadline == back + 2 * H
    assert moved.seats.get(user=mover).away_until is None
    with time_machine.travel(back + 2 * H + timedelta(seconds=1), tick=False):
        assert deadlines.tick(back + 2 * H + timedelta(seconds=1)) == 1


def test_the_game_page_shows_who_is_on_vacation_and_the_players_part_changes(game):
    mover, season = game.to_move, game.season
    watcher = next(s.user for s in game.seats.all() if s.user_id != game.to_move_id)
    before = frames(game, watcher)
    assert "on vacation" not in before.html
    with time_machine.travel(START + H, tick=False):
        vacations.start_now(mover, season, 2, now=START + H)
    after = frames(game, watcher)
    html, _shown = after.since(before.digests)
    sent = OOB_IDS.findall(html)
    assert "players" in sent
    assert f"{mover.name}" in html and "on vacation until Dec. 3, 2026, 11 a.m. UTC" in html
    # Back from vacation: the part changes again.
    with time_machine.travel(START + 3 * DAY, tick=False):
        deadlines.tick(START + 3 * DAY)
    html, _shown = frames(game, watcher).since(after.digests)
    assert "players" in OOB_IDS.findall(html) and "on vacation" not in html


def test_the_replay_says_who_went_on_vacation(game, client):
    mover, season = game.to_move, game.season
    with time_machine.travel(START + H, tick=False):
        vacations.start_now(mover, season, 1, now=START + H)
    client.force_login(mover)

    seq = fresh(game).moves.get(kind=Move.Kind.CLOCK).seq
    html = client.get(reverse("rummy:replay", args=[game.pk]), {"at": seq}).content.decode()
    assert f"{mover.name} went on vacation." in html


def test_the_clock_move_is_not_played_twice(game):
    mover, season = game.to_move, game.season
    with time_machine.travel(START + H, tick=False):
        vacations.start_now(mover, season, 1, now=START + H)
        assert play.reclock(game.pk, START + H) is None  # already up to date
    assert fresh(game).moves.filter(kind=Move.Kind.CLOCK).count() == 1
