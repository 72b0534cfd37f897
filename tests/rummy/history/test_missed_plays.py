"""Missed plays: the background pass solves every turn position of a finished
game once, within its time budget, from each seat's view, and the record page shows the
turns where a better meld existed, without calling the solver."""

import itertools

import pytest
from django.urls import reverse

from rummy import background, engine, play
from rummy.history import review
from rummy.models import Game, GameReview, Move, TurnReview
from tests.rummy.conftest import set_state, start_two

pytestmark = pytest.mark.django_db

# Alice (seat 0) draws 10H and declines to meld (draws 5D), then melds only 7H 8H 9H;
# Bob draws JS and goes out with KS QS JS, which ends the game (he passes 150, R9.1).
START = dict(
    hands=["7H 8H 9H 2C", "KS QS"],
    stock="10H 5D JS 2D 3D",
    scores=[0, 140],
)


def finished_game(league, cast):
    game = set_state(start_two(league, cast), engine.position(**START))
    alice, bob = cast.alice, cast.bob
    for user, action in [
        (alice, {"do": "draw"}),
        (alice, {"do": "draw"}),
        (alice, {"do": "meld", "table": ["7H 8H 9H"]}),
        (bob, {"do": "draw"}),
        (bob, {"do": "meld", "table": ["7H 8H 9H", "JS QS KS"]}),
    ]:
        game.refresh_from_db()
        play.act(game.pk, user, game.version, action)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def done(league, cast):
    return finished_game(league, cast)


def test_the_pass_stores_every_turn_position_once(done):
    assert review.review_pass() == 1
    rows = list(TurnReview.objects.filter(game=done))
    # Alice after her first draw (declined), Alice's meld, Bob's meld: the first draw
    # of a turn is no position (no meld is allowed before it, R3.1).
    assert [(r.seat, r.kind) for r in rows] == [(0, "draw"), (0, "meld"), (1, "meld")]
    declined, melded, bob = rows
    assert (declined.count_left, declined.best_count) == (36, 2)  # 7+8+9+2+10; 2C
    assert declined.best_played == ["7H", "8H", "9H", "10H"] and declined.proven
    assert (melded.count_left, melded.best_count) == (17, 7)  # 2C 10H 5D; 2C 5D
    assert (bob.count_left, bob.best_count) == (0, 0) and not bob.missed
    assert declined.missed and melded.missed
    assert sorted(melded.hand) == sorted(["7H", "8H", "9H", "2C", "10H", "5D"])
    assert GameReview.objects.filter(game=done, failed=False).exists()
    # A second pass finds nothing to do: nothing is solved or stored again.
    ids = sorted(TurnReview.objects.values_list("pk", flat=True))
    assert review.review_pass() == 0
    assert sorted(TurnReview.objects.values_list("pk", flat=True)) == ids


def test_a_second_pass_solves_nothing(done, monkeypatch):
    review.review_pass()
    monkeypatch.setattr(review, "solve", _no_solver)
    assert review.review_pass() == 0


def test_a_running_game_is_not_reviewed(league, cast):
    game = set_state(start_two(league, cast), engine.position(**START))
    assert review.review_pass() == 0
    assert not TurnReview.objects.filter(game=game).exists()


def test_the_solver_gets_only_the_seats_view(done, monkeypatch):
    seen = []
    real = review.solve

    def spy(pos, *args, **kwargs):
        seen.append(pos)
        return real(pos, *args, **kwargs)

    monkeypatch.setattr(review, "solve", spy)
    review.review_pass()
    # Bob's position: his hand and the table only, none of Alice's cards in the hand.
    bob = seen[-1]
    assert sorted(str(c) for c in bob.hand) == ["JS", "KS", "QS"]
    assert [" ".join(str(c) for c in m) for m in bob.table] == ["7H 8H 9H"]


def test_the_budget_bounds_a_pass_and_the_next_one_goes_on(done):
    """A clock that moves one second per reading: a budget of 2.5 seconds leaves time
    for one solve, the next pass does the rest, and nothing is solved twice."""
    ticks = itertools.count()

    def clock():
        return float(next(ticks))

    assert review.review_pass(budget=2.5, clock=clock) == 0
    assert TurnReview.objects.filter(game=done).count() == 1
    assert not GameReview.objects.exists()
    assert review.review_pass(budget=100, clock=clock) == 1
    assert TurnReview.objects.filter(game=done).count() == 3


def test_no_budget_does_nothing(done):
    assert review.review_pass(budget=0) == 0
    assert not TurnReview.objects.exists() and not GameReview.objects.exists()


def test_the_background_pass_runs_the_review(done):
    background.background_pass()
    assert GameReview.objects.filter(game=done).exists()
    assert TurnReview.objects.filter(game=done).count() == 3


@pytest.mark.unreplayable
def test_a_game_whose_log_does_not_replay_is_marked_failed_not_retried(done, monkeypatch):
    Move.objects.filter(game=done, kind=Move.Kind.MELD).update(payload={"do": "meld"})
    assert review.review_pass() == 0
    assert GameReview.objects.get(game=done).failed
    monkeypatch.setattr(review, "solve", _no_solver)
    assert review.review_pass() == 0


def _no_solver(*args, **kwargs):
    raise AssertionError("the solver must not be called here")


def test_the_record_shows_missed_plays_without_calling_the_solver(client, cast, done, monkeypatch):
    review.review_pass()
    # Any call into the solver from the page fails the request.
    monkeypatch.setattr(review, "solve", _no_solver)
    monkeypatch.setattr("rummy.solver.solve", _no_solver)
    monkeypatch.setattr("rummy.play.hints.solve", _no_solver)
    client.force_login(cast.carol)  # a member watching: the game is over, hands are public
    response = client.get(reverse("rummy:record", args=[done.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="missed-plays"' in html
    assert html.count('class="missed-play"') == 2
    assert "Round 1: 36 points left; the best meld leaves 2." in html
    assert "Round 1: 17 points left; the best meld leaves 7." in html
    # The best arrangement as cards: the new sequence 7H-10H.
    assert 'data-revealed-card="10H"' in html and 'class="cards small best-meld"' in html
    assert "No missed plays." in html  # Bob's


def test_before_the_review_the_record_says_it_is_coming(client, cast, done):
    client.force_login(cast.alice)
    html = client.get(reverse("rummy:record", args=[done.pk])).content.decode()
    assert "are being reviewed" in html and 'class="missed-play"' not in html


def test_a_running_games_record_has_no_missed_plays(client, cast, league):
    game = set_state(start_two(league, cast), engine.position(**START))
    client.force_login(cast.alice)
    html = client.get(reverse("rummy:record", args=[game.pk])).content.decode()
    assert 'id="missed-plays"' not in html


@pytest.mark.parametrize("who, status", [("alice", 200), ("carol", 200), ("dave", 404)])
def test_who_may_see_the_missed_plays(client, cast, done, who, status):
    """The record's own rules: its players and league members; a stranger gets 404."""
    review.review_pass()
    client.force_login(cast[who])
    response = client.get(reverse("rummy:record", args=[done.pk]))
    assert response.status_code == status
    if status == 404:
        assert b"missed-play" not in response.content


def test_the_record_needs_a_login(client, done):
    review.review_pass()
    response = client.get(reverse("rummy:record", args=[done.pk]))
    assert response.status_code == 302
