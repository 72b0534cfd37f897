"""The background work on the task queue, in one process on SQLite: each piece of due
work is enqueued once however many workers look, a job run twice does its work once,
a job whose worker was killed is enqueued again once its lease has passed, the periodic
passes come once per interval, and the queue's figures are what an operator sees."""

import datetime
import json

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from rummy import engine, play
from rummy.background import keys, queue, scan, tasks
from rummy.models import Game, JobKey, Move
from tests.factories import make_user, started_game

# The worker closes and reopens its connection between jobs, as it does in production.
pytestmark = pytest.mark.django_db(transaction=True)


def run_jobs():
    """Every job in the queue, run by the database backend's own worker, then stop."""
    Worker(
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    ).run()


def jobs(task):
    return DBTaskResult.objects.filter(task_path=task.module_path)


def _timed_game():
    state = engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C 8C 2S 3S")
    return started_game([make_user(), make_user()], state=state)


def _bot_due():
    person = make_user()
    game = play.start_practice(person, 1, "steady")
    while not Game.objects.get(pk=game.pk).bot_due_at:
        game.refresh_from_db()
        play.draw(game.pk, person, game.version)
    return Game.objects.get(pk=game.pk)


def timeouts(game):
    return Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT).count()


def test_two_workers_looking_at_once_enqueue_each_due_job_once():
    game = _timed_game()
    bot_game = _bot_due()
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        first = scan.look()
        assert scan.look() == 0  # a second worker's look: everything is held
        enqueued = [job.args_kwargs["args"][0] for job in DBTaskResult.objects.all()]
        assert len(enqueued) == first and len(set(enqueued)) == first
        assert f"timeout:{game.pk}:{game.version}" in enqueued
        assert f"bot:{bot_game.pk}:{bot_game.version}" in enqueued
        assert {key for key, _task in scan.PASSES} <= set(enqueued)
        run_jobs()
    assert timeouts(game) == 1
    bot_moves = Move.objects.filter(game=bot_game, bot_level="steady")
    assert bot_moves.count() == 1
    # Done: the job dropped its key. (The practice game's deadline had passed too: its
    # timeout job found the bot's move made, did nothing, and holds its key a while.)
    assert not JobKey.objects.filter(key=f"timeout:{game.pk}:{game.version}").exists()
    assert set(jobs(tasks.timeout).values_list("status", flat=True)) == {"SUCCESSFUL"}


def test_a_job_run_twice_plays_its_timeout_and_its_bot_turn_once():
    game = _timed_game()
    bot_game = _bot_due()
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        key = f"timeout:{game.pk}:{game.version}"
        assert tasks.timeout.call(key, game.pk, game.version) is True
        # The same job again (enqueued twice, or run again after its worker died): the
        # game has left that version, and the write path's check refuses a second move.
        assert tasks.timeout.call(key, game.pk, game.version) is False
    assert timeouts(game) == 1
    key = f"bot:{bot_game.pk}:{bot_game.version}"
    assert tasks.bot_turn.call(key, bot_game.pk, bot_game.version) is True
    assert tasks.bot_turn.call(key, bot_game.pk, bot_game.version) is False
    assert Move.objects.filter(game=bot_game, bot_level="steady").count() == 1


def test_a_job_whose_worker_was_killed_is_enqueued_again_once_its_lease_has_passed():
    game = _timed_game()
    due = game.turn_deadline + datetime.timedelta(seconds=1)
    with time_machine.travel(due):
        scan.look()
        # A worker took the job and was killed before it committed anything: its row
        # stays RUNNING, and its key leased for as long as the job may run.
        (lost,) = jobs(tasks.timeout)
        lost.claim("killed-worker")
        key = f"timeout:{game.pk}:{game.version}"
        JobKey.objects.filter(key=key).update(leased_until=timezone.now() + tasks.STEP_LEASE)
        assert scan.look() == 0
    with time_machine.travel(due + tasks.STEP_LEASE + datetime.timedelta(seconds=1)):
        assert scan.look() == 1
        assert scan.look() == 0  # taken over once, however many workers look
        run_jobs()
    assert timeouts(game) == 1
    with time_machine.travel(due + queue.LOST_AFTER + datetime.timedelta(seconds=1)):
        assert queue.tidy() == 1
        assert queue.status()["failed_last_hour"] == 1
    lost.refresh_from_db()
    assert lost.status == TaskResultStatus.FAILED and lost.exception_class_path == queue.LOST


def test_a_job_that_fails_is_retried_after_a_pause(monkeypatch):
    game = _timed_game()
    due = game.turn_deadline + datetime.timedelta(seconds=1)

    def broken(*args):
        raise RuntimeError("the database went away")

    with time_machine.travel(due):
        scan.look()
        monkeypatch.setattr("rummy.clock.deadlines.enforce_due", broken)
        run_jobs()
        monkeypatch.undo()
        assert jobs(tasks.timeout).get().status == TaskResultStatus.FAILED
        assert scan.look() == 0  # not at once: the key is leased for the retry
    with time_machine.travel(due + keys.RETRY + datetime.timedelta(seconds=1)):
        scan.look()
        assert jobs(tasks.timeout).count() == 2
        run_jobs()
    assert timeouts(game) == 1


