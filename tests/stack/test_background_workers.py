"""Two background workers (``manage.py run_worker``) on PostgreSQL take a burst of due
work: passed deadlines in league games (each a timeout, then a "your move" email to the
next player) and bot turns in practice games. One worker is killed with SIGKILL halfway.
Afterwards every game's log replays, each timeout was played once, every bot turn once
until the person's turn, and each email went out once."""

import collections
import datetime
import email
import email.policy
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from rummy import engine, play
from rummy.background.tasks import PASS_LEASE
from rummy.models import Game, JobKey, Move, Notice
from tests.factories import make_user, started_game
from tests.stack.conftest import servers_database_url
from tests.stack.servers import server_env

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

ROOT = Path(settings.BASE_DIR)
LEAGUE_GAMES = 16
PRACTICE_GAMES = 8
BOTS = 3
# Long enough for the killed worker's jobs to expire (tasks.STEP_LEASE, 30 s) and be
# enqueued again, on a slow shared machine.
PATIENCE = 240
# The longest time between two runs of a periodic pass (the retention sweep's).
LONGEST_PASS_INTERVAL = datetime.timedelta(hours=1)


def _league_game():
    a = make_user(email_verified=True)
    b = make_user(email_verified=True)
    state = engine.position(hands=["2C 3D 4H", "KS QS 9D"], stock="9H 5D 6D 7C 8C 2S 3S")
    game = started_game([a, b], state=state)
    # The first player's time is up.
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - datetime.timedelta(1))
    return game


def _practice_game():
    person = make_user()
    game = play.start_practice(person, BOTS, "beginner")
    game.refresh_from_db()
    if game.bot_due_at is None:  # the person moves first: a draw hands over to the bots
        play.draw(game.pk, person, game.version)
    return game


