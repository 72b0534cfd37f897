"""A practice game: any signed-in user, against 1 to 4 bots, outside any
league, dealt at once; only its owner sees it; no standings."""

import re

import pytest
from django.urls import reverse

from rummy import background
from rummy.models import Game, Seat
from tests.factories import make_user

pytestmark = pytest.mark.django_db
URL = reverse("rummy:practice")


def start(client, bots=2, level="beginner"):
    return client.post(URL, {"bots": bots, "level": level})


def test_the_home_page_offers_a_practice_game(client, cast):
    client.force_login(cast["dave"])  # in no league at all
    page = client.get(reverse("home")).content.decode()
    assert f'action="{URL}"' in page and 'id="btn-practice"' in page


@pytest.mark.parametrize("bots", [1, 4])
def test_start_and_play_at_once(client, cast, bots):
    client.force_login(cast["dave"])
    response = start(client, bots=bots, level="expert")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.is_practice and game.season is None and game.status == Game.Status.ACTIVE
    seats = list(game.seats.all())
    assert len(seats) == bots + 1
    assert sorted(s.bot_level for s in seats) == [""] + ["expert"] * bots
    # The bots play until it is Dave's turn; then Dave plays.
    for _ in range(200):
        game.refresh_from_db()
        if game.to_move_id == cast["dave"].pk:
            break
        assert background.bot_poll() == 1
    state = game.engine_state()
    response = client.post(
        reverse("rummy:act", args=[game.pk]), {"action": "draw", "version": game.version}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.moves.filter(kind="draw", user=cast["dave"]).exists()
    assert len(game.engine_state().hands[state.turn]) == len(state.hands[state.turn]) + 1
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Practice" in page and "Bot (expert)" in page


def test_only_its_owner_sees_a_practice_game(client, cast):
    client.force_login(cast["dave"])
    start(client)
    game = Game.objects.get()
    for name in ("alice", "bob", "carol"):
        client.force_login(cast[name])
        assert client.get(game.get_absolute_url()).status_code == 404
        act = client.post(reverse("rummy:act", args=[game.pk]), {"action": "draw", "version": 1})
        assert act.status_code == 404
        assert client.get(reverse("rummy:record", args=[game.pk])).status_code == 404
    client.logout()
    assert client.get(game.get_absolute_url()).status_code == 302  # to log in


def test_signed_out_or_get_is_refused(client):
    response = start(client)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(make_user())
    assert client.get(URL).status_code == 405
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "data", [{"bots": 0}, {"bots": 5}, {"bots": "x"}, {"level": "god"}, {"bots": 2, "level": ""}]
)
def test_bad_input_says_so_and_makes_no_game(client, cast, data):
    client.force_login(cast["dave"])
    response = client.post(URL, {"bots": 2, "level": "steady", **data}, follow=True)
    assert response.status_code == 200
    assert "Choose 1 to 4 bots and a level" in response.content.decode()
    assert not Game.objects.exists() and not Seat.objects.exists()


def test_a_practice_game_sends_no_email(cast, mailoutbox, caplog):
    from rummy import play
    from rummy.notifications import emails

    dave = cast["dave"]
    dave.email_verified = True
    dave.save()
    game = play.start_practice(dave, 1, "beginner")
    for _ in range(50):
        if Game.objects.get(pk=game.pk).to_move_id == dave.pk:
            break
        background.bot_poll()
    assert Game.objects.get(pk=game.pk).to_move_id == dave.pk
    emails.clock_pass()
    assert mailoutbox == []
    # Left out, not failed: a practice game has no league to name in an email.
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_a_practice_game_always_allows_hints(cast):
    from rummy import play

    game = play.start_practice(cast["dave"], 1, "steady")
    assert play.hints_allowed(game)


def test_a_user_has_at_most_so_many_practice_games_open(client, cast):
    """``MAX_PRACTICE_GAMES`` open at once; the next is refused in words on the home
    page and makes no game; a finished one makes room; another user's do not count."""
    from rummy.play.bot_seats import MAX_PRACTICE_GAMES

    client.force_login(cast["carol"])
    start(client)  # Carol's own game: not Dave's
    client.force_login(cast["dave"])
    for _n in range(MAX_PRACTICE_GAMES):
        assert start(client).status_code == 302
    mine = Game.objects.filter(host=cast["dave"])
    assert mine.count() == MAX_PRACTICE_GAMES == 3
    response = client.post(URL, {"bots": 1, "level": "beginner"}, follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    said = (
        "You have 3 practice games open, the most one may have at once: finish one before "
        "you start another."
    )
    # Said on the practice form, once.
    page = response.content.decode()
    assert page.count(said) == 1
    assert re.search(r'<form [^>]*id="practice-form".*?id="practice-full"', page, re.S)
    assert mine.count() == 3 and Seat.objects.filter(user=cast["dave"]).count() == 3
    mine.filter(pk=mine.first().pk).update(status=Game.Status.FINISHED)
    assert 'id="practice-full"' not in client.get(reverse("home")).content.decode()
    assert start(client).status_code == 302
    assert mine.count() == 4


@pytest.mark.django_db(transaction=True)
def test_practice_games_started_at_once_keep_the_cap(cast):
    """Twelve starts at once, each its own session: exactly ``MAX_PRACTICE_GAMES``
    games, every other start refused in words (a redirect home), none fails."""
    import threading

    from django.db import connections
    from django.test import Client

    from rummy.play.bot_seats import MAX_PRACTICE_GAMES

    dave = cast["dave"]
    clients = []
    for _n in range(12):
        c = Client()
        c.force_login(dave)
        clients.append(c)
    barrier = threading.Barrier(len(clients))
    answers = []

    def submit(c):
        try:
            barrier.wait()
            response = c.post(URL, {"bots": 1, "level": "beginner"})
            answers.append((response.status_code, response["Location"]))
        except Exception as error:
            answers.append((repr(error), ""))
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    games = Game.objects.filter(host=dave)
    assert games.count() == MAX_PRACTICE_GAMES
    assert sorted(status for status, _where in answers) == [302] * 12
    assert (
        sorted(where == reverse("home") for _status, where in answers) == [False] * 3 + [True] * 9
    )
