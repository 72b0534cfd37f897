"""The portable record: every finished game downloads as ``carousel-vectors/1`` that
the vector runner (``python -m rummy.engine.vectors``) replays and passes, whatever
happened in it (melds, knocks, undercuts, going out, the stock running out, the clock's
timeouts, an admin ending it early)."""

import json
import random
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone

from rummy import engine, play
from rummy.engine import vectors
from rummy.history import exports
from rummy.models import Game, Seat
from tests.factories import make_league, make_user
from tests.rummy.history.conftest import new_game, play_out

pytestmark = pytest.mark.django_db


def _run(tmp_path, documents, name="games.json"):
    cases = [case for doc in documents for case in doc["cases"]]
    path = tmp_path / name
    path.write_text(json.dumps({"format": vectors.FORMAT, "cases": cases}))
    return path, len(cases)


def test_many_random_complete_games_replay_through_the_vector_runner(tmp_path, seeded_deals):
    players = [make_user() for _ in range(4)]
    league = make_league(players[0], members=players[1:])
    reasons = set()
    documents = []
    for n in range(12):
        seeded_deals.seed(n)
        seated = players[: 2 + n % 3]
        game = new_game(seated, league, seed=100 + n, target=40 + 10 * (n % 3))
        game = play_out(game, random.Random(n), timeouts=0.08 if n % 2 else 0, level=n % 2)
        assert game.status == Game.Status.FINISHED
        reasons.update(game.rounds.values_list("reason", flat=True))
        document = exports.vector_document(game)
        assert len(document["cases"]) == game.rounds.count()
        documents.append(json.loads(json.dumps(document)))  # as downloaded
    # The games went every way a round can end.
    assert {"knock", "going_out", "stock_out"} <= reasons
    assert any(
        step["do"] == "meld" and step.get("knock")
        for doc in documents
        for case in doc["cases"]
        for step in case["steps"]
    )
    path, count = _run(tmp_path, documents)
    out = tmp_path / "out.txt"
    with out.open("w") as stream:
        passed, failed = vectors.run_files([str(path)], out=stream)
    assert (passed, failed) == (count, 0), out.read_text()
    # The runner's own command line agrees (exit status 0).
    done = subprocess.run(
        [sys.executable, "-m", "rummy.engine.vectors", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout
    assert done.stdout.strip().endswith(f"{count} passed, 0 failed")


def test_each_round_is_a_case_from_its_dealt_position(seeded_deals):
    players = [make_user(), make_user()]
    game = new_game(players, make_league(players[0], members=players[1:]), seed=7, target=40)
    game = play_out(game, random.Random(7))
    dealt = [m.payload["state"] for m in game.moves.filter(kind__in=["start", "deal"])]
    cases = exports.vector_cases(game)
    assert [c["id"] for c in cases] == [f"game-{game.pk}-round-{d['round_no']}" for d in dealt]
    for case, state in zip(cases, dealt, strict=True):
        assert case["game"]["hands"] == state["hands"]
        assert case["game"]["stock"] == state["stock"]
        assert case["game"]["scores"] == state["scores"]
        assert case["game"]["target"] == 40
        last = case["steps"][-1]["expect"]
        assert last["round_over"] is True
    final = cases[-1]["steps"][-1]["expect"]
    seats = {s.number: s for s in Seat.objects.filter(game=game)}
    assert final["game_over"] is True
    assert final["final_scores"] == [seats[n].final_score for n in range(2)]


def test_a_wrong_expectation_fails_the_runner(tmp_path, seeded_deals):
    """The exported expectations are checked by the runner (so the passing test above
    could fail): one card changed in one expected hand is reported."""
    players = [make_user(), make_user()]
    game = new_game(players, make_league(players[0], members=players[1:]), seed=3, target=40)
    document = exports.vector_document(play_out(game, random.Random(3)))
    expect = document["cases"][0]["steps"][0]["expect"]
    hand = expect["hands"][0].split()
    expect["hands"][0] = " ".join(["AC" if hand[0] != "AC" else "2C", *hand[1:]])
    path, _count = _run(tmp_path, [document])
    with (tmp_path / "out.txt").open("w") as stream:
        _passed, failed = vectors.run_files([str(path)], out=stream)
    assert failed == 1


def test_timeouts_become_the_draws_and_passes_the_clock_made(tmp_path, seeded_deals):
    players = [make_user(), make_user()]
    league = make_league(players[0], members=players[1:])
    game = new_game(players, league, seed=5, target=30)
    game = play_out(game, random.Random(5), timeouts=0.5)
    assert game.moves.filter(kind="timeout").exists()
    path, count = _run(tmp_path, [exports.vector_document(game)])
    with (tmp_path / "out.txt").open("w") as stream:
        assert vectors.run_files([str(path)], out=stream) == (count, 0)


def test_a_game_ended_early_keeps_its_unscored_last_round(tmp_path, seeded_deals):
    alice, bob = make_user(), make_user()
    league = make_league(alice, members=[bob])
    game = new_game([alice, bob], league, seed=9, target=500)
    rng = random.Random(9)
    # Bob misses three turns in a row; Alice (the owner) ends the game.
    while not Seat.objects.get(game=game, number=1).is_absent:
        game = Game.objects.get(pk=game.pk)
        if game.engine_state().turn == 1:
            Game.objects.filter(pk=game.pk).update(
                turn_deadline=timezone.now() - timedelta(seconds=1)
            )
            play.timeout(game.pk, game.version)
        else:
            state = game.engine_state()
            play.act(game.pk, alice, game.version, engine.bots.choose_action(state, 0, rng))
    game = Game.objects.get(pk=game.pk)
    play.end_early(game.pk, alice, game.version)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    cases = exports.vector_cases(game)
    assert cases[-1]["id"].endswith("-ended-early")
    assert not any(s["expect"]["round_over"] for s in cases[-1]["steps"])
    path, count = _run(tmp_path, [{"format": vectors.FORMAT, "cases": cases}])
    with (tmp_path / "out.txt").open("w") as stream:
        assert vectors.run_files([str(path)], out=stream) == (count, 0)
