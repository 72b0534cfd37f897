"""The chat's one door: what the game page and its socket, the home page and the league
pages call. Nothing outside ``chat`` imports its other modules."""

import re
import uuid

from django.template.loader import render_to_string
from django.urls import reverse

from chat import access, board, reads, render, services
from chat.announce import BOARD_EVENT, EVENT, board_group
from chat.models import BoardPost, Message
from chat.phrases import PHRASES
from leagues.models import League
from rummy.models import Game

__all__ = [
    "BOARD_EVENT",
    "EVENT",
    "announcements_for_email",
    "board_listening",
    "board_post_html",
    "deliver",
    "drawer",
    "home_announcements",
    "league_board",
    "missed",
    "receive",
    "release_email_announcements",
    "unread_games",
]


# A league's slug as its address takes it (a SlugField, at most 90 characters).
SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]{1,90}$")


def _game(game_id):
    return Game.objects.select_related("league").filter(pk=game_id).first()


def last_id(text):
    """A page's newest message id as it sent it ("" or junk: None)."""
    text = str(text)[:19]
    return int(text) if text.isascii() and text.isdigit() else None


def thread_context(user, game, limit=reads.THREAD):
    """What the drawer and the chat's own page show ``user`` of ``game``'s chat, or None
    when they may not read it."""
    rights = access.game_access(user, game)
    if not rights.read:
        return None
    messages = reads.visible(user, game.pk, limit=limit)
    mute = access.active_mute(user, game.league_id) if rights.write else None
    return {
        "game": game,
        "rights": rights,
        "items": [render.message_context(m, user.pk, rights.moderate) for m in messages],
        "last_id": messages[-1].pk if messages else 0,
        "unread": reads.unread_count(user, game.pk),
        "phrases": [(key, str(words)) for key, words in PHRASES.items()],
        "token": uuid.uuid4().hex,
        "mute_words": services.mute_words(mute) if mute is not None else "",
    }


def drawer(request, game):
    """The game page's chat drawer for the request's user ("" when they may not read)."""
    context = thread_context(request.user, game)
    if context is None:
        return ""
    return render_to_string("chat/_drawer.html", context, request=request)


def after_send(message=None, refusal=None):
    """The sender's own answer: a fresh token for the next message, the words of a
    refusal, and whether the field may be emptied (a typed message that was stored)."""
    return render_to_string(
        "chat/_sent.html",
        {
            "token": uuid.uuid4().hex,
            "chat_flash": refusal,
            "clear": message is not None and not message.phrase,
        },
    )


def receive(user, game_id, data):
    """A chat frame from the game page's socket (``{"chat": "send"|"read", ...}``): the
    HTML for that socket alone. Everyone's copy of a new message comes as ``EVENT``."""
    game = _game(game_id)
    if game is None:
        return ""
    if data.get("chat") == "read":
        last = last_id(data.get("last", ""))
        if last:
            services.mark_read(user, game, last)
        return ""
    try:
        message, _created = services.post(
            user,
            game,
            text=data.get("text", ""),
            phrase=data.get("phrase", ""),
            token=data.get("token", ""),
        )
    except services.ChatRefused as refusal:
        return after_send(refusal=refusal.message)
    return after_send(message)


def deliver(user, game_id, event):
    """One new or changed message (``EVENT``) as ``user``'s socket shows it: only that
    message, or nothing when they may not read it or blocked its author."""
    message_id = event.get("message_id")
    if not isinstance(message_id, int):
        return ""
    message = (
        Message.objects.select_related("author", "game", "game__league")
        .filter(pk=message_id, game_id=game_id)
        .first()
    )
    if message is None:
        return ""
    rights = access.game_access(user, message.game, writing=False)
    if not rights.read or message.author_id in reads.blocked_ids(user):
        return ""
    if event.get("new"):
        return render.appended([message], user.pk, rights.moderate)
    return render.message_html(message, user.pk, rights.moderate, oob="true")


def missed(user, game_id, after):
    """What a reconnecting page missed: the messages after the newest it shows."""
    last = last_id(after)
    if last is None:
        return ""
    game = _game(game_id)
    rights = access.game_access(user, game, writing=False)
    if not rights.read:
        return ""
    return render.appended(reads.visible(user, game_id, after=last), user.pk, rights.moderate)


def unread_games(user, game_ids):
    """Of ``game_ids``, those with messages ``user`` has not seen (the home page)."""
    return reads.unread_games(user, list(game_ids))


def league_board(user, league):
    """The league page's share of its board: the pinned announcements and how many posts
    are new to ``user`` (None for those who may not read it)."""
    may_read, _post, _moderate = board.rights(user, league)
    if not may_read:
        return None
    return {"pinned": board.pinned(user, [league]), "unread": board.unread(user, league)}


def home_announcements(user):
    """The pinned announcements of ``user``'s leagues, for their home page."""
    return board.pinned_for(user)


def announcements_for_email(user):
    """The pinned announcements to include in an email that goes to ``user`` anyway,
    each at most once per member (claimed here: give them back with
    ``release_email_announcements`` if the email is not sent). Plain values: the email
    words them in the member's language around the admins' own words."""
    return [
        {
            "id": p.pk,
            "league": p.league.name,
            "author": p.author.name,
            "text": p.text,
            "posted_at": p.created_at,
            "path": reverse("chat:board", args=[p.league.slug]),
        }
        for p in board.claim_for_email(user)
    ]


def release_email_announcements(user, announcements):
    board.release_email_claims(user, [a["id"] for a in announcements])


def board_listening(user, slug):
    """The socket group a page showing the board of the league ``slug`` joins to get its
    new posts live (``ws/me/?board=<slug>``), or None when ``user`` may not read it."""
    slug = str(slug)
    if not SLUG_RE.match(slug):
        return None
    league = League.objects.filter(slug=slug).first()
    if league is None or not board.rights(user, league)[0]:
        return None
    return board_group(league.pk)


def board_post_html(user, event):
    """A new post (``BOARD_EVENT``) as ``user``'s board page shows it, at the top of its
    posts; nothing when they may no longer read the board, the post is hidden, or they
    blocked its author. The page is open: it counts as read."""
    post_id = event.get("post_id")
    if not isinstance(post_id, int):
        return ""
    found = (
        BoardPost.objects.select_related("league", "author")
        .filter(pk=post_id, hidden=False)
        .first()
    )
    if found is None:
        return ""
    may_read, _post, moderate = board.rights(user, found.league)
    if not may_read or found.author_id in reads.blocked_ids(user):
        return ""
    board.mark_read(user, found.league, found.pk)
    return render_to_string(
        "chat/_board_new.html",
        {"p": found, "league": found.league, "moderate": moderate, "user": user},
    )
