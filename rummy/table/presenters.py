"""What a table page shows one user, built from the engine's per-seat view only.

DESIGN "Hidden information": the templates receive ``engine.seat_view(state, seat)``
(own hand, others' hand sizes, the table, the stock size) plus names; never the raw
state. A spectator gets the view of no seat. The only other state read here is the
arrangement editor's ``can_knock_after`` question about the player's own hand.
"""

import functools
import time

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from leagues.models import BotLevel
from rummy import engine
from rummy.clock.text import moment_text, turn_clock
from rummy.guide.links import rule_links
from rummy.models import Game
from rummy.play import drafts, hints_allowed
from rummy.play.wording import meld_problem_message
from rummy.table import memory
from rummy.templatetags.clock_tags import countdown

SUIT_NAMES = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SORTS = ("suit", "rank")
# How a round ended, as a whole sentence each: the reasons do not fit one sentence
# frame in all three languages ("ended by the stock ran out").
REASONS = {
    engine.RoundEnd.KNOCK: gettext_lazy("The round ended with a knock."),
    engine.RoundEnd.GOING_OUT: gettext_lazy("The round ended when a player went out."),
    engine.RoundEnd.STOCK_OUT: gettext_lazy("The round ended because the stock ran out."),
    engine.RoundEnd.ENDED_EARLY: gettext_lazy("The game was ended early."),
}


def card_name(card, drawn=False):
    """Words for a screen reader that start with what the card shows (WCAG 2.5.3):
    "10 of hearts", "K of spades", "joker as 9 of hearts"."""
    if card.joker:
        if card.declared is None:
            name = str(_("joker"))
        else:
            name = _("joker as %(card)s") % {"card": card_name(card.declared)}
    else:
        rank = engine.cards.rank_name(card.rank)
        name = _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[card.suit]}
    if drawn:
        return _("%(card)s, just drawn") % {"card": name}
    return name


def card_info(code, ref=None, selected=False, drawn=False, language=None):
    """What the ``card`` tag shows of one card: its face and spoken name (the same for a
    card, a mark and a language wherever it lies, so they are worked out once per
    process), with its place in the editor (``ref``) and whether it is selected.
    ``language``: the active one, when the caller has it (``where``)."""
    code = code if isinstance(code, str) else str(code)
    return {
        **_card_face(code, drawn, language or translation.get_language()),
        "ref": ref,
        "selected": selected,
        "drawn": drawn,
    }


@functools.lru_cache(maxsize=2048)
def _card_face(code, drawn, language):
    # ``language`` is the cache's key only: card_name translates in the active one.
    # About 110 codes (a joker may stand for any card) x 2 marks x 3 languages.
    card = engine.Card.parse(code)
    face = card.declared if card.joker else card
    return {
        "code": str(card),
        "label": card_name(card, drawn),
        "joker": card.joker,
        "rank": engine.cards.rank_name(face.rank) if face else "★",
        "suit": face.suit if face else "",
        "symbol": SUIT_SYMBOLS[face.suit] if face else "",
        "red": bool(face) and face.suit in ("D", "H"),
    }


def sort_hand(codes, sort):
    """R-free: only the order in which the player sees the hand. By suit (C D H S), or
    by rank (jokers last either way). Keeps the draft positions in ``ref``."""
    cards = [(engine.Card.parse(c), i) for i, c in enumerate(codes)]
    if sort == "rank":
        key = lambda ci: (ci[0].joker, ci[0].rank, ci[0].suit)  # noqa: E731
    else:
        key = lambda ci: ci[0].sort_key  # noqa: E731
    return [(str(c), i) for c, i in sorted(cards, key=key)]


def _meld_info(meld_codes, index, editing, selected, language=None):
    cards = [engine.Card.parse(c) for c in meld_codes]
    problem = engine.meld_problem(cards)
    infos = [
        card_info(c, f"t{index}.{j}", f"t{index}.{j}" in selected, language=language)
        for j, c in enumerate(meld_codes)
    ]
    jokers = []
    if editing:
        for j, card in enumerate(cards):
            if not card.joker:
                continue
            options = engine.joker_options(cards[:j] + cards[j + 1 :])
            if card.declared is None or (options and card.declared not in options):
                jokers.append(
                    {
                        "ref": f"t{index}.{j}",
                        "options": [card_info(str(o), language=language) for o in options],
                    }
                )
    return {
        "index": index,
        "number": index + 1,
        "cards": infos,
        "valid": problem is None,
        "problem": _meld_problem_words(problem),
        "jokers": jokers,
    }


