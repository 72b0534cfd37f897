"""Adding a bot to an open seat: the host or a league admin, through the game
page's one form (rummy:act, action=add_bot); everyone else is refused, bad input says
why and changes nothing, the same form sent many times at once seats one bot."""

import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from rummy import play
from rummy.models import Game, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(cast, league):
    """Alice's open table for three in the invite-only league, Alice seated."""
    return play.open_table(league, cast["alice"], max_seats=3)


def add(client, game, level="steady", version=None):
    version = Game.objects.get(pk=game.pk).version if version is None else version
    return client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": "add_bot", "bot_level": level, "version": version},
    )


def bots(game):
    return list(Seat.objects.filter(game=game).exclude(bot_level=""))


@pytest.mark.parametrize(
    ("who", "status"),
    [("owner", 302), ("admin", 302), ("member", 403), ("outsider", 404), ("anonymous", 302)],
)
def test_who_may_add_a_bot(client, cast, table, who, status):
    if who != "anonymous":
        client.force_login(cast[who])
    response = add(client, table)
    assert response.status_code == status
    if who in ("owner", "admin"):
        (bot,) = bots(table)
        assert bot.bot_level == "steady" and bot.user.is_bot
        assert response["Location"] == table.get_absolute_url()
    else:
        assert bots(table) == []
        if who == "anonymous":
            assert reverse("login") in response["Location"]


def test_the_host_of_a_table_who_is_no_admin_may_add_one(client, cast, league):
    game = play.open_table(league, cast["carol"], max_seats=3)
    client.force_login(cast["carol"])
    assert add(client, game).status_code == 302
    assert len(bots(game)) == 1


def test_the_waiting_page_offers_the_form_to_the_host_only(client, cast, table):
    client.force_login(cast["alice"])
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="btn-add-bot"' in page and 'value="expert"' in page
    client.force_login(cast["carol"])
    assert 'id="btn-add-bot"' not in client.get(table.get_absolute_url()).content.decode()


def test_a_bot_shows_as_a_bot_at_the_table(client, cast, table):
    client.force_login(cast["alice"])
    add(client, table, level="expert")
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Bot (expert)" in page and 'class="bot-icon"' in page


@pytest.mark.parametrize("level", ["", "grandmaster", "STEADY", "x" * 100])
def test_a_bad_level_says_which_levels_exist_and_changes_nothing(client, cast, table, level):
    client.force_login(cast["alice"])
    version = Game.objects.get(pk=table.pk).version
    response = add(client, table, level=level)
    assert response.status_code == 400
    assert bots(table) == [] and Game.objects.get(pk=table.pk).version == version
    if len(level) < 64:
        assert "Choose a bot level: beginner, steady, expert." in response.content.decode()


def test_a_full_table_takes_no_bot(cast, table):
    play.add_bot(table.pk, cast["alice"], "beginner", table.version)
    game = Game.objects.get(pk=table.pk)
    # The third seat filled it: it started by itself (R1.1's full table).
    play.add_bot(game.pk, cast["alice"], "expert", game.version)
    game = Game.objects.get(pk=table.pk)
    assert game.status == Game.Status.ACTIVE
    with pytest.raises(play.ActionRefused, match="already started"):
        play.add_bot(game.pk, cast["alice"], "steady", game.version)
    assert len(bots(game)) == 2


def test_a_table_whose_seats_are_taken_says_it_is_full(cast, league):
    game = play.open_table(league, cast["alice"], max_seats=2)
    Seat.objects.create(game=game, user=cast["carol"])  # seated, not yet started
    with pytest.raises(play.ActionRefused, match="This table is full"):
        play.add_bot(game.pk, cast["alice"], "steady", game.version)
    assert bots(game) == []


def test_a_bot_starts_a_full_table_and_then_plays(cast, league):
    game = play.open_table(league, cast["alice"], max_seats=2)
    play.add_bot(game.pk, cast["alice"], "beginner", game.version)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.ACTIVE and game.moves.filter(kind="start").exists()
    bot_seat = game.seats.exclude(bot_level="").get()
    assert (game.bot_due_at is not None) == (game.engine_state().turn == bot_seat.number)


@pytest.mark.django_db(transaction=True)
def test_the_same_form_sent_many_times_at_once_seats_one_bot(cast, league):
    game = play.open_table(league, cast["alice"], max_seats=4)
    version = game.version
    clients = [Client() for _n in range(6)]
    for client in clients:
        client.force_login(cast["alice"])
    barrier = threading.Barrier(len(clients))
    statuses, errors = [], []

    def send(client):
        try:
            barrier.wait(timeout=60)
            statuses.append(add(client, game, version=version).status_code)
        except Exception as error:  # a 500: the test client re-raises the view's error
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(statuses) == [302] + [409] * (len(clients) - 1)
    assert len(bots(game)) == 1
