"""Web push: the push sender of the background pass (``PUSH``: "your move", the
reminder and the result, to each subscribed device of a player who is away from the
game, in the player's language); ``pipeline`` decides what is due, claims and retries.

What is the push's own:

- The ledger is ``PushNotice``, per device: one device's failure never stops the
  others, and a device the push service no longer knows is deleted with its claims.
- Only while the player is away, reminders included; a result the player watched
  arrive on the game page is marked as told instead.
- "Your move" is one notification, tag ``your-move``, that each new turn replaces: it
  names the one game waiting, or counts them all and opens the list of games. It is
  sent for a turn that began within the look-back (``pipeline.CATCH_UP``, or since the
  player's quiet hours began).
"""

from datetime import timedelta

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rummy.clock.text import time_left_text
from rummy.models import Notice, PushNotice, PushSubscription
from rummy.notifications import pipeline, push, vapid
from rummy.notifications.prefs import wants_push

# A claim this old that was never stamped belongs to a process that died before it
# began to push.
STALE = timedelta(minutes=30)
# How long a push service keeps a push for an offline device: a turn's until its
# deadline (after that the news is wrong), at most a day; a result for three days.
MAX_TURN_TTL = 86400
MIN_TTL = 60
RESULT_TTL = 3 * 86400


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


def _turn_line(game, user, now):
    if game.turn_deadline:
        return _("Against %(opponents)s. Your time runs out %(left)s.") % {
            "opponents": _opponents(game, user),
            "left": time_left_text(game.turn_deadline, now),
        }
    return _("Against %(opponents)s.") % {"opponents": _opponents(game, user)}


def _your_move(user, waiting, now):
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


def _reminder(user, told, now):
    if len(told) == 1:
        game = told[0]
        return push.message(
            _("Your time runs out %(left)s") % {"left": time_left_text(game.turn_deadline, now)},
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


def _result(user, told):
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


class PushSender(pipeline.Sender):
    """One push to each subscribed device of the player, signed with the site's keys."""

    name = "push"
    ledger = PushNotice
    stale = STALE
    reminders_wait_while_here = True
    turns_within_lookback = True
    results_seen_on_page = True

    def ready(self):
        return vapid.site_keys()

    def wants(self, user, kind) -> bool:
        return wants_push(user, kind) and user.push_subscriptions.exists()

    def reaching(self, user_ref, kind):
        devices = PushSubscription.objects.filter(user=OuterRef(user_ref))
        if kind != Notice.Kind.RESULT:
            # A device told of this turn already is no reason to look at the player
            # again: without this, every pass re-read each player whose turn began
            # within the look-back (email filters the same way, ``emails._noticed``).
            told = PushNotice.objects.filter(
                subscription=OuterRef("pk"),
                game=OuterRef(OuterRef("pk")),
                kind=kind,
                turn_started_at=OuterRef(OuterRef("turn_started_at")),
            )
            devices = devices.filter(~Exists(told))
        return Exists(devices)

    def outlets(self, user) -> list:
        return list(user.push_subscriptions.all())

    def word(self, kind, user, told, waiting, now):
        if kind == Notice.Kind.YOUR_MOVE:
            return _your_move(user, waiting, now)
        if kind == Notice.Kind.REMINDER:
            return _reminder(user, told, now)
        return _result(user, told)

    def send(self, user, outlet, kind, message, told, now, ready, sending) -> pipeline.Outcome:
        if kind == Notice.Kind.RESULT:
            ttl, urgency = RESULT_TTL, "normal"
        else:
            ttl, urgency = _turn_ttl(told, now), "high"
        return push.send(outlet, message, ready, ttl, urgency, sending=sending)


PUSH = PushSender()


def clock_pass(now=None) -> int:
    """The pushes of one background pass (``pipeline.clock_pass``); returns how many
    went out. Never raises."""
    return pipeline.clock_pass(PUSH, now)
