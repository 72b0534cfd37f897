"""The cast of the authorization matrix, around one invite-only league:
anonymous; an outsider; a member who is not seated; the seated player to move; the
seated player waiting. The owner (an admin) is not a role of the matrix: admin rights
are tested by the leagues' own view tests."""

import datetime
import itertools

from django.utils import timezone

from leagues.models import League, Membership, Vacation
from rummy import play
from rummy.models import Game
from tests.factories import make_season, make_user

ROLES = ["anonymous", "outsider", "member", "player", "waiting"]
_leagues = itertools.count(1)


def make_cast():
    owner = make_user()
    p1, p2, member, outsider = make_user(), make_user(), make_user(), make_user()
    n = next(_leagues)
    league = League.objects.create(
        name=f"Matrix {n}", slug=f"matrix-{n}", visibility=League.Visibility.INVITE
    )
    Membership.objects.create(league=league, user=owner, role=Membership.Role.OWNER)
    for user in (p1, p2, member):
        Membership.objects.create(league=league, user=user, role=Membership.Role.MEMBER)
    season = make_season(league)
    # The owner's (no role's): each role may only stop a vacation of their own.
    soon = timezone.now() + datetime.timedelta(days=1)
    vacation = Vacation.objects.create(
        user=owner, season=season, starts_at=soon, ends_at=soon + datetime.timedelta(days=1), days=1
    )
    game = play.open_table(league, p1, max_seats=2)
    play.take_seat(game.pk, p2)
    game = Game.objects.get(pk=game.pk)
    to_move = game.to_move
    waiting = p2 if to_move == p1 else p1
    users = {
        "anonymous": None,
        "outsider": outsider,
        "member": member,
        "player": to_move,
        "waiting": waiting,
    }
    values = {
        "slug": league.slug,
        "pk": member.pk,
        "game_id": game.pk,
        "game_pk": game.pk,
        "token": "not-a-token",
        "uidb64": "MQ",
        "username": member.username,
        "vacation_pk": vacation.pk,
    }
    return users, values, game, season