def _meld_problem_words(problem):
    if problem is None:
        return ""
    # The engine's reason code says exactly what is wrong with this meld (R4).
    return meld_problem_message(problem)


def table_context(game: Game, user, sort="suit", flash=None, *, rights, draft=None):
    """Everything the table templates need for ``user``. It reads nothing from the
    database: ``game`` comes from ``rummy.table.access.games_with_seats`` (seats and
    users loaded), ``rights`` is what ``user`` may do in its league
    (``access.rights``) and ``draft`` the user's current draft if they are arranging
    (``rummy.table.rendering`` reads both)."""
    sort = sort if sort in SORTS else "suit"
    # The language and time zone, read once for the whole render (every fragment and
    # card is keyed by them; each read goes through asgiref's context-local storage).
    here = where()
    seats = list(game.seats.all())
    my_seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    ctx = {
        "game": game,
        "version": game.version,
        "sort": sort,
        "flash": flash,
        "viewer": user,
        "my_seat": my_seat,
        "is_player": my_seat is not None,
        "where": here,
    }
    if game.state is None:
        ctx.update(_open_table(game, user, seats, my_seat, rights))
        return ctx
    state = game.engine_state()
    seat_number = my_seat.number if my_seat is not None else None
    view = engine.seat_view(state, seat_number)
    names = {s.number: s.user.name for s in seats}
    # Who plays each seat when it is not a person: "bot" (a computer player's seat) or
    # "stand_in" (a bot plays for an absent player, issue 14).
    bots = {s.number: "bot" if s.bot_level else "stand_in" for s in seats if s.bot_plays}
    # Only the player to move can be arranging (a draft belongs to one version).
    if seat_number is None or engine.Action.MELD not in view.legal:
        draft = None
    ctx.update(_hand_and_table(game, view, draft, sort, here[0]))
    ctx.update(_status(game, view, names, seat_number, draft is not None, rights, here))
    ctx.update(
        view=view,
        game_pk=game.pk,
        players=_players(view, names, seat_number, bots, _away(game, seats)),
        legal=view.legal,
        can_play_knock=draft is not None
        and seat_number is not None
        and engine.can_knock_after(state, seat_number, drafts.hand_after(draft)),
        # The Hint control (issue 14): the game's rule, read from the loaded season.
        hints_on=hints_allowed(game),
        last_round_html=_last_round_html(game, view, names, here),
        final=view.game_over,
    )
    return ctx


def _open_table(game, user, seats, my_seat, rights):
    """Before the start: who sits, and whether ``user`` may sit, leave or start."""
    may_add_bot = (
        game.is_open
        and len(seats) < game.max_seats
        and (game.host_id == getattr(user, "pk", None) or rights.is_admin)
    )
    return {
        "seats": [
            {
                "name": s.user.name,
                "is_me": s is my_seat,
                "is_host": s.user_id == game.host_id,
                "is_bot": bool(s.bot_level),
            }
            for s in seats
        ],
        "may_add_bot": may_add_bot,
        "bot_levels": BotLevel.choices,
        "open": game.is_open,
        "may_sit": game.is_open
        and rights.is_member
        and my_seat is None
        and len(seats) < game.max_seats,
        "may_leave": game.is_open and my_seat is not None,
        "may_start": game.is_open and game.host_id == user.pk and len(seats) >= 2,
    }


def drawn_positions(hand_codes, drawn_codes):
    """Which hand positions hold the cards just drawn (R3): the engine appends a drawn
    card to the hand; in a draft the hand may have been reordered, so the same cards are
    found by name, from the back (two decks hold every card twice, R1.2, and either copy
    is the same card to the player)."""
    wanted = list(drawn_codes)
    marked = set()
    for i in range(len(hand_codes) - 1, -1, -1):
        if hand_codes[i] in wanted:
            wanted.remove(hand_codes[i])
            marked.add(i)
    return marked


