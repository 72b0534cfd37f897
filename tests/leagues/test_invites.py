import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from leagues.models import Invite


def without_tokens(page):
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", page)


def msg(response):
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def test_admin_creates_invite_with_expiry_and_limit(client, cast, league):
    client.force_login(cast["admin"])
    response = client.post(
        reverse("leagues:invites", args=[league.slug]), {"valid_days": "7", "max_uses": "3"}
    )
    assert response.status_code == 302
    invite = league.invites.get()
    assert invite.max_uses == 3 and invite.created_by == cast["admin"]
    assert timedelta(days=6) < invite.expires_at - timezone.now() <= timedelta(days=7)
    assert len(invite.token) >= 32
    listing = client.get(reverse("leagues:invites", args=[league.slug]))
    assert invite.token in listing.content.decode()


def test_invite_form_rejects_bad_input(client, cast, league):
    client.force_login(cast["owner"])
    response = client.post(
        reverse("leagues:invites", args=[league.slug]), {"valid_days": "-1", "max_uses": "zero"}
    )
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"valid_days", "max_uses"}
    assert not league.invites.exists()


def test_tokens_are_unique_and_unguessable(cast, league):
    tokens = {Invite.objects.create(league=league).token for _ in range(20)}
    assert len(tokens) == 20


def test_join_with_invite(client, cast, league):
    invite = Invite.objects.create(league=league, max_uses=2)
    client.force_login(cast["outsider"])
    assert client.get(invite.get_absolute_url()).status_code == 200
    response = client.post(invite.get_absolute_url())
    assert response["Location"] == league.get_absolute_url()
    assert league.memberships.get(user=cast["outsider"]).role == "member"
    invite.refresh_from_db()
    assert invite.uses == 1


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"revoked_at": timezone.now()}, "revoked"),
        ({"expires_at": timezone.now() - timedelta(minutes=1)}, "expired"),
        ({"max_uses": 1, "uses": 1}, "as many times as allowed"),
    ],
)
def test_unusable_invites_change_nothing_and_do_not_name_the_league(
    client, cast, league, fields, words
):
    league.description = "Secret Tuesday games at Anna's."
    league.save()
    invite = Invite.objects.create(league=league, **fields)
    client.force_login(cast["outsider"])
    # The same answer as for a link that never existed.
    never = client.get(reverse("leagues:join_invite", args=["never-was-a-token"]))
    assert never.status_code == 404 and "cannot be used" in never.content.decode()
    for response in (client.get(invite.get_absolute_url()), client.post(invite.get_absolute_url())):
        page = response.content.decode()
        assert response.status_code == 404
        assert league.name not in page and "Secret Tuesday" not in page
        assert without_tokens(page.replace(invite.token, "T")) == without_tokens(
            never.content.decode().replace("never-was-a-token", "T")
        )
    assert not league.memberships.filter(user=cast["outsider"]).exists()
    uses = invite.uses
    invite.refresh_from_db()
    assert invite.uses == uses


def test_a_member_opening_an_unusable_link_is_sent_to_the_league(client, cast, league):
    invite = Invite.objects.create(league=league, revoked_at=timezone.now())
    client.force_login(cast["member"])
    response = client.get(invite.get_absolute_url())
    assert response["Location"] == league.get_absolute_url()
    assert "already a member" in msg(response)


def test_member_using_invite_does_not_use_it_up(client, cast, league):
    invite = Invite.objects.create(league=league, max_uses=1)
    client.force_login(cast["member"])
    response = client.post(invite.get_absolute_url())
    assert "already a member" in msg(response)
    invite.refresh_from_db()
    assert invite.uses == 0


def test_unknown_token_is_404(client, cast):
    client.force_login(cast["outsider"])
    assert client.get(reverse("leagues:join_invite", args=["nope"])).status_code == 404


def test_anonymous_invite_link_shows_the_league_and_keeps_the_invitation(client, cast, league):
    invite = Invite.objects.create(league=league)
    response = client.get(invite.get_absolute_url())
    assert response.status_code == 200 and league.name in response.content.decode()
    # Log-in without a ``next`` still comes back to the link (tests/leagues/test_invite_signup.py).
    assert league.name in client.get(reverse("login")).content.decode()


def test_revoke_invite(client, cast, league):
    invite = Invite.objects.create(league=league)
    client.force_login(cast["admin"])
    url = reverse("leagues:revoke_invite", args=[league.slug, invite.pk])
    client.post(url)
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    first = invite.revoked_at
    assert "already revoked" in msg(client.post(url))
    invite.refresh_from_db()
    assert invite.revoked_at == first


def test_last_use_race_is_refused(cast, league):
    """The conditional update refuses a use that another join took in the meantime."""
    from leagues import services

    invite = Invite.objects.create(league=league, max_uses=1)
    stale = Invite.objects.get(pk=invite.pk)
    services.join_by_invite(cast["outsider"], invite)
    from tests.cast import make_person

    late = make_person("erin")
    with pytest.raises(services.LeagueError):
        services.join_by_invite(late, stale)  # stale copy still says uses=0
    assert not league.memberships.filter(user=late).exists()
