"""The moves of a game in words, for the replay's move list ("Anna drew a card",
"Bruno melded 7♥ 8♥ 9♥ and laid Q♠ off on the table", "Cecīlija knocked with 4
points"). Whole sentences, each marked for translation; card names are the symbols,
which read the same in every language.

``describe`` says only what the viewer may know: the card a player drew is named only
when ``shows_hand(seat)`` says that the viewer may see that seat's hand at that step.
"""

from collections import Counter

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rummy import engine
from rummy.history.log import DEAL_KINDS
from rummy.history.sheet import ending, went_out_seat
from rummy.models import Move

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_text(card):
    """``7♥``; a joker ``★``, on the table ``★9♥`` (standing for 9♥)."""
    if card.joker:
        return "★" + (card_text(card.declared) if card.declared is not None else "")
    return engine.cards.rank_name(card.rank) + SUIT_SYMBOLS[card.suit]


def cards_text(cards):
    return " ".join(card_text(c) for c in cards)


def meld_parts(before, after):
    """(new melds made only of cards from the hand, cards laid off on other melds)."""
    added = Counter(c.pcode for m in after for c in m) - Counter(c.pcode for m in before for c in m)
    new_melds, laid_off = [], []
    for meld in after:
        from_hand = []
        for card in meld:
            if added[card.pcode] > 0:
                added[card.pcode] -= 1
                from_hand.append(card)
        if from_hand and len(from_hand) == len(meld):
            new_melds.append(meld)
        else:
            laid_off.extend(from_hand)
    return new_melds, laid_off


def _meld_sentence(name, before, after):
    new_melds, laid_off = meld_parts(before.table, after.table)
    melds = " · ".join(cards_text(m) for m in new_melds)
    cards = cards_text(laid_off)
    if new_melds and laid_off:
        return _("%(name)s melded %(melds)s and laid %(cards)s off on the table.") % {
            "name": name,
            "melds": melds,
            "cards": cards,
        }
    if new_melds:
        return _("%(name)s melded %(melds)s.") % {"name": name, "melds": melds}
    return _("%(name)s laid %(cards)s off on the table.") % {"name": name, "cards": cards}


def _knock_sentence(name, hand):
    points = engine.hand_points(hand)
    return ngettext(
        "%(name)s knocked with %(points)d point.",
        "%(name)s knocked with %(points)d points.",
        points,
    ) % {"name": name, "points": points}


def _timeout_sentence(name, before, after, seat):
    drawn = len(after.hands[seat]) - len(before.hands[seat])
    if not drawn:
        return _("The time of %(name)s ran out: they passed.") % {"name": name}
    return ngettext(
        "The time of %(name)s ran out: %(n)d card was drawn for them.",
        "The time of %(name)s ran out: %(n)d cards were drawn for them.",
        drawn,
    ) % {"name": name, "n": drawn}


def _clock_sentence(payload, names):
    """The turn clock's own entry (``rummy.play.reclock``): who went on vacation or came
    back, else that the deadline moved with the mover's paused time."""
    if "gone" in payload:
        return _("%(name)s deleted their account.") % {"name": names.get(payload["gone"], "?")}
    away = payload.get("away") or {}
    said = [
        (_("%(name)s went on vacation.") if until else _("%(name)s is back from vacation."))
        % {"name": names.get(int(seat), "?")}
        for seat, until in sorted(away.items())
    ]
    return " ".join(said) or _("The deadline moved with the paused time of the player to move.")


def _move_sentence(step, names, shows_hand):
    move, before, after = step.move, step.before, step.after
    name = names.get(move.seat, "?")
    if move.kind in DEAL_KINDS:
        return _("Round %(round)d: %(dealer)s dealt.") % {
            "round": after.round_no,
            "dealer": names.get(after.dealer, "?"),
        }
    if move.kind == Move.Kind.DRAW:
        if shows_hand(move.seat):
            return _("%(name)s drew %(card)s.") % {
                "name": name,
                "card": card_text(before.stock[0]),
            }
        return _("%(name)s drew a card.") % {"name": name}
    if move.kind == Move.Kind.MELD:
        sentence = _meld_sentence(name, before, after)
        if after.round_over and move.payload.get("knock"):
            sentence += " " + _knock_sentence(name, after.hands[move.seat])
        return sentence
    if move.kind == Move.Kind.KNOCK:
        return _knock_sentence(name, before.hands[move.seat])
    if move.kind == Move.Kind.PASS:
        return _("%(name)s passed.") % {"name": name}
    if move.kind == Move.Kind.TIMEOUT:
        return _timeout_sentence(name, before, after, move.seat)
    if move.kind == Move.Kind.HINT:
        return _("%(name)s asked for a hint.") % {"name": name}
    if move.kind == Move.Kind.CLOCK:
        return _clock_sentence(move.payload, names)
    if move.kind == Move.Kind.END_EARLY:
        return _("A league admin ended the game early.")
    return _("A league admin voided the game.")


def describe(step, names, shows_hand, bot_seats=frozenset()):
    """The sentences for one ``rummy.history.log.Step``. ``bot_seats``: the seats of
    computer players, whose names say so already; a bot's move at anyone else's seat
    (standing in for an absent player) is marked as such."""
    sentences = [_move_sentence(step, names, shows_hand)]
    if getattr(step.move, "bot_level", "") and step.move.seat not in bot_seats:
        sentences.append(_("(Played by a bot.)"))
    if step.ends_round:
        last = step.after.last_round
        if last["reason"] == engine.RoundEnd.KNOCK:
            # The knock itself is said above; an undercut is news (R7.2).
            if last.get("knocker") not in last["winners"]:
                sentences.append(_("The knock was undercut."))
        else:
            went_out = last.get("went_out")
            if went_out is None:
                went_out = went_out_seat(last["reason"], last["hands"])
            sentences.append(
                ending(last["reason"], last.get("knocker"), set(last["winners"]), went_out, names)
            )
    return " ".join(str(s) for s in sentences)
