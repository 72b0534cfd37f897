import re

from django.contrib.messages import get_messages
from django.urls import reverse

from leagues.models import League, Membership
from rummy.models import Game

from .conftest import make_game, make_season


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_create_league_makes_creator_owner(client, cast):
    client.force_login(cast["outsider"])
    response = client.post(
        reverse("leagues:create"),
        {"name": "Night Owls", "description": "Late games", "visibility": "public"},
    )
    league = League.objects.get(name="Night Owls")
    assert response["Location"] == league.get_absolute_url()
    assert re.fullmatch(r"night-owls-[a-z0-9]{6}", league.slug) and league.is_public
    assert league.memberships.get().role == Membership.Role.OWNER


def test_create_league_slug_is_unique_and_avoids_reserved(client, cast):
    client.force_login(cast["outsider"])
    for _ in range(2):
        client.post(reverse("leagues:create"), {"name": "New", "visibility": "invite"})
    slugs = list(League.objects.values_list("slug", flat=True))
    assert len(set(slugs)) == 2
    assert all(re.fullmatch(r"new-league-[a-z0-9]{6}", slug) for slug in slugs)


def test_create_league_needs_a_name(client, cast):
    client.force_login(cast["outsider"])
    response = client.post(reverse("leagues:create"), {"name": "  ", "visibility": "invite"})
    assert response.status_code == 200 and response.context["form"].errors
    assert not League.objects.exists()


def test_join_public_league(client, cast, public_league):
    client.force_login(cast["outsider"])
    response = client.post(reverse("leagues:join", args=[public_league.slug]))
    assert response.status_code == 302
    assert public_league.memberships.get(user=cast["outsider"]).role == "member"


def test_duplicate_join_is_refused_with_message(client, cast, public_league):
    client.force_login(cast["member"])
    response = client.post(reverse("leagues:join", args=[public_league.slug]))
    assert "already a member" in messages_of(response)[0]
    assert public_league.memberships.filter(user=cast["member"]).count() == 1


def test_cannot_join_invite_only_league_directly(client, cast, league):
    # Members of a private league who try to "join" get a message; outsiders a 404.
    client.force_login(cast["member"])
    response = client.post(reverse("leagues:join", args=[league.slug]))
    assert response.status_code == 302
    client.force_login(cast["outsider"])
    assert client.post(reverse("leagues:join", args=[league.slug])).status_code == 404
    assert not league.memberships.filter(user=cast["outsider"]).exists()


def test_member_leaves(client, cast, league):
    client.force_login(cast["member"])
    response = client.post(reverse("leagues:leave", args=[league.slug]))
    assert response["Location"] == reverse("leagues:list")
    assert not league.memberships.filter(user=cast["member"]).exists()


def test_only_owner_cannot_leave(client, cast, league):
    client.force_login(cast["owner"])
    response = client.post(reverse("leagues:leave", args=[league.slug]))
    assert "only owner" in messages_of(response)[0]
    assert league.memberships.filter(user=cast["owner"]).exists()


def test_co_owner_may_leave(client, cast, league):
    Membership.objects.filter(league=league, user=cast["admin"]).update(role="owner")
    client.force_login(cast["owner"])
    client.post(reverse("leagues:leave", args=[league.slug]))
    assert not league.memberships.filter(user=cast["owner"]).exists()


def test_league_list_shows_mine_and_joinable(client, cast, league, public_league):
    client.force_login(cast["outsider"])
    response = client.get(reverse("leagues:list"))
    assert list(response.context["public"]) == [public_league]
    assert list(response.context["mine"]) == []
    assert league.name not in response.content.decode()


def test_league_page_lists_season_tables_games_results_members(client, cast, league):
    season = make_season(league, name="Spring")
    open_table = make_game(league, None, [(cast["owner"], 0, 0, False)], status=Game.Status.OPEN)
    running = make_game(league, season, [(cast["admin"], 0, 0, False)], status=Game.Status.ACTIVE)
    done = make_game(
        league, season, [(cast["member"], 150, 2, True), (cast["owner"], 20, 0, False)]
    )
    voided = make_game(league, season, [(cast["member"], 0, 0, False)], status=Game.Status.VOIDED)
    client.force_login(cast["member"])
    response = client.get(league.get_absolute_url())
    ctx = response.context
    assert ctx["season"] == season
    assert list(ctx["open_tables"]) == [open_table]
    assert list(ctx["games_in_progress"]) == [running]
    assert list(ctx["recent_results"]) == [done]
    assert voided not in ctx["recent_results"]
    assert [row["username"] for row in ctx["standings"]] == ["carol", "alice"]
    page = response.content.decode()
    assert "Spring" in page and "Bob" in page
    assert open_table.get_absolute_url() in page and running.get_absolute_url() in page
    assert "games won, then total game points, then rounds won" in page


def test_public_league_outsider_sees_tables_without_controls(client, cast, public_league):
    running = make_game(
        public_league, None, [(cast["owner"], 0, 0, False)], status=Game.Status.ACTIVE
    )
    client.force_login(cast["outsider"])
    page = client.get(public_league.get_absolute_url()).content.decode()
    assert running.get_absolute_url() in page
    assert "Join this league" in page and "Leave league" not in page


def test_a_new_leagues_address_does_not_reveal_a_private_league_of_that_name(client, cast, league):
    # ``league`` ("Private-Club", invite-only) exists; an outsider creates one with the
    # same name and one with a name no league has: both addresses look alike.
    client.force_login(cast["outsider"])
    same = client.post(reverse("leagues:create"), {"name": league.name, "visibility": "invite"})
    fresh = client.post(reverse("leagues:create"), {"name": "Lonely Name", "visibility": "invite"})
    assert same.status_code == fresh.status_code == 302
    assert re.fullmatch(r"/leagues/private-club-[a-z0-9]{6}/", same["Location"])
    assert re.fullmatch(r"/leagues/lonely-name-[a-z0-9]{6}/", fresh["Location"])
    assert League.objects.filter(name=league.name).count() == 2
