"""A game page's parts for one user, the version they show, and what changed since.

The page is one form made of parts (``build_frames``), each an element with its own id that
htmx swaps by id (``hx-swap-oob``). A socket remembers a digest of every part it has
sent and after a move or an editor tap sends only the parts that differ (``Frames.since``):
a tap that selects a card changes one meld or the hand, a move changes the table's
touched melds, the counts and the status, and another player's hand is never in it.
The table's melds are parts of their own inside the table's part: when the table's
shape (how many melds, editing or not) is unchanged only the changed melds travel.

The presenters (``rummy.table.presenters``) say what the user sees as typed values
(``GamePage``) and read nothing from the database; what they need besides the game (what
the user may do in the league, and their draft when they are arranging) is read here,
once per render. A template's context is those values' fields by name
(``template_context``): ``{{ hint }}`` is ``GamePage.play.hint``. ``render_remembered``
is the fast path after a move: everything comes from this process's memory, so it runs
on the event loop without a thread hop.
"""

import dataclasses
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html

from config import caches
from rummy import play
from rummy.play import drafts
from rummy.table import access, html, memory, presenters
from rummy.table.fragments import fragment, fragment_from, made
from rummy.table.presenters import GamePage, InPlay, game_page, last_round, meld

FRAMES_TEMPLATE = "rummy/_game_frames.html"
OOB = ' hx-swap-oob="true"'


@caches.memo(maxsize=4096)
def digest(html):
    # Most parts are the very strings of the fragment cache (rummy.table.fragments), the
    # same objects render after render: a string keeps its hash, so a repeated part's
    # digest is a lookup, not a pass over its bytes. (At most a few MB of strings held.)
    return hashlib.blake2b(html.encode(), digest_size=8).digest()


@dataclass(frozen=True)
class Part:
    """One swappable element: ``html`` carries ``hx-swap-oob``. ``children`` (the
    melds of the table) may be sent alone when ``shell`` (the part without them) is
    unchanged; inside ``html`` they carry no oob attribute of their own."""

    id: str
    html: str
    children: tuple["Part", ...] | None = None
    shell: bytes = b""
    # Where a new child goes (an htmx oob swap: style and selector), and the children's id
    # prefix (child i is ``child_prefix + str(i)``).
    insert: str = ""
    child_prefix: str = ""

    @property
    def key(self):
        return digest(self.html)

    def standalone(self):
        """A child's html as a frame of its own (htmx swaps it by its id)."""
        marker = f'id="{self.id}"'
        return self.html.replace(marker, marker + OOB, 1)


@dataclass
class Frames:
    """A user's view of a game at one version: its parts, and the whole form (``html``:
    a page's body, an HTMX answer, a socket with nothing to compare), rendered only when
    asked for: after a move most sockets send a few parts and never need it."""

    form: Callable[[str], str]  # the whole form, given the stamp's hidden input
    version: int
    parts: tuple[Part, ...] = ()
    kind: str = "game"
    digests: dict = field(default_factory=dict)
    # The user this version awaits (the player to move of a running game), else None:
    # what a socket's count of games awaiting its user's move follows (table.awaiting).
    awaits: int | None = None

    @cached_property
    def html(self):
        return self.form(_stamp_html(self.stamp))

    @cached_property
    def stamp(self):
        """One short digest of the whole view: the page sends it when its socket
        connects, so a socket whose view is the same sends nothing first, and with every
        POST (the form's hidden ``stamp``, kept current by every frame), so that the
        answer holds only what changed (``answer``)."""
        h = hashlib.blake2b(digest_size=8)
        h.update(self.kind.encode())
        for part in self.parts:
            h.update(part.key)
        return h.hexdigest()

    def since(self, sent):
        """(html to send, digests now shown) given ``sent``, what the page shows (None:
        unknown, send everything)."""
        now = self.digests
        if sent is None or sent.get("kind") != self.kind:
            return self.html, now
        out = []
        for part in self.parts:
            if sent.get(part.id) == now[part.id]:
                continue
            if part.children is not None and sent.get(part.id + "/shell") == part.shell:
                out.extend(_children_since(part, sent, now))
            else:
                out.append(part.html)
        if out:
            out.append(_stamp_html(self.stamp))
        return "".join(out), now

    def answer(self, shown):
        """The HTMX answer to a POST from a page showing the view whose digests are
        ``shown`` (``memory.views``, by the stamp it sent; None: unknown, the whole form).
        The message area always travels: a socket's refusal (a frame of its own) does
        not change the page's stamp."""
        if shown is None:
            return self.html
        return self.since({**shown, "flash": None})[0]