def test_each_pass_runs_once_per_interval():
    start = timezone.now()
    with time_machine.travel(start):
        scan.look()
        run_jobs()
        assert jobs(tasks.notify).count() == 1
        assert scan.look() == 0
    with time_machine.travel(start + datetime.timedelta(seconds=settings.CLOCK_INTERVAL + 1)):
        scan.look()
        assert jobs(tasks.notify).count() == 2


def test_the_queue_status_for_operators(client):
    start = timezone.now()
    with time_machine.travel(start):
        scan.look()
    waiting = len(scan.PASSES)
    with time_machine.travel(start + datetime.timedelta(seconds=90)):
        status = queue.status()
        assert status["depth"] == waiting
        # About 90 s (the clock ticks on while travelling): over the minute that
        # counts as falling behind.
        assert status["oldest_due_seconds"] > queue.BEHIND_AFTER.total_seconds()
        assert status["keeping_up"] is False
        response = client.get(reverse("healthz_queue"))
        assert response.status_code == 503
        assert json.loads(response.content)["depth"] == waiting
        call_command("queue_status")
    run_jobs()
    response = client.get(reverse("healthz_queue"))
    assert response.status_code == 200
    body = json.loads(response.content)
    assert (body["depth"], body["failed_last_hour"], body["keeping_up"]) == (0, 0, True), body


def test_the_operator_command_prints_the_figures(capsys):
    scan.look()
    call_command("queue_status")
    out = capsys.readouterr().out
    assert f"jobs due and waiting: {len(scan.PASSES)}" in out
    assert "failures in the last hour: 0" in out


def test_tidy_keeps_failures_a_day_and_jobs_done_an_hour():
    start = timezone.now()
    with time_machine.travel(start):
        scan.look()
        run_jobs()
        DBTaskResult.objects.filter(task_path=tasks.tidy.module_path).update(
            status=TaskResultStatus.FAILED
        )
    done = DBTaskResult.objects.filter(status=TaskResultStatus.SUCCESSFUL)
    assert done.count() == len(scan.PASSES) - 1
    with time_machine.travel(start + queue.KEEP_DONE + datetime.timedelta(minutes=1)):
        queue.tidy()
        assert not done.exists()
        assert DBTaskResult.objects.filter(status=TaskResultStatus.FAILED).count() == 1
    with time_machine.travel(start + queue.KEEP + datetime.timedelta(minutes=1)):
        queue.tidy()
        assert not DBTaskResult.objects.exists()


def test_a_look_offers_due_bot_turns_past_those_already_waiting(monkeypatch):
    # Each look reads a few due games at most: those already waiting in the queue must
    # not hide the others behind them.
    monkeypatch.setattr(scan, "LIMIT", 1)
    first, second = _bot_due(), _bot_due()
    scan.look()
    scan.look()
    offered = {job.args_kwargs["args"][0] for job in jobs(tasks.bot_turn)}
    assert offered == {f"bot:{g.pk}:{g.version}" for g in (first, second)}
    run_jobs()
    for game in (first, second):
        assert Move.objects.filter(game=game, bot_level="steady").count() == 1


def test_a_bot_due_before_the_next_look_is_enqueued_now_and_played_when_due():
    game = _bot_due()
    start = timezone.now()
    due = start + datetime.timedelta(seconds=5)
    Game.objects.filter(pk=game.pk).update(bot_due_at=due)
    with time_machine.travel(start, tick=False):
        scan.look()
        assert not jobs(tasks.bot_turn).exists()  # not due before the next look
        scan.look(ahead=10)
        (job,) = jobs(tasks.bot_turn)
        assert job.run_after == due
        assert scan.look(ahead=10) == 0  # held: enqueued once
        run_jobs()
        assert not Move.objects.filter(game=game, bot_level="steady").exists()
        assert queue.status()["depth"] == 0  # waiting, but not due yet
    with time_machine.travel(due + datetime.timedelta(seconds=90), tick=False):
        status = queue.status()
        # Due for 90 s (from when it was to run, not from when it was enqueued).
        assert (status["depth"], status["oldest_due_seconds"]) == (1, 90.0)
        run_jobs()
    assert Move.objects.filter(game=game, bot_level="steady").count() == 1


def test_a_slow_pass_does_not_push_the_next_one_back(monkeypatch):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        # The emails take 10 s to send this time.
        monkeypatch.setattr(tasks, "notify_pass", lambda: clock.shift(10))
        scan.look()
        run_jobs()
        assert jobs(tasks.notify).get().status == TaskResultStatus.SUCCESSFUL
        # One interval after the pass began, not after it ended: the next is due.
        clock.move_to(start + datetime.timedelta(seconds=settings.CLOCK_INTERVAL + 1))
        scan.look()
        assert jobs(tasks.notify).count() == 2
