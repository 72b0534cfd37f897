"""Reading games for the stack proofs: the state at any version (a partial replay of the
log), the cards a page shows, and the card count."""

import re

from rummy import play
from rummy.models import Game
from rummy.play.replay import replay
from tests.factories import make_league, make_user

VERSION_RE = re.compile(r'data-version="(\d+)"')  # the view's version input (every frame)
CARD_RE = re.compile(r'\sdata-card="([^"]*)"')
REVEALED_RE = re.compile(r'\sdata-revealed-card="([^"]*)"')
STALE_TEXT = "The table changed before your action arrived"


def two_player_game(league=None, names=None):
    a = make_user(names[0] if names else None)
    b = make_user(names[1] if names else None)
    league = league or make_league(a, members=[b])
    game = play.open_table(league, a, max_seats=2)
    play.take_seat(game.pk, b)  # a full table starts by itself
    return Game.objects.get(pk=game.pk), a, b


def version_of(html):
    match = VERSION_RE.search(html)
    return int(match.group(1)) if match else None


def physical(code):
    """A card as the physical card it is: a declared joker ("*9H") is the joker."""
    return "*" if code.startswith("*") else code


def cards_shown(html):
    return {physical(c) for c in CARD_RE.findall(html)}, {
        physical(c) for c in REVEALED_RE.findall(html)
    }


def state_at(game, version):
    """The state after the moves up to ``version``."""
    return replay(game, up_to=version)


def physical_cards(state):
    cards = [c for hand in state.hands for c in hand]
    cards += [c for meld in state.table for c in meld]
    cards += list(state.stock)
    return [str(c.physical) for c in cards]


def legal_action(html):
    """What the page offers: a draw, else a pass, else nothing (not this player's turn)."""
    if 'id="btn-draw"' in html:
        return "draw"
    if 'id="btn-pass"' in html:
        return "pass"
    return None
