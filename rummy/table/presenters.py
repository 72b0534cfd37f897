"""What the game page shows one user, as typed, frozen values (``GamePage``), built from
the engine's per-seat view only; ``rummy.table.rendering`` turns them into HTML.

DESIGN "Hidden information": the values hold what ``engine.seat_view(state, seat)``
shows (own hand, others' hand sizes, the table, the stock size) plus names; never the
raw state. A spectator gets the view of no seat. The only other state read here is the
arrangement editor's ``can_knock_after`` question about the player's own hand.

No HTML and no query here: ``game`` comes with its seats and users loaded, and what the
user may do and their draft are read by the caller (``rendering.page_of``).
"""

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config import caches
from leagues.models import BotLevel
from leagues.ratings.chances import percent
from leagues.ratings.display import figure_text
from rummy import engine
from rummy.clock.text import moment_text, turn_clock
from rummy.models import Game, Seat
from rummy.play import drafts, hints_allowed
from rummy.play.wording import meld_problem_message
from rummy.table.fragments import Here, frozen, where
from rummy.templatetags.cards import CardFace, card_info

SORTS = ("suit", "rank")
# How a round ended, as a whole sentence each: the reasons do not fit one sentence
# frame in all three languages ("ended by the stock ran out").
REASONS = {
    engine.RoundEnd.KNOCK: gettext_lazy("The round ended with a knock."),
    engine.RoundEnd.GOING_OUT: gettext_lazy("The round ended when a player went out."),
    engine.RoundEnd.STOCK_OUT: gettext_lazy("The round ended because the stock ran out."),
    engine.RoundEnd.ENDED_EARLY: gettext_lazy("The game was ended early."),
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


@dataclass(frozen=True, slots=True)
class JokerChoice:
    """A joker on the table whose declaration must be chosen (R4.4): the cards it may
    stand for where it lies."""

    ref: str
    options: tuple[CardFace, ...]


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld of the table. Outside the editor only its place and cards (``codes``):
    it looks the same to everyone, and its faces are worked out with its shared HTML
    (``meld``); in the editor its faces, selection, verdict and joker choices too."""

    index: int
    number: int
    codes: tuple[str, ...]
    cards: tuple[CardFace, ...] = ()
    valid: bool = True
    problem: str = ""
    jokers: tuple[JokerChoice, ...] = ()


def meld(index, codes, editing=False, selected=frozenset(), language=None) -> Meld:
    """The meld at ``index`` with ``codes``, as the table shows it (the editor's with the
    selection and the joker choices)."""
    cards = [engine.Card.parse(c) for c in codes]
    problem = engine.meld_problem(cards)
    faces = tuple(
        card_info(c, f"t{index}.{j}", f"t{index}.{j}" in selected, language=language)
        for j, c in enumerate(codes)
    )
    jokers = []
    if editing:
        for j, card in enumerate(cards):
            if not card.joker:
                continue
            options = engine.joker_options(cards[:j] + cards[j + 1 :])
            if card.declared is None or (options and card.declared not in options):
                jokers.append(
                    JokerChoice(
                        f"t{index}.{j}",
                        tuple(card_info(str(o), language=language) for o in options),
                    )
                )
    return Meld(
        index=index,
        number=index + 1,
        codes=tuple(codes),
        cards=faces,
        valid=problem is None,
        problem=_meld_problem_words(problem),
        jokers=tuple(jokers),
    )


def _meld_problem_words(problem):
    if problem is None:
        return ""
    # The engine's reason code says exactly what is wrong with this meld (R4).
    return meld_problem_message(problem)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a table that has not started."""

    name: str
    is_me: bool
    is_host: bool
    is_bot: bool
    # At a league's table of people (``Seat.chance_first``): the rating ("1540?") and the
    # chance of finishing first in whole percent; else "" and None.
    rating: str = ""
    chance: int | None = None


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Before the start: who sits, and whether the user may sit, leave, start or add a
    bot (at ``bot_levels``)."""

    seats: tuple[SeatRow, ...]
    may_add_bot: bool
    bot_levels: tuple[tuple[str, Any], ...]
    open: bool
    may_sit: bool
    may_leave: bool
    may_start: bool


@dataclass(frozen=True, slots=True)
class Hand:
    """The user's hand and the table's melds (the draft's while arranging, with the
    selection), and the hand's points (None for a spectator)."""

    editing: bool
    has_selection: bool
    selected_count: int
    hand: tuple[CardFace, ...]
    hand_points: int | None
    melds: tuple[Meld, ...]


@dataclass(frozen=True, slots=True)
class InPlay:
    """A started game as the user sees it (over or not)."""

    hand: Hand
    status: "Status"
    my_turn: bool
    turn_name: str
    hint: str
    # The turn clock: the seats marked absent, and whether the user may end the game.
    absent: tuple[int, ...]
    may_end_early: bool
    players: tuple["PlayerRow", ...]
    legal: tuple[engine.Action, ...]
    can_play_knock: bool
    # The Hint control: the game's rule, read from the loaded season.
    hints_on: bool
    last_round_key: tuple | None
    final: bool


@dataclass(frozen=True, slots=True)
class GamePage:
    """What the game page shows ``viewer`` at one version: ``open`` before the start,
    ``play`` after it (exactly one of them is set)."""

    game: Game
    version: int
    sort: str
    flash: Any
    viewer: Any
    my_seat: Seat | None
    is_player: bool
    where: Here
    open: OpenTable | None = None
    play: InPlay | None = None


def game_page(game: Game, user, sort="suit", flash=None, *, rights, draft=None) -> GamePage:
    """What the game page shows ``user``. It reads nothing from the database: ``game``
    comes from ``rummy.table.access.games_with_seats`` (seats and users loaded),
    ``rights`` is what ``user`` may do in its league (``access.rights``) and ``draft``
    the user's current draft if they are arranging (``rummy.table.rendering`` reads
    both)."""
    sort = sort if sort in SORTS else "suit"
    # The language and time zone, read once for the whole render (every fragment and
    # card is keyed by them; each read goes through asgiref's context-local storage).
    here = where()
    seats = list(game.seated())
    my_seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    if game.state is None:
        table = _open_table(game, user, seats, my_seat, rights)
        is_player = my_seat is not None
        return GamePage(game, game.version, sort, flash, user, my_seat, is_player, here, open=table)
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
    editing = draft is not None
    clock = turn_clock(game, rights.is_admin)
    my_turn = seat_number is not None and view.turn == seat_number and not view.round_over
    turn_name = names.get(view.turn, "?")
    in_play = InPlay(
        hand=_hand_and_table(view, draft, sort, here[0]),
        status=Status(
            round_no=view.round_no,
            stock_size=view.stock_size,
            final_lap=view.final_turns is not None,
            game_over=view.game_over,
            my_turn=my_turn,
            turn_name=turn_name,
            drawn=view.drawn,
            deadline=clock["deadline"],
        ),
        my_turn=my_turn,
        turn_name=turn_name,
        # The player to move's next step, next to their buttons.
        hint=turn_hint(view, editing) if my_turn and not view.game_over else "",
        absent=tuple(sorted(clock["absent"])),
        may_end_early=clock["may_end_early"],
        players=_players(view, names, bots, _away(game, seats), odds(seats)),
        legal=tuple(view.legal),
        can_play_knock=editing
        and seat_number is not None
        and engine.can_knock_after(state, seat_number, drafts.hand_after(draft)),
        hints_on=hints_allowed(game),
        last_round_key=_last_round_key(view, names),
        final=view.game_over,
    )
    is_player = my_seat is not None
    return GamePage(game, game.version, sort, flash, user, my_seat, is_player, here, play=in_play)


def _open_table(game, user, seats, my_seat, rights) -> OpenTable:
    """Before the start: who sits, and whether ``user`` may sit, leave or start."""
    may_add_bot = (
        game.is_open
        and len(seats) < game.max_seats
        and (game.host_id == getattr(user, "pk", None) or rights.is_admin)
    )
    return OpenTable(
        seats=tuple(
            SeatRow(
                name=s.user.name,
                is_me=s is my_seat,
                is_host=s.user_id == game.host_id,
                is_bot=bool(s.bot_level),
                rating=figure_text(s.rating_mu, s.rating_sigma)
                if s.chance_first is not None
                else "",
                chance=percent(s.chance_first) if s.chance_first is not None else None,
            )
            for s in seats
        ),
        may_add_bot=may_add_bot,
        bot_levels=tuple(BotLevel.choices),
        open=game.is_open,
        may_sit=game.is_open
        and rights.is_member
        and my_seat is None
        and len(seats) < game.max_seats,
        may_leave=game.is_open and my_seat is not None,
        may_start=game.is_open and game.host_id == user.pk and len(seats) >= 2,
    )


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


def _hand_and_table(view, draft, sort, language=None) -> Hand:
    """The hand and the melds: the draft's while arranging (with the selection), else
    the view's. Outside the editor every meld and the hand render once per content and
    are shared (``rummy.table.fragments``)."""
    editing = draft is not None
    selected = frozenset(draft.data.get("selected", [])) if editing else frozenset()
    hand_codes = draft.data["hand"] if editing else list(view.hand)
    table_codes = draft.data["table"] if editing else [m.split() for m in view.table]
    # The card just drawn stays marked until the turn's next action (R3): another draw
    # marks its own card instead.
    mine_drawn = view.drawn and view.seat is not None and view.seat == view.turn
    just_drawn = view.hand[-1:] if mine_drawn else ()
    drawn_at = drawn_positions(hand_codes, just_drawn)
    if editing:
        hand = tuple(
            card_info(code, f"h{i}", f"h{i}" in selected, i in drawn_at, language)
            for code, i in sort_hand(hand_codes, sort)
        )
        # While arranging the points follow the cards left in the draft's hand (R7.1).
        points = _points(hand_codes)
        melds = tuple(meld(i, m, True, selected, language) for i, m in enumerate(table_codes))
    else:
        language = language or translation.get_language()
        hand, points = _hand_cards(tuple(hand_codes), sort, frozenset(drawn_at), language)
        melds = tuple(_shared_meld(i, tuple(m)) for i, m in enumerate(table_codes))
    return Hand(
        editing=editing,
        has_selection=bool(selected),
        selected_count=len(selected),
        hand=hand,
        hand_points=points if view.seat is not None else None,
        melds=melds,
    )


@caches.memo(maxsize=8192)
def _shared_meld(index, codes):
    # Outside the editor a meld is its place and cards: the same value for every viewer
    # and version, made once (a table holds up to a few dozen melds, re-rendered after
    # every move for every socket).
    return Meld(index, index + 1, codes)


def _points(codes):
    return engine.hand_points(engine.parse_cards(" ".join(codes)))


@caches.memo(maxsize=4096)
def _hand_cards(codes, sort, drawn_at, language):
    """Outside the editor, a hand's cards as the card tag shows them (shared, never
    changed), and its points: worked out once per hand, order, mark and language, not
    again after every other player's move. Keyed by the cards, not by who holds them,
    like the hand's HTML (``rendering._hand_html``)."""
    cards = tuple(
        card_info(code, f"h{i}", False, i in drawn_at, language)
        for code, i in sort_hand(codes, sort)
    )
    return cards, _points(codes)


def _away(game, seats):
    """{seat number: until when} for the players on vacation (``Seat.away_until``, kept
    by the write path while the game is in progress), in words in the viewer's zone."""
    if not game.is_active:
        return {}
    return {s.number: moment_text(s.away_until) for s in seats if s.away_until is not None}


@dataclass(frozen=True, slots=True)
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
        s.number: _odds(s.rating_mu, s.rating_sigma, s.chance_first)
        for s in seats
        if s.chance_first is not None
    }


