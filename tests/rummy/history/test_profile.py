"""A player's profile: their finished games (league, date, players, placement, score),
a page at a time and narrowed to a league or a season, and their figures; as far as
the viewer may see, in a fixed number of queries however many games."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rummy import engine
from rummy.models import Game, Round
from tests.factories import make_league, make_season
from tests.rummy.history.conftest import new_game, play_out

pytestmark = pytest.mark.django_db


def played(players, league, n, seed=0, season=None, target=30):
    games = []
    for i in range(n):
        game = new_game(players, league, seed=seed + i, target=target)
        if season is not None:
            Game.objects.filter(pk=game.pk).update(season=season)
        games.append(play_out(game, random.Random(seed + i)))
    return games


def profile(client, viewer, username, query=""):
    client.force_login(viewer)
    response = client.get(reverse("profile", args=[username]) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_figures_add_up_the_players_rounds(client, cast, league, seeded_deals):
    games = played([cast.alice, cast.bob], league, 3)
    rounds = Round.objects.filter(game__in=games)
    seat = 0  # alice hosts: seat 0 in every game
    knocks = sum(r.knocker == seat for r in rounds)
    undercut = sum(r.knocker == seat and seat not in r.winners for r in rounds)
    out = sum(r.reason == "going_out" and r.hands[seat] == "" for r in rounds)
    won = sum(seat in r.winners for r in rounds)
    counts = [engine.hand_points(engine.parse_cards(r.hands[seat])) for r in rounds]
    html = profile(client, cast.carol, "alice")
    games_won = sum(g.seats.get(number=0).is_winner for g in games)
    assert f"{games_won} game{'s' if games_won != 1 else ''} won of 3" in html
    assert f"won of {rounds.count()}" in html and f"{won} round" in html
    assert f"{knocks} knock" in html
    assert f"undercut {undercut} time" in html
    assert f"Went out {out} time" in html
    assert f"end: {round(sum(counts) / len(counts), 1)}" in html


def test_each_game_shows_its_players_place_and_score_linking_its_sheet(
    client, cast, league, seeded_deals
):
    (game,) = played([cast.alice, cast.bob], league, 1)
    alice = game.seats.get(number=0)
    html = profile(client, cast.carol, "alice")
    assert reverse("rummy:record", args=[game.pk]) in html
    assert "Alice, Bob" in html
    place = 1 if alice.is_winner else 2
    assert f"{place} of 2" in html
    assert f">{alice.final_score}<" in html


def test_games_are_paged(client, cast, league, seeded_deals, monkeypatch):
    monkeypatch.setattr("leagues.views.accounts.GAMES_PER_PAGE", 2)
    games = played([cast.alice, cast.bob], league, 3, target=20)
    first = profile(client, cast.carol, "alice")
    second = profile(client, cast.carol, "alice", "?page=2")
    newest, oldest = games[-1], games[0]
    assert reverse("rummy:record", args=[newest.pk]) in first
    assert reverse("rummy:record", args=[oldest.pk]) not in first
    assert reverse("rummy:record", args=[oldest.pk]) in second
    assert "Page 2 of 2" in second
    # A page that is not a number, or past the end, still answers with games.
    assert "Page 1 of 2" in profile(client, cast.carol, "alice", "?page=x")
    assert "Page 2 of 2" in profile(client, cast.carol, "alice", "?page=99")


def test_games_filter_by_league_and_season(client, cast, league, seeded_deals):
    other = make_league(cast.alice, members=[cast.bob, cast.carol], name="Second Club")
    no_season = played([cast.alice, cast.bob], league, 1, seed=5)[0]
    season = make_season(league, name="Spring")  # active: the next game counts for it
    in_season = played([cast.alice, cast.bob], league, 1, season=season)[0]
    elsewhere = played([cast.alice, cast.bob], other, 1, seed=9)[0]

    def shown(query):
        html = profile(client, cast.carol, "alice", query)
        return {
            g.pk
            for g in (in_season, no_season, elsewhere)
            if reverse("rummy:record", args=[g.pk]) in html
        }

    assert shown("") == {in_season.pk, no_season.pk, elsewhere.pk}
    assert shown(f"?league={other.slug}") == {elsewhere.pk}
    assert shown(f"?season={season.pk}") == {in_season.pk}
    assert shown(f"?league={league.slug}&season={season.pk}") == {in_season.pk}
    # The figures follow the filter.
    html = profile(client, cast.carol, "alice", f"?league={other.slug}")
    assert "won of 1" in html


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("?league=nope", "There is no such league among this player"),
        ("?season=abc", "There is no such season"),
        ("?season=999999", "There is no such season"),
    ],
)
def test_bad_filters_are_named_and_ignored(client, cast, league, seeded_deals, query, words):
    (game,) = played([cast.alice, cast.bob], league, 1)
    html = profile(client, cast.carol, "alice", query)
    assert words in html
    assert reverse("rummy:record", args=[game.pk]) in html  # shown unfiltered


def test_a_private_leagues_games_stay_hidden_from_outsiders(client, cast, league, seeded_deals):
    (game,) = played([cast.alice, cast.bob], league, 1)
    html = profile(client, cast.dave, "alice")
    assert reverse("rummy:record", args=[game.pk]) not in html
    assert f"?league={league.slug}" not in html and league.slug not in html
    # Asking for it by name says nothing more.
    assert "There is no such league" in profile(
        client, cast.dave, "alice", f"?league={league.slug}"
    )


def test_the_profile_runs_a_fixed_number_of_queries(
    client, cast, league, seeded_deals, django_assert_max_num_queries
):
    played([cast.alice, cast.bob], league, 1)
    client.force_login(cast.carol)
    url = reverse("profile", args=["alice"])
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    played([cast.alice, cast.bob], league, 4, seed=20, target=20)
    with django_assert_max_num_queries(len(few)):
        assert client.get(url).status_code == 200
