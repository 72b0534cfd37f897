import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from leagues.access import get_league_for_member, membership_for, require_league_admin


def test_membership_for(cast, league):
    assert membership_for(cast["owner"], league).role == "owner"
    assert membership_for(cast["outsider"], league) is None
    assert membership_for(AnonymousUser(), league) is None


def test_get_league_for_member(cast, league, public_league):
    assert get_league_for_member(cast["member"], league.slug) == league
    with pytest.raises(Http404):
        get_league_for_member(cast["outsider"], league.slug)
    with pytest.raises(Http404):
        get_league_for_member(cast["owner"], "no-such-league")
    assert get_league_for_member(cast["outsider"], public_league.slug) == public_league
    with pytest.raises(Http404):
        get_league_for_member(AnonymousUser(), public_league.slug)


@pytest.mark.parametrize(
    "role, allowed", [("owner", True), ("admin", True), ("member", False), ("outsider", False)]
)
def test_require_league_admin(cast, league, role, allowed):
    if allowed:
        assert require_league_admin(cast[role], league).is_admin
    else:
        with pytest.raises(PermissionDenied):
            require_league_admin(cast[role], league)
