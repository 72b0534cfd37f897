"""Who may see and do what in a league. Views (ours and the game views) call these.

- A private (invite-only) league, its seasons and its games exist only for its members:
  everybody else gets 404, so that its name is not even confirmed.
- A public league can be seen by any signed-in user, but only members act in it.
- Only owners and admins manage seasons, invites and members: 403 for other members.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from config.db import reads
from leagues.models import League, Membership


def membership_for(user, league):
    """The user's Membership of ``league``, or None (also for anonymous users and no
    league). Read on every action whose rights are not fresh in memory: its SQL is
    written once (``config.db.reads``)."""
    if user is None or not user.is_authenticated or league is None:
        return None
    return reads.first(Membership, league=league, user=user)


_UNREAD = object()


def can_view_league(user, league, membership=_UNREAD):
    """Whether ``user`` may see ``league`` and its games: any signed-in user a public
    one, members only an invite-only one. ``membership``: the user's Membership of it
    (or None) when the caller has already read it, so it is not read again."""
    if league.is_public:
        return user is not None and user.is_authenticated
    if membership is _UNREAD:
        membership = membership_for(user, league)
    return membership is not None


def get_league_for_member(user, slug):
    """The league with ``slug`` if ``user`` may see it; 404 otherwise.

    Views are expected to be behind @login_required; an anonymous user sees nothing.
    """
    league = get_object_or_404(League, slug=slug)
    if not can_view_league(user, league):
        raise Http404(_("No such league."))
    return league


def require_league_member(user, league):
    """The user's Membership; PermissionDenied (403) for a non-member of a public league."""
    membership = membership_for(user, league)
    if membership is None:
        raise PermissionDenied(_("Only members of this league can do that."))
    return membership


def require_league_admin(user, league):
    """The user's Membership if they are an owner or admin; PermissionDenied (403) otherwise."""
    membership = membership_for(user, league)
    if membership is None or not membership.is_admin:
        raise PermissionDenied(_("Only the league's owners and admins can do that."))
    return membership


def require_league_owner(user, league):
    membership = membership_for(user, league)
    if membership is None or membership.role != Membership.Role.OWNER:
        raise PermissionDenied(_("Only the league's owners can do that."))
    return membership
