"""Web push from the background pass: "your move", the reminder and the result, to each
subscribed device of a player who is away from the game, in the player's language.

The rules of the emails hold here too (``emails``' docstring), per device:

- At most one push per (device, game, kind, turn): a ``PushNotice`` is claimed FIRST
  (its unique constraint stops a second clock process), stamped once the push service
  accepted the push, and released after a failure so that the next pass tries again.
  One device's failure never stops the others.
- Only while the player is away: no socket of theirs on that game's page, and (for
  turns) no move of theirs in it within ``AWAY_AFTER`` (``emails.at_the_game``). A
  game skipped so is not claimed: a later pass pushes it once they have gone. A result
  the player watched arrive on the game page is marked as told instead.
- Nothing while the player's quiet hours last (``quiet``); it goes out after them.
- "Your move" is one notification, tag ``your-move``, that each new turn replaces: it
  names the one game waiting, or counts them all and opens the list of games.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.models import User, speaking_to
from rummy.clock.text import time_left_text
from rummy.models import Game, Notice, PushNotice, PushSubscription, Seat
from rummy.notifications import presence, push, quiet, vapid
from rummy.notifications.emails import CATCH_UP, REMINDER_FRACTION, REMINDER_HORIZON, at_the_game
from rummy.notifications.prefs import wants_push

log = logging.getLogger(__name__)

# A claim this old that was never stamped belongs to a process that died mid-push.
STALE = timedelta(minutes=30)
# How long a push service keeps a push for an offline device: a turn's until its
# deadline (after that the news is wrong), at most a day; a result for three days.
MAX_TURN_TTL = 86400
MIN_TTL = 60
RESULT_TTL = 3 * 86400


def clock_pass(now=None) -> int:
    """The pushes of one background pass; returns how many went out. Never raises."""
    now = now or timezone.now()
    keys = vapid.site_keys()
    if keys is None:
        return 0
    sent = 0
    with translation.override(settings.LANGUAGE_CODE):
        for step in (_drop_stale_claims, push_turns, push_reminders, push_results):
            try:
                sent += step(now, keys) or 0
            except Exception:
                log.exception("push step %s failed", step.__name__)
    return sent


def _drop_stale_claims(now, keys):
    PushNotice.objects.filter(sent_at__isnull=True, claimed_at__lt=now - STALE).delete()


def _games():
    # Not practice games: their one player is at the table against bots.
    return (
        Game.objects.filter(league__isnull=False)
        .select_related("league")
        .prefetch_related("seats__user")
    )


def _subscribed(user_ref):
    return Exists(PushSubscription.objects.filter(user=OuterRef(user_ref)))


def _users(user_ids):
    ids = {pk for pk in user_ids if pk is not None}
    return list(User.objects.filter(pk__in=ids).select_related("notification_prefs"))


def _guarded(step, user, *args):
    """One player's trouble is logged, and the pass goes on to the others."""
    try:
        return step(user, *args)
    except Exception:
        log.exception("%s failed for user %s", step.__name__, user.pk)
        return 0


# --- Claims and delivery --------------------------------------------------------------


def _turn_of(game, kind):
    return None if kind == Notice.Kind.RESULT else game.turn_started_at


def _claim(subscription, games, kind, stamp=None):
    """Claim ``kind`` of each game for ``subscription`` (skipping those it already has);
    returns [(game, claim)]. With ``stamp`` the claims are made as already told."""
    had = set(
        PushNotice.objects.filter(
            subscription=subscription, kind=kind, game__in=[game.pk for game in games]
        ).values_list("game_id", "turn_started_at")
    )
    claimed = []
    for game in games:
        if (game.pk, _turn_of(game, kind)) in had:
            continue
        try:
            with transaction.atomic():
                claim = PushNotice.objects.create(
                    subscription=subscription,
                    game=game,
                    kind=kind,
                    turn_started_at=_turn_of(game, kind),
                    sent_at=stamp,
                )
        except IntegrityError:  # another process claimed it meanwhile
            continue
        claimed.append((game, claim))
    return claimed


