"""The one cast of the whole suite: the same people in the same roles everywhere.

- Alice owns the league;
- Bob is an admin of it;
- Carol is a plain member;
- Dave is an outsider (a user, but not a member);
- ``anonymous`` is a visitor who is not logged in.

``cast`` (the fixture in ``tests/conftest.py``) gives them by name (``cast["alice"]``,
``cast.alice``) or by role (``cast["owner"]``); ``league`` and ``public_league`` are
one invite-only and one public league with Alice, Bob and Carol in those roles.
Modules that need many interchangeable players (random games, load) use
``tests.factories.make_user`` instead.
"""

from django.contrib.auth.models import AnonymousUser

from leagues.models import League, Membership, User

PASSWORD = "a-long-test-password-42"

# name -> role in the cast's leagues (None: not a member)
PEOPLE = {"alice": "owner", "bob": "admin", "carol": "member", "dave": None}
ROLES = {"owner": "alice", "admin": "bob", "member": "carol", "outsider": "dave"}


class Cast(dict):
    """The cast's users by name; a role (``"owner"``...) is another key for the same
    person, and each is an attribute too. ``anonymous`` is the logged-out visitor."""

    def __init__(self, users):
        super().__init__(users)
        self.anonymous = AnonymousUser()

    def __getitem__(self, key):
        return super().__getitem__(ROLES.get(key, key))

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def make_person(username, **extra):
    return User.objects.create_user(
        username=username,
        email=f"{username}@example.com",
        password=PASSWORD,
        display_name=extra.pop("display_name", username.title()),
        **extra,
    )


def make_cast():
    return Cast({name: make_person(name) for name in PEOPLE})


def cast_league(cast, slug, visibility):
    """A league with Alice, Bob and Carol in their roles (Dave stays out)."""
    league = League.objects.create(name=slug.title(), slug=slug, visibility=visibility)
    for name, role in PEOPLE.items():
        if role is not None:
            Membership.objects.create(league=league, user=cast[name], role=role)
    return league


def invite_league(cast):
    return cast_league(cast, "private-club", League.Visibility.INVITE)


def public_league(cast):
    return cast_league(cast, "open-club", League.Visibility.PUBLIC)
