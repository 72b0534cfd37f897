"""Email notifications: the email sender of the background pass (``EMAIL``: "your
move", reminders, results; ``pipeline`` decides what is due, claims and retries), and
``send``, which account emails use too (``accounts``: verification).

What is the email's own:

- Nothing is sent to an inactive user, an empty or unverified address, or for a kind
  the user switched off (``NotificationPrefs``) or that one of their devices is pushed
  (``prefs.wants``); the verification email is the one exception to "verified only".
- One email per player and pass for each kind, listing every game it is about; the
  ledger is ``Notice`` (one row per user, game, kind and turn).
- Every email lists each game awaiting the player's move not emailed yet (not only
  those of the last hour), is sent even while the player is at the game for a reminder
  (the deadline is near either way), and for a result (a record of the game).
- Emails about games are sent by the background workers' pass, never in the request
  that made the move: a slow or failing mail server can neither hold up nor break a
  move, and a failure is logged and retried by the next pass.
- Each email is written in its user's language with times in their time zone
  (``leagues.models.speaking_to``), subject and body alike.
- An email about games carries, below them, the pinned announcements of the player's
  leagues not sent to them yet (``chat.public.announcements_for_email``: each once per
  member, given back if the email fails). An announcement never has an email of its own:
  it waits for the next email the player gets anyway.
"""

import logging
import re
import smtplib
from datetime import timedelta

from django.core.mail import EmailMultiAlternatives
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chat import public as chat
from leagues.models import speaking_to
from rummy import engine
from rummy.clock.text import deadline_text, time_left_text
from rummy.models import Game, Notice
from rummy.notifications import pipeline
from rummy.notifications.pipeline import Outcome
from rummy.notifications.prefs import PREF_OF_KIND, wants
from rummy.notifications.tokens import absolute_url, unsubscribe_url

log = logging.getLogger(__name__)

# A claim this old that was never stamped belongs to a worker that died before it began
# to send (longer than any pass takes: each email waits at most EMAIL_TIMEOUT).
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


def send(user, subject, template, context, pref=None, build_url=absolute_url, sending=None) -> bool:
    """Render ``notifications/email/<template>.txt`` and ``.html`` and send them to ``user``. With
    ``pref``, the email carries that kind's one-click unsubscribe link and headers.
    The body is rendered in ``user``'s language and time zone; the caller words the
    subject inside ``speaking_to(user)`` too (a lazy subject is worded here).
    True when the mail server accepted it. Errors are logged, never raised: whatever
    breaks one email (the mail server, a template, a bad header) must not stop the
    clock's pass from sending the others. ``sending``: called once the message is
    built, just before it goes to the mail server (the pipeline stamps its claims)."""
    try:
        with speaking_to(user):
            message = _message(user, subject, template, context, pref, build_url)
        if sending is not None:
            sending()
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


# --- The email sender of the pipeline -------------------------------------------------


def _noticed(kind, user_ref):
    return Exists(
        Notice.objects.filter(
            game=OuterRef("pk"),
            user=OuterRef(user_ref),
            kind=kind,
            turn_started_at=OuterRef("turn_started_at"),
        )
    )


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


def _result_line(game, user) -> dict:
    seats = sorted(
        game.seated(),
        key=lambda s: (-(s.final_score or 0), s.number if s.number is not None else 99),
    )
    seat = next(s for s in seats if s.user_id == user.pk)
    return {
        "game": game,
        "league": game.league.name,
        "url": absolute_url(game.get_absolute_url()),
        "standings": [
            {
                "name": s.user.name,
                "score": s.final_score,
                "winner": s.is_winner,
                "rounds_won": s.rounds_won,
            }
            for s in seats
        ],
        "winners": ", ".join(s.user.name for s in seats if s.is_winner),
        "you_won": seat.is_winner,
        "your_score": seat.final_score,
        "ended_early": ((game.state or {}).get("last_round") or {}).get("reason")
        == engine.RoundEnd.ENDED_EARLY,
    }


