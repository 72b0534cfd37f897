"""Email notifications (async-play issue): "your move", reminders, results, verification.

Rules that hold everywhere here:

- Nothing is sent to an inactive user, an empty or unverified address, or for a kind
  the user switched off (``NotificationPrefs``); the verification email is the one
  exception to "verified only".
- At most one email per (user, game, kind, turn): a ``Notice`` row is inserted FIRST,
  its unique constraint turning a second worker, a retry or a race into an
  IntegrityError, and only then is the email sent; the row is stamped once the mail
  server took it. A failed send releases its claims so that the next pass may try
  again, and so, after ``STALE``, does a claim whose worker was killed before it sent.
- Emails about games ("your move", results) are sent by the background workers' pass
  (``clock_pass``, every ``CLOCK_INTERVAL`` seconds: ``rummy.background``), never in
  the request that made the move: a slow or failing mail server can neither hold up nor
  break a move, and a failure is logged and retried by the next pass.
- Several games awaiting a user's move are grouped into one email.
- Each email is written in its user's language with times in their time zone
  (``leagues.models.speaking_to``: ``User.language`` and ``User.time_zone``, the site's
  default language and UTC while they are unknown), subject and body alike.
- Nothing goes out while the player's quiet hours last (``quiet``): it is not claimed,
  and the first pass after them sends it, grouped as usual.
- "Your move" waits while the player is at the game: its page open on a socket
  (``presence``), or a move of their own in it within ``AWAY_AFTER`` seconds. Such a
  game is skipped, not claimed, so a later pass emails it once they are away (within
  ``CATCH_UP``). Reminders are sent as before: the deadline is near either way.
"""

import logging
import re
import smtplib
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.models import User, speaking_to
from rummy import engine
from rummy.clock.text import deadline_text, time_left_text
from rummy.models import Game, Move, Notice
from rummy.notifications import presence, quiet
from rummy.notifications.prefs import wants
from rummy.notifications.tokens import (
    absolute_url,
    unsubscribe_url,
)

log = logging.getLogger(__name__)


# A reminder is due once a quarter of the turn's time is left.
REMINDER_FRACTION = 4
# The clock only looks this far ahead for reminders: a quarter of the longest turn time a
# season offers. (A longer turn, which no season offers, is reminded this late.)
REMINDER_HORIZON = timedelta(seconds=7 * 86400 // REMINDER_FRACTION)
# The clock's catch-up for "your move" and result emails that were never claimed (a
# process that died between commit and send, or a send that failed).
CATCH_UP = timedelta(hours=1)

# The moves a player makes themselves; the log's other entries (the start, a deal, a
# timeout, the host's end or void) say nothing about whether the player is there.
OWN_MOVES = (Move.Kind.DRAW, Move.Kind.MELD, Move.Kind.KNOCK, Move.Kind.PASS)

# A claim this old that was never stamped belongs to a worker that died before it sent
# (longer than any pass takes: each email waits at most EMAIL_TIMEOUT for the server).
STALE = timedelta(minutes=10)

MAIL_ERRORS = (smtplib.SMTPException, OSError)

# What ``subject_text`` turns into a space: C0 and C1 controls and the line and
# paragraph separators (whitespace proper is collapsed by ``str.split``).
_CONTROL_RE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


# --- Sending --------------------------------------------------------------------------


def subject_text(text) -> str:
    """``text`` made safe for a Subject header: every run of whitespace or control
    characters (a CR LF in a league's name, a tab, a line separator) becomes one space.
    Names are checked when a form takes them (``leagues.validators``), but one stored
    before that check or through the admin must not break, or inject into, a header."""
    return " ".join(_CONTROL_RE.sub(" ", str(text)).split())


def send(user, subject, template, context, pref=None, build_url=absolute_url) -> bool:
    """Render ``notifications/email/<template>.txt`` and ``.html`` and send them to ``user``. With
    ``pref``, the email carries that kind's one-click unsubscribe link and headers.
    The body is rendered in ``user``'s language and time zone; the caller words the
    subject inside ``speaking_to(user)`` too (a lazy subject is worded here).
    True when the mail server accepted it. Errors are logged, never raised: whatever
    breaks one email (the mail server, a template, a bad header) must not stop the
    clock's pass from sending the others."""
    try:
        with speaking_to(user):
            message = _message(user, subject, template, context, pref, build_url)
        message.send()
    except MAIL_ERRORS:
        log.warning("could not send the %s email to user %s", template, user.pk, exc_info=True)
        return False
    except Exception:
        log.exception("could not build or send the %s email to user %s", template, user.pk)
        return False
    return True


def _message(user, subject, template, context, pref, build_url):
    context = {
        "user": user,
        "site_url": build_url("/"),
        "settings_url": build_url(reverse("notifications:settings")),
        **context,
    }
    headers = {}
    if pref:
        link = unsubscribe_url(user, pref)
        context["unsubscribe_url"] = link
        headers["List-Unsubscribe"] = f"<{link}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject=subject_text(subject),
        body=render_to_string(f"notifications/email/{template}.txt", context),
        to=[user.email],
        headers=headers,
    )
    message.attach_alternative(
        render_to_string(f"notifications/email/{template}.html", context), "text/html"
    )
    return message


