"""The one notification pipeline of the background pass, for email and push alike: what
is due, claim, send, release, retry. A ``Sender`` plugs in how its notices reach a
player (``emails.EMAIL``: one email to the user; ``pushes.PUSH``: one push to each of
their subscribed devices) and how they are worded; everything else is here, once.

Rules that hold for both:

- Three kinds (``Notice.Kind``): "your move", the reminder once a quarter of the turn's
  time is left, and the result of a finished game. Only league games are told: a
  practice game's one player is at the table against bots.
- Nothing goes to a player who does not want that kind on that channel
  (``Sender.wants``); email is the fallback of push (``prefs``).
- At most one notice per (outlet, game, kind, turn): a ledger row (``Ledger``) is
  claimed FIRST, its unique constraints turning a second worker, a retry or a race into
  a skip; the notice is worded, the row stamped, and only then is the notice handed to
  the mail server or push service. A failure the sender sees releases its claims, so
  that the next pass tries again, and so, after the sender's ``stale``, does a claim
  left unstamped by a worker killed before it began to send. A worker killed after the
  stamp (during the send, or after it) leaves a stamped row: the notice is never sent
  again, at the price of losing it when the kill came before the server had it (only a
  SIGKILL or a lost machine; SIGTERM lets the pass finish). A turn claimed after the
  player already moved is released unsent.
- One player's trouble (or one device's) is logged, never raised: the pass goes on to
  the others.
- "Your move" waits while the player is at the game: its page open on a socket
  (``presence``), or a move of their own in it within ``AWAY_AFTER`` seconds. Such a
  game is skipped, not claimed, so a later pass tells it once they are away (within
  ``CATCH_UP``).
- Nothing goes out while the player's quiet hours last (``quiet``): it is not claimed,
  and the first pass after them sends it, grouped as usual.
- Each notice is worded in its player's language and time zone
  (``leagues.models.speaking_to``), the site's default language around the pass.
"""

import enum
import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation

from leagues.models import User, speaking_to
from rummy.models import Game, Move, Notice, Seat
from rummy.notifications import presence, quiet

log = logging.getLogger(__name__)

# A reminder is due once a quarter of the turn's time is left.
REMINDER_FRACTION = 4
# The pass only looks this far ahead for reminders: a quarter of the longest turn time a
# season offers. (A longer turn, which no season offers, is reminded this late.)
REMINDER_HORIZON = timedelta(seconds=7 * 86400 // REMINDER_FRACTION)
# How far back the pass looks for turns and results not told yet (a process that died
# between commit and send, or a send that failed); further for what quiet hours held.
CATCH_UP = timedelta(hours=1)

# The moves a player makes themselves; the log's other entries (the start, a deal, a
# timeout, the host's end or void) say nothing about whether the player is there.
OWN_MOVES = (Move.Kind.DRAW, Move.Kind.MELD, Move.Kind.KNOCK, Move.Kind.PASS)


class Outcome(enum.Enum):
    """What became of one send: taken; failed (released, the next pass retries); or the
    outlet is gone for good (a device the push service no longer knows: deleted, and its
    claims with it)."""

    SENT = "sent"
    GONE = "gone"
    FAILED = "failed"


class Sender:
    """One channel of the pipeline. Subclasses say how the channel reaches a player and
    words and sends what the pipeline claimed for them."""

    #: for the logs
    name: str
    #: the ledger model of this channel (``Notice``, ``PushNotice``)
    ledger: type
    #: an unstamped claim this old was left by a worker that died before it sent
    stale: timedelta
    #: reminders wait while the player is at the game, like "your move" (push: it would
    #: pop up over the page they are looking at); email reminds either way
    reminders_wait_while_here = False
    #: a turn is told only if it began within the look-back (push: a device told now
    #: about a turn an hour old is told of the others by the one "your move" it shows);
    #: email lists every turn of the player's not yet emailed
    turns_within_lookback = False
    #: a result the player watched arrive on the game page is marked as told (push);
    #: the result email is sent either way, as a record
    results_seen_on_page = False

    def ready(self):
        """What ``send`` needs for this pass (push: the site's keys), or None: the
        channel is off and the pass sends nothing."""
        return True

    def wants(self, user, kind) -> bool:
        raise NotImplementedError

    def reaching(self, user_ref, kind) -> Q:
        """A filter of games (``user_ref``: the path to the player) to those whose player
        this channel may reach for ``kind``: the cheap part of ``wants``, in SQL."""
        raise NotImplementedError

    def outlets(self, user) -> list:
        """Where ``user``'s notices go: each one a ledger owner."""
        raise NotImplementedError

    def word(self, kind, user, told, waiting, now):
        """The notice about the games ``told`` (for "your move", ``waiting``: every game
        now awaiting the player's move where they are away), in ``user``'s language."""
        raise NotImplementedError

    def send(self, user, outlet, kind, message, told, now, ready, sending) -> Outcome:
        """Send ``message``; call ``sending()`` (which stamps the claims) after
        everything that may fail on our side and just before the notice leaves."""
        raise NotImplementedError


# --- Who and what ---------------------------------------------------------------------


def users(user_ids) -> list:
    ids = {pk for pk in user_ids if pk is not None}
    return list(User.objects.filter(pk__in=ids).select_related("notification_prefs"))


def guarded(step, *args):
    """``step(*args)``, or 0 when it fails: one player's trouble is logged (their claims,
    if any, were released) and the pass goes on to the others."""
    try:
        return step(*args)
    except Exception:
        log.exception("%s failed for %r", step.__name__, args[1] if len(args) > 1 else args)
        return 0


def told_games():
    """Games that are told: not practice games, whose one player is at the table
    against bots and whose results count for nothing."""
    return Game.objects.filter(league__isnull=False)


def _with_lines():
    return told_games().select_related("league").prefetch_related("seats__user")


def away_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "AWAY_AFTER", 300))