class EmailSender(pipeline.Sender):
    """One email per player, from the template of its kind, with that kind's one-click
    unsubscribe link."""

    name = "email"
    ledger = Notice
    stale = STALE

    def wants(self, user, kind) -> bool:
        return wants(user, kind)

    def reaching(self, user_ref, kind) -> Q:
        verified = Q(**{f"{user_ref}__email_verified": True})
        if kind == Notice.Kind.RESULT:
            return verified
        return verified & ~_noticed(kind, user_ref)

    def outlets(self, user) -> list:
        return [user]

    def word(self, kind, user, told, waiting, now):
        """(template, subject, context) of the email about ``told``."""
        if kind == Notice.Kind.YOUR_MOVE:
            lines = [_game_line(game, user, now) for game in told]
            others = Game.objects.filter(status=Game.Status.ACTIVE, to_move=user).count()
            subject = ngettext(
                "Your move in %(league)s", "Your move in %(count)d games", len(lines)
            ) % {"league": lines[0]["league"], "count": len(lines)}
            context = {"games": lines, "others_waiting": max(others - len(lines), 0)}
            return "your_move", subject, context
        if kind == Notice.Kind.REMINDER:
            lines = [_game_line(game, user, now) for game in told]
            subject = ngettext(
                "Reminder: your move in %(league)s, %(left)s",
                "Reminder: %(count)d games await your move",
                len(lines),
            ) % {"league": lines[0]["league"], "left": lines[0]["time_left"], "count": len(lines)}
            return "reminder", subject, {"games": lines}
        lines = [_result_line(game, user) for game in told]
        if len(lines) > 1:
            subject = ngettext(
                "%(count)s of your games has ended",
                "%(count)s of your games have ended",
                len(lines),
            ) % {"count": len(lines)}
            return "results", subject, {"games": lines}
        line = lines[0]
        if line["you_won"]:
            subject = _("You won in %(league)s!") % {"league": line["league"]}
        else:
            subject = _("Game over in %(league)s") % {"league": line["league"]}
        return "result", subject, line

    def send(self, user, outlet, kind, message, told, now, ready, sending) -> Outcome:
        template, subject, context = message
        announcements = _announcements(user)
        if announcements:
            context = {**context, "announcements": _announcement_lines(announcements)}
        sent = send(user, subject, template, context, pref=PREF_OF_KIND[kind], sending=sending)
        if not sent and announcements:
            _give_back(user, announcements)
        return Outcome.SENT if sent else Outcome.FAILED


def _announcements(user) -> list:
    """The announcements this email carries (claimed); none when the chat cannot say:
    its trouble must not hold up an email about games."""
    try:
        return chat.announcements_for_email(user)
    except Exception:
        log.exception("could not read the announcements for user %s", user.pk)
        return []


def _announcement_lines(announcements) -> list:
    return [{**a, "url": absolute_url(a["path"])} for a in announcements]


def _give_back(user, announcements):
    try:
        chat.release_email_announcements(user, announcements)
    except Exception:
        log.exception("could not give back the announcements of user %s", user.pk)


EMAIL = EmailSender()


# --- The pass and its steps, by name (the background work and the tests call them) ----


def notify_user_turns(user, now=None) -> int:
    """One email listing every game awaiting ``user``'s move that has not been emailed
    for its current turn and where the user is away (``pipeline.at_the_game``). Returns
    the number of games the email listed (0: none sent)."""
    told = pipeline.turns_of(EMAIL, user, now or timezone.now())
    return sum(len(games) for games in told)


def notify_result(game, now=None) -> int:
    """The result email of ``game`` to each seated player who wants it, once per game."""
    return pipeline.results(EMAIL, now or timezone.now(), games=[game])


def send_due_reminders(now=None) -> int:
    """Remind each player whose turn has a quarter (or less) of its time left, once per
    turn, grouped per player. Returns how many emails were sent."""
    return pipeline.reminders(EMAIL, now or timezone.now())


def catch_up(now=None) -> int:
    """Send the "your move" and result emails of recent changes not sent yet: those
    since the last pass, and any that failed (the mail server was down). Only looks
    back ``CATCH_UP``, so it never digs up old turns; further for what quiet hours held
    (``quiet``: the players whose hold ended, the results since it began)."""
    now = now or timezone.now()
    return pipeline.turns(EMAIL, now) + pipeline.results(EMAIL, now)


def drop_stale_claims(now=None) -> int:
    """Release the claims that a worker killed between claim and send left behind."""
    return EMAIL.ledger.drop_stale((now or timezone.now()) - STALE)


def clock_pass(now=None) -> int:
    """The emails of one background pass (``pipeline.clock_pass``). Never raises."""
    return pipeline.clock_pass(EMAIL, now)
