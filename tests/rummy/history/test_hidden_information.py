"""The history never shows a card before its time (the issue's rules, DESIGN "Hidden
information"), over whole games: at every step of a running game's replay a seated
player sees only their own hand of that moment and the table, a spectator only the
table; a finished round's hands at the step that ended it and on the score sheet; no
download before the end; once the game is over, everything.

Two players, so one deck and every card unique (R1.2). Every card a page shows carries
data-card (own hand, table) or data-revealed-card (another hand, revealed); the move
list names cards by their symbols ("7♥"), which are checked as well.
"""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from rummy import engine
from rummy.history.log import game_steps
from rummy.models import Game
from tests.rummy.conftest import cards_shown
from tests.rummy.history.conftest import new_game, play_out

pytestmark = pytest.mark.django_db

SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
TEXT_CARD_RE = re.compile(r"(?<![0-9A-Z★])(10|[2-9AJQK])([♣♦♥♠])")


def cards_in_text(html):
    """Cards named in words (the move list): ``7♥`` is 7H; a joker's declaration after
    ★ is not a card of any hand."""
    text = re.sub(r"<[^>]+>", " ", html)
    return {rank + SYMBOL[suit] for rank, suit in TEXT_CARD_RE.findall(text)}


def check(html, state, seat, revealed_ok=()):
    """At ``state``, ``seat`` (None: spectator) may see its own hand and the table as
    data-card, and only ``revealed_ok`` as data-revealed-card."""
    own = {str(c) for c in state.hands[seat]} if seat is not None else set()
    table = {str(c) for meld in state.table for c in meld}
    shown, revealed = cards_shown(html)
    assert set(shown) <= own | table, f"seat {seat} shown {set(shown) - own - table}"
    assert set(revealed) <= set(revealed_ok), f"revealed {set(revealed) - set(revealed_ok)}"
    named = cards_in_text(html) - own - table - set(revealed_ok)
    assert not named, f"seat {seat} read {named} in words"
    if len(state.stock) > 1:
        assert engine.format_cards(state.stock) not in html


def round_hands(state):
    return {c for hand in state.last_round["hands"] for c in hand.split()}


@pytest.fixture
def viewers(cast):
    out = {}
    for name, seat in (("alice", 0), ("bob", 1), ("carol", None)):
        out[name] = (Client(), seat)
        out[name][0].force_login(cast[name])
    return out


@pytest.mark.parametrize("seed", [3, 12])
def test_a_running_games_replay_shows_each_seat_only_what_it_saw(
    cast, league, viewers, seeded_deals, seed
):
    game = new_game([cast.alice, cast.bob], league, seed=seed, target=500)
    game = play_out(game, random.Random(seed), stop=lambda g: g.rounds.count() >= 2)
    assert game.status == Game.Status.ACTIVE
    url = reverse("rummy:replay", args=[game.pk])
    sheet = reverse("rummy:record", args=[game.pk])
    finished_hands = set()
    for step in game_steps(game):
        state = step.after
        revealed = round_hands(state) if step.ends_round else set()
        for client, seat in viewers.values():
            for headers in ({}, {"HX-Request": "true"}):
                response = client.get(f"{url}?at={step.move.seq}", headers=headers)
                assert response.status_code == 200
                check(response.content.decode(), state, seat, revealed)
        if step.ends_round:
            finished_hands |= revealed
    # The score sheet: only finished rounds' hands, the same for everyone.
    for client, _seat in viewers.values():
        html = client.get(sheet).content.decode()
        shown, revealed = cards_shown(html)
        assert not shown
        assert set(revealed) <= finished_hands  # never a card of the round in play
        # No download before the end.
        response = client.get(reverse("rummy:record_json", args=[game.pk]))
        assert response.status_code == 409
        assert not cards_shown(response.content.decode())[0]


def test_once_the_game_is_over_every_hand_is_shown_at_every_step(
    cast, league, viewers, seeded_deals
):
    game = play_out(new_game([cast.alice, cast.bob], league, seed=6, target=40), random.Random(6))
    url = reverse("rummy:replay", args=[game.pk])
    checked = 0
    for step in game_steps(game):
        if step.move.seq % 7:
            continue
        state = step.after
        every = {str(c) for hand in state.hands for c in hand}
        for client, _seat in viewers.values():
            html = client.get(f"{url}?at={step.move.seq}").content.decode()
            shown, revealed = cards_shown(html)
            assert every <= set(revealed)  # every hand, the viewer's own too
            assert set(shown) <= {str(c) for m in state.table for c in m}
            checked += 1
    assert checked > 10