def at_the_game(user, games, now) -> set:
    """The ids of those ``games`` whose page ``user`` has open, or in which they moved
    within ``AWAY_AFTER``: someone playing live needs no notice for every turn."""
    ids = [game.pk for game in games]
    if not ids:
        return set()
    here = presence.present(user.pk, ids)
    recent = Move.objects.filter(
        game_id__in=set(ids) - here,
        user=user,
        kind__in=OWN_MOVES,
        created_at__gt=now - away_after(),
    ).values_list("game_id", flat=True)
    return here | set(recent)


def reminder_due(game, now) -> bool:
    """A quarter of the turn's own time is left: of its time, not of all it spans, so
    that a deadline moved on by the mover's vacation does not bring the reminder into
    the vacation."""
    span = min(game.turn_deadline - game.turn_started_at, timedelta(seconds=game.turn_seconds))
    return now >= game.turn_deadline - span / REMINDER_FRACTION


# --- Claim, send, release -------------------------------------------------------------


def claim(sender, user, outlet, games, kind) -> list:
    """Claim ``kind`` of each of ``games`` for ``outlet``; for a turn, then re-read the
    games and drop (and release) those whose turn moved on meanwhile: a notice that
    comes after the player already moved does nothing. Returns [(game, row)]."""
    claimed = sender.ledger.claim(outlet, games, kind)
    if not claimed or kind == Notice.Kind.RESULT:
        return claimed
    current = set(
        Game.objects.filter(
            pk__in=[game.pk for game, _row in claimed], status=Game.Status.ACTIVE, to_move=user
        ).values_list("pk", "turn_started_at")
    )
    kept = [(game, row) for game, row in claimed if (game.pk, game.turn_started_at) in current]
    sender.ledger.release(
        [row for game, row in claimed if (game.pk, game.turn_started_at) not in current]
    )
    return kept


def deliver(sender, user, kind, games, now, ready, waiting=None) -> list:
    """Tell each of ``user``'s outlets about those ``games`` it has not been told:
    claim, word, stamp, send, and release if the send failed. Returns the games told,
    one list per send that was taken."""
    told_lists = []
    for outlet in sender.outlets(user):
        claimed = claim(sender, user, outlet, games, kind)
        if not claimed:
            continue
        rows = [row for _game, row in claimed]
        told = [game for game, _row in claimed]
        try:
            with speaking_to(user):
                message = sender.word(kind, user, told, told if waiting is None else waiting, now)
        except Exception:
            log.exception("could not word the %s %s to user %s", kind, sender.name, user.pk)
            sender.ledger.release(rows)
            continue

        def sending(rows=rows):
            # Before the send, not after: a worker killed between the two must leave a
            # row that says "sent", or a later pass would send it a second time.
            sender.ledger.stamp(rows, timezone.now())

        outcome = sender.send(user, outlet, kind, message, told, now, ready, sending)
        if outcome is Outcome.SENT:
            told_lists.append(told)
        elif outcome is Outcome.FAILED:
            sender.ledger.release(rows)
        # GONE: the outlet was deleted, and its claims with it.
    return told_lists


# --- "Your move" ----------------------------------------------------------------------


def turns(sender, now, ready=True) -> int:
    """ "Your move" to the players whose turn began since the last pass (or failed to be
    told, within ``CATCH_UP``), and to those whose quiet hours ended; returns the sends."""
    user_ids = {
        *told_games()
        .filter(status=Game.Status.ACTIVE, turn_started_at__gte=now - CATCH_UP)
        .filter(sender.reaching("to_move", Notice.Kind.YOUR_MOVE))
        .values_list("to_move", flat=True),
        *quiet.released_user_ids(now),
    }
    return sum(len(guarded(turns_of, sender, user, now, ready) or []) for user in users(user_ids))


