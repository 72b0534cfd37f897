from django.contrib.messages import get_messages
from django.urls import reverse

from leagues.standings import compute_standings

from .conftest import make_game, make_season


def remove(client, league, user):
    membership = league.memberships.get(user=user)
    return client.post(reverse("leagues:remove_member", args=[league.slug, membership.pk]))


def msg(response):
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def test_members_page_lists_everyone(client, cast, league):
    client.force_login(cast["admin"])
    response = client.get(reverse("leagues:members", args=[league.slug]))
    assert {m.user.username for m in response.context["memberships"]} == {"alice", "bob", "carol"}


def test_admin_removes_member_and_their_results_stay(client, cast, league):
    season = make_season(league)
    game = make_game(
        league, season, [(cast["member"], 150, 2, True), (cast["owner"], 30, 1, False)]
    )
    client.force_login(cast["admin"])
    response = remove(client, league, cast["member"])
    assert "no longer a member" in msg(response)
    assert not league.memberships.filter(user=cast["member"]).exists()
    assert game.seats.filter(user=cast["member"], final_score=150).exists()
    assert compute_standings(season)[0]["username"] == "carol"


def test_admin_cannot_remove_owner(client, cast, league):
    client.force_login(cast["admin"])
    response = remove(client, league, cast["owner"])
    assert "owner cannot be removed" in msg(response)
    assert league.memberships.filter(user=cast["owner"]).exists()


def test_admin_cannot_remove_another_admin_but_owner_can(client, cast, league):
    league.memberships.filter(user=cast["member"]).update(role="admin")
    client.force_login(cast["admin"])
    assert "Only an owner" in msg(remove(client, league, cast["member"]))
    assert league.memberships.filter(user=cast["member"]).exists()
    client.force_login(cast["owner"])
    remove(client, league, cast["admin"])
    assert not league.memberships.filter(user=cast["admin"]).exists()


def test_cannot_remove_yourself(client, cast, league):
    client.force_login(cast["admin"])
    assert "Leave league" in msg(remove(client, league, cast["admin"]))
    assert league.memberships.filter(user=cast["admin"]).exists()


def test_remove_unknown_membership_is_404(client, cast, league, public_league):
    other = public_league.memberships.get(user=cast["member"])
    client.force_login(cast["owner"])
    url = reverse("leagues:remove_member", args=[league.slug, other.pk])
    assert client.post(url).status_code == 404
    assert public_league.memberships.filter(pk=other.pk).exists()


def test_owner_sets_roles(client, cast, league):
    target = league.memberships.get(user=cast["member"])
    client.force_login(cast["owner"])
    client.post(reverse("leagues:set_role", args=[league.slug, target.pk]), {"role": "admin"})
    target.refresh_from_db()
    assert target.role == "admin"
    response = client.post(
        reverse("leagues:set_role", args=[league.slug, target.pk]), {"role": "emperor"}
    )
    assert "choose a role" in msg(response)
    target.refresh_from_db()
    assert target.role == "admin"


def test_only_owner_cannot_demote_themselves(client, cast, league):
    own = league.memberships.get(user=cast["owner"])
    client.force_login(cast["owner"])
    response = client.post(
        reverse("leagues:set_role", args=[league.slug, own.pk]), {"role": "member"}
    )
    assert "only owner" in msg(response)
    own.refresh_from_db()
    assert own.role == "owner"
