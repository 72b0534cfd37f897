"""Every part of the game page escapes what goes into it: a display name that is HTML,
and translated words that would break out of an attribute, in the parts built in Python
(rummy.table.html) as in the templates."""

import datetime
import random

import pytest
from django.utils import timezone, translation
from django.utils.translation import trans_real

from rummy import engine, play
from rummy.models import Game, Seat
from rummy.table import memory, rendering
from tests.factories import log_position, make_league, make_user, started_game

pytestmark = pytest.mark.django_db

NAME = '<b>"x"&\''
NAME_ESCAPED = "&lt;b&gt;&quot;x&quot;&amp;&#x27;"
HOSTILE = '"><script>'
HOSTILE_ESCAPED = "&quot;&gt;&lt;script&gt;"
# Words the Python-built parts put into attributes (a title, an aria-label, a card's
# spoken name, the countdown's words) and into the text.
WORDS = {
    "dealer",
    "Missed three turns in a row",
    "Sort your hand",
    "%(rank)s of %(suit)s",
    "overdue",
    "less than a minute",
    "to move:",
    "played by a bot",
    "absent",
    "Players",
    "Round %(r)s",
    "This turn ends",
    "Your time runs out",
    "sort the hand by\x04suit",  # pgettext asks gettext for context and word
    "No cards.",
    "on vacation until %(until)s",
    "%(name)s’s turn.",
    "The game is over.",
}
PLURALS = {"%(n)s card in the stock", "%(n)s card", "Drawn %(n)s card so far."}


class Hostile:
    """A translation that answers ``HOSTILE`` for ``WORDS`` and the real one otherwise."""

    def __init__(self, real):
        self.real = real

    def gettext(self, message):
        return HOSTILE if message in WORDS else self.real.gettext(message)

    def ngettext(self, singular, plural, number):
        if singular in PLURALS:
            return HOSTILE
        return self.real.ngettext(singular, plural, number)

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.fixture
def hostile(monkeypatch):
    """English as ``Hostile`` says it, wherever English is activated."""
    real = trans_real.translation("en")
    monkeypatch.setitem(trans_real._translations, "en", Hostile(real))
    memory.clear_all()  # nothing made in the real English
    with translation.override("en"):
        yield
    memory.clear_all()


def _game(final):
    """A game of four: the hostile name to move (or the winner), a bot standing in for
    an absent player, a player on vacation, a computer player."""
    users = [make_user("ann", display_name=NAME), make_user("ben"), make_user("cal")]
    bot = make_user("bot", display_name=NAME)
    admin = make_user("adm")
    league = make_league(users[0], members=[*users[1:], bot], admins=[admin], name=NAME)
    game = started_game([*users, bot], league=league, seed=3)
    state = game.engine_state()
    if final:
        rng = random.Random(5)
        while not state.game_over:
            if state.round_over:
                state = engine.deal_next_round(state, rng)
                continue
            action = engine.bots.choose_action(state, state.turn, rng)
            state = engine.apply_action(state, state.turn, action)
    else:
        state = engine.apply_action(state, state.turn, {"do": "draw"})
    log_position(game, state)
    seats = {s.number: s for s in game.seats.all()}
    Seat.objects.filter(pk=seats[1].pk).update(stand_in=True, timeouts_in_row=3)
    away = timezone.now() + datetime.timedelta(days=3)
    Seat.objects.filter(pk=seats[2].pk).update(away_until=away)
    Seat.objects.filter(pk=seats[3].pk).update(bot_level="beginner")
    return Game.objects.get(pk=game.pk), [*users, bot, admin]


def _views(game, users):
    out = []
    for user in users:
        memory.clear_all()
        frames = rendering.render_frames(game, user, "suit")
        out.append(frames.html)
    return out


@pytest.mark.parametrize("final", [False, True])
def test_a_hostile_name_and_hostile_words_are_escaped_everywhere(hostile, final):
    game, users = _game(final)
    if not final:  # the player to move has drawn and is arranging
        mover = users[game.engine_state().turn]
        play.open_editor(game.pk, mover, game.version)
        game = Game.objects.get(pk=game.pk)
    for i, html in enumerate(_views(game, users)):
        assert "<script>" not in html
        assert NAME not in html
        assert NAME_ESCAPED in html
        # In attributes as in the text: the dealer's title, and the hand's (the people's
        # while the game is on) sort links and cards.
        assert f'title="{HOSTILE_ESCAPED}"' in html
        if i < 3 and not final:
            # the sort links and every card ("<rank> of <suit>")
            assert html.count(f'aria-label="{HOSTILE_ESCAPED}"') > 10
        assert f">{HOSTILE_ESCAPED}</" in html


def test_the_status_line_names_a_hostile_player_to_move_escaped():
    """Without the hostile words: the name inside the sentence."""
    users = [make_user("ann", display_name=NAME), make_user("ben", display_name=NAME)]
    game = started_game(users, seed=1)
    other = users[1 - game.engine_state().turn]
    with translation.override("en"):
        html = rendering.render_frames(game, other, "suit").html
    assert f"{NAME_ESCAPED}’s turn." in html
    assert NAME not in html
