"""The arrangement editor's server-side draft (DESIGN "Drafts").

While a player rearranges the table (R5.1) the arrangement lives in ``Draft`` (one per
game and seat), so a reload or a switch of device loses nothing. A draft is tied to the
game version it started from: once the game moves on it starts again from the table
as it is now. Draft edits are private to the seat, so they never bump the game version
and never broadcast; only "Play" changes the game, as the turn's meld (``turns``).

Cards are referred to by position, not by name, because with two decks every card
exists twice (R1.2): ``h3`` is the fourth card of the draft hand, ``t1.0`` the first
card of the second meld. Every edit clears the selection, so positions stay valid.
"""

import re
from collections import Counter

from django.db import transaction
from django.utils.translation import gettext as _

from rummy import engine
from rummy.models import Draft
from rummy.play import store, turns
from rummy.play.errors import ActionRefused, NotAllowed
from rummy.play.wording import rule_error_message

REF_RE = re.compile(r"^(?:h(\d{1,3})|t(\d{1,3})\.(\d{1,3}))$")
MAX_SELECTED = 60


def fresh_data(state, seat_number):
    return {
        "table": [[str(c) for c in meld] for meld in state.table],
        "hand": [str(c) for c in state.hands[seat_number]],
        "selected": [],
    }


def current_draft(game, seat_number):
    """The seat's draft if it still belongs to the game's version, else None (read only)."""
    draft = Draft.objects.filter(game=game, seat=seat_number).first()
    if draft is None or draft.base_version != game.version:
        return None
    return draft


def _editing(game_id, user, expected_version, create=True):
    """Lock the game, check the player may meld now (the turn's own guards), and return
    (game, seat, state, draft)."""
    game = store.locked_game(game_id, with_seats=True)
    seat = turns.acting_seat(game, user)
    store.check_version(game, expected_version, required=True)
    state = game.engine_state()
    if state.turn != seat.number:
        raise NotAllowed(str(engine_message("not_your_turn")))
    if engine.Action.MELD not in engine.legal_actions(state, seat.number):
        raise ActionRefused(engine_message("must_draw"), code="must_draw")
    draft = Draft.objects.select_for_update().filter(game=game, seat=seat.number).first()
    if draft is not None and draft.base_version != game.version:
        draft.base_version = game.version
        draft.data = fresh_data(state, seat.number)
        draft.save(update_fields=["base_version", "data", "updated_at"])
    elif draft is None and create:
        draft = Draft.objects.create(
            game=game,
            seat=seat.number,
            base_version=game.version,
            data=fresh_data(state, seat.number),
        )
    elif draft is None:
        raise ActionRefused(_("Open the arrangement editor first (Meld)."), code="no_draft")
    return game, seat, state, draft


def engine_message(code):
    return rule_error_message(engine.RuleError(code))


def _card_at(data, ref):
    match = REF_RE.match(ref) if isinstance(ref, str) else None
    if not match:
        raise ActionRefused(_("That card reference could not be read."), code="bad_ref")
    try:
        if match.group(1) is not None:
            return data["hand"][int(match.group(1))]
        return data["table"][int(match.group(2))][int(match.group(3))]
    except IndexError:
        raise ActionRefused(_("That card is not there any more."), code="bad_ref") from None


def _save(draft, data):
    draft.data = data
    draft.save(update_fields=["data", "updated_at"])
    return draft


def load(game, seat_number, table, hand):
    """Lay out an arrangement (a hint's meld, ``rummy.play.hints``) in the seat's draft
    at the game's current version, as if the player had made it: the editor then shows
    it and "Play" plays it. The caller holds the game's lock."""
    data = _tidy({"table": table, "hand": hand, "selected": []})
    Draft.objects.update_or_create(
        game=game, seat=seat_number, defaults={"base_version": game.version, "data": data}
    )


# --- The edits ---------------------------------------------------------------------------


@transaction.atomic
def open_editor(game_id, user, expected_version):
    return _editing(game_id, user, expected_version)[3]


@transaction.atomic
def close_editor(game_id, user, expected_version):
    draft = _editing(game_id, user, expected_version)[3]
    draft.delete()


@transaction.atomic
def reset(game_id, user, expected_version):
    """ "Reset": the table and the hand as they are in the game."""
    _game, seat, state, draft = _editing(game_id, user, expected_version)
    return _save(draft, fresh_data(state, seat.number))


@transaction.atomic
def select(game_id, user, expected_version, ref):
    """Tap a card: add it to the selection, or take it out again."""
    draft = _editing(game_id, user, expected_version, create=False)[3]
    data = draft.data
    _card_at(data, ref)
    selected = list(data.get("selected", []))
    if ref in selected:
        selected.remove(ref)
    elif len(selected) >= MAX_SELECTED:
        raise ActionRefused(_("Too many cards selected."), code="bad_ref")
    else:
        selected.append(ref)
    return _save(draft, {**data, "selected": selected})


def _take_selection(data):
    """Remove the selected cards from where they are; return (cards, data without them)."""
    selected = data.get("selected") or []
    if not selected:
        raise ActionRefused(_("Select one or more cards first."), code="nothing_selected")
    cards = [_card_at(data, ref) for ref in selected]
    hand = list(data["hand"])
    table = [list(m) for m in data["table"]]
    # Remove from the back so the positions of the other selected cards do not shift.
    for ref in sorted(selected, key=_ref_sort_key, reverse=True):
        m = _ref(ref)
        if m.group(1) is not None:
            del hand[int(m.group(1))]
        else:
            del table[int(m.group(2))][int(m.group(3))]
    return cards, {"hand": hand, "table": table, "selected": []}


