"""The season setting "games with bots count toward the standings": off by
default, a finished game with a bot at a seat counts for nobody; on, it counts for
everyone at it, the bot's row marked as a bot."""

from django.urls import reverse

from leagues.standings import compute_standings
from rummy.models import Seat
from rummy.play.bot_seats import bot_user

from .conftest import make_game


def _games(cast, league, season):
    a, b = cast["owner"], cast["admin"]
    bot = bot_user("expert")
    with_bot = make_game(league, season, [(a, 170, 3, True), (bot, 60, 1, False)])
    Seat.objects.filter(game=with_bot, user=bot).update(bot_level="expert")
    make_game(league, season, [(b, 160, 2, True), (a, 20, 0, False)])
    return bot


def test_by_default_games_with_bots_count_for_nobody(cast, league, season):
    assert season.bot_games_count is False
    _games(cast, league, season)
    rows = {row["username"]: row for row in compute_standings(season)}
    assert set(rows) == {"alice", "bob"}
    assert (rows["alice"]["played"], rows["alice"]["won"]) == (1, 0)


def test_a_season_that_counts_them_ranks_everyone_at_them(client, cast, league, season):
    season.bot_games_count = True
    season.save()
    bot = _games(cast, league, season)
    rows = {row["username"]: row for row in compute_standings(season)}
    assert set(rows) == {"alice", "bob", bot.username}
    assert (rows["alice"]["played"], rows["alice"]["won"]) == (2, 1)
    assert rows[bot.username]["is_bot"] and rows[bot.username]["name"] == "Bot (expert)"
    client.force_login(cast["carol"])
    page = client.get(reverse("leagues:season", args=[league.slug, season.pk])).content.decode()
    assert "Bot (expert)" in page and 'class="bot-icon"' in page
    assert "Games with bots count toward the standings." in page


def test_a_bot_standing_in_does_not_make_a_game_with_bots(cast, league, season):
    a, b = cast["owner"], cast["admin"]
    game = make_game(league, season, [(a, 170, 3, True), (b, 60, 1, False)])
    Seat.objects.filter(game=game, user=b).update(stand_in=True)
    rows = {row["username"]: row for row in compute_standings(season)}
    assert rows["bob"]["played"] == 1
