"""Deleting an account: the player's own, from the settings (confirmed with their
password, ``leagues.views.accounts.delete_account``), or any account from Django's
admin (``leagues.admin``).

The user row stays, made anonymous in place, rather than being deleted: seats, moves,
results, ratings and standings point at it, and the other players' games, records,
replays and downloads must keep every seat. So what named or reached the person goes
(the username, display name, names and email address; the password; their sessions,
devices and push subscriptions; the ledgers of emails and pushes sent to them;
memberships, vacations, notification settings), and the row is shown everywhere as
"Deleted player N" (``User.name``). Their open sockets close: the row's password and
active flag change, which tells every socket of theirs to check its session again
(``rummy.table.sockets``), and the sessions are gone. A league's only owner must hand
it over first, so that no league is left without an owner.
"""

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from leagues.models import AdminAction, Membership, Season, User, Vacation, deleted_username
from leagues.personal import account_deleted
from leagues.ratings.models import Rating
from leagues.services import LeagueError, lock_league
from rummy.public import forget_player, played_in_leagues

# ``account_deleted`` (``leagues.personal``) is sent inside the deletion's transaction:
# the chat removes its part there (``chat.personal``).


class OnlyOwner(LeagueError):
    """The account is the only owner of a league that has other members."""


def leagues_to_hand_over(user):
    """The leagues of which ``user`` is the only owner and that have other members: each
    must have another owner before the account can go. A league with no other member
    is left without members (nobody is left to hand it to)."""
    owned = Membership.objects.filter(user=user, role=Membership.Role.OWNER).select_related(
        "league"
    )
    blocking = []
    for membership in owned:
        others = membership.league.memberships.exclude(user=user)
        if others.exists() and not others.filter(role=Membership.Role.OWNER).exists():
            blocking.append(membership.league)
    return blocking


def hand_over_message(leagues):
    names = ", ".join(league.name for league in leagues)
    return _(
        "You are the only owner of %(leagues)s. Make another member an owner there "
        "(on the league's members page) before you delete your account."
    ) % {"leagues": names}


def _user_sessions(user_id):
    """The keys of the sessions logged in as ``user_id``: Django's database sessions
    are not indexed by user, so each live one is decoded (a rare action, and a bounded
    table: expired rows are cleared by ``clearsessions``)."""
    wanted = str(user_id)
    live = Session.objects.filter(expire_date__gt=timezone.now())
    return [
        session.session_key
        for session in live.iterator()
        if session.get_decoded().get("_auth_user_id") == wanted
    ]


def _scrub_records(user, old_names, league_ids, new_name):
    """The words that named the player where a copy of the name was kept: the league
    admins' record (who acted, whom it was done to) and closed seasons' frozen
    standings."""
    # The record keeps the deleted username, which its page words for each reader.
    AdminAction.objects.filter(actor=user).update(actor_name=user.username)
    # A member removed or given a role: the subject is their name, in a league of theirs.
    AdminAction.objects.filter(
        league_id__in=league_ids,
        action__in=[AdminAction.Action.MEMBER_REMOVED, AdminAction.Action.ROLE_CHANGED],
        subject__in=[n for n in old_names if n],
    ).update(subject=user.username)
    for season in Season.objects.filter(final_standings__isnull=False):
        rows = season.final_standings or []
        if not any(row.get("user_id") == user.pk for row in rows):
            continue
        for row in rows:
            if row.get("user_id") == user.pk:
                row.update(username=user.username, name=new_name, is_deleted=True)
        Season.objects.filter(pk=season.pk).update(final_standings=rows)


@transaction.atomic
def delete_account(user):
    """Delete ``user``'s account as the module says. Raises ``OnlyOwner`` (nothing
    changed) while they are a league's only owner; a second call on an account already
    deleted changes nothing."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.deleted_at is not None:
        return user
    owned = Membership.objects.filter(user=user, role=Membership.Role.OWNER)
    for league_id in owned.values_list("league_id", flat=True).order_by("league_id"):
        lock_league(league_id)  # an owner leaving at the same time waits for us
    blocking = leagues_to_hand_over(user)
    if blocking:
        raise OnlyOwner(hand_over_message(blocking))
    old_names = [user.username, user.display_name, user.get_full_name(), user.email]
    # Their leagues, and those they played in (a removed member keeps their games).
    league_ids = set(Membership.objects.filter(user=user).values_list("league_id", flat=True))
    league_ids |= set(
        Rating.objects.filter(user=user, league__isnull=False).values_list("league_id", flat=True)
    )
    league_ids |= played_in_leagues(user)
    sessions = _user_sessions(user.pk)

    # Both unique, and neither one a sign-up can take first: "~" is not allowed in a
    # username, and an address without "@" is no address (nor can it receive mail).
    user.username = deleted_username(user.pk)
    user.display_name = user.first_name = user.last_name = ""
    user.email = f"deleted-{user.pk}"
    user.email_verified = False
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.language = user.time_zone = ""
    user.quiet_start = user.quiet_end = None
    user.last_login = None
    user.deleted_at = timezone.now()
    # A plain save: its password and active flag changing is what tells every open socket
    # of theirs to check its session (``rummy.table.sockets``), and the session is gone.
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    Session.objects.filter(session_key__in=sessions).delete()

    forget_player(user)
    Vacation.objects.filter(user=user).delete()
    # One by one: each membership's end tells the user's sockets (rummy.table.sockets).
    for membership in Membership.objects.filter(user=user):
        membership.delete()
    # Stored words, so in the site's own language (pages word the name for each reader).
    with translation.override(settings.LANGUAGE_CODE):
        _scrub_records(user, old_names, league_ids, str(user.name))
    account_deleted.send(sender=User, user=user, old_names=old_names)
    return user
