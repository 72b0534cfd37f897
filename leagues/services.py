"""Every change to leagues, memberships and invites: one function per action.

Each runs inside ``transaction.atomic`` and either completes or raises ``LeagueError``
with a message for the player, having changed nothing. Permission checks live in the
views (``leagues.access``); these functions check the rules of the domain.
"""

import secrets

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from leagues.models import AdminAction, Invite, League, Membership, Season, User
from leagues.record import record
from rummy.public import season_member_left


class LeagueError(Exception):
    """A refused action. ``str(error)`` is the message to show; nothing was changed."""


class UsernameTaken(LeagueError):
    """Another sign-up took the username between the form's check and the save."""


# --- Accounts -------------------------------------------------------------------------


def _account_with_email(email):
    return User.objects.filter(email__iexact=email).order_by("pk").first()


def sign_up(form):
    """The account that a valid ``SignupForm`` describes: ``(user, True)``.

    When the address already belongs to an account, no second account is made and the
    result is ``(owner, False)``: the caller must answer exactly as for a new account
    (and tell the owner by email), so that sign-up never confirms which addresses have
    accounts. Usernames are public (profiles), so a taken one is simply an error:
    ``UsernameTaken`` when a concurrent sign-up took it after the form's check.
    """
    email = form.cleaned_data["email"]
    owner = _account_with_email(email)
    if owner is not None:
        # The same costly hashing a new account gets, so that timing does not tell.
        make_password(form.cleaned_data.get("password1"))
        return owner, False
    try:
        # A savepoint: on PostgreSQL a failed INSERT spoils the transaction around it.
        with transaction.atomic():
            return form.save(), True
    except IntegrityError:
        # Two sign-ups raced past the form's checks; the unique constraints decided.
        if User.objects.filter(username__iexact=form.cleaned_data["username"]).exists():
            raise UsernameTaken(User._meta.get_field("username").error_messages["unique"]) from None
        owner = _account_with_email(email)
        if owner is None:
            raise
        return owner, False


# Path segments under /leagues/ that a league's slug must not take.
RESERVED_SLUGS = {"new", "invite"}

# Every new league's slug ends in a random suffix. A slug made unique by counting
# ("club", "club-2") told whoever created "Club" that a league of that name existed,
# private or not; a random suffix says nothing about other leagues.
SLUG_SUFFIX_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no l, o, 0, 1 to misread
SLUG_SUFFIX_LENGTH = 6
SLUG_ATTEMPTS = 5


def _new_slug(name):
    base = slugify(name)[:80] or "league"
    if base in RESERVED_SLUGS:
        base = f"{base}-league"
    suffix = "".join(secrets.choice(SLUG_SUFFIX_ALPHABET) for _ in range(SLUG_SUFFIX_LENGTH))
    return f"{base}-{suffix}"


@transaction.atomic
def create_league(user, *, name, description="", visibility=League.Visibility.INVITE):
    """A new league with ``user`` as its owner."""
    for _attempt in range(SLUG_ATTEMPTS):
        try:
            # A savepoint: the unique slug is the backstop if two creations ever draw
            # the same suffix at once, and then the next attempt draws another.
            with transaction.atomic():
                league = League.objects.create(
                    name=name,
                    slug=_new_slug(name),
                    description=description,
                    visibility=visibility,
                )
        except IntegrityError:
            continue
        Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
        return league
    raise LeagueError(_("The league could not be created just now. Please try again."))


def _add_member(user, league):
    if Membership.objects.filter(league=league, user=user).exists():
        raise LeagueError(_("You are already a member of %(league)s.") % {"league": league})
    try:
        with transaction.atomic():
            return Membership.objects.create(league=league, user=user)
    except IntegrityError:
        # A double tap raced past the check above: the unique constraint is the backstop.
        raise LeagueError(
            _("You are already a member of %(league)s.") % {"league": league}
        ) from None


@transaction.atomic
def join_public(user, league):
    if not league.is_public:
        raise LeagueError(_("This league is invite-only: ask an admin for an invite link."))
    return _add_member(user, league)


