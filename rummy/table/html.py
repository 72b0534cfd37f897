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
from django.utils.safestring import SafeData, SafeString, mark_safe
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
    panel is joined for every socket after every move). A safe piece is taken as it is
    without a call to ``conditional_escape``: most pieces are, and the call costs more
    than the join."""
    return mark_safe(
        "".join([p if isinstance(p, SafeData) else conditional_escape(p) for p in pieces])
    )


# The status line


@dataclass(frozen=True)
class StatusWords:
    """The status line's fixed words in one language, as it puts them in: made once per
    language (``rendering._status_html``), not again for every status line."""

    round: str  # "Round %(r)s"
    game_over: SafeString
    final_lap: SafeString
    your_turn: SafeString
    their_turn: str  # "%(name)s’s turn."
    your_clock: str
    their_clock: str


def status_words() -> StatusWords:
    """The status line's fixed words in the active language."""
    return StatusWords(
        round=_("Round %(r)s"),
        game_over=format_html("<strong>{}</strong>", _("The game is over.")),
        final_lap=format_html(
            " · <strong>{}</strong>", rule_links(_("Final lap: no more draws (R8)"))
        ),
        your_turn=format_html("<strong>{}</strong>", _("Your turn.")),
        their_turn=_("%(name)s’s turn."),
        your_clock=_("Your time runs out"),
        their_clock=_("This turn ends"),
    )


def status_line(status, words: StatusWords) -> SafeString:
    """Round, stock, whose turn and the turn clock (``presenters.Status``)."""
    if status.game_over:
        facts = NOTHING
        turn = words.game_over
    else:
        n = status.stock_size
        stock = ngettext("%(n)s card in the stock", "%(n)s cards in the stock", n) % {"n": n}
        lap = words.final_lap if status.final_lap else NOTHING
        facts = format_html(' · <span id="stock-size">{}</span>{}', stock, lap)
        if status.my_turn:
            turn = words.your_turn
        else:
            turn = escape(words.their_turn % {"name": status.turn_name})
            if status.drawn:
                d = status.drawn
                turn = format_html(
                    "{} {}",
                    turn,
                    ngettext("Drawn %(n)s card so far.", "Drawn %(n)s cards so far.", d) % {"n": d},
                )
    clock = NOTHING
    if status.deadline:
        clock = format_html(
            '<span id="turn-clock" class="turn-clock">{} {}</span>',
            words.your_clock if status.my_turn else words.their_clock,
            countdown(status.deadline),
        )
    return format_html(
        '<section id="status" class="status" hx-swap-oob="true">\n'
        '    <p class="round-line">{}{}</p>\n'
        '    <p class="turn-line{}" aria-live="polite">{}\n    {}</p>\n  </section>',
        words.round % {"r": status.round_no},
        facts,
        " your-turn" if status.my_turn else "",
        turn,
        clock,
    )


# The players panel


@dataclass(frozen=True)
class PanelWords:
    """The players panel's words in one language, as its rows and its frame put them in:
    made once per language (``rendering._players_html``), not again for every row."""

    head: SafeString  # the section's opening and the table's head
    turn: SafeString
    bot: SafeString
    stand_in: SafeString
    dealer: SafeString
    winner: SafeString
    absent: SafeString
    away: str  # "on vacation until %(until)s"
    odds: str  # the screen reader's words before a rating
    provisional: SafeString
    percent: str  # "%(n)s%%"
    about_odds: SafeString
    end_early: SafeString


def panel_words(icon: str) -> PanelWords:
    """The players panel's words in the active language; ``icon`` is the computer
    player's icon."""
    return PanelWords(
        head=format_html(
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
        ),
        turn=format_html(
            '<span class="turn-mark" aria-hidden="true">▶</span><span class="sr-only">{} </span>',
            _("to move:"),
        ),
        bot=format_html("{} ", icon),
        stand_in=format_html(
            ' <span class="badge stand-in">{} {}</span>', icon, _("played by a bot")
        ),
        dealer=format_html(' <span class="muted" title="{0}">({0})</span>', _("dealer")),
        winner=format_html(" <strong>★ {}</strong>", _("winner")),
        absent=format_html(
            ' <span class="badge absent" title="{}">{}</span>',
            _("Missed three turns in a row"),
            _("absent"),
        ),
        away=_("on vacation until %(until)s"),
        odds=_("rating and chance of finishing first:"),
        provisional=format_html(
            '<span aria-hidden="true">?</span><span class="sr-only"> {}</span>',
            _("(provisional)"),
        ),
        percent=_("%(n)s%%"),
        about_odds=format_html(
            '\n    <p class="helptext" id="odds-about">{}</p>',
            _("Under each name: the rating at the start (“?”: provisional) and the chance to win."),
        ),
        end_early=format_html(  # submits #end-early-form (outside this form, in table.html)
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
        ),
    )


# One player's row, in two halves around where the viewer's "(you)" goes.
Row = tuple[int, SafeString, SafeString]