def turns_of(sender, user, now, ready=True) -> list:
    """ "Your move" to ``user`` about every game awaiting their move that was not told
    for its current turn and where they are away; the games told, per send."""
    if not sender.wants(user, Notice.Kind.YOUR_MOVE):
        return []
    waiting = list(
        _with_lines()
        .filter(status=Game.Status.ACTIVE, to_move=user, turn_started_at__isnull=False)
        .order_by("turn_deadline", "pk")
    )
    # Not claimed: the next pass looks again, and tells once the player has gone.
    here = at_the_game(user, waiting, now)
    waiting = [game for game in waiting if game.pk not in here]
    new = waiting
    if sender.turns_within_lookback:
        since = quiet.lookback(user, now, CATCH_UP)
        new = [game for game in waiting if game.turn_started_at >= since]
    if not new or quiet.holding(user, now, CATCH_UP):
        return []
    return deliver(sender, user, Notice.Kind.YOUR_MOVE, new, now, ready, waiting=waiting)


# --- Reminders ------------------------------------------------------------------------


def reminders(sender, now, ready=True) -> int:
    """Remind each player whose turn has a quarter (or less) of its time left, once per
    turn, grouped per player; returns the sends."""
    candidates = (
        _with_lines()
        .filter(
            status=Game.Status.ACTIVE,
            to_move__isnull=False,
            turn_started_at__isnull=False,
            turn_deadline__gt=now,
            turn_deadline__lte=now + REMINDER_HORIZON,
        )
        .filter(sender.reaching("to_move", Notice.Kind.REMINDER))
        .order_by("turn_deadline", "pk")
    )
    due: dict[int, list[Game]] = {}
    for game in candidates:
        if reminder_due(game, now):
            due.setdefault(game.to_move_id, []).append(game)
    return sum(
        len(guarded(_reminders_of, sender, user, due[user.pk], now, ready) or [])
        for user in users(due)
    )


def _reminders_of(sender, user, games, now, ready):
    if not sender.wants(user, Notice.Kind.REMINDER):
        return []
    if sender.reminders_wait_while_here:
        here = at_the_game(user, games, now)
        games = [game for game in games if game.pk not in here]
    if not games or quiet.holding(user, now, CATCH_UP):
        return []
    return deliver(sender, user, Notice.Kind.REMINDER, games, now, ready)


# --- Results --------------------------------------------------------------------------


def results(sender, now, ready=True, games=None) -> int:
    """The result of each game finished since the last pass (within ``CATCH_UP``, or
    since a player's quiet hours began) to each of its players not told yet, several
    grouped in one notice; returns the sends."""
    if games is None:
        games = (
            _with_lines()
            .filter(
                status=Game.Status.FINISHED,
                finished_at__gte=quiet.earliest(now, CATCH_UP),
                pk__in=Seat.objects.filter(sender.reaching("user", Notice.Kind.RESULT)).values(
                    "game"
                ),
            )
            .order_by("finished_at", "pk")
        )
    games_of: dict[int, list[Game]] = {}
    for game in games:
        for seat in game.seated():
            games_of.setdefault(seat.user_id, []).append(game)
    return sum(
        len(guarded(_results_of, sender, user, games_of[user.pk], now, ready) or [])
        for user in users(games_of)
    )


def _results_of(sender, user, games, now, ready):
    if not sender.wants(user, Notice.Kind.RESULT):
        return []
    since = quiet.lookback(user, now, CATCH_UP)
    games = [game for game in games if game.status == Game.Status.FINISHED]
    games = [game for game in games if game.finished_at and game.finished_at >= since]
    if sender.results_seen_on_page:
        here = presence.present(user.pk, [game.pk for game in games])
        if here:
            # They watched the result arrive on the game page: nothing to tell later.
            seen = [game for game in games if game.pk in here]
            for outlet in sender.outlets(user):
                sender.ledger.claim(outlet, seen, Notice.Kind.RESULT, stamp=now)
            games = [game for game in games if game.pk not in here]
    if not games or quiet.holding(user, now, CATCH_UP):
        return []
    return deliver(sender, user, Notice.Kind.RESULT, games, now, ready)


# --- The pass -------------------------------------------------------------------------


def drop_stale_claims(sender, now, ready=True) -> int:
    """Release the claims that a worker killed between claim and send left behind: the
    notice was never sent, and this pass (or the next) sends it."""
    sender.ledger.drop_stale(now - sender.stale)
    return 0


STEPS = (drop_stale_claims, reminders, turns, results)


def clock_pass(sender, now=None) -> int:
    """One background pass of ``sender``: every step in turn; returns the sends. Never
    raises. The site's default language is active around the pass; each notice switches
    to its player's own (``deliver``)."""
    now = now or timezone.now()
    ready = sender.ready()
    if ready is None:
        return 0
    sent = 0
    with translation.override(settings.LANGUAGE_CODE):
        for step in STEPS:
            try:
                sent += step(sender, now, ready) or 0
            except Exception:
                log.exception("%s step %s failed", sender.name, step.__name__)
    return sent
