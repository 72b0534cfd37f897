"""Closing a season: the season page no longer closes in
one tap; a confirmation page says what closing does, who becomes champion and which
games are still running (and that they play on and still count), and its button closes
once however many times it is sent. Only owners and admins get there."""

import threading

import pytest
from django.contrib.messages import get_messages
from django.db import connections
from django.test import Client
from django.urls import reverse

from leagues.models import Season
from rummy.models import Game

from .conftest import make_game, make_season


def close_url(league, season):
    return reverse("leagues:season_close", args=[league.slug, season.pk])


def msg(response):
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


@pytest.mark.django_db
def test_the_season_page_has_no_one_tap_close(client, cast, league):
    season = make_season(league)
    client.force_login(cast["owner"])
    page = client.get(season.get_absolute_url()).content.decode()
    # No form posts to the close URL: the page only links to the confirmation, and the
    # link comes after the standings and results, not first.
    assert f'action="{close_url(league, season)}"' not in page
    assert f'href="{close_url(league, season)}"' in page
    assert page.index(f'href="{close_url(league, season)}"') > page.index("Results")


@pytest.mark.django_db
def test_confirmation_says_what_closing_does_and_lists_running_games(client, cast, league):
    season = make_season(league)
    make_game(league, season, [(cast["member"], 180, 3, True), (cast["owner"], 90, 1, False)])
    running = make_game(
        league,
        season,
        [(cast["owner"], 0, 0, False), (cast["admin"], 0, 0, False)],
        status=Game.Status.ACTIVE,
    )
    client.force_login(cast["admin"])
    response = client.get(close_url(league, season))
    page = response.content.decode()
    assert response.status_code == 200
    assert "The standings are frozen" in page
    assert "Champion:" in page and "Carol" in page  # who leads now
    assert "1 game of this season is still being played" in page
    assert "Closing does not stop it" in page and "still counts" in page
    assert running.get_absolute_url() in page
    assert "void" in page
    assert f'<form method="post" action="{close_url(league, season)}"' in page
    season.refresh_from_db()
    assert season.status == Season.Status.ACTIVE  # looking closes nothing


@pytest.mark.django_db
def test_confirmation_without_running_games_or_champion(client, cast, league):
    season = make_season(league)
    client.force_login(cast["owner"])
    page = client.get(close_url(league, season)).content.decode()
    assert "every game of this season has ended" in page
    assert "closes without a champion" in page


@pytest.mark.django_db
def test_the_confirmation_button_closes(client, cast, league):
    season = make_season(league)
    client.force_login(cast["owner"])
    response = client.post(close_url(league, season))
    assert response["Location"] == season.get_absolute_url()
    assert "standings are final" in msg(response)
    season.refresh_from_db()
    assert season.status == Season.Status.CLOSED


@pytest.mark.django_db
@pytest.mark.parametrize("status", [Season.Status.PLANNED, Season.Status.CLOSED])
def test_no_confirmation_for_a_season_that_is_not_active(client, cast, league, status):
    season = make_season(league, status=status)
    client.force_login(cast["owner"])
    response = client.get(close_url(league, season))
    assert response.status_code == 302 and response["Location"] == season.get_absolute_url()


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_member_is_refused_in_words(client, cast, league, method):
    season = make_season(league)
    client.force_login(cast["member"])
    response = getattr(client, method)(close_url(league, season))
    assert response.status_code == 403
    assert "owners and admins can do that." in response.content.decode()
    season.refresh_from_db()
    assert season.status == Season.Status.ACTIVE


@pytest.mark.django_db
def test_an_outsider_does_not_see_the_league(client, cast, league):
    season = make_season(league)
    client.force_login(cast["outsider"])
    assert client.get(close_url(league, season)).status_code == 404
    assert client.post(close_url(league, season)).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_many_closes_at_once_close_once(cast, league):
    """A double tap, or two admins at once: every answer is the redirect (never a 500),
    exactly one says the season closed, the others that it already was."""
    season = make_season(league)
    make_game(league, season, [(cast["member"], 160, 2, True)])
    users = [cast["owner"], cast["admin"]] * 4
    barrier = threading.Barrier(len(users))
    answers, errors = [], []

    # Logged in one after another: only the closes are at once.
    clients = [Client() for _user in users]
    for client, user in zip(clients, users, strict=True):
        client.force_login(user)

    def close(client):
        try:
            barrier.wait(timeout=60)
            response = client.post(close_url(league, season), follow=True)
            answers.append((response.status_code, response.content.decode()))
        except Exception as error:  # a 500: the test client re-raises the view's error
            errors.append(error)
            barrier.abort()  # the others must not wait for this one for ever
        finally:
            connections.close_all()

    threads = [threading.Thread(target=close, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [status for status, _page in answers] == [200] * len(users)
    closed = [page for _status, page in answers if "standings are final" in page]
    already = [page for _status, page in answers if "already closed" in page]
    assert (len(closed), len(already)) == (1, len(users) - 1)
    season.refresh_from_db()
    assert season.status == Season.Status.CLOSED
    assert list(season.champions.all()) == [cast["member"]]
