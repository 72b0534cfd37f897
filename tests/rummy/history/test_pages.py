"""The history pages and downloads: who may open them (the authorization matrix of
every new route), bad input answered clearly (never a 5xx), what the score sheet and a
replay step show, and that each runs a fixed number of queries however long the game."""

import csv
import io
import json
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import Membership
from rummy import play
from rummy.engine import vectors
from rummy.models import Game, Round
from rummy.table import memory
from tests.factories import make_season
from tests.rummy.history.conftest import new_game, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(cast, league, seeded_deals):
    """Alice (seat 0) and Bob (seat 1) played a game of several rounds to the end."""
    season = make_season(league)
    game = new_game([cast.alice, cast.bob], league, seed=4, target=60)
    Game.objects.filter(pk=game.pk).update(season=season)
    return play_out(game, random.Random(4))


@pytest.fixture
def running(cast, league, seeded_deals):
    game = new_game([cast.alice, cast.bob], league, seed=8, target=500)
    return play_out(game, random.Random(8), stop=lambda g: g.rounds.count() >= 1)


def get(client, user, url, **headers):
    if user is not None:
        client.force_login(user)
    return client.get(url, headers=headers)


GAME_ROUTES = ["rummy:record", "rummy:replay", "rummy:record_json"]


@pytest.mark.parametrize("route", GAME_ROUTES)
@pytest.mark.parametrize(
    ("who", "status"), [("alice", 200), ("bob", 200), ("carol", 200), ("dave", 404)]
)
def test_a_private_leagues_game_history_is_for_its_members(
    client, cast, finished, route, who, status
):
    assert get(client, cast[who], reverse(route, args=[finished.pk])).status_code == status


@pytest.mark.parametrize("route", GAME_ROUTES + ["rummy:season_games", "rummy:season_results"])
def test_anonymous_visitors_are_sent_to_log_in(client, finished, route):
    arg = finished.season_id if route.startswith("rummy:season") else finished.pk
    response = client.get(reverse(route, args=[arg]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize("route", GAME_ROUTES)
def test_a_game_that_does_not_exist_is_404(client, cast, route):
    assert get(client, cast.alice, reverse(route, args=[999999])).status_code == 404


@pytest.mark.parametrize("route", ["rummy:season_games", "rummy:season_results"])
@pytest.mark.parametrize(
    ("who", "status"), [("alice", 200), ("bob", 200), ("carol", 403), ("dave", 404)]
)
def test_season_downloads_are_for_league_admins(client, cast, finished, route, who, status):
    response = get(client, cast[who], reverse(route, args=[finished.season_id]))
    assert response.status_code == status
    if status == 200:
        assert "attachment" in response["Content-Disposition"]


def test_a_public_leagues_game_history_is_open_to_signed_in_users(
    client, cast, public_league, seeded_deals
):
    game = new_game([cast.alice, cast.bob], public_league, seed=2, target=40)
    game = play_out(game, random.Random(2))
    for route in GAME_ROUTES:
        assert get(client, cast.dave, reverse(route, args=[game.pk])).status_code == 200
    season = make_season(public_league)
    assert (
        get(client, cast.dave, reverse("rummy:season_games", args=[season.pk])).status_code == 403
    )


def test_post_is_refused(client, cast, finished):
    client.force_login(cast.alice)
    for route in GAME_ROUTES:
        assert client.post(reverse(route, args=[finished.pk])).status_code == 405


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("?at=abc", 400, "is not a step number"),
        ("?at=-3", 404, "has no step -3"),
        ("?at=99999", 404, "has no step 99999"),
        ("?round=two", 400, "is not a round number"),
        ("?round=99", 404, "has no round 99"),
    ],
)
def test_bad_replay_positions_get_a_clear_answer(client, cast, finished, query, status, words):
    response = get(client, cast.carol, reverse("rummy:replay", args=[finished.pk]) + query)
    assert response.status_code == status
    assert words in response.content.decode()


def test_a_running_game_cannot_be_downloaded(client, cast, running):
    response = get(client, cast.alice, reverse("rummy:record_json", args=[running.pk]))
    assert response.status_code == 409
    assert "Only a finished game can be downloaded" in response.content.decode()
    assert 'data-card="' not in response.content.decode()


def test_an_open_table_has_an_empty_sheet_and_nothing_to_replay(client, cast, league):
    game = play.open_table(league, cast.alice, max_seats=3)
    assert (
        "has not started"
        in get(client, cast.carol, reverse("rummy:record", args=[game.pk])).content.decode()
    )
    response = get(client, cast.carol, reverse("rummy:replay", args=[game.pk]))
    assert response.status_code == 404
    assert "nothing to replay" in response.content.decode()


def test_the_score_sheet_has_every_round_with_running_totals_and_the_ranking(
    client, cast, finished
):
    html = get(client, cast.carol, reverse("rummy:record", args=[finished.pk])).content.decode()
    rounds = list(Round.objects.filter(game=finished))
    assert len(rounds) >= 2
    for r in rounds:
        assert f'data-round="{r.number}"' in html
    totals = [sum(r.points[n] for r in rounds) for n in range(2)]
    state = finished.engine_state()
    assert totals == state.scores
    assert 'id="final-ranking"' in html
    for n, final in enumerate(state.final_scores):
        assert f"<strong>{final}</strong>" in html
        assert f"+{25 * state.rounds_won[n]}" in html
    # Each round's revealed hands, as the log dealt them.
    for r in rounds:
        for hand in r.hands:
            for card in hand.split():
                assert f'data-revealed-card="{card}"' in html
    assert "dealt by" in html