@dataclass(frozen=True)
class Panel:
    """The players panel, the same for every viewer but for the viewer's own row: each
    row in two halves, around where the viewer's "(you)" goes; the viewer's "I'm back"
    (a bot plays their seat) goes between ``head`` and ``tail``."""

    head: SafeString
    rows: tuple[Row, ...]
    tail: SafeString

    def for_viewer(self, seat: int | None, you: str, back: str) -> SafeString:
        pieces: list[str] = [self.head]
        for n, before, after in self.rows:
            pieces += (before, you if n == seat else NOTHING, after)
        pieces += (ROWS_END, back, self.tail)
        return join(pieces)


def players_panel(rows: Sequence[Row], words: PanelWords, odds: bool, may_end_early: bool) -> Panel:
    """The panel of ``rows`` (``player_row``); ``odds``: the rows show ratings and
    chances, and a note under the table says what they are."""
    tail = format_html(
        "{}\n    {}\n  </section>",
        words.about_odds if odds else NOTHING,
        words.end_early if may_end_early else NOTHING,
    )
    return Panel(words.head, tuple(rows), tail)


def player_row(p, absent: bool, final: bool, words: PanelWords) -> Row:
    """A player's row (cards in hand, score, rounds won, whose turn)."""
    before = format_html(
        '\n        <tr class="player{}" data-seat="{}"{}>\n          <th scope="row">{}{}{}',
        " to-move" if p.is_turn else "",
        p.number,
        CURRENT if p.is_turn else NOTHING,
        words.turn if p.is_turn else NOTHING,
        words.bot if p.is_bot else NOTHING,
        p.name,
    )
    away = NOTHING
    if p.away_until:
        away = format_html(
            ' <span class="badge away">{}</span>', words.away % {"until": p.away_until}
        )
    score = p.final_score if final and p.final_score is not None else p.score
    after = format_html(
        "{}{}{}{}{}{}</th>\n"
        '          <td class="num hand-size">{}</td>\n'
        '          <td class="num score">{}</td>\n'
        '          <td class="num">{}</td>\n'
        "        </tr>",
        words.stand_in if p.stand_in else NOTHING,
        words.dealer if p.is_dealer else NOTHING,
        words.winner if p.is_winner else NOTHING,
        words.absent if absent else NOTHING,
        away,
        odds_html(p.rating, p.chance, words),
        p.hand_size,
        score,
        p.rounds_won,
    )
    return p.number, before, after


def odds_html(rating: str, chance: int | None, words: PanelWords) -> SafeString:
    """A player's rating and chance of finishing first, on a line of its own under the
    name ("1540? · 41%"); nothing without a chance."""
    if chance is None:
        return NOTHING
    return format_html(
        '<span class="odds"><span class="sr-only">{} </span>{}{} · {}</span>',
        words.odds,
        rating.rstrip("?"),
        words.provisional if rating.endswith("?") else NOTHING,
        words.percent % {"n": chance},
    )


# The hand


@dataclass(frozen=True)
class HandHead:
    """The hand's fixed words and sort links for one game page and order: made once per
    language, page and order (``rendering._hand_html``), not for every hand."""

    heading: SafeString
    sort_links: SafeString


def hand_head(sort: str, url: str) -> HandHead:
    """The hand's heading and its sort links (``url``: the game page's) in the active
    language, the order ``sort`` marked current."""
    return HandHead(
        heading=format_html('<span class="sr-only">{}: </span>', _("Your hand")),
        sort_links=format_html(
            '<span class="sort-toggle" role="group" aria-label="{}">'
            '<a href="{}?sort=suit" id="sort-suit"{}>{}</a>'
            '<a href="{}?sort=rank" id="sort-rank"{}>{}</a></span>',
            _("Sort your hand"),
            url,
            CURRENT if sort == "suit" else NOTHING,
            pgettext("sort the hand by", "suit"),
            url,
            CURRENT if sort == "rank" else NOTHING,
            pgettext("sort the hand by", "rank"),
        ),
    )


def hand_section(hand, points, editing: bool, head: HandHead) -> SafeString:
    """The player's own hand: its count and points (while arranging they follow the
    draft), the sort links (``head``: ``hand_head``; one word each, "suit" and "rank", in
    the group "Sort your hand": the row keeps room at its right end for the game's chat
    tab), and its cards (the one just drawn marked ``.drawn``), each from the card tag's
    per-card cache."""
    n = len(hand)
    count = ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}
    if points is not None:
        count += " · " + ngettext("%(p)s point", "%(p)s points", points) % {"p": points}
    if hand:
        cards = join(card(c, button=editing) for c in hand)
    else:
        cards = format_html('<span class="muted">{}</span>', _("No cards."))
    return format_html(
        '<section id="hand" class="hand" aria-labelledby="hand-h" hx-swap-oob="true">\n'
        '    <div class="hand-head"><h2 id="hand-h">{}{}</h2>\n'
        "    {}</div>\n"
        '    <div class="cards hand-cards">{}</div>\n'
        "  </section>",
        head.heading,
        count,
        head.sort_links,
        cards,
    )
