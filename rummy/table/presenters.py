"""What a table page shows one user, built from the engine's per-seat view only.

DESIGN "Hidden information": the templates receive ``engine.seat_view(state, seat)``
(own hand, others' hand sizes, the table, the stock size) plus names; never the raw
state. A spectator gets the view of no seat. The only other state read here is the
arrangement editor's ``can_knock_after`` question about the player's own hand.
"""

import datetime
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config import caches
from leagues.models import BotLevel
from leagues.ratings.chances import percent
from leagues.ratings.display import figure_text
from rummy import engine
from rummy.clock.text import moment_text, turn_clock
from rummy.models import Game
from rummy.play import drafts, hints_allowed
from rummy.play.wording import meld_problem_message
from rummy.table.fragments import frozen, where

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


@caches.memo(maxsize=2048)
def _card_face(code, drawn, language):
    # About 110 codes (a joker may stand for any card) x 2 marks x 3 languages.
    card = engine.Card.parse(code)
    face = card.declared if card.joker else card
    with translation.override(language):
        label = card_name(card, drawn)
    return {
        "code": str(card),
        "label": label,
        "joker": card.joker,
        "rank": engine.cards.rank_name(face.rank) if face else "★",
        "suit": face.suit if face else "",
        "symbol": SUIT_SYMBOLS[face.suit] if face else "",
        "red": face is not None and face.suit in ("D", "H"),
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
    seats = list(game.seated())
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
    # "stand_in" (a bot plays for an absent player).
    bots = {s.number: "bot" if s.bot_level else "stand_in" for s in seats if s.bot_plays}
    # Only the player to move can be arranging (a draft belongs to one version).
    if seat_number is None or engine.Action.MELD not in view.legal:
        draft = None
    ctx.update(_hand_and_table(game, view, draft, sort, here[0]))
    ctx.update(_status(game, view, names, seat_number, draft is not None, rights))
    ctx.update(
        view=view,
        game_pk=game.pk,
        players=_players(view, names, bots, _away(game, seats), odds(seats)),
        legal=view.legal,
        can_play_knock=draft is not None
        and seat_number is not None
        and engine.can_knock_after(state, seat_number, drafts.hand_after(draft)),
        # The Hint control: the game's rule, read from the loaded season.
        hints_on=hints_allowed(game),
        last_round_key=_last_round_key(view, names),
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
                "rating": figure_text(s.rating_mu, s.rating_sigma)
                if s.chance_first is not None
                else "",
                "chance": percent(s.chance_first) if s.chance_first is not None else None,
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
    are shared (``rummy.table.fragments``)."""
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


@caches.memo(maxsize=4096)
def _hand_cards(codes, sort, drawn_at, language):
    """Outside the editor, a hand's cards as the card tag shows them (a tuple: shared,
    never changed), and its points: worked out once per hand, order, mark and language,
    not again after every other player's move. Keyed by the cards, not by
    who holds them, like the hand's HTML (``rendering._hand_html``)."""
    cards = tuple(
        card_info(code, f"h{i}", False, i in drawn_at, language)
        for code, i in sort_hand(codes, sort)
    )
    return cards, _points(codes)


def meld_context(index, codes):
    """What ``rummy/_meld.html`` shows of a meld outside the editor: the same to everyone
    at any version, for its place and cards."""
    return {"m": _meld_info(list(codes), index, False, set()), "editing": False}


def _away(game, seats):
    """{seat number: until when} for the players on vacation (``Seat.away_until``, kept
    by the write path while the game is in progress), in words in the viewer's zone."""
    if not game.is_active:
        return {}
    return {s.number: moment_text(s.away_until) for s in seats if s.away_until is not None}


@dataclass(frozen=True)
class PlayerRow:
    """One player's row of the players panel (and of the final scores): the same for
    every viewer (whose row is the viewer's is the viewer's ``seat``)."""

    number: int
    name: str
    is_bot: bool
    stand_in: bool
    hand_size: int
    score: int
    rounds_won: int
    is_turn: bool
    is_dealer: bool
    final_score: int | None
    is_winner: bool
    away_until: str
    # At a league's table of people (``Seat.chance_first``): the rating before the game
    # ("1540?") and the chance of finishing first in whole percent; else "" and None.
    rating: str = ""
    chance: int | None = None


def odds(seats):
    """{seat number: (rating, chance in percent)} of the seats that have chances."""
    return {
        s.number: (figure_text(s.rating_mu, s.rating_sigma), percent(s.chance_first))
        for s in seats
        if s.chance_first is not None
    }


def _players(view, names, bots=None, away=None, chances=None) -> tuple[PlayerRow, ...]:
    bots = bots or {}
    away = away or {}
    chances = chances or {}
    return tuple(
        PlayerRow(
            number=n,
            name=names.get(n, "?"),
            is_bot=bots.get(n) == "bot",
            stand_in=bots.get(n) == "stand_in",
            hand_size=view.hand_sizes[n],
            score=view.scores[n],
            rounds_won=view.rounds_won[n],
            is_turn=n == view.turn and not view.round_over,
            is_dealer=n == view.dealer,
            final_score=(view.final_scores or [None] * len(names))[n],
            is_winner=n in (view.game_winners or []),
            away_until=away.get(n, ""),
            rating=chances.get(n, ("", None))[0],
            chance=chances.get(n, ("", None))[1],
        )
        for n in range(len(view.hand_sizes))
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


@dataclass(frozen=True)
class Status:
    """The status line: the round, the stock, whose turn and the clock. Everyone sees
    the same at one version, but for ``my_turn`` (the player to move's)."""

    round_no: int
    stock_size: int
    final_lap: bool
    game_over: bool
    my_turn: bool
    turn_name: str
    drawn: int
    deadline: datetime.datetime | None


def _status(game, view, names, seat_number, editing, rights):
    """Whose turn and the clock; the player to move also gets their next step
    (``hint``), next to their buttons."""
    clock = turn_clock(game, rights.is_admin)
    my_turn = seat_number is not None and view.turn == seat_number and not view.round_over
    turn_name = names.get(view.turn, "?")
    status = Status(
        round_no=view.round_no,
        stock_size=view.stock_size,
        final_lap=view.final_turns is not None,
        game_over=view.game_over,
        my_turn=my_turn,
        turn_name=turn_name,
        drawn=view.drawn,
        deadline=clock["deadline"],
    )
    hint = turn_hint(view, editing) if my_turn and not view.game_over else ""
    return {
        "clock": clock,
        "my_turn": my_turn,
        "turn_name": turn_name,
        "status": status,
        "hint": hint,
    }


def _last_round_key(view, names):
    """What the finished round's part shows (its revealed hands, R7, and the names), as
    a key (``last_round_context``); None before the first round ends."""
    if not view.last_round:
        return None
    return tuple(sorted(names.items())), frozen(view.last_round)


def last_round_context(names, last):
    """The context of ``rummy/_last_round.html`` from ``_last_round_key``'s values."""
    return {"last_round": _last_round(dict(last), dict(names))}


def _last_round(last, names):
    """The finished round's revealed hands and points (R7); hands are public now."""
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
