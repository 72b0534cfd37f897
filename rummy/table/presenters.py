"""What a table page shows one user, built from the engine's per-seat view only.

DESIGN "Hidden information": the templates receive ``engine.seat_view(state, seat)``
(own hand, others' hand sizes, the table, the stock size) plus names; never the raw
state. A spectator gets the view of no seat. The only other state read here is the
arrangement editor's ``can_knock_after`` question about the player's own hand.
"""

import time

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rummy import engine
from rummy.clock.text import turn_clock
from rummy.models import Game
from rummy.play import drafts
from rummy.play.wording import meld_problem_message
from rummy.table import memory

SUIT_NAMES = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}
RANK_WORDS = {
    1: gettext_lazy("ace"),
    11: gettext_lazy("jack"),
    12: gettext_lazy("queen"),
    13: gettext_lazy("king"),
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


def card_name(card):
    """Words for a screen reader: "10 of hearts", "joker as 9 of hearts"."""
    if card.joker:
        if card.declared is None:
            return str(_("joker"))
        return _("joker as %(card)s") % {"card": card_name(card.declared)}
    rank = RANK_WORDS.get(card.rank, str(card.rank))
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[card.suit]}


def card_info(code, ref=None, selected=False):
    card = engine.Card.parse(code)
    face = card.declared if card.joker else card
    return {
        "code": str(card),
        "label": card_name(card),
        "joker": card.joker,
        "rank": engine.cards.rank_name(face.rank) if face else "★",
        "suit": face.suit if face else "",
        "symbol": SUIT_SYMBOLS[face.suit] if face else "",
        "red": bool(face) and face.suit in ("D", "H"),
        "ref": ref,
        "selected": selected,
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


def _meld_info(meld_codes, index, editing, selected):
    cards = [engine.Card.parse(c) for c in meld_codes]
    problem = engine.meld_problem(cards)
    infos = [
        card_info(c, f"t{index}.{j}", f"t{index}.{j}" in selected) for j, c in enumerate(meld_codes)
    ]
    jokers = []
    if editing:
        for j, card in enumerate(cards):
            if not card.joker:
                continue
            options = engine.joker_options(cards[:j] + cards[j + 1 :])
            if card.declared is None or (options and card.declared not in options):
                jokers.append(
                    {"ref": f"t{index}.{j}", "options": [card_info(str(o)) for o in options]}
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
    }
    if game.state is None:
        ctx.update(_open_table(game, user, seats, my_seat, rights))
        return ctx
    state = game.engine_state()
    seat_number = my_seat.number if my_seat is not None else None
    view = engine.seat_view(state, seat_number)
    names = {s.number: s.user.name for s in seats}
    # Only the player to move can be arranging (a draft belongs to one version).
    if seat_number is None or engine.Action.MELD not in view.legal:
        draft = None
    ctx.update(_hand_and_table(game, view, draft, sort))
    ctx.update(_status(game, view, names, seat_number, draft is not None, rights))
    ctx.update(
        view=view,
        game_pk=game.pk,
        players=_players(view, names, seat_number),
        legal=view.legal,
        can_play_knock=draft is not None
        and seat_number is not None
        and engine.can_knock_after(state, seat_number, drafts.hand_after(draft)),
        hand_points=view.hand_points,
        last_round_html=_last_round_html(game, view, names),
        final=view.game_over,
    )
    return ctx


def _open_table(game, user, seats, my_seat, rights):
    """Before the start: who sits, and whether ``user`` may sit, leave or start."""
    return {
        "seats": [
            {"name": s.user.name, "is_me": s is my_seat, "is_host": s.user_id == game.host_id}
            for s in seats
        ],
        "open": game.is_open,
        "may_sit": game.is_open
        and rights.is_member
        and my_seat is None
        and len(seats) < game.max_seats,
        "may_leave": game.is_open and my_seat is not None,
        "may_start": game.is_open and game.host_id == user.pk and len(seats) >= 2,
    }


def _hand_and_table(game, view, draft, sort):
    """The hand and the melds: the draft's while arranging (with the selection), else
    the view's, each rendered once per content and shared (``fragment``)."""
    editing = draft is not None
    selected = set(draft.data.get("selected", [])) if editing else set()
    hand_codes = draft.data["hand"] if editing else view.hand
    table_codes = draft.data["table"] if editing else [m.split() for m in view.table]
    parts = {
        "editing": editing,
        "has_selection": bool(selected),
        "hand": None,
        "hand_html": None,
        "melds": None,
        "melds_html": None,
    }
    if editing:
        parts["hand"] = [
            card_info(code, f"h{i}", f"h{i}" in selected) for code, i in sort_hand(hand_codes, sort)
        ]
        parts["melds"] = [_meld_info(m, i, True, selected) for i, m in enumerate(table_codes)]
        return parts
    if view.seat is not None and not view.game_over:
        # Another player's move does not change this hand: rendered once per hand and
        # order, not once per move.
        parts["hand_html"] = fragment(
            "rummy/_hand.html",
            (game.pk, tuple(hand_codes), sort, view.hand_points),
            lambda: {
                "hand": [card_info(code) for code, _i in sort_hand(hand_codes, sort)],
                "hand_points": view.hand_points,
                "editing": False,
                "sort": sort,
                "game_pk": game.pk,
            },
        )
    # The table as everyone sees it: rendered once per arrangement, not per viewer.
    parts["melds_html"] = fragment(
        "rummy/_melds.html",
        tuple(view.table),
        lambda: {
            "melds": [_meld_info(m, i, False, set()) for i, m in enumerate(table_codes)],
            "editing": False,
        },
    )
    return parts


def _players(view, names, seat_number):
    return [
        {
            "number": n,
            "name": names.get(n, "?"),
            "hand_size": view.hand_sizes[n],
            "score": view.scores[n],
            "rounds_won": view.rounds_won[n],
            "is_turn": n == view.turn and not view.round_over,
            "is_dealer": n == view.dealer,
            "is_me": n == seat_number,
            "final_score": (view.final_scores or [None] * len(names))[n],
            "is_winner": n in (view.game_winners or []),
        }
        for n in range(len(view.hand_sizes))
    ]


def _status(game, view, names, seat_number, editing, rights):
    """Whose turn, the clock and the status line. Everyone but the player to move (and
    each of those alike) sees the same status at one version, shown to the minute."""
    clock = turn_clock(game, rights.is_admin)
    my_turn = seat_number is not None and view.turn == seat_number and not view.round_over
    turn_name = names.get(view.turn, "?")
    minute = int(time.time() // 60) if clock["deadline"] else None
    status_html = fragment(
        "rummy/_status.html",
        (game.pk, game.version, my_turn, editing, turn_name, clock["deadline"], minute),
        lambda: {
            "view": view,
            "final": view.game_over,
            "my_turn": my_turn,
            "legal": view.legal,
            "editing": editing,
            "turn_name": turn_name,
            "clock": clock,
        },
    )
    return {"clock": clock, "my_turn": my_turn, "turn_name": turn_name, "status_html": status_html}


def _last_round_html(game, view, names):
    """A finished round never changes: its (large) revealed hands render once."""
    if not view.last_round:
        return ""
    return fragment(
        "rummy/_last_round.html",
        (game.pk, _round_key(view.last_round), tuple(names.items())),
        lambda: {"last_round": _last_round(view, names)},
    )


def _round_key(last):
    return (last.get("round_no"), last.get("reason"), tuple(last.get("points") or ()))


# Rendered fragments that are the same for every viewer, per server process, keyed by
# template, language and content: after a move every open socket re-renders its view,
# and these parts (the table, the revealed hands of the last round) are most of it.


def fragment(template, key, context_fn):
    full_key = (template, translation.get_language(), key)
    html = memory.fragments.get(full_key)
    if html is None:
        html = render_to_string(template, context_fn())
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