def _children_since(part, sent, now):
    """The table's melds that changed, were added (inserted at the end of the list) or
    are gone (deleted), when the table itself (editing or not) is unchanged."""
    shown = sent.get(part.id + "/n", 0)
    out = []
    for i, child in enumerate(part.children):
        if i >= shown:
            out.append(f'<div hx-swap-oob="{part.insert}">{child.html}</div>')
        elif sent.get(child.id) != now[child.id]:
            out.append(child.standalone())
    out.extend(
        f'<div id="{child_id}" hx-swap-oob="delete"></div>'
        for child_id in (f"{part.child_prefix}{i}" for i in range(len(part.children), shown))
    )
    return out


def _digests(kind, parts):
    out = {"kind": kind}
    for part in parts:
        out[part.id] = part.key
        if part.children is not None:
            out[part.id + "/shell"] = part.shell
            out[part.id + "/n"] = len(part.children)
            for child in part.children:
                out[child.id] = child.key
    return out


def flash_html(message):
    """The message area alone, with ``message`` (a socket's refusal, its goodbye)."""
    return render_to_string("rummy/_flash.html", {"flash": message})


def _render(template, ctx):
    return render_to_string(template, ctx)


@caches.memo(maxsize=1024)
def _version_html(version):
    # Made once per version number: every socket of a process renders the same one.
    return format_html(
        '<input type="hidden" name="version" id="view-version" value="{0}" '
        'data-version="{0}" hx-swap-oob="true">',
        version,
    )


def template_context(page: GamePage) -> dict:
    """The templates' context for ``page``: the fields of the page and of its part (open
    or in play, the hand's too), each by its name."""
    ctx = {name: getattr(page, name) for name in PAGE_FIELDS}
    part = page.open if page.open is not None else page.play
    if part is not None:
        ctx.update((name, getattr(part, name)) for name in _fields(type(part)))
    if page.play is not None:
        ctx.update((name, getattr(page.play.hand, name)) for name in HAND_FIELDS)
    return ctx


@caches.memo()
def _fields(kind):
    # A few kinds (the page's parts), each read once.
    return tuple(f.name for f in dataclasses.fields(kind) if f.name != "hand")


PAGE_FIELDS = tuple(n for n in _fields(GamePage) if n not in ("open", "play"))
HAND_FIELDS = _fields(presenters.Hand) + ("hand",)