def _still_current(user, claimed):
    """Drop (and release) the claims of games whose turn moved on meanwhile."""
    current = set(
        Game.objects.filter(
            pk__in=[game.pk for game, _claim in claimed], status=Game.Status.ACTIVE, to_move=user
        ).values_list("pk", "turn_started_at")
    )
    kept = [(game, claim) for game, claim in claimed if (game.pk, game.turn_started_at) in current]
    _release([claim for game, claim in claimed if (game.pk, game.turn_started_at) not in current])
    return kept


def _release(claims):
    PushNotice.objects.filter(pk__in=[claim.pk for claim in claims]).delete()


def _deliver(user, kind, games, keys, build, ttl, urgency) -> int:
    """Push the news about ``games`` to each of ``user``'s devices that has not had it:
    ``build(games)`` words it (in the user's language and zone) from the games that
    device is told about. Returns how many devices took a push."""
    sent = 0
    for subscription in list(user.push_subscriptions.all()):
        claimed = _claim(subscription, games, kind)
        if claimed and kind != Notice.Kind.RESULT:
            claimed = _still_current(user, claimed)
        if not claimed:
            continue
        claims = [claim for _game, claim in claimed]
        try:
            with speaking_to(user):
                content = build([game for game, _claim in claimed])
        except Exception:
            log.exception("could not word the %s push to user %s", kind, user.pk)
            _release(claims)
            continue
        outcome = push.send(subscription, content, keys, ttl, urgency)
        if outcome is push.Outcome.SENT:
            PushNotice.objects.filter(pk__in=[c.pk for c in claims]).update(sent_at=timezone.now())
            sent += 1
        elif outcome is push.Outcome.FAILED:
            _release(claims)
        # GONE: the subscription was deleted, and its claims with it.
    return sent


def _turn_ttl(games, now):
    deadlines = [game.turn_deadline for game in games if game.turn_deadline]
    if not deadlines:
        return MAX_TURN_TTL
    left = (min(deadlines) - now).total_seconds()
    return int(min(max(left, MIN_TTL), MAX_TURN_TTL))


def _opponents(game, user):
    return ", ".join(seat.user.name for seat in game.seated() if seat.user_id != user.pk)


def _leagues(games):
    return ", ".join(dict.fromkeys(game.league.name for game in games))


# --- "Your move" ----------------------------------------------------------------------


def push_turns(now, keys) -> int:
    user_ids = (
        Game.objects.filter(status=Game.Status.ACTIVE, turn_started_at__isnull=False)
        .filter(_subscribed("to_move"))
        .values_list("to_move", flat=True)
    )
    return sum(_guarded(_turns_of, user, now, keys) for user in _users(user_ids))


def _turns_of(user, now, keys):
    if not wants_push(user, Notice.Kind.YOUR_MOVE):
        return 0
    waiting = list(
        _games()
        .filter(status=Game.Status.ACTIVE, to_move=user, turn_started_at__isnull=False)
        .order_by("turn_deadline", "pk")
    )
    here = at_the_game(user, waiting, now)
    waiting = [game for game in waiting if game.pk not in here]
    since = quiet.lookback(user, now, CATCH_UP)
    new = [game for game in waiting if game.turn_started_at >= since]
    if not new or quiet.holding(user, now, CATCH_UP):
        return 0

    def build(_told):
        # The notification replaces the last one: it tells every game now waiting.
        if len(waiting) == 1:
            game = waiting[0]
            return push.message(
                _("It's your move in %(league)s") % {"league": game.league.name},
                _turn_line(game, user, now),
                game.get_absolute_url(),
                "your-move",
            )
        count = len(waiting)
        return push.message(
            ngettext(
                "%(count)s game is waiting for your move",
                "%(count)s games are waiting for your move",
                count,
            )
            % {"count": count},
            _leagues(waiting),
            reverse("home"),
            "your-move",
        )

    return _deliver(user, Notice.Kind.YOUR_MOVE, new, keys, build, _turn_ttl(new, now), "high")


def _turn_line(game, user, now):
    if game.turn_deadline:
        return _("Against %(opponents)s. Your time runs out %(left)s.") % {
            "opponents": _opponents(game, user),
            "left": time_left_text(game.turn_deadline, now),
        }
    return _("Against %(opponents)s.") % {"opponents": _opponents(game, user)}


