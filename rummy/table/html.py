"""The game page's parts that are built in Python rather than from a template: the
status line, the players panel and the hand.

They change with every move and each server process renders them for every role of its
sockets, which as templates made them the largest part of a socket's render after a move
(docs/benchmarks.md). They are built with ``format_html`` like any other safe HTML:
every value and every translated word is escaped where it goes in, in the text and in
attributes alike. Numbers go in as digits in every language (the templates say
``{% localize off %}`` for the same reason).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from rummy.clock.countdown import countdown
from rummy.guide.links import rule_links
from rummy.templatetags.cards import card

CURRENT = mark_safe(' aria-current="true"')
NOTHING = mark_safe("")
ROWS_END = mark_safe("\n      </tbody>\n    </table>\n    ")


def join(pieces: Iterable[str]) -> SafeString:
    """Pieces one after another, each escaped unless it is safe already (as
    ``format_html_join`` joins them, without formatting each piece again: the players
    panel is joined for every socket after every move)."""
    return mark_safe("".join([conditional_escape(piece) for piece in pieces]))


# The status line


def status_line(status) -> SafeString:
    """Round, stock, whose turn and the turn clock (``presenters.Status``)."""
    if status.game_over:
        facts = NOTHING
        turn = format_html("<strong>{}</strong>", _("The game is over."))
    else:
        n = status.stock_size
        stock = ngettext("%(n)s card in the stock", "%(n)s cards in the stock", n) % {"n": n}
        lap = NOTHING
        if status.final_lap:
            lap = format_html(
                " · <strong>{}</strong>", rule_links(_("Final lap: no more draws (R8)"))
            )
        facts = format_html(' · <span id="stock-size">{}</span>{}', stock, lap)
        if status.my_turn:
            turn = format_html("<strong>{}</strong>", _("Your turn."))
        else:
            turn = escape(_("%(name)s’s turn.") % {"name": status.turn_name})
            if status.drawn:
                d = status.drawn
                turn = format_html(
                    "{} {}",
                    turn,
                    ngettext("Drawn %(n)s card so far.", "Drawn %(n)s cards so far.", d) % {"n": d},
                )
    clock = NOTHING
    if status.deadline:
        words = _("Your time runs out") if status.my_turn else _("This turn ends")
        clock = format_html(
            '<span id="turn-clock" class="turn-clock">{} {}</span>',
            words,
            countdown(status.deadline),
        )
    return format_html(
        '<section id="status" class="status" hx-swap-oob="true">\n'
        '    <p class="round-line">{}{}</p>\n'
        '    <p class="turn-line{}" aria-live="polite">{}\n    {}</p>\n  </section>',
        _("Round %(r)s") % {"r": status.round_no},
        facts,
        " your-turn" if status.my_turn else "",
        turn,
        clock,
    )


# The players panel


@dataclass(frozen=True)
class Panel:
    """The players panel, the same for every viewer but for the viewer's own row: each
    row in two halves, around where the viewer's "(you)" goes; the viewer's "I'm back"
    (a bot plays their seat) goes between ``head`` and ``tail``."""

    head: SafeString
    rows: tuple[tuple[int, SafeString, SafeString], ...]
    tail: SafeString

    def for_viewer(self, seat: int | None, you: str, back: str) -> SafeString:
        pieces: list[str] = [self.head]
        for n, before, after in self.rows:
            pieces += (before, you if n == seat else NOTHING, after)
        pieces += (ROWS_END, back, self.tail)
        return join(pieces)


def players_panel(players: Sequence, absent, may_end_early: bool, final: bool, icon: str) -> Panel:
    """A row per player (cards in hand, score, rounds won, whose turn); ``icon`` is the
    computer player's icon."""
    # The words every row may show, made once for the panel.
    marks = {
        "turn": format_html(
            '<span class="turn-mark" aria-hidden="true">▶</span><span class="sr-only">{} </span>',
            _("to move:"),
        ),
        "bot": format_html("{} ", icon),
        "stand_in": format_html(
            ' <span class="badge stand-in">{} {}</span>', icon, _("played by a bot")
        ),
        "dealer": format_html(' <span class="muted" title="{0}">({0})</span>', _("dealer")),
        "winner": format_html(" <strong>★ {}</strong>", _("winner")),
        "absent": format_html(
            ' <span class="badge absent" title="{}">{}</span>',
            _("Missed three turns in a row"),
            _("absent"),
        ),
    }
    rows = tuple(_player_row(p, p.number in absent, final, marks) for p in players)
    about_odds = NOTHING
    if any(p.chance is not None for p in players):
        about_odds = format_html(
            '\n    <p class="helptext" id="odds-about">{}</p>',
            _("Under each name: the rating at the start (“?”: provisional) and the chance to win."),
        )
    end_early = NOTHING
    if may_end_early:  # submits #end-early-form (outside this form, in table.html)
        end_early = format_html(
            '\n    <div id="end-early" class="actions">\n'
            '      <button type="submit" form="end-early-form" class="danger" id="btn-end-early">'
            "{}</button>\n"
            '      <p class="helptext">{}</p>\n'
            "    </div>\n    ",
            _("End game early"),
            _(
                "A player is absent. As a league admin you may end the game now: this round "
                "is discarded and the game is scored as it stands."
            ),
        )
    head = format_html(
        '<section id="players" class="panel players" aria-labelledby="players-h"'
        ' hx-swap-oob="true">\n'
        '    <h2 id="players-h">{}</h2>\n'
        '    <table class="data">\n'
        '      <thead><tr><th scope="col">{}</th>'
        '<th scope="col" class="num">{}</th>'
        '<th scope="col" class="num">{}</th>'
        '<th scope="col" class="num">{}</th></tr></thead>\n'
        "      <tbody>",
        _("Players"),
        _("Player"),
        _("Cards"),
        _("Score"),
        _("Rounds won"),
    )
    return Panel(head, rows, format_html("{}\n    {}\n  </section>", about_odds, end_early))


