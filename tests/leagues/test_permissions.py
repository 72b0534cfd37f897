"""Every league view × owner, admin, member, outsider, anonymous, for a private and a
public league. Private leagues are 404 to outsiders; management is 403 to members."""

import datetime

import pytest
from django.urls import reverse

from leagues.models import Invite, Season
from rummy.models import Game
from tests.cast import ROLES

from .conftest import make_game, make_season

VIEW = {"owner": 200, "admin": 200, "member": 200, "outsider": 404}
ADMIN_VIEW = {"owner": 200, "admin": 200, "member": 403, "outsider": 404}
ADMIN_ACTION = {"owner": 302, "admin": 302, "member": 403, "outsider": 404}
OWNER_ACTION = {"owner": 302, "admin": 403, "member": 403, "outsider": 404}
MEMBER_ACTION = {"owner": 302, "admin": 302, "member": 302, "outsider": 404}

# On a public league, outsiders see what members see, and get 403 where members do.
PUBLIC_OUTSIDER = {
    id(VIEW): 200,
    id(ADMIN_VIEW): 403,
    id(ADMIN_ACTION): 403,
    id(OWNER_ACTION): 403,
}

# (name, method, url(world), data(world), expectations)
CASES = [
    ("detail", "get", lambda w: reverse("leagues:detail", args=[w["slug"]]), None, VIEW),
    ("seasons", "get", lambda w: reverse("leagues:seasons", args=[w["slug"]]), None, VIEW),
    ("season", "get", lambda w: w["season"].get_absolute_url(), None, VIEW),
    ("members", "get", lambda w: reverse("leagues:members", args=[w["slug"]]), None, ADMIN_VIEW),
    ("invites", "get", lambda w: reverse("leagues:invites", args=[w["slug"]]), None, ADMIN_VIEW),
    (
        "admin_record",
        "get",
        lambda w: reverse("leagues:admin_record", args=[w["slug"]]),
        None,
        ADMIN_VIEW,
    ),
    (
        "invite_create",
        "post",
        lambda w: reverse("leagues:invites", args=[w["slug"]]),
        lambda w: {"valid_days": "3", "max_uses": "2"},
        ADMIN_ACTION,
    ),
    (
        "revoke_invite",
        "post",
        lambda w: reverse("leagues:revoke_invite", args=[w["slug"], w["invite"].pk]),
        None,
        ADMIN_ACTION,
    ),
    (
        "remove_member",
        "post",
        lambda w: reverse("leagues:remove_member", args=[w["slug"], w["target"].pk]),
        None,
        ADMIN_ACTION,
    ),
    (
        "set_role",
        "post",
        lambda w: reverse("leagues:set_role", args=[w["slug"], w["target"].pk]),
        lambda w: {"role": "admin"},
        OWNER_ACTION,
    ),
    (
        "season_create_form",
        "get",
        lambda w: reverse("leagues:season_create", args=[w["slug"]]),
        None,
        ADMIN_VIEW,
    ),
    (
        "season_create",
        "post",
        lambda w: reverse("leagues:season_create", args=[w["slug"]]),
        lambda w: {
            "name": "Autumn",
            "starts_on": "2026-09-01",
            "ends_on": "2026-11-30",
            "target_score": "150",
            "knock_limit": "5",
            "turn_seconds": "86400",
        },
        ADMIN_ACTION,
    ),
    (
        "season_start",
        "post",
        lambda w: reverse("leagues:season_start", args=[w["slug"], w["planned"].pk]),
        None,
        ADMIN_ACTION,
    ),
    (
        "season_close",
        "post",
        lambda w: reverse("leagues:season_close", args=[w["slug"], w["season"].pk]),
        None,
        ADMIN_ACTION,
    ),
    (
        "void_game",
        "post",
        lambda w: reverse("leagues:void_game", args=[w["slug"], w["season"].pk, w["game"].pk]),
        None,
        ADMIN_ACTION,
    ),
    (
        "scheduled_season",
        "get",
        lambda w: w["scheduled"].get_absolute_url(),
        None,
        VIEW,
    ),
    (
        "scheduled_season_create",
        "post",
        lambda w: reverse("leagues:season_create", args=[w["slug"]]),
        lambda w: {
            "name": "Scheduled autumn",
            "starts_on": "2028-09-01",
            "ends_on": "2028-11-30",
            "target_score": "150",
            "knock_limit": "5",
            "turn_seconds": "86400",
            "format": "scheduled",
            "games_each": "2",
            "table_size": "3",
            "round_start": "dates",
            "round_days": "7",
            "leaver_games": "void",
        },
        ADMIN_ACTION,
    ),
    (
        "scheduled_season_start",
        "post",
        lambda w: reverse("leagues:season_start", args=[w["slug"], w["scheduled"].pk]),
        None,
        ADMIN_ACTION,
    ),
    ("leave", "post", lambda w: reverse("leagues:leave", args=[w["slug"]]), None, MEMBER_ACTION),
    ("join", "post", lambda w: reverse("leagues:join", args=[w["slug"]]), None, MEMBER_ACTION),
]