@caches.memo(maxsize=4096)
def _odds(mu, sigma, chance):
    # A seat's figures are fixed when the game begins: worked out once, not for every
    # view of every move.
    return figure_text(mu, sigma), percent(chance)


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


@dataclass(frozen=True, slots=True)
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


def _last_round_key(view, names):
    """What the finished round's part shows (its revealed hands, R7, and the names), as
    a key (``last_round``'s arguments); None before the first round ends."""
    if not view.last_round:
        return None
    return tuple(sorted(names.items())), frozen(view.last_round)


@dataclass(frozen=True, slots=True)
class RevealedHand:
    """One player's row of the finished round: their hand, now public (R7)."""

    name: str
    cards: tuple[CardFace, ...]
    count: int
    points: int
    winner: bool
    knocker: bool
    went_out: bool
    #: the running total after this round, where a page shows one (the score sheet)
    total: int | None = None


def revealed_row(name, hand, points, winner, knocker=False, went_out=False) -> RevealedHand:
    """One seat's row of a finished round: its revealed hand (``hand`` in notation;
    public once the round is over, R7), the hand's count (R7.1) and the round's points.
    The one shape of a round row, for ``rummy/_round_rows.html``: the game page's last
    round, the score sheet and the replay."""
    return RevealedHand(
        name=name,
        cards=tuple(card_info(c) for c in hand.split()),
        count=engine.hand_points(engine.parse_cards(hand)),
        points=points,
        winner=winner,
        knocker=knocker,
        went_out=went_out,
    )


