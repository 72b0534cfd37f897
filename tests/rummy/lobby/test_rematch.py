"""After a finished game: the game page offers the way
back to the league and a rematch, a new table for the same players in the same league
with the same house settings (rummy.play.seating.rematch, the view rummy.lobby.views).
The first player to ask opens it; each later asker sits at that same table, so asking
twice, or together, makes one table. Only the game's players may ask."""

import threading

import pytest
from django.contrib.messages import get_messages
from django.db import connections
from django.test import Client
from django.urls import reverse

from leagues import seasons as season_service
from leagues.models import Membership
from rummy import engine, play
from rummy.models import Game
from rummy.play import seating
from tests.factories import make_season
from tests.rummy.conftest import set_state, start_two


def finished_game(league, cast):
    """Alice and Bob's game, over: Alice knocks at 20 points (target 20) and wins."""
    state = engine.position(["AC 2D", "KC KD KH"], stock="5S 6S 7S", drawn=1, target=20)
    game = set_state(start_two(league, cast), state)
    play.knock(game.pk, cast["alice"], game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def url(game):
    return reverse("rummy:rematch", args=[game.pk])


def msg(response):
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def rematches(game):
    return Game.objects.filter(rematch_of=game)


pytestmark = pytest.mark.django_db


@pytest.fixture
def season(league):
    return make_season(league, name="Spring", target_score=20)


@pytest.fixture
def done(league, cast, season):
    return finished_game(league, cast)


def test_the_finished_game_page_offers_the_next_step(client, cast, done):
    client.force_login(cast["alice"])
    page = client.get(done.get_absolute_url()).content.decode()
    assert 'id="next-step"' in page
    assert f'href="{url(done)}"' in page
    assert f'href="{done.league.get_absolute_url()}"' in page
    # A spectator is offered the league, not a rematch of someone else's game.
    client.force_login(cast["carol"])
    page = client.get(done.get_absolute_url()).content.decode()
    assert f'href="{done.league.get_absolute_url()}"' in page
    assert f'href="{url(done)}"' not in page


def test_the_rematch_page_says_what_a_rematch_is(client, cast, done):
    client.force_login(cast["bob"])
    page = client.get(url(done)).content.decode()
    assert "A new table for 2 players" in page
    assert "Alice" in page and "Bob" in page
    assert "It counts for “Spring”." in page
    assert f'<form method="post" action="{url(done)}">' in page
    assert "Open the rematch table" in page
    assert not rematches(done).exists()  # looking opens nothing


def test_rematch_opens_one_table_and_the_others_sit_at_it(client, cast, done, season):
    client.force_login(cast["alice"])
    response = client.post(url(done))
    table = rematches(done).get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert "Rematch table opened" in msg(response)
    assert table.status == Game.Status.OPEN and table.league == done.league
    assert table.host == cast["alice"] and table.max_seats == 2
    assert (table.target_score, table.knock_limit, table.turn_seconds) == (
        done.target_score,
        done.knock_limit,
        done.turn_seconds,
    )
    assert [s.user for s in table.seats.all()] == [cast["alice"]]
    # Asking again: the same table, nothing new (and the page sends her straight there).
    response = client.post(url(done))
    assert response["Location"] == table.get_absolute_url()
    assert "already have a seat" in msg(response)
    assert client.get(url(done))["Location"] == table.get_absolute_url()
    # Bob is told it is there, and asking seats him: the full table starts by itself.
    client.force_login(cast["bob"])
    assert "Alice has opened the rematch table" in client.get(url(done)).content.decode()
    response = client.post(url(done))
    assert response["Location"] == table.get_absolute_url()
    assert "You sat at the rematch table" in msg(response)
    assert rematches(done).count() == 1
    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE and table.season == season
    assert {s.user for s in table.seats.all()} == {cast["alice"], cast["bob"]}


def test_a_rematch_started_without_you_is_shown_not_joined(cast, league, season):
    from tests.cast import make_person

    erin = make_person("erin")
    Membership.objects.create(league=league, user=erin)
    game = play.open_table(league, cast["alice"], 3)
    play.take_seat(game.pk, cast["bob"])
    play.take_seat(game.pk, erin)
    game.refresh_from_db()
    state = engine.position(["AC 2D", "KC KD KH", "QC QD QH"], stock="5S 6S 7S", drawn=1, target=20)
    game = set_state(game, state)
    seat0 = game.seats.get(number=0).user
    play.knock(game.pk, seat0, game.version)
    others = [u for u in (cast["alice"], cast["bob"], erin) if u != seat0]
    table = seating.rematch(game, others[0]).game
    assert seating.rematch(game, seat0).outcome == seating.Rematch.SEATED
    play.start_game(table.pk, others[0])  # the host starts with two of three
    result = seating.rematch(game, others[1])
    assert (result.game, result.outcome) == (table, seating.Rematch.STARTED)
    assert not table.seats.filter(user=others[1]).exists()


def test_only_the_players_may_ask(client, cast, done):
    client.force_login(cast["carol"])  # a member who watched
    for response in (client.get(url(done)), client.post(url(done))):
        assert response.status_code == 403
        assert "Only the players of this game can ask for a rematch." in (response.content.decode())
    client.force_login(cast["dave"])  # an outsider: the private league does not exist
    assert client.post(url(done)).status_code == 404
    client.logout()
    response = client.post(url(done))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not rematches(done).exists()


def test_only_the_players_may_sit_at_a_rematch_table(cast, done):
    table = seating.rematch(done, cast["alice"]).game
    with pytest.raises(play.NotAllowed, match="only the players of the last game"):
        play.take_seat(table.pk, cast["carol"])
    assert table.seats.count() == 1


def test_no_rematch_before_the_game_is_over(client, cast, league, season):
    game = start_two(league, cast)
    client.force_login(cast["alice"])
    response = client.post(url(game))
    assert response["Location"] == game.get_absolute_url()
    assert "only follow a finished game" in msg(response)
    response = client.get(url(game))
    assert response["Location"] == game.get_absolute_url()
    assert not rematches(game).exists()


def test_a_closed_season_is_said_plainly(client, cast, done, season):
    season_service.close_season(season)
    client.force_login(cast["alice"])
    page = client.get(url(done)).content.decode()
    assert "“Spring” has closed: this rematch counts for no season." in page
    response = client.post(url(done))
    assert "“Spring” has closed: this rematch counts for no season." in msg(response)
    client.force_login(cast["bob"])
    client.post(url(done))
    table = rematches(done).get()
    assert table.status == Game.Status.ACTIVE and table.season is None


def test_a_closed_season_names_the_season_it_counts_for_instead(client, cast, league, done):
    spring = done.season
    season_service.close_season(spring)
    make_season(league, name="Summer")
    client.force_login(cast["bob"])
    page = client.get(url(done)).content.decode()
    assert "“Spring” has closed: this rematch counts for “Summer” instead" in page


def test_no_rematch_when_the_others_left_the_league(client, cast, done):
    Membership.objects.filter(league=done.league, user=cast["bob"]).delete()
    client.force_login(cast["alice"])
    response = client.post(url(done))
    assert "have left the league" in msg(response)
    assert not rematches(done).exists()


def test_a_rematch_table_everyone_left_can_be_opened_again(cast, done):
    table = seating.rematch(done, cast["alice"]).game
    play.leave_seat(table.pk, cast["alice"])  # the last one out closes the table
    assert not rematches(done).exists()
    again = seating.rematch(done, cast["bob"])
    assert again.outcome == seating.Rematch.OPENED and again.game.host == cast["bob"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("askers", [("alice", "bob"), ("alice",) * 6, ("alice", "bob") * 3])
def test_asking_at_once_makes_one_rematch(cast, league, askers):
    make_season(league, name="Spring", target_score=20)
    done = finished_game(league, cast)
    barrier = threading.Barrier(len(askers))
    statuses, errors = [], []

    # Logged in one after another: only the asks are at once.
    clients = [Client() for _name in askers]
    for client, name in zip(clients, askers, strict=True):
        client.force_login(cast[name])

    def ask(client):
        try:
            barrier.wait(timeout=60)
            statuses.append(client.post(url(done)).status_code)
        except Exception as error:  # a 500: the test client re-raises the view's error
            errors.append(error)
            barrier.abort()  # the others must not wait for this one for ever
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and statuses == [302] * len(askers)
    table = rematches(done).get()
    assert {s.user.username for s in table.seats.all()} == set(askers)
    assert table.seats.count() == len(set(askers))
    if len(set(askers)) == 2:
        assert table.status == Game.Status.ACTIVE  # full: it started, once
        assert table.moves.filter(kind="start").count() == 1


def test_the_other_players_find_the_rematch_table_on_their_home_page(client, cast, done):
    table = seating.rematch(done, cast["alice"]).game
    client.force_login(cast["bob"])
    page = client.get(reverse("home")).content.decode()
    assert f'data-game="{table.pk}"' in page and table.get_absolute_url() in page
