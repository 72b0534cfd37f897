"""Who may read, write and moderate a game's chat.

- The game's players write (and read).
- Members of the game's league who may watch it read; they write only when the league's
  admins let spectators talk (``LeagueChat.spectators_may_talk``, off by default).
- The league's owners and admins moderate.
- A practice game (no league) has no chat; outsiders (a public league's watchers who
  are not members among them) and anonymous visitors see nothing of it.
"""

from dataclasses import dataclass

from django.utils import timezone

from chat.models import LeagueChat, Mute
from leagues.access import can_view_league, membership_for
from rummy.models import Seat


@dataclass(frozen=True)
class ChatAccess:
    read: bool = False
    write: bool = False
    moderate: bool = False


NONE = ChatAccess()


def spectators_may_talk(league_id):
    return LeagueChat.objects.filter(league_id=league_id, spectators_may_talk=True).exists()


def game_access(user, game, writing=True) -> ChatAccess:
    """``writing=False``: only whether the user reads and moderates (``write`` is then
    False): what a socket needs for each copy of a message, one query fewer."""
    if user is None or not user.is_authenticated or game is None or game.league_id is None:
        return NONE
    league = game.league
    membership = membership_for(user, league)
    if not can_view_league(user, league, membership):
        return NONE
    player = Seat.objects.filter(game_id=game.pk, user_id=user.pk).exists()
    if not player and membership is None:
        return NONE
    moderate = membership is not None and membership.is_admin
    write = writing and (player or spectators_may_talk(league.pk))
    return ChatAccess(read=True, write=write, moderate=moderate)


def is_moderator(user, league):
    membership = membership_for(user, league)
    return membership is not None and membership.is_admin


def active_mute(user, league_id, now=None):
    """The mute that keeps ``user`` silent in the league now (the longest), or None."""
    now = now or timezone.now()
    return (
        Mute.objects.filter(league_id=league_id, user_id=user.pk, until__gt=now)
        .order_by("-until")
        .first()
    )
