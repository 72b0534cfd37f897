"""The turn clock on the table page: the deadline countdown, the "absent" badge for
everyone, and the league admin's "End game early" (POST; 403 for other members, 404 for
strangers). Also the countdown on the league page's list of games being played."""

import pytest
from django.urls import reverse

from leagues.models import Membership
from rummy import engine
from rummy.models import Game, Seat
from rummy.table.live import render_view
from tests.cast import make_person
from tests.factories import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(cast, league):
    """Alice (the owner) plays Carol (a member); Bob (an admin) and Erin (a member)
    watch; Dave is the outsider."""
    erin = make_person("erin")
    Membership.objects.create(league=league, user=erin, role=Membership.Role.MEMBER)
    game = started_game(
        [cast.alice, cast.carol],
        league=league,
        state=engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D"),
    )
    return {
        "owner": cast.alice,
        "admin": cast.bob,
        "player": cast.carol,
        "watcher": erin,
        "outsider": cast.dave,
        "league": league,
        "game": game,
    }


def mark_absent(game, user):
    Seat.objects.filter(game=game, user=user).update(timeouts_in_row=Seat.ABSENT_AFTER)


def page(client, user, game):
    client.force_login(user)
    response = client.get(reverse("rummy:table", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_table_page_shows_the_deadline_countdown(client, table):
    html = page(client, table["watcher"], table["game"])
    assert 'id="turn-clock"' in html and '<time class="countdown"' in html
    iso = table["game"].turn_deadline.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert f'datetime="{iso}"' in html
    assert "Your time runs out" in page(client, table["owner"], table["game"])


def test_absent_badge_for_everyone_and_end_early_for_admins_only(client, table):
    game = table["game"]
    assert "badge absent" not in page(client, table["owner"], game)
    assert "btn-end-early" not in page(client, table["owner"], game)  # nobody absent
    mark_absent(game, table["player"])
    for name in ("owner", "admin", "player", "watcher"):
        html = page(client, table[name], game)
        assert html.count('class="badge absent"') == 1, name
        assert ("btn-end-early" in html) == (name in ("owner", "admin")), name
    html = page(client, table["admin"], game)
    assert 'form="end-early-form"' in html and 'id="end-early-form"' in html
    assert reverse("rummy:end_early", args=[game.pk]) in html


def test_socket_frames_carry_the_badge_and_the_button(table):
    mark_absent(table["game"], table["player"])
    frames = render_view(table["admin"], table["game"].pk, "suit").html
    assert 'class="badge absent"' in frames and "btn-end-early" in frames
    frames = render_view(table["watcher"], table["game"].pk, "suit").html
    assert 'class="badge absent"' in frames and "btn-end-early" not in frames


def test_admin_ends_the_game_early(client, table):
    game = table["game"]
    mark_absent(game, table["player"])
    client.force_login(table["admin"])
    response = client.post(reverse("rummy:end_early", args=[game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert "ended early" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "btn-end-early" not in response.content.decode()


def test_member_who_is_not_admin_gets_403(client, table):
    game = table["game"]
    mark_absent(game, table["player"])
    for name in ("watcher", "player"):
        client.force_login(table[name])
        assert client.post(reverse("rummy:end_early", args=[game.pk])).status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_stranger_gets_404_and_anonymous_the_login(client, table):
    game = table["game"]
    url = reverse("rummy:end_early", args=[game.pk])
    response = client.post(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(table["outsider"])
    assert client.post(url).status_code == 404


def test_end_early_without_an_absent_player_is_refused_with_a_message(client, table):
    game = table["game"]
    client.force_login(table["owner"])
    response = client.post(reverse("rummy:end_early", args=[game.pk]), follow=True)
    assert "only be ended early when a player is marked absent" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_end_early_is_post_only(client, table):
    client.force_login(table["owner"])
    assert client.get(reverse("rummy:end_early", args=[table["game"].pk])).status_code == 405


def test_league_page_lists_games_being_played_with_their_countdown(client, table):
    client.force_login(table["watcher"])
    html = client.get(table["league"].get_absolute_url()).content.decode()
    assert f'data-game="{table["game"].pk}"' in html
    assert '<time class="countdown"' in html