def _status_html(play: InPlay, here):
    """Everyone sees the same status at one version (the clock's time left to the
    minute), but for the player to move's words: made once per what it shows."""
    status = play.status
    minute = int(time.time() // 60) if status.deadline else None

    def build():
        return html.status_line(status, made("status-words", (), html.status_words, here))

    return made("status", (status, minute), build, here)


def _hand_html(page: GamePage, play: InPlay):
    """Outside the editor another player's move does not change a hand: made once per
    hand, order and mark, not once per move and socket."""
    hand = play.hand
    if hand.editing:
        return _hand_section(page, hand)
    key = (page.game.pk, tuple((c.code, c.drawn) for c in hand.hand), page.sort, hand.hand_points)
    return made("hand", key, lambda: _hand_section(page, hand), page.where)


def _hand_section(page, hand):
    head = made(
        "hand-head",
        (page.game.pk, page.sort),
        lambda: html.hand_head(page.sort, reverse("rummy:table", args=[page.game.pk])),
        page.where,
    )
    return html.hand_section(hand.hand, hand.hand_points, hand.editing, head)


def _players_html(page: GamePage, play: InPlay):
    """The players panel. Keyed by what its rows show, not the version (the same rows,
    the same HTML), and made once for every viewer: only the viewer's own "(you)" and,
    when a bot plays their seat, "I'm back" differ, and go in at their places
    (``html.Panel``), so that after a move each process builds the panel once, not once
    per socket. Each row is made once per what it shows too: a move changes one or two
    rows, and only those are built again."""
    players, absent, may_end, final = play.players, play.absent, play.may_end_early, play.final
    here = page.where

    def build():
        words = made("players-words", (), lambda: _panel_words(here), here)
        rows = [_player_row(p, p.number in absent, final, words, here) for p in players]
        odds = any(p.chance is not None for p in players)
        return html.players_panel(rows, words, odds, may_end)

    panel = made("players", (page.game.pk, players, absent, may_end, final), build, here)
    seat = page.my_seat.number if page.my_seat is not None else None
    me = next((p for p in players if p.number == seat), None)
    you = fragment_from("rummy/_you.html", dict, (), here) if me is not None else html.NOTHING
    back = (
        fragment_from("rummy/_back_in_person.html", dict, (), here)
        if me and me.stand_in
        else html.NOTHING
    )
    return panel.for_viewer(seat, you, back)


def _panel_words(here):
    return html.panel_words(fragment_from("rummy/_bot_icon.html", dict, (), here))


def _player_row(p, absent, final, words, here):
    return made(
        "player-row", (p, absent, final), lambda: html.player_row(p, absent, final, words), here
    )


def _stamp_html(stamp):
    return format_html(
        '<input type="hidden" name="stamp" id="view-stamp" value="{}" hx-swap-oob="true">', stamp
    )


@caches.memo()
def _placeholder(part_id):
    # A few part ids, each made once.
    return format_html('<section id="{}" hidden hx-swap-oob="true"></section>', part_id)


def _meld_html(m, editing, here):
    """One meld's part. Outside the editor a meld looks the same to everyone at any
    version: made once per place and cards."""
    if editing:
        return _render("rummy/_meld.html", {"m": m, "editing": True})
    return fragment_from("rummy/_meld.html", _shared_meld_context, (m.index, m.codes), here)


def _shared_meld_context(index, codes):
    """What ``rummy/_meld.html`` shows of a meld outside the editor: the same to everyone
    at any version, for its place and cards."""
    return {"m": meld(index, codes), "editing": False}


def _not_final():
    return {"final": False}


def _last_round_html(play: InPlay, here):
    """A finished round never changes: its (large) revealed hands render once."""
    key = play.last_round_key
    if key is None:
        return ""
    return fragment_from("rummy/_last_round.html", _last_round_context, key, here)


def _last_round_context(names, last):
    return {"last_round": last_round(names, last)}


def build_frames(page: GamePage, csrf_token=None) -> Frames:
    """Render every part of ``page`` (``presenters.game_page``), then the form that holds
    them (with ``csrf_token`` for a page served over HTTP)."""
    version = page.version
    here = page.where
    ctx = template_context(page)
    if csrf_token is not None:
        ctx["csrf_token"] = csrf_token
    # The empty message area is the same for everyone: rendered once, from its template.
    flash = (
        _render("rummy/_flash.html", ctx)
        if page.flash
        else fragment_from("rummy/_flash.html", lambda: {"flash": None}, (), here)
    )
    play = page.play
    if play is None:
        kind = "open"
        parts: tuple[Part, ...] = (
            Part("view-version", _version_html(version)),
            Part("seating", _render("rummy/_seating.html", ctx)),
            Part("flash", flash),
        )
        named = {"version": parts[0].html, "seating": parts[1].html, "flash": flash}
    else:
        kind = "game"
        editing = play.hand.editing
        melds = tuple(
            Part(f"meld-{m.index}", _meld_html(m, editing, here)) for m in play.hand.melds
        )
        melds_html = html.join(m.html for m in melds)
        if editing:
            table_html = _render("rummy/_melds.html", {**ctx, "melds_html": melds_html})
        else:  # the same for every viewer at one version
            table_html = fragment("rummy/_melds.html", {**ctx, "melds_html": melds_html}, here)
        # The table's frame: what it holds besides the melds (editing or not, the words of
        # an empty table, the language); melds come and go inside it on their own.
        shell = digest(f"{editing}|{not melds}|{here[0]}")
        insert = "beforebegin:#btn-new-meld" if editing else "beforeend:#meld-list"
        show_hand = page.is_player and not play.final
        # Most parts look the same to many viewers at one version: each is rendered once
        # per what it shows (rummy.table.fragments), not once per socket.
        if editing:
            controls = _render("rummy/_controls.html", ctx)
        else:
            controls = fragment("rummy/_controls.html", ctx, here)
        named = {
            "version": _version_html(version),
            "status": _status_html(play, here),
            # Until the game is over, the same empty placeholder for everyone.
            "final": fragment("rummy/_final.html", ctx, here)
            if play.final
            else fragment_from("rummy/_final.html", _not_final, (), here),
            "melds": table_html,
            "flash": flash,
            "hint": fragment("rummy/_hint.html", ctx, here),
            "hand": _hand_html(page, play) if show_hand else "",
            "controls": controls,
            "players": _players_html(page, play),
            # In the page even before the first round ends, for a frame to swap it in.
            "last_round": _last_round_html(play, here) or _placeholder("last-round"),
        }
        ids = {
            "version": "view-version",
            "melds": "table-melds",
            "last_round": "last-round",
        }
        # An absent part travels as an empty element with its id (a hand once the game
        # is over, the last round before the first one ends), so that a later frame can
        # swap it; the form leaves it out.
        parts = tuple(
            Part(ids.get(name, name), html, melds, shell, insert, "meld-")
            if name == "melds"
            else Part(ids.get(name, name), html or _placeholder(ids.get(name, name)))
            for name, html in named.items()
        )

    def form(stamp_html):
        return render_to_string(
            FRAMES_TEMPLATE,
            {
                **ctx,
                "parts": named,
                "stamp_input": stamp_html,
            },
        )

    game = page.game
    awaits = game.to_move_id if game.is_active else None
    frames = Frames(form, version, parts, kind, _digests(kind, parts), awaits)
    # What a page holding this view shows, by its stamp: a POST that sends the stamp
    # is answered with only what changed since (``Frames.answer``).
    memory.views.put(frames.stamp, frames.digests)
    return frames


def page_of(game, user, sort, flash=None, read_draft=True, rights_age=None) -> GamePage:
    """What the game page shows ``user`` (reads rights and draft: 1-2 queries).
    ``read_draft=False``: the caller knows no draft belongs to this version.
    ``rights_age``: as ``access.rights``' ``max_age``."""
    seat = play.seat_of(game, user)
    state = game.engine_state()
    draft = None
    if read_draft and seat is not None and state is not None and seat.number == state.turn:
        # Only the player to move can be arranging.
        draft = drafts.current_draft(game, seat.number)
    rights = access.rights(user, game, rights_age)
    return game_page(game, user, sort, flash, rights=rights, draft=draft)


def render_frames(game, user, sort, flash=None, rights_age=None) -> Frames:
    return build_frames(page_of(game, user, sort, flash, rights_age=rights_age))


def render_remembered(user, game_id, sort, version, draft_free=False):
    """The frames after a move without the database, or None when something is not in
    memory (then the caller renders in a thread): the game at ``version``, and what
    ``user`` may do in its league. The player to move (who may have a draft) goes the
    long way unless the broadcast said that no draft belongs to ``version``
    (``draft_free``, a turn) and the game in memory is that very version; an open table
    (the seats may change) always does."""
    game = access.remembered_game(game_id, version)
    if game is None or game.state is None:
        return None
    if game.to_move_id == user.pk and not (draft_free and game.version == version):
        return None
    rights = access.remembered_rights(user, game, access.SOCKET_RIGHTS_SECONDS)
    if rights is None or not rights.may_view:
        return None
    return build_frames(game_page(game, user, sort, rights=rights))
