from django.core.management import call_command

from leagues.demo import DEMO_PASSWORD, create_demo_people
from leagues.models import League, Membership, Season, User


def test_load_demo_is_idempotent(db, client):
    call_command("load_demo")
    counts = (
        User.objects.count(),
        League.objects.count(),
        Membership.objects.count(),
        Season.objects.count(),
    )
    call_command("load_demo")
    assert counts == (
        User.objects.count(),
        League.objects.count(),
        Membership.objects.count(),
        Season.objects.count(),
    )
    assert counts == (4, 2, 6, 1)


def test_demo_people_and_leagues(db, client):
    users, league = create_demo_people()
    assert set(users) == {"alice", "bob", "carol", "dave"}
    assert league.name == "Riga Rummy Club" and league.is_public
    roles = dict(league.memberships.values_list("user__username", "role"))
    assert roles == {"alice": "owner", "bob": "admin", "carol": "member", "dave": "member"}
    assert league.active_season() is not None
    assert League.objects.filter(visibility=League.Visibility.INVITE).exists()
    assert users["bob"].display_name == "Bob"
    response = client.post("/accounts/login/", {"username": "alice", "password": DEMO_PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in client.session
    client.force_login(users["dave"])
    assert client.get(league.get_absolute_url()).status_code == 200
