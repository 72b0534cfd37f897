"""Demo people and leagues for a fresh install (``manage.py load_demo``). Idempotent:
running it again finds what is there and creates only what is missing."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from leagues.models import League, Membership, Season, User

DEMO_PASSWORD = "carousel-demo"
PEOPLE = [
    ("alice", "Alice"),
    ("bob", "Bob"),
    ("carol", "Carol"),
    ("dave", "Dave"),
]


def _user(username, display_name):
    user, created = User.objects.get_or_create(
        username=username,
        defaults={"display_name": display_name, "email": f"{username}@example.com"},
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


def _member(league, user, role):
    Membership.objects.get_or_create(league=league, user=user, defaults={"role": role})


@transaction.atomic
def create_demo_people():
    """Create (or find) the demo users and leagues.

    Returns ``(users, league)``: users is a dict by username (alice, bob, carol, dave),
    league is the public "Riga Rummy Club" with an active season, owned by alice, bob
    an admin, carol and dave members. An invite-only league "Tallinn Tuesday" (owner
    carol, alice a member) is created too.
    """
    users = {username: _user(username, name) for username, name in PEOPLE}
    league, _created = League.objects.get_or_create(
        slug="riga-rummy-club",
        defaults={
            "name": "Riga Rummy Club",
            "description": "Friendly Carousel games, one turn at a time.",
            "visibility": League.Visibility.PUBLIC,
        },
    )
    _member(league, users["alice"], Membership.Role.OWNER)
    _member(league, users["bob"], Membership.Role.ADMIN)
    _member(league, users["carol"], Membership.Role.MEMBER)
    _member(league, users["dave"], Membership.Role.MEMBER)
    if not league.seasons.exists():
        today = timezone.localdate()
        Season.objects.create(
            league=league,
            name=f"Season {today.year}",
            starts_on=today - timedelta(days=7),
            ends_on=today + timedelta(days=83),
            status=Season.Status.ACTIVE,
            started_at=timezone.now(),
        )

    private, _created = League.objects.get_or_create(
        slug="tallinn-tuesday",
        defaults={
            "name": "Tallinn Tuesday",
            "description": "Invite only: Tuesday regulars.",
            "visibility": League.Visibility.INVITE,
        },
    )
    _member(private, users["carol"], Membership.Role.OWNER)
    _member(private, users["alice"], Membership.Role.MEMBER)
    return users, league