@transaction.atomic
def join_by_invite(user, invite):
    """Join ``invite.league``, using up one use of the invite."""
    problem = invite.problem()
    if problem:
        raise LeagueError(problem)
    membership = _add_member(user, invite.league)
    # Count the use only if the invite is still good at this instant: two people using
    # the last use at once cannot both get in.
    now = timezone.now()
    used = (
        Invite.objects.filter(pk=invite.pk, revoked_at__isnull=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .filter(Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses")))
        .update(uses=F("uses") + 1)
    )
    if not used:
        # Raising leaves the atomic block, which undoes the membership created above.
        invite.refresh_from_db()
        raise LeagueError(invite.problem() or _("This invite link can no longer be used."))
    return membership


def _owner_count(league):
    return league.memberships.filter(role=Membership.Role.OWNER).count()


def lock_league(league_id):
    """Lock the league's row until the transaction ends. Every change that checks a rule
    over the league's memberships or seasons (at least one owner; seasons that do not
    overlap) takes this lock first, so that two such changes at once queue up instead of
    both passing the check. (SQLite ignores the lock; its IMMEDIATE transactions already
    serialise every write.)"""
    return League.objects.select_for_update().get(pk=league_id)


@transaction.atomic
def leave(user, league):
    lock_league(league.pk)
    membership = Membership.objects.filter(league=league, user=user).first()
    if membership is None:
        raise LeagueError(_("You are not a member of %(league)s.") % {"league": league})
    if membership.role == Membership.Role.OWNER and _owner_count(league) == 1:
        raise LeagueError(
            _(
                "You are the only owner of %(league)s. Make another member an owner "
                "before you leave."
            )
            % {"league": league}
        )
    membership.delete()
    _left_schedule(league, user)


def _left_schedule(league, user):
    """A member left (or was removed) while a scheduled season runs: their games under
    way get a bot stand-in or are voided, as the season says; the rounds still to come
    are planned again when the next one starts (``leagues.schedules.running``)."""
    season = league.active_season()
    if season is not None and season.format == Season.Format.SCHEDULED:
        season_member_left(season, user)


@transaction.atomic
def remove_member(by_membership, target):
    """Remove ``target`` (a Membership) from its league. Their games and results stay:
    seats and standings belong to the user, not to the membership."""
    if target.user_id == by_membership.user_id:
        raise LeagueError(_("To leave the league yourself, use “Leave league”."))
    if target.role == Membership.Role.OWNER:
        raise LeagueError(_("The league's owner cannot be removed."))
    if target.role == Membership.Role.ADMIN and by_membership.role != Membership.Role.OWNER:
        raise LeagueError(_("Only an owner can remove an admin."))
    deleted, _unused = Membership.objects.filter(pk=target.pk).delete()
    if not deleted:
        raise LeagueError(_("That person is no longer a member."))
    _left_schedule(target.league, target.user)
    record(
        target.league_id,
        by_membership.user,
        AdminAction.Action.MEMBER_REMOVED,
        subject=target.user.name,
        before={"role": target.role},
    )


@transaction.atomic
def set_role(by_membership, target, role):
    """Owners change other members' roles (including making a co-owner)."""
    if role not in Membership.Role.values:
        raise LeagueError(_("Unknown role."))
    league = lock_league(target.league_id)
    # Read both again under the lock: the other owner may have just changed them.
    by_role = Membership.objects.filter(pk=by_membership.pk).values_list("role", flat=True).first()
    if by_role != Membership.Role.OWNER:
        raise LeagueError(_("Only an owner can change roles."))
    current = Membership.objects.filter(pk=target.pk).first()
    if current is None:
        raise LeagueError(_("That person is no longer a member."))
    if (
        current.role == Membership.Role.OWNER
        and role != Membership.Role.OWNER
        and _owner_count(league) == 1
    ):
        raise LeagueError(_("You are the only owner: make someone else an owner first."))
    before = current.role
    current.role = role
    # Saved, not updated in place: the save tells the member's open tables (their
    # controls follow the role; ``post_save``).
    current.save(update_fields=["role"])
    if before != role:
        record(
            league,
            by_membership.user,
            AdminAction.Action.ROLE_CHANGED,
            subject=current.user.name,
            before={"role": before},
            after={"role": role},
        )


@transaction.atomic
def create_invite(by_user, league, *, expires_at=None, max_uses=None):
    invite = Invite.objects.create(
        league=league, created_by=by_user, expires_at=expires_at, max_uses=max_uses
    )
    record(
        league,
        by_user,
        AdminAction.Action.INVITE_CREATED,
        subject=_invite_subject(invite),
        after={"expires_at": expires_at, "max_uses": max_uses},
    )
    return invite


def _invite_subject(invite):
    # The token's start names the link in the record without making it usable.
    return f"{invite.token[:6]}…"


@transaction.atomic
def revoke_invite(invite, by_user=None):
    if invite.revoked_at:
        raise LeagueError(_("This invite link was already revoked."))
    # Only a link not revoked meanwhile: two revokes at once record one revoke.
    revoked = Invite.objects.filter(pk=invite.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if not revoked:
        raise LeagueError(_("This invite link was already revoked."))
    record(
        invite.league_id,
        by_user,
        AdminAction.Action.INVITE_REVOKED,
        subject=_invite_subject(invite),
        before={"revoked": False},
        after={"revoked": True},
    )