def _player_row(p, absent: bool, final: bool, marks) -> tuple[int, SafeString, SafeString]:
    before = format_html(
        '\n        <tr class="player{}" data-seat="{}"{}>\n          <th scope="row">{}{}{}',
        " to-move" if p.is_turn else "",
        p.number,
        CURRENT if p.is_turn else NOTHING,
        marks["turn"] if p.is_turn else NOTHING,
        marks["bot"] if p.is_bot else NOTHING,
        p.name,
    )
    away = NOTHING
    if p.away_until:
        until = _("on vacation until %(until)s") % {"until": p.away_until}
        away = format_html(' <span class="badge away">{}</span>', until)
    score = p.final_score if final and p.final_score is not None else p.score
    after = format_html(
        "{}{}{}{}{}{}</th>\n"
        '          <td class="num hand-size">{}</td>\n'
        '          <td class="num score">{}</td>\n'
        '          <td class="num">{}</td>\n'
        "        </tr>",
        marks["stand_in"] if p.stand_in else NOTHING,
        marks["dealer"] if p.is_dealer else NOTHING,
        marks["winner"] if p.is_winner else NOTHING,
        marks["absent"] if absent else NOTHING,
        away,
        odds_html(p.rating, p.chance),
        p.hand_size,
        score,
        p.rounds_won,
    )
    return p.number, before, after


def odds_html(rating: str, chance: int | None) -> SafeString:
    """A player's rating and chance of finishing first, on a line of its own under the
    name ("1540? · 41%"); nothing without a chance."""
    if chance is None:
        return NOTHING
    provisional = rating.endswith("?")
    return format_html(
        '<span class="odds"><span class="sr-only">{} </span>{}{} · {}</span>',
        _("rating and chance of finishing first:"),
        rating.rstrip("?"),
        format_html(
            '<span aria-hidden="true">?</span><span class="sr-only"> {}</span>',
            _("(provisional)"),
        )
        if provisional
        else NOTHING,
        _("%(n)s%%") % {"n": chance},
    )


# The hand


def hand_section(hand, points, sort: str, editing: bool, url: str) -> SafeString:
    """The player's own hand: its count and points (while arranging they follow the
    draft), the sort links (one word each, "suit" and "rank", in the group "Sort your
    hand": the row keeps room at its right end for the game's chat tab), and its cards
    (the one just drawn marked ``.drawn``), each from the card tag's per-card cache."""
    n = len(hand)
    head = ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}
    if points is not None:
        head += " · " + ngettext("%(p)s point", "%(p)s points", points) % {"p": points}
    if hand:
        cards = join(card(c, button=editing) for c in hand)
    else:
        cards = format_html('<span class="muted">{}</span>', _("No cards."))
    return format_html(
        '<section id="hand" class="hand" aria-labelledby="hand-h" hx-swap-oob="true">\n'
        '    <div class="hand-head"><h2 id="hand-h">'
        '<span class="sr-only">{}: </span>{}</h2>\n'
        '    <span class="sort-toggle" role="group" aria-label="{}">'
        '<a href="{}?sort=suit" id="sort-suit"{}>{}</a>'
        '<a href="{}?sort=rank" id="sort-rank"{}>{}</a></span></div>\n'
        '    <div class="cards hand-cards">{}</div>\n'
        "  </section>",
        _("Your hand"),
        head,
        _("Sort your hand"),
        url,
        CURRENT if sort == "suit" else NOTHING,
        pgettext("sort the hand by", "suit"),
        url,
        CURRENT if sort == "rank" else NOTHING,
        pgettext("sort the hand by", "rank"),
        cards,
    )