def _send_claimed(user, notices, template, build, pref):
    """Build (``build()`` returns the subject and the context) and send the one email
    that ``notices`` were claimed for. On any failure the claims are released, so that
    the next pass tries again, and the failure is logged, never raised. Everything is
    worded for ``user`` (their language and time zone)."""
    try:
        with speaking_to(user):
            subject, context = build()
    except Exception:
        log.exception("could not prepare the %s email to user %s", template, user.pk)
        sent = False
    else:
        sent = send(user, subject, template, context, pref=pref)
    if sent:
        Notice.objects.filter(pk__in=[n.pk for n in notices]).update(sent_at=timezone.now())
    else:
        _release(notices)
    return sent


def _claim(user, game, kind, turn_started_at):
    """Insert the Notice that says this email is (being) sent; None when it already was."""
    try:
        with transaction.atomic():
            return Notice.objects.create(
                user=user, game=game, kind=kind, turn_started_at=turn_started_at
            )
    except IntegrityError:
        return None


def _release(notices):
    Notice.objects.filter(pk__in=[n.pk for n in notices]).delete()


def _claim_current_turns(user, games, kind):
    """Claim ``kind`` for each game's current turn, then re-read the games and drop (and
    release) those whose turn moved on meanwhile: a notice that comes after the player
    already moved does nothing."""
    claimed = {}
    for game in games:
        notice = _claim(user, game, kind, game.turn_started_at)
        if notice is not None:
            claimed[game.pk] = (game, notice)
    if not claimed:
        return []
    current = set(
        Game.objects.filter(pk__in=claimed, status=Game.Status.ACTIVE, to_move=user).values_list(
            "pk", "turn_started_at"
        )
    )
    games, stale = [], []
    for game, notice in claimed.values():
        if (game.pk, game.turn_started_at) in current:
            games.append((game, notice))
        else:
            stale.append(notice)
    _release(stale)
    return games


def _game_line(game, user, now):
    others = [s.user.name for s in game.seated() if s.user_id != user.pk]
    return {
        "game": game,
        "league": game.league.name,
        "opponents": ", ".join(others),
        "url": absolute_url(game.get_absolute_url()),
        "deadline": deadline_text(game.turn_deadline) if game.turn_deadline else "",
        "time_left": time_left_text(game.turn_deadline, now) if game.turn_deadline else "",
    }


def _with_lines():
    return _emailed_games().select_related("league").prefetch_related("seats__user")


def _emailed_games():
    """Games that send email: not practice games, whose one player is at the
    table against bots and whose results count for nothing."""
    return Game.objects.filter(league__isnull=False)


# --- "Your move" ----------------------------------------------------------------------


def _noticed(kind, user_ref="to_move"):
    return Exists(
        Notice.objects.filter(
            game=OuterRef("pk"),
            user=OuterRef(user_ref),
            kind=kind,
            turn_started_at=OuterRef("turn_started_at"),
        )
    )


def away_after():
    return timedelta(seconds=getattr(settings, "AWAY_AFTER", 300))


def at_the_game(user, games, now):
    """The ids of those ``games`` whose page ``user`` has open, or in which they moved
    within ``AWAY_AFTER``: someone playing live needs no email for every turn (one
    player got 7 in 6.5 minutes)."""
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