def _world(league, cast):
    season = make_season(league)
    planned = make_season(
        league, status=Season.Status.PLANNED, start=datetime.date(2026, 1, 1), name="Next"
    )
    game = make_game(
        league,
        season,
        [(cast["owner"], 0, 0, False), (cast["member"], 0, 0, False)],
        status=Game.Status.ACTIVE,
    )
    scheduled = make_season(
        league,
        status=Season.Status.PLANNED,
        start=datetime.date(2027, 1, 1),
        name="Scheduled",
        format=Season.Format.SCHEDULED,
        games_each=2,
        table_size=3,
        round_start=Season.RoundStart.AFTER_PREVIOUS,
        leaver_games=Season.LeaverGames.STAND_IN,
    )
    return {
        "slug": league.slug,
        "season": season,
        "scheduled": scheduled,
        "planned": planned,
        "game": game,
        "invite": Invite.objects.create(league=league, created_by=cast["owner"]),
        "target": league.memberships.get(user=cast["member"]),
    }


def _request(client, method, url, data):
    return client.get(url) if method == "get" else client.post(url, data or {})


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_private_league_matrix(client, cast, league, role, case):
    name, method, url, data, expected = case
    world = _world(league, cast)
    client.force_login(cast[role])
    response = _request(client, method, url(world), data(world) if data else None)
    assert response.status_code == expected[role], (name, role)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_public_league_matrix(client, cast, public_league, role, case):
    name, method, url, data, expected = case
    world = _world(public_league, cast)
    client.force_login(cast[role])
    response = _request(client, method, url(world), data(world) if data else None)
    if role == "outsider":
        # join and leave are open to any signed-in user of a public league (leave then
        # refuses with a message: not a member); the rest as PUBLIC_OUTSIDER says.
        want = 302 if name in ("join", "leave") else PUBLIC_OUTSIDER[id(expected)]
    else:
        want = expected[role]
    assert response.status_code == want, (name, role)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_anonymous_is_sent_to_login(client, cast, league, case):
    _name, method, url, data, _expected = case
    world = _world(league, cast)
    target = url(world)
    response = _request(client, method, target, data(world) if data else None)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert "next=" in response["Location"]


@pytest.mark.parametrize(
    "case",
    # A form's page and closing a season's confirmation answer GET (changing nothing).
    [
        c
        for c in CASES
        if c[1] == "post"
        and c[0]
        not in ("invite_create", "season_create", "scheduled_season_create", "season_close")
    ],
    ids=lambda c: c[0],
)
def test_state_changes_refuse_get(client, cast, league, case):
    _name, _method, url, _data, _expected = case
    world = _world(league, cast)
    client.force_login(cast["owner"])
    assert client.get(url(world)).status_code == 405


@pytest.mark.parametrize("name", ["leagues:list", "leagues:create", "home"])
def test_account_level_pages(client, cast, name):
    assert client.get(reverse(name)).status_code in (200, 302)
    client.force_login(cast["outsider"])
    assert client.get(reverse(name)).status_code == 200


def test_invite_page_is_visible_to_outsiders_of_private_league(client, cast, league):
    invite = Invite.objects.create(league=league, created_by=cast["owner"])
    client.force_login(cast["outsider"])
    response = client.get(invite.get_absolute_url())
    assert response.status_code == 200
    assert league.name in response.content.decode()


def test_private_league_games_and_seasons_hidden_from_outsider(client, cast, league):
    world = _world(league, cast)
    client.force_login(cast["outsider"])
    assert client.get(reverse("leagues:detail", args=[league.slug])).status_code == 404
    assert client.get(world["season"].get_absolute_url()).status_code == 404