def _hand_and_table(game, view, draft, sort, language=None):
    """The hand and the melds: the draft's while arranging (with the selection), else
    the view's. Outside the editor every meld and the hand render once per content and
    are shared (``fragment``)."""
    editing = draft is not None
    selected = set(draft.data.get("selected", [])) if editing else set()
    hand_codes = draft.data["hand"] if editing else list(view.hand)
    table_codes = draft.data["table"] if editing else [m.split() for m in view.table]
    # The card just drawn stays marked until the turn's next action (R3): another draw
    # marks its own card instead.
    mine_drawn = view.drawn and view.seat is not None and view.seat == view.turn
    just_drawn = view.hand[-1:] if mine_drawn else ()
    drawn_at = drawn_positions(hand_codes, just_drawn)
    if editing:
        hand = [
            card_info(code, f"h{i}", f"h{i}" in selected, i in drawn_at, language)
            for code, i in sort_hand(hand_codes, sort)
        ]
        # While arranging the points follow the cards left in the draft's hand (R7.1).
        points = _points(hand_codes)
    else:
        language = language or translation.get_language()
        hand, points = _hand_cards(tuple(hand_codes), sort, frozenset(drawn_at), language)
    parts = {
        "editing": editing,
        "has_selection": bool(selected),
        "selected_count": len(selected),
        "hand": hand,
        "hand_points": points if view.seat is not None else None,
    }
    if editing:
        parts["melds"] = [
            _meld_info(m, i, True, selected, language) for i, m in enumerate(table_codes)
        ]
    else:
        parts["melds"] = [
            {"index": i, "codes": tuple(m), "number": i + 1} for i, m in enumerate(table_codes)
        ]
    return parts


def _points(codes):
    return engine.hand_points(engine.parse_cards(" ".join(codes)))


@functools.lru_cache(maxsize=4096)
def _hand_cards(codes, sort, drawn_at, language):
    """Outside the editor, a hand's cards as the card tag shows them (a tuple: shared,
    never changed), and its points: worked out once per hand, order, mark and language,
    not again after every other player's move (issue 11). Keyed by the cards, not by
    who holds them, like the hand's HTML (``rendering._hand_html``)."""
    cards = tuple(
        card_info(code, f"h{i}", False, i in drawn_at, language)
        for code, i in sort_hand(codes, sort)
    )
    return cards, _points(codes)


def meld_html(meld, editing, here=None):
    """One meld's fragment. Outside the editor a meld looks the same to everyone at any
    version, so it renders once per content, language and position."""
    if editing:
        return render_to_string("rummy/_meld.html", {"m": meld, "editing": True})
    return fragment(
        "rummy/_meld.html",
        (meld["index"], meld["codes"]),
        lambda: {
            "m": _meld_info(list(meld["codes"]), meld["index"], False, set()),
            "editing": False,
        },
        here,
    )


def _away(game, seats):
    """{seat number: until when} for the players on vacation (``Seat.away_until``, kept
    by the write path while the game is in progress), in words in the viewer's zone."""
    if not game.is_active:
        return {}
    return {s.number: moment_text(s.away_until) for s in seats if s.away_until is not None}


def _players(view, names, seat_number, bots=None, away=None):
    bots = bots or {}
    away = away or {}
    return [
        {
            "number": n,
            "name": names.get(n, "?"),
            "is_bot": bots.get(n) == "bot",
            "stand_in": bots.get(n) == "stand_in",
            "hand_size": view.hand_sizes[n],
            "score": view.scores[n],
            "rounds_won": view.rounds_won[n],
            "is_turn": n == view.turn and not view.round_over,
            "is_dealer": n == view.dealer,
            "is_me": n == seat_number,
            "final_score": (view.final_scores or [None] * len(names))[n],
            "is_winner": n in (view.game_winners or []),
            "away_until": away.get(n, ""),
        }
        for n in range(len(view.hand_sizes))
    ]