def last_round_rows(last: Mapping[str, Any], names: Mapping[int, str]) -> tuple[RevealedHand, ...]:
    """The rows of the round a view's ``last_round`` records (``names``: seat to name)."""
    winners = set(last.get("winners") or [])
    return tuple(
        revealed_row(
            names.get(n, "?"),
            hand,
            last["points"][n],
            winner=n in winners,
            knocker=last.get("knocker") == n,
            went_out=last.get("went_out") == n,
        )
        for n, hand in enumerate(last.get("hands") or [])
    )


@dataclass(frozen=True, slots=True)
class LastRound:
    """The finished round's revealed hands, points and table, and how it ended (R7)."""

    round_no: int | None
    reason: Any
    undercut: bool
    rows: tuple[RevealedHand, ...]
    table: tuple[tuple[CardFace, ...], ...]


def last_round(names, last) -> LastRound:
    """The finished round from ``_last_round_key``'s values (the names and the view's
    ``last_round``, both as sorted items)."""
    return _last_round(dict(last), dict(names))


def _last_round(last: Mapping[str, Any], names: Mapping[int, str]) -> LastRound:
    winners = set(last.get("winners") or [])
    reason: Any = last.get("reason")
    return LastRound(
        round_no=last.get("round_no"),
        reason=REASONS.get(reason, reason),
        undercut=last.get("knocker") is not None and last.get("knocker") not in winners,
        rows=last_round_rows(last, names),
        table=tuple(tuple(card_info(c) for c in m.split()) for m in last.get("table") or []),
    )