def notify_user_turns(user, now=None) -> int:
    """One email listing every game awaiting ``user``'s move that has not been notified
    for its current turn and where the user is away (``at_the_game``). Returns the
    number of games the email listed (0: none sent)."""
    if not wants(user, Notice.Kind.YOUR_MOVE):
        return 0
    now = now or timezone.now()
    if quiet.holding(user, now, CATCH_UP):
        return 0
    pending = list(
        _with_lines()
        .filter(status=Game.Status.ACTIVE, to_move=user, turn_started_at__isnull=False)
        .exclude(_noticed(Notice.Kind.YOUR_MOVE))
        .order_by("turn_deadline")
    )
    # Not claimed: the next pass looks again, and emails once the user has gone.
    here = at_the_game(user, pending, now)
    pending = [game for game in pending if game.pk not in here]
    claimed = _claim_current_turns(user, pending, Notice.Kind.YOUR_MOVE)
    if not claimed:
        return 0

    def build():
        lines = [_game_line(game, user, now) for game, _notice in claimed]
        waiting = Game.objects.filter(status=Game.Status.ACTIVE, to_move=user).count()
        subject = ngettext(
            "Your move in %(league)s", "Your move in %(count)d games", len(lines)
        ) % {"league": lines[0]["league"], "count": len(lines)}
        return subject, {"games": lines, "others_waiting": max(waiting - len(lines), 0)}

    notices = [notice for _game, notice in claimed]
    if _send_claimed(user, notices, "your_move", build, pref="your_move"):
        return len(claimed)
    return 0


def _users(user_ids):
    ids = {pk for pk in user_ids if pk is not None}
    return list(User.objects.filter(pk__in=ids).select_related("notification_prefs"))


# --- Results --------------------------------------------------------------------------


def notify_result(game, now=None) -> int:
    """The result email of ``game`` to each seated player who wants it, once per game."""
    return _send_results(_results_due(game, now or timezone.now()))


def _results_due(game, now) -> list[dict]:
    """What each seated player of a finished ``game`` is to be told of its result now
    (not claimed yet: ``_send_results`` claims)."""
    if game.status != Game.Status.FINISHED:
        return []
    seats = sorted(
        game.seats.select_related("user", "user__notification_prefs"),
        key=lambda s: (-(s.final_score or 0), s.number if s.number is not None else 99),
    )
    standings = [
        {
            "name": s.user.name,
            "score": s.final_score,
            "winner": s.is_winner,
            "rounds_won": s.rounds_won,
        }
        for s in seats
    ]
    winners = [s.user.name for s in seats if s.is_winner]
    due = []
    for seat in seats:
        user = seat.user
        if not wants(user, Notice.Kind.RESULT) or quiet.holding(user, now, CATCH_UP):
            continue
        # Older than the usual catch-up: looked at only for a player whose quiet hours held it.
        old = game.finished_at and game.finished_at < now - CATCH_UP
        if old and game.finished_at < quiet.lookback(user, now, CATCH_UP):
            continue
        due.append({"game": game, "seat": seat, "standings": standings, "winners": winners})
    return due


def _result_line(item) -> dict:
    game, seat = item["game"], item["seat"]
    return {
        "game": game,
        "league": game.league.name,
        "url": absolute_url(game.get_absolute_url()),
        "standings": item["standings"],
        "winners": ", ".join(item["winners"]),
        "you_won": seat.is_winner,
        "your_score": seat.final_score,
        "ended_early": ((game.state or {}).get("last_round") or {}).get("reason")
        == engine.RoundEnd.ENDED_EARLY,
    }


def _send_results(due) -> int:
    """One email per player: the result of one game, or of several in one email when
    several are due at once (what quiet hours held overnight)."""
    by_user: dict[int, list[dict]] = {}
    for item in due:
        by_user.setdefault(item["seat"].user_id, []).append(item)
    sent = 0
    for items in by_user.values():
        user = items[0]["seat"].user
        claimed = []
        for item in items:
            notice = _claim(user, item["game"], Notice.Kind.RESULT, None)
            if notice is not None:
                claimed.append((item, notice))
        if not claimed:
            continue

        def build(claimed=claimed):
            lines = [_result_line(item) for item, _notice in claimed]
            if len(lines) > 1:
                subject = ngettext(
                    "%(count)s of your games has ended",
                    "%(count)s of your games have ended",
                    len(lines),
                ) % {"count": len(lines)}
                return subject, {"games": lines}
            line = lines[0]
            if line["you_won"]:
                subject = _("You won in %(league)s!") % {"league": line["league"]}
            else:
                subject = _("Game over in %(league)s") % {"league": line["league"]}
            return subject, line

        template = "results" if len(claimed) > 1 else "result"
        notices = [notice for _item, notice in claimed]
        if _send_claimed(user, notices, template, build, pref="results"):
            sent += 1
    return sent