def players_panel(players, absent, may_end_early, final, here=None):
    """The players panel (a row per player: cards in hand, score, rounds won, whose
    turn), as HTML, the same for every viewer: the viewer's own "(you)" and "I'm back"
    go in at its two markers (``rummy.table.rendering._players_html``). Built here
    rather than from a template, like the status line: a row's cards change with every
    move, and each process renders the panel once a move (issue 11: 0.5 ms as a
    template). Translated words go in as the template tags put them, names escaped."""
    icon = fragment("rummy/_bot_icon.html", (), dict, here)
    rows = []
    for p in players:
        n = p["number"]
        turn = p["is_turn"]
        who = []
        if turn:
            who.append(
                f'<span aria-hidden="true">▶ </span><span class="sr-only">{_("to move:")} </span>'
            )
        if p["is_bot"]:
            who.append(f"{icon} ")
        who.append(f"{conditional_escape(p['name'])}<!--you:{n}-->")
        if p["stand_in"]:
            who.append(f' <span class="badge stand-in">{icon} {_("played by a bot")}</span>')
        if p["is_dealer"]:
            dealer = _("dealer")
            who.append(f' <span class="muted" title="{dealer}">({dealer})</span>')
        if p["is_winner"]:
            who.append(f" <strong>★ {_('winner')}</strong>")
        if n in absent:
            who.append(
                f' <span class="badge absent" title="{_("Missed three turns in a row")}">'
                f"{_('absent')}</span>"
            )
        if p["away_until"]:
            until = _("on vacation until %(until)s") % {
                "until": conditional_escape(p["away_until"])
            }
            who.append(f' <span class="badge away">{until}</span>')
        score = p["final_score"] if final and p["final_score"] is not None else p["score"]
        current = ' aria-current="true"' if turn else ""
        rows.append(
            f'\n        <tr class="player{" to-move" if turn else ""}" data-seat="{n}"{current}>\n'
            f'          <th scope="row">{"".join(who)}</th>\n'
            f'          <td class="num hand-size">{p["hand_size"]}</td>\n'
            f'          <td class="num score">{score}</td>\n'
            f'          <td class="num">{p["rounds_won"]}</td>\n'
            "        </tr>"
        )
    end_early = ""
    if may_end_early:  # submits #end-early-form (outside this form, in table.html)
        end_help = _(
            "A player is absent. As a league admin you may end the game now: this round is "
            "discarded and the game is scored as it stands."
        )
        end_early = (
            '\n    <div id="end-early" class="actions">\n'
            '      <button type="submit" form="end-early-form" class="danger" id="btn-end-early">'
            f"{_('End game early')}</button>\n"
            f'      <p class="helptext">{end_help}</p>\n'
            "    </div>\n    "
        )
    return mark_safe(
        '<section id="players" class="panel players" aria-labelledby="players-h"'
        ' hx-swap-oob="true">\n'
        f'    <h2 id="players-h">{_("Players")}</h2>\n'
        '    <table class="data">\n'
        f'      <thead><tr><th scope="col">{_("Player")}</th>'
        f'<th scope="col" class="num">{_("Cards")}</th>'
        f'<th scope="col" class="num">{_("Score")}</th>'
        f'<th scope="col" class="num">{_("Rounds won")}</th></tr></thead>\n'
        f"      <tbody>{''.join(rows)}\n      </tbody>\n    </table>\n    <!--back-->\n    "
        f"{end_early}\n  </section>"
    )


# What the player to move may do, as one sentence naming only the actions that exist
# (engine.legal_actions): the final lap (R8) has no draw, and a knock needs a low count (R6.1).
A = engine.Action
HINTS = {
    frozenset({A.DRAW, A.MELD, A.KNOCK}): gettext_lazy("Meld, knock, or draw again."),
    frozenset({A.DRAW, A.MELD}): gettext_lazy("Meld, or draw again."),
    frozenset({A.MELD, A.KNOCK, A.PASS}): gettext_lazy("Meld, knock or pass."),
    frozenset({A.MELD, A.PASS}): gettext_lazy("Meld or pass."),
    frozenset({A.MELD, A.KNOCK}): gettext_lazy("Meld or knock."),
    frozenset({A.MELD}): gettext_lazy("Meld."),
    frozenset({A.PASS}): gettext_lazy("Pass."),
}


def turn_hint(view, editing):
    """The player to move's next step, in words."""
    legal = frozenset(view.legal)
    if A.DRAW in legal and view.drawn == 0:
        return _("Draw a card to start your turn.")
    if editing:
        return _("Select cards, then tap a meld or “+ New meld”.")
    hint = HINTS.get(legal, "")
    if A.DRAW in legal and view.drawn:
        drawn = ngettext(
            "You have drawn %(n)d card.", "You have drawn %(n)d cards.", view.drawn
        ) % {"n": view.drawn}
        return f"{drawn} {hint}"
    return str(hint)


