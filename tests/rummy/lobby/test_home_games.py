"""The home page's games: your move first (most urgent first), then waiting for
others, then open tables in your leagues; a fixed number of queries."""

import datetime

import pytest
from django.utils import timezone

from rummy import engine, play
from rummy.lobby.games import home_games
from rummy.models import Game, Seat
from tests.factories import make_league, make_user, started_game

pytestmark = pytest.mark.django_db


def game_in(league, players, turn, deadline_in_hours):
    state = engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C", turn=turn)
    game = started_game(players, league=league, state=state)
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=now, turn_deadline=now + datetime.timedelta(hours=deadline_in_hours)
    )
    return game


@pytest.fixture
def world():
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    league = make_league(alice, members=[bob, carol])
    other_league = make_league(dave, members=[bob])
    games = {
        "mine_later": game_in(league, [alice, bob], 0, 20),
        "mine_soon": game_in(league, [alice, carol], 0, 2),
        "bobs": game_in(league, [alice, bob], 1, 5),
        "not_mine": game_in(league, [bob, carol], 0, 1),
        "open_here": play.open_table(league, carol, 3),
        "open_elsewhere": play.open_table(other_league, dave, 3),
    }
    return alice, bob, games


def pks(rows):
    return [row["game"].pk for row in rows]


def test_sections_and_order(world):
    alice, bob, games = world
    sections = home_games(alice)
    assert pks(sections["your_move"]) == [games["mine_soon"].pk, games["mine_later"].pk]
    assert pks(sections["waiting"]) == [games["bobs"].pk]
    assert sections["waiting"][0]["to_move"] == bob
    assert pks(sections["open_tables"]) == [games["open_here"].pk]


def test_absent_players_are_named(world):
    alice, bob, games = world
    Seat.objects.filter(game=games["bobs"], user=bob).update(timeouts_in_row=3)
    assert home_games(alice)["waiting"][0]["absent"] == [bob.name]


def test_query_count_does_not_grow_with_games(world, django_assert_num_queries):
    alice, bob, games = world
    league = games["bobs"].league
    # four for the games and the open tables, one for the games with chat messages unread
    # (chat.public.unread_games)
    with django_assert_num_queries(5):
        home_games(alice)
    for _ in range(3):
        game_in(league, [alice, bob], 1, 8)
        play.open_table(league, bob, 4)
    with django_assert_num_queries(5):
        sections = home_games(alice)
        [row["to_move"] for row in sections["waiting"]]
        [row["names"] for row in sections["open_tables"]]
    assert len(sections["waiting"]) == 4


# --- The page -------------------------------------------------------------------------


def test_home_page_sections_in_order_with_countdowns(client, world):
    from django.urls import reverse

    alice, bob, games = world
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    order = [
        html.index(f'data-game="{games[k].pk}"')
        for k in ("mine_soon", "mine_later", "bobs", "open_here")
    ]
    assert order == sorted(order)
    assert (
        html.index('id="your-move"') < html.index('id="waiting"') < html.index('id="open-tables"')
    )
    assert html.count('<time class="countdown"') == 3
    assert f'data-game="{games["not_mine"].pk}"' not in html
    assert f'data-game="{games["open_elsewhere"].pk}"' not in html
    assert f"{bob.name} to move" in html
    assert reverse("notifications:settings") in html


def test_home_page_query_count_does_not_grow(client, world):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    alice, bob, games = world
    client.force_login(alice)
    with CaptureQueriesContext(connection) as before:
        client.get(reverse("home"))
    league = games["bobs"].league
    for _ in range(4):
        game_in(league, [alice, bob], 0, 3)
        game_in(league, [alice, bob], 1, 3)
        play.open_table(league, bob, 4)
    with CaptureQueriesContext(connection) as after:
        client.get(reverse("home"))
    assert len(after) == len(before)


def test_home_page_asks_unverified_users_to_verify(client, world):
    from django.urls import reverse

    alice, _bob, _games = world
    client.force_login(alice)
    assert "Verify your email address" in client.get(reverse("home")).content.decode()
    alice.email_verified = True
    alice.save()
    assert "Verify your email address" not in client.get(reverse("home")).content.decode()