# --- The hooks ------------------------------------------------------------------------


def send_due_reminders(now=None) -> int:
    """Remind each player whose turn has a quarter (or less) of its time left, once per
    turn, grouped per player. Returns how many emails were sent."""
    now = now or timezone.now()
    candidates = (
        _with_lines()
        .filter(
            status=Game.Status.ACTIVE,
            to_move__isnull=False,
            to_move__email_verified=True,
            turn_started_at__isnull=False,
            turn_deadline__gt=now,
            turn_deadline__lte=now + REMINDER_HORIZON,
        )
        .exclude(_noticed(Notice.Kind.REMINDER))
        .order_by("turn_deadline")
    )
    due: dict[int, list[Game]] = {}
    for game in candidates:
        # A quarter of the turn's own time, not of all it spans: a deadline moved on by
        # the mover's vacation must not bring the reminder into the vacation.
        span = min(game.turn_deadline - game.turn_started_at, timedelta(seconds=game.turn_seconds))
        quarter = span / REMINDER_FRACTION
        if now >= game.turn_deadline - quarter:
            due.setdefault(game.to_move_id, []).append(game)
    sent = 0
    for user in _users(due):
        if not wants(user, Notice.Kind.REMINDER) or quiet.holding(user, now, CATCH_UP):
            continue
        claimed = _claim_current_turns(user, due[user.pk], Notice.Kind.REMINDER)
        if not claimed:
            continue

        def build(user=user, claimed=claimed):
            lines = [_game_line(game, user, now) for game, _notice in claimed]
            subject = ngettext(
                "Reminder: your move in %(league)s, %(left)s",
                "Reminder: %(count)d games await your move",
                len(lines),
            ) % {"league": lines[0]["league"], "left": lines[0]["time_left"], "count": len(lines)}
            return subject, {"games": lines}

        notices = [notice for _game, notice in claimed]
        if _send_claimed(user, notices, "reminder", build, pref="reminders"):
            sent += 1
    return sent


def catch_up(now=None) -> int:
    """Send the "your move" and result emails of recent changes not sent yet: those
    since the last pass, and any that failed (the mail server was down). Only looks
    back ``CATCH_UP``, so it never digs up old turns; further for what quiet hours held
    (``quiet``: the players whose hold ended, the results since it began)."""
    now = now or timezone.now()
    since = now - CATCH_UP
    turn_users = {
        *_emailed_games()
        .filter(
            status=Game.Status.ACTIVE,
            to_move__email_verified=True,
            turn_started_at__gte=since,
        )
        .exclude(_noticed(Notice.Kind.YOUR_MOVE))
        .values_list("to_move", flat=True),
        *quiet.released_user_ids(now),
    }
    sent = sum(1 for user in _users(turn_users) if _guarded(notify_user_turns, user, now))
    finished = (
        _emailed_games()
        .filter(status=Game.Status.FINISHED, finished_at__gte=quiet.earliest(now, CATCH_UP))
        .select_related("league")
    )
    due: list[dict] = []
    for game in finished:
        due += _guarded(_results_due, game, now) or []
    return sent + _guarded(_send_results, due)


def _guarded(notify, *args):
    """``notify(*args)``, or 0 when it fails: one user's or one game's trouble is logged
    and the pass goes on to the others (their claims, if any, were released)."""
    try:
        return notify(*args)
    except Exception:
        log.exception("%s failed for %r", notify.__name__, args[0])
        return 0


def drop_stale_claims(now=None) -> int:
    """Release the claims that a worker killed between claim and send left behind: the
    email was never sent, and this pass (or the next) sends it."""
    now = now or timezone.now()
    stale = Notice.objects.filter(sent_at__isnull=True, claimed_at__lt=now - STALE)
    return stale.delete()[0]


def clock_pass(now=None):
    """The turn clock's share of notifications (``rummy.clock.deadlines.tick``). Never raises.
    The site's default language is active around the pass; each email switches to its
    user's own (``send``, ``_send_claimed``)."""
    with translation.override(settings.LANGUAGE_CODE):
        for step in (drop_stale_claims, send_due_reminders, catch_up):
            try:
                step(now)
            except Exception:
                log.exception("notification step %s failed", step.__name__)