def test_a_running_games_sheet_shows_the_round_in_play(client, cast, running):
    html = get(client, cast.carol, reverse("rummy:record", args=[running.pk])).content.decode()
    assert 'id="current-round"' in html
    assert 'id="final-ranking"' not in html


def test_the_replay_steps_through_the_game(client, cast, finished):
    url = reverse("rummy:replay", args=[finished.pk])
    first = get(client, cast.carol, url).content.decode()
    assert "dealt." in first  # the first step is the deal
    assert 'id="step-previous" aria-disabled="true"' in first
    last = get(client, cast.carol, f"{url}?at={finished.version}").content.decode()
    assert 'id="step-next" aria-disabled="true"' in last
    assert 'id="replay-final"' in last
    fragment = get(client, cast.carol, f"{url}?round=2", **{"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<div id="replay"')
    assert "<html" not in fragment
    assert "Round 2: " in fragment


def test_the_downloaded_record_passes_the_vector_runner(client, cast, finished, tmp_path):
    response = get(client, cast.carol, reverse("rummy:record_json", args=[finished.pk]))
    assert response["Content-Type"] == "application/json"
    path = tmp_path / "game.json"
    path.write_bytes(response.content)
    with (tmp_path / "out.txt").open("w") as out:
        passed, failed = vectors.run_files([str(path)], out=out)
    assert failed == 0
    assert passed == Round.objects.filter(game=finished).count()


def test_the_seasons_games_download_one_json_line_per_game(client, cast, finished, tmp_path):
    response = get(client, cast.bob, reverse("rummy:season_games", args=[finished.season_id]))
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert line["game"] == finished.pk
    assert [p["username"] for p in line["players"]] == ["alice", "bob"]
    assert sorted(p["place"] for p in line["players"]) in ([1, 2], [1, 1])
    path = tmp_path / "g.json"
    path.write_text(json.dumps(line["record"]))
    with (tmp_path / "out.txt").open("w") as out:
        assert vectors.run_files([str(path)], out=out)[1] == 0


def test_the_seasons_results_download_as_csv(client, cast, finished):
    cast.bob.display_name = "=HYPERLINK(1)"
    cast.bob.save()
    response = get(client, cast.alice, reverse("rummy:season_results", args=[finished.season_id]))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:4] == ["game", "finished_at", "seat", "username"]
    assert len(rows) == 3
    by_user = {row[3]: row for row in rows[1:]}
    assert by_user["bob"][4] == "'=HYPERLINK(1)"  # never a formula in a spreadsheet
    seats = {s.user.username: s for s in finished.seats.select_related("user")}
    assert int(by_user["alice"][5]) == seats["alice"].final_score


def _queries(client, url):
    memory.clear_all()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_sheet_and_replay_step_queries_do_not_grow_with_the_game(
    client, cast, league, seeded_deals
):
    short = play_out(new_game([cast.alice, cast.bob], league, seed=1, target=30), random.Random(1))
    long = play_out(new_game([cast.alice, cast.bob], league, seed=1, target=150), random.Random(1))
    assert long.rounds.count() > short.rounds.count() + 2
    client.force_login(cast.carol)
    for route in ("rummy:record", "rummy:replay"):
        assert _queries(client, reverse(route, args=[short.pk])) == _queries(
            client, reverse(route, args=[long.pk])
        )
    late = reverse("rummy:replay", args=[long.pk]) + f"?at={long.version}"
    assert _queries(client, late) == _queries(client, reverse("rummy:replay", args=[short.pk]))


def test_a_removed_member_loses_the_history(client, cast, finished):
    Membership.objects.filter(user=cast.carol).delete()
    for route in GAME_ROUTES:
        assert get(client, cast.carol, reverse(route, args=[finished.pk])).status_code == 404


def test_the_game_league_and_season_pages_link_the_score_sheet(client, cast, finished):
    record = reverse("rummy:record", args=[finished.pk])
    client.force_login(cast.carol)
    league = finished.league
    for url in (
        finished.get_absolute_url(),
        league.get_absolute_url(),
        finished.season.get_absolute_url(),
    ):
        assert f'href="{record}"' in client.get(url).content.decode(), url
    downloads = reverse("rummy:season_games", args=[finished.season_id])
    assert downloads not in client.get(finished.season.get_absolute_url()).content.decode()
    client.force_login(cast.bob)
    assert downloads in client.get(finished.season.get_absolute_url()).content.decode()


def _round_rows(html):
    rows = re.findall(r'<li class="revealed seat-row[^"]*">.*?</li>', html, re.S)
    # Only the score sheet adds the running total.
    return [re.sub(r" · total \d+", "", row) for row in rows]


def test_a_rounds_rows_are_the_same_on_the_game_page_the_sheet_and_the_replay(
    client, cast, finished
):
    last = Round.objects.filter(game=finished).order_by("number").last()
    game_page = get(client, cast.alice, finished.get_absolute_url()).content.decode()
    shown = _round_rows(game_page.split('id="last-round"', 1)[1])
    assert (len(shown) == 2 and "data-revealed-card" in "".join(shown)) or last.hands == ["", ""]
    sheet = get(client, cast.alice, reverse("rummy:record", args=[finished.pk])).content.decode()
    section = sheet.split(f'id="round-{last.number}"', 1)[1]
    assert _round_rows(section)[:2] == shown
    assert " · total " in section.split("</section>", 1)[0]
    url = reverse("rummy:replay", args=[finished.pk])
    replay = get(client, cast.alice, f"{url}?at={finished.version}").content.decode()
    assert _round_rows(replay.split('id="round-result"', 1)[1]) == shown