def _worker(env, log_path, name):
    log = open(log_path, "wb")  # noqa: SIM115 closed with the process below
    process = subprocess.Popen(
        [sys.executable, "manage.py", "run_worker", "--look-every", "0.2", "--worker-id", name],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    process.log = log
    return process


def _stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    process.log.close()


def _timeouts_played(games):
    return Move.objects.filter(game__in=games, kind=Move.Kind.TIMEOUT).count()


def _bots_done(games):
    return not Game.objects.filter(pk__in=[g.pk for g in games], bot_due_at__isnull=False).exists()


def _claimed_before(moment):
    """The notices claimed before ``moment`` and not stamped after it: those a worker
    killed at ``moment`` may have left without their message."""
    return Notice.objects.filter(claimed_at__lte=moment).exclude(sent_at__gt=moment)


def _mail(folder):
    """Every message sent: (recipient, subject)."""
    sent = []
    for path in sorted(Path(folder).glob("*.log")):
        for raw in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if raw.strip():
                message = email.message_from_bytes(raw, policy=email.policy.default)
                sent.append((str(message["To"]), str(message["Subject"])))
    return sent


def _wait(condition, what, workers):
    stop = time.monotonic() + PATIENCE
    while not condition():
        for worker in workers:
            assert worker.poll() is None, f"a worker exited while waiting for {what}"
        assert time.monotonic() < stop, f"never came: {what}"
        time.sleep(0.2)


def test_two_workers_one_killed_halfway_do_every_job_once(tmp_path):
    league = [_league_game() for _ in range(LEAGUE_GAMES)]
    practice = [_practice_game() for _ in range(PRACTICE_GAMES)]
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    env = server_env(
        servers_database_url(),
        os.environ["REDIS_URL"],
        EMAIL_BACKEND="tests.mail_backends.DirectoryBackend",
        TEST_MAIL_DIR=str(mail_dir),
        BOT_DELAY="0,0",
        CLOCK_INTERVAL="1",
        BOT_POLL_INTERVAL="0.2",
    )
    victim = _worker(env, tmp_path / "worker-0.log", "victim")
    survivor = _worker(env, tmp_path / "worker-1.log", "survivor")
    try:
        _wait(
            lambda: _timeouts_played(league) >= LEAGUE_GAMES // 2,
            "half the timeouts",
            [victim, survivor],
        )
        killed_at = timezone.now()
        victim.kill()  # SIGKILL: no chance to finish its job or to tidy up
        victim.wait()
        _wait(lambda: _timeouts_played(league) >= LEAGUE_GAMES, "every timeout", [survivor])
        _wait(lambda: _bots_done(practice), "every bot turn", [survivor])

        def told_everyone():
            # Each second player told of the turn the timeout gave them, and every
            # notice claimed has its message written.
            told = all(
                Notice.objects.filter(
                    game=game,
                    kind=Notice.Kind.YOUR_MOVE,
                    user=game.seats.get(number=1).user,
                ).exists()
                for game in league
            )
            # A notice is stamped just before it leaves (at most once), so one that the
            # victim had claimed before its kill may never reach the mail directory.
            unsure = _claimed_before(killed_at).count()
            return told and len(_mail(mail_dir)) >= Notice.objects.count() - unsure

        _wait(told_everyone, "the emails", [survivor])
    finally:
        _stop(survivor)
        _stop(victim)
        for name in ("worker-0.log", "worker-1.log"):
            print(f"--- {name} ---\n{(tmp_path / name).read_text(errors='replace')[-3000:]}")

    # The jobs the victim was running when it was killed (its threads nearly always are
    # in some) stayed RUNNING. Each one's work was either enqueued again and done by the
    # survivor, or committed before the kill: a game's step drops its key in the step's
    # own transaction, so a key gone means the step is in the log (and, below, once).
    for lost in DBTaskResult.objects.filter(status="RUNNING", worker_ids__contains=["victim"]):
        key = lost.args_kwargs["args"][0]
        again = DBTaskResult.objects.filter(
            args_kwargs__args__0=key, status="SUCCESSFUL", enqueued_at__gt=lost.started_at
        )
        if again.filter(worker_ids__contains=["survivor"]).exists():
            continue
        if key.startswith("every:"):
            # A periodic pass (a sweep, done whole the next time): its key is leased from
            # the start of the lost run, for the run or, if the pass had finished, until
            # its next time; either way it is offered again then, never held for good.
            held = JobKey.objects.filter(key=key).first()
            longest = max(PASS_LEASE, LONGEST_PASS_INTERVAL) + datetime.timedelta(seconds=5)
            assert held is None or held.leased_until <= lost.started_at + longest, key
        else:
            assert key.startswith(("timeout:", "bot:")), key
            assert not JobKey.objects.filter(key=key).exists(), key
    # Every game's log replays to its stored state (exit status 1 otherwise).
    call_command("verify_games")
    # Each timeout once: one per league game, and the second player's turn has come.
    for game in league:
        game.refresh_from_db()
        assert game.moves.filter(kind=Move.Kind.TIMEOUT).count() == 1, game.pk
        assert game.engine_state().turn == 1, game.pk
    # Every bot turn once: the bots played until the person's turn, and no further.
    for game in practice:
        game.refresh_from_db()
        state = game.engine_state()
        person_seat = next(seat.number for seat in game.seats.all() if not seat.bot_level)
        assert state.turn == person_seat and game.bot_due_at is None, game.pk
    # Each email once: one message for each notice, none twice. The only ones that may be
    # missing are those the victim held when it was killed: stamped and being handed over
    # (the ledger's at-most-once), or claimed and not yet stamped (sent by a later pass
    # once the claim is stale); the survivor, stopped with SIGTERM, finished its sends.
    sent = _mail(mail_dir)
    per_notice = collections.Counter(
        Notice.objects.values_list("user__email", "kind", "turn_started_at", "game")
    )
    assert all(n == 1 for n in per_notice.values())
    unsure = _claimed_before(killed_at)
    missing = sum(per_notice.values()) - len(sent)
    assert 0 <= missing <= unsure.count(), sent
    per_recipient = collections.Counter(to for to, _subject in sent)
    for game in league:
        second = game.seats.get(number=1).user
        told = per_recipient[second.email]
        lost = unsure.filter(game=game, user=second).exists()
        assert told == 1 or (told == 0 and lost), (second.email, sent)
