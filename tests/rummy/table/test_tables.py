"""Opening tables and seating (rummy:open_table, sit/leave/start through rummy:act), and
the league page's tables partial."""

import pytest
from django.urls import reverse

from rummy import play
from rummy.models import Game, Seat

pytestmark = pytest.mark.django_db


def open_url(league):
    return reverse("rummy:open_table", args=[league.slug])


def act(client, game, action):
    game.refresh_from_db()
    return client.post(
        reverse("rummy:act", args=[game.pk]), {"action": action, "version": game.version}
    )


def test_member_opens_a_table_with_2_to_5_seats(client, league, cast):
    client.force_login(cast["alice"])
    response = client.post(open_url(league), {"seats": "3"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.max_seats == 3 and game.host == cast["alice"] and game.is_open
    for bad in ("1", "6", "x"):
        client.post(open_url(league), {"seats": bad})
    assert Game.objects.count() == 1


def test_outsider_cannot_open_a_table(client, league, public_league, cast):
    client.force_login(cast["dave"])
    assert client.post(open_url(league), {"seats": "2"}).status_code == 404
    assert client.post(open_url(public_league), {"seats": "2"}).status_code == 403
    assert not Game.objects.exists()


def test_sit_leave_and_host_starts_with_two(client, league, cast):
    game = play.open_table(league, cast["alice"], 4)
    client.force_login(cast["bob"])
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'value="sit"' in page and 'value="start"' not in page
    assert act(client, game, "sit").status_code == 302
    assert act(client, game, "start").status_code == 403  # only the host starts
    assert act(client, game, "leave").status_code == 302
    assert not Seat.objects.filter(game=game, user=cast["bob"]).exists()
    act(client, game, "sit")
    client.force_login(cast["alice"])
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'value="start"' in page and ">Start<" in page
    act(client, game, "start")
    game.refresh_from_db()
    assert game.is_active and game.engine_state().n_players == 2
    assert act(client, game, "leave").status_code == 400  # too late to leave


def test_a_full_table_starts_by_itself(client, league, cast):
    game = play.open_table(league, cast["alice"], 2)
    client.force_login(cast["carol"])
    act(client, game, "sit")
    game.refresh_from_db()
    assert game.is_active


def test_public_league_stranger_may_watch_but_not_sit(client, public_league, cast):
    game = play.open_table(public_league, cast["alice"], 3)
    client.force_login(cast["dave"])
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'value="sit"' not in page
    assert act(client, game, "sit").status_code == 403


def test_last_one_out_closes_the_table(client, league, cast):
    game = play.open_table(league, cast["alice"], 3)
    client.force_login(cast["alice"])
    response = act(client, game, "leave")
    assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    assert not Game.objects.exists()


def test_league_page_lists_tables_with_the_allowed_buttons(client, league, cast):
    play.open_table(league, cast["alice"], 3)
    client.force_login(cast["bob"])
    page = client.get(league.get_absolute_url()).content.decode()
    assert 'id="league-tables"' in page and ">Open a table<" in page
    assert 'value="sit"' in page and 'value="leave"' not in page
    client.force_login(cast["alice"])
    page = client.get(league.get_absolute_url()).content.decode()
    assert 'value="leave"' in page and 'value="sit"' not in page