# --- Reminders ------------------------------------------------------------------------


def push_reminders(now, keys) -> int:
    """Like the reminder email: once a quarter (or less) of the turn's time is left."""
    candidates = (
        _games()
        .filter(
            status=Game.Status.ACTIVE,
            turn_started_at__isnull=False,
            turn_deadline__gt=now,
            turn_deadline__lte=now + REMINDER_HORIZON,
        )
        .filter(_subscribed("to_move"))
        .order_by("turn_deadline", "pk")
    )
    due: dict[int, list[Game]] = {}
    for game in candidates:
        quarter = (game.turn_deadline - game.turn_started_at) / REMINDER_FRACTION
        if now >= game.turn_deadline - quarter:
            due.setdefault(game.to_move_id, []).append(game)
    return sum(_guarded(_reminders_of, user, due[user.pk], now, keys) for user in _users(due))


def _reminders_of(user, games, now, keys):
    if not wants_push(user, Notice.Kind.REMINDER):
        return 0
    here = at_the_game(user, games, now)
    games = [game for game in games if game.pk not in here]
    if not games or quiet.holding(user, now, CATCH_UP):
        return 0

    def build(told):
        if len(told) == 1:
            game = told[0]
            return push.message(
                _("Your time runs out %(left)s")
                % {"left": time_left_text(game.turn_deadline, now)},
                _("Your move in %(league)s, against %(opponents)s.")
                % {"league": game.league.name, "opponents": _opponents(game, user)},
                game.get_absolute_url(),
                "reminder",
            )
        return push.message(
            ngettext(
                "%(count)s game needs your move soon",
                "%(count)s games need your move soon",
                len(told),
            )
            % {"count": len(told)},
            _leagues(told),
            reverse("home"),
            "reminder",
        )

    return _deliver(user, Notice.Kind.REMINDER, games, keys, build, _turn_ttl(games, now), "high")


# --- Results --------------------------------------------------------------------------


def push_results(now, keys) -> int:
    finished = _games().filter(
        status=Game.Status.FINISHED,
        finished_at__gte=quiet.earliest(now, CATCH_UP),
        pk__in=Seat.objects.filter(_subscribed("user")).values("game"),
    )
    games_of: dict[int, list[Game]] = {}
    for game in finished:
        for seat in game.seated():
            games_of.setdefault(seat.user_id, []).append(game)
    return sum(
        _guarded(_results_of, user, games_of[user.pk], now, keys)
        for user in _users(games_of)
        if user.push_subscriptions.exists()
    )


def _results_of(user, games, now, keys):
    if not wants_push(user, Notice.Kind.RESULT):
        return 0
    since = quiet.lookback(user, now, CATCH_UP)
    games = [game for game in games if game.finished_at >= since]
    here = presence.present(user.pk, [game.pk for game in games])
    if here:
        # They watched the result arrive on the game page: nothing to tell later.
        for subscription in user.push_subscriptions.all():
            _claim(subscription, [g for g in games if g.pk in here], Notice.Kind.RESULT, now)
    games = [game for game in games if game.pk not in here]
    if not games or quiet.holding(user, now, CATCH_UP):
        return 0

    def build(told):
        if len(told) == 1:
            game = told[0]
            seat = next(seat for seat in game.seated() if seat.user_id == user.pk)
            league = game.league.name
            title = (
                _("You won in %(league)s!") if seat.is_winner else _("Game over in %(league)s")
            ) % {"league": league}
            winners = ", ".join(s.user.name for s in game.seated() if s.is_winner)
            body = _("Winner: %(winners)s. Your score: %(score)s.") % {
                "winners": winners,
                "score": seat.final_score if seat.final_score is not None else 0,
            }
            return push.message(title, body, game.get_absolute_url(), f"result-{game.pk}")
        return push.message(
            ngettext(
                "%(count)s of your games has ended",
                "%(count)s of your games have ended",
                len(told),
            )
            % {"count": len(told)},
            _leagues(told),
            reverse("profile", args=[user.username]),
            "results",
        )

    return _deliver(user, Notice.Kind.RESULT, games, keys, build, RESULT_TTL, "normal")