def _status(game, view, names, seat_number, editing, rights, here=None):
    """Whose turn and the clock. Everyone sees the same status at one version (shown
    to the minute), so it renders once (``fragment``); the player to move also gets
    their next step (``hint``), next to their buttons."""
    clock = turn_clock(game, rights.is_admin)
    my_turn = seat_number is not None and view.turn == seat_number and not view.round_over
    turn_name = names.get(view.turn, "?")
    minute = int(time.time() // 60) if clock["deadline"] else None
    status_html = made(
        "status",
        (game.pk, game.version, my_turn, turn_name, clock["deadline"], minute),
        lambda: status_line(view, my_turn, turn_name, clock["deadline"]),
        here,
    )
    hint = turn_hint(view, editing) if my_turn and not view.game_over else ""
    return {
        "clock": clock,
        "my_turn": my_turn,
        "turn_name": turn_name,
        "status_html": status_html,
        "hint": hint,
    }


def status_line(view, my_turn, turn_name, deadline):
    """Round, stock, whose turn and the turn clock, as HTML. Built here rather than
    from a template: it changes with every move and each process renders it for each
    role of its sockets (the player to move, the others), and as a template it was the
    largest part of a socket's render after a move (issue 11: 0.45 ms a render).
    Translated texts go in as ``{% blocktranslate %}`` puts them (the words trusted, the
    values escaped); numbers as digits in every language."""
    final = view.game_over
    parts = [_("Round %(r)s") % {"r": view.round_no}]
    if not final:
        n = view.stock_size
        stock = ngettext("%(n)s card in the stock", "%(n)s cards in the stock", n) % {"n": n}
        parts.append(f' · <span id="stock-size">{stock}</span>')
        if view.final_turns is not None:
            parts.append(f" · <strong>{rule_links(_('Final lap: no more draws (R8)'))}</strong>")
    parts.append(
        f'</p>\n    <p class="turn-line{" your-turn" if my_turn else ""}" aria-live="polite">'
    )
    if final:
        parts.append(f"<strong>{_('The game is over.')}</strong>")
    elif my_turn:
        parts.append(f"<strong>{_('Your turn.')}</strong>")
    else:
        parts.append(_("%(name)s’s turn.") % {"name": conditional_escape(turn_name)})
        if view.drawn:
            d = view.drawn
            parts.append(
                " "
                + ngettext("Drawn %(n)s card so far.", "Drawn %(n)s cards so far.", d) % {"n": d}
            )
    parts.append("\n    ")
    if deadline:
        words = _("Your time runs out") if my_turn else _("This turn ends")
        parts.append(
            f'<span id="turn-clock" class="turn-clock">{words} {countdown(deadline)}</span>'
        )
    body = "".join(parts)
    return mark_safe(
        '<section id="status" class="status" hx-swap-oob="true">\n'
        f'    <p class="round-line">{body}</p>\n  </section>'
    )


def _last_round_html(game, view, names, here=None):
    """A finished round never changes: its (large) revealed hands render once."""
    if not view.last_round:
        return ""
    return fragment(
        "rummy/_last_round.html",
        (game.pk, _round_key(view.last_round), tuple(names.items())),
        lambda: {"last_round": _last_round(view, names)},
        here,
    )


def _round_key(last):
    return (last.get("round_no"), last.get("reason"), tuple(last.get("points") or ()))


# Rendered fragments that are the same for every viewer, per server process, keyed by
# template, language and content: after a move every open socket re-renders its view,
# and these parts (the table, the revealed hands of the last round) are most of it.


def where():
    """(language, time zone name) of the render: what every fragment is keyed by."""
    return translation.get_language(), timezone.get_current_timezone_name()


def fragment(template, key, context_fn, here=None):
    """``template`` rendered with ``context_fn()``, once per ``key`` (``made``)."""
    return made(template, key, lambda: render_to_string(template, context_fn()), here)


def made(name, key, make, here=None):
    """The HTML ``make()`` returns, made once per ``name``, ``key``, language and time
    zone in this process (the status shows the deadline in the viewer's zone).
    ``here``: ``where()``, when the caller has read it for this render already."""
    full_key = (name, *(here or where()), key)
    html = memory.fragments.get(full_key)
    if html is None:
        html = make()
        memory.fragments.put(full_key, html)
    return html


def _last_round(view, names):
    """The finished round's revealed hands and points (R7); hands are public now."""
    last = view.last_round
    if not last:
        return None
    winners = set(last.get("winners") or [])
    rows = []
    for n, hand in enumerate(last.get("hands") or []):
        rows.append(
            {
                "name": names.get(n, "?"),
                "cards": [card_info(c) for c in hand.split()],
                "count": engine.hand_points(engine.parse_cards(hand)),
                "points": last["points"][n],
                "winner": n in winners,
                "knocker": last.get("knocker") == n,
                "went_out": last.get("went_out") == n,
            }
        )
    return {
        "round_no": last.get("round_no"),
        "reason": REASONS.get(last.get("reason"), last.get("reason")),
        "undercut": last.get("knocker") is not None and last.get("knocker") not in winners,
        "rows": rows,
        "table": [[card_info(c) for c in m.split()] for m in last.get("table") or []],
    }