def _ref(ref) -> re.Match:
    """The parts of a place the draft has checked already (a hand's or a meld's card)."""
    m = REF_RE.match(ref)
    assert m is not None, ref
    return m


def _ref_sort_key(ref):
    m = _ref(ref)
    if m.group(1) is not None:
        return (0, 0, int(m.group(1)))
    return (1, int(m.group(2)), int(m.group(3)))


@transaction.atomic
def move_selection(game_id, user, expected_version, meld_index):
    """Tap a meld: the selected cards join it."""
    draft = _editing(game_id, user, expected_version, create=False)[3]
    try:
        meld_index = int(meld_index)
    except (TypeError, ValueError):
        meld_index = -1
    if not 0 <= meld_index < len(draft.data["table"]):
        raise ActionRefused(_("There is no such meld."), code="bad_meld")
    cards, data = _take_selection(draft.data)
    data["table"][meld_index].extend(cards)
    return _save(draft, _tidy(data))


@transaction.atomic
def new_meld(game_id, user, expected_version):
    """ "New meld": the selected cards start a meld of their own."""
    draft = _editing(game_id, user, expected_version, create=False)[3]
    cards, data = _take_selection(draft.data)
    data["table"].append(cards)
    return _save(draft, _tidy(data))


@transaction.atomic
def to_hand(game_id, user, expected_version):
    """Take selected cards back to the hand: only cards that came from it (R5.2 b)."""
    _game, seat, state, draft = _editing(game_id, user, expected_version, create=False)
    cards, data = _take_selection(draft.data)
    owned = Counter(c.pcode for c in state.hands[seat.number])
    after = Counter(engine.Card.parse(c).pcode for c in data["hand"] + cards)
    if after - owned:
        raise ActionRefused(engine_message("table_card_missing"), code="table_card_missing")
    data["hand"].extend(str(engine.Card.parse(c).physical) for c in cards)
    return _save(draft, _tidy(data))


@transaction.atomic
def declare_joker(game_id, user, expected_version, ref, card):
    """Say which card a joker on the draft table stands for (R4.4); only a card that
    would make its meld valid (``engine.joker_options``) is accepted."""
    draft = _editing(game_id, user, expected_version, create=False)[3]
    data = draft.data
    joker = engine.Card.parse(_card_at(data, ref))
    m = _ref(ref)
    if not joker.joker or m.group(2) is None:
        raise ActionRefused(_("Only a joker on the table can be declared."), code="bad_ref")
    meld = [engine.Card.parse(c) for c in data["table"][int(m.group(2))]]
    position = int(m.group(3))
    others = meld[:position] + meld[position + 1 :]
    try:
        wanted = engine.Card.parse(card)
    except engine.RuleError:
        raise ActionRefused(_("That card could not be read."), code="bad_card") from None
    if wanted.joker or wanted not in engine.joker_options(others):
        raise ActionRefused(
            _("The joker cannot stand for that card in this meld."), code="bad_card"
        )
    table = [list(x) for x in data["table"]]
    table[int(m.group(2))][position] = str(joker.declare(wanted))
    return _save(draft, _tidy({**data, "table": table, "selected": []}))


def _tidy(data):
    """Drop empty melds, infer a new joker's card when only one fits (R4.4 Decision),
    and order each meld for reading."""
    table = []
    for meld in data["table"]:
        if not meld:
            continue
        cards = [engine.Card.parse(c) for c in meld]
        for i, card in enumerate(cards):
            if card.joker and card.declared is None:
                others = cards[:i] + cards[i + 1 :]
                options = engine.joker_options(others)
                if len(options) == 1:
                    cards[i] = card.declare(options[0])
        table.append([str(c) for c in display_order(cards)])
    return {**data, "table": table}


def display_order(cards):
    """Sequences low to high (an ace after a king when it is high, R4.3), groups by suit;
    undeclared jokers last."""
    ordered = sorted(
        cards, key=lambda c: (c.ecode < 0, (c.ecode % 13) if c.ecode >= 0 else 0, c.ecode)
    )
    ranks = {c.ecode % 13 for c in cards if c.ecode >= 0}
    if (
        0 in ranks
        and 12 in ranks
        and len(ranks) > 1
        and len({c.ecode // 13 for c in cards if c.ecode >= 0}) == 1
    ):
        aces = [c for c in ordered if c.ecode >= 0 and c.ecode % 13 == 0]
        ordered = [c for c in ordered if c not in aces or c.ecode < 0] + aces
    return ordered


def hand_after(draft):
    return [engine.Card.parse(c) for c in draft.data["hand"]]


@transaction.atomic
def play(game_id, user, expected_version, knock=False):
    """ "Play" / "Play and knock": send the draft's table to the engine (R5.2, R6.1)."""
    game, seat, _state, draft = _editing(game_id, user, expected_version, create=False)
    # Melds as notation strings: the form every layer reads (and the move log stores).
    table = [" ".join(m) for m in draft.data["table"]]
    # The game is locked and checked already: the meld is applied to it directly.
    result = turns.act_locked(
        game, seat, user, {"do": engine.Action.MELD, "table": table, "knock": bool(knock)}
    )
    draft.delete()
    return result
