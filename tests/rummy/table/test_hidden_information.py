"""No response and no socket frame ever shows a card a user may not know (DESIGN
"Hidden information"), over whole scripted games of several rounds.

Two players, so one deck and every card unique (R1.2): a card shown is exactly
identifiable. Every card a page shows carries data-card (this round: must be in the
user's own hand or on the table) or data-revealed-card (the last finished round's
revealed hands, R7). The stock is never shown, so neither are its cards or its order.
"""

import json
import random

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rummy import engine, play
from rummy.engine import bots
from rummy.models import Game
from rummy.table import memory
from tests.rummy.conftest import cards_shown, set_state, start_two

# At module level: config.asgi builds its origin check when first imported, and at
# collection DEBUG is still on (the host check); imported inside the test, after
# pytest-django has turned DEBUG off, it would refuse every test origin.
from tests.rummy.table.test_consumers import connect

pytestmark = pytest.mark.django_db


def allowed(state, seat):
    """What the user at ``seat`` (None: spectator) may see now."""
    own = {str(c) for c in state.hands[seat]} if seat is not None else set()
    table = {str(c) for meld in state.table for c in meld}
    revealed = set()
    if state.last_round:
        revealed = {c for hand in state.last_round["hands"] for c in hand.split()}
    return own | table, revealed


def check(html, state, seat):
    shown, revealed = cards_shown(html)
    may_see, may_see_revealed = allowed(state, seat)
    assert set(shown) <= may_see, f"seat {seat} was shown {set(shown) - may_see}"
    assert set(revealed) <= may_see_revealed
    if seat is not None and not state.game_over and 'id="hand" class' in html:
        # When the hand is sent (a socket sends it only when it changed), it is the
        # whole own hand, once per card (no double rendering). Once the game is over
        # it is shown only among the last round's revealed hands.
        hand = sorted(str(c) for c in state.hands[seat])
        assert sorted(c for c in shown if c in {str(x) for x in state.hands[seat]}) == hand
    others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    for card in others + list(state.stock):
        if not card.joker:
            assert f'"{card}"' not in html or str(card) in may_see | may_see_revealed
    if len(state.stock) > 1:
        assert engine.format_cards(state.stock) not in html


def play_game(seed, steps, on_step):
    """Play a seeded 2-player game with the engine's simple bots; draws, knocks and
    passes go over HTTP as a player would send them, melds through the service."""
    game = Game.objects.get(pk=on_step.game_id)
    users = {s.number: s.user for s in game.seats.select_related("user")}
    clients = {}
    for number, user in users.items():
        clients[number] = Client()
        clients[number].force_login(user)
    rng = random.Random(seed)
    rounds = set()
    for _ in range(steps):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        if state.game_over:
            break
        rounds.add(state.round_no)
        seat = state.turn
        action = bots.choose_action(state, seat, rng)
        if action["do"] == "meld":
            play.meld(game.pk, users[seat], game.version, action["table"], action["knock"])
        else:
            response = clients[seat].post(
                reverse("rummy:act", args=[game.pk]),
                {"action": action["do"], "version": game.version},
                headers={"HX-Request": "true"},
            )
            assert response.status_code == 200
            check(response.content.decode(), Game.objects.get(pk=game.pk).engine_state(), seat)
        on_step(Game.objects.get(pk=game.pk))
    return rounds


@pytest.mark.parametrize("seed", [3, 11])
def test_pages_never_show_another_players_cards_over_a_whole_game(league, cast, seed):
    game = start_two(
        league, cast, engine.new_game(2, random.Random(seed), settings=engine.Settings(target=60))
    )
    viewers = {}
    for name, seat in (("alice", 0), ("bob", 1), ("carol", None)):
        viewers[name] = (Client(), seat)
        viewers[name][0].force_login(cast[name])

    def on_step(current):
        state = current.engine_state()
        for client, seat in viewers.values():
            html = client.get(current.get_absolute_url()).content.decode()
            check(html, state, seat)

    on_step.game_id = game.pk

    rounds = play_game(seed, 600, on_step)
    assert len(rounds) >= 2  # several rounds, revealed hands in between
    final = Game.objects.get(pk=game.pk)
    for client, seat in viewers.values():
        check(client.get(final.get_absolute_url()).content.decode(), final.engine_state(), seat)


@pytest.mark.django_db(transaction=True)
async def test_socket_frames_never_show_another_players_cards(league, cast):
    game = await database_sync_to_async(start_two)(
        league, cast, engine.new_game(2, random.Random(5), settings=engine.Settings(target=40))
    )
    sockets = {}
    for name, seat in (("alice", 0), ("bob", 1), ("carol", None)):
        sockets[name] = (await connect(f"/ws/games/{game.pk}/", cast[name]))[0], seat
    rng = random.Random(5)
    try:
        for socket, seat in sockets.values():
            frame = await socket.receive_from()
            current = await database_sync_to_async(Game.objects.get)(pk=game.pk)
            check(frame, current.engine_state(), seat)
        for _ in range(60):
            current = await database_sync_to_async(Game.objects.get)(pk=game.pk)
            state = current.engine_state()
            if state.game_over:
                break
            action = bots.choose_action(state, state.turn, rng)
            actor = "alice" if state.turn == 0 else "bob"
            frames = {}
            if action["do"] == "meld":
                await database_sync_to_async(play.meld)(
                    game.pk, cast[actor], current.version, action["table"], action["knock"]
                )
            else:
                await sockets[actor][0].send_to(
                    text_data=json.dumps({"action": action["do"], "version": current.version})
                )
                # The sender's answer is the new view itself: wait for it before reading
                # the state it must agree with.
                frames[actor] = await sockets[actor][0].receive_from(timeout=2)
            after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
            for name, (socket, seat) in sockets.items():
                frame = frames.get(name) or await socket.receive_from(timeout=2)
                check(frame, after.engine_state(), seat)
    finally:
        for socket, _seat in sockets.values():
            await socket.disconnect()


def test_table_page_query_count_does_not_grow_with_the_game(league, cast, client):
    game = start_two(
        league, cast, engine.new_game(2, random.Random(7), settings=engine.Settings(target=500))
    )

    def count(user):
        memory.clear_all()  # cold, both times: the cached rights would save a query
        client.force_login(user)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(game.get_absolute_url()).status_code == 200
        return len(queries)

    early = {name: count(cast[name]) for name in ("alice", "bob", "carol")}
    seen = []

    def on_step(current):
        state = current.engine_state()
        if state.turn == 0 and state.drawn == 0 and state.last_round and state.table:
            seen.append(current.version)

    on_step.game_id = game.pk
    rng_steps = 0
    while not seen and rng_steps < 5:
        play_game(7 + rng_steps, 80, on_step)
        rng_steps += 1
    assert seen, "the script should reach a later round with melds on the table"
    current = Game.objects.get(pk=game.pk)
    state = current.engine_state()
    # Same situation as at the start (alice to move, nothing drawn), much longer game.
    set_state(current, state.__class__(**{**state.__dict__, "turn": 0, "drawn": 0}))
    assert Game.objects.get(pk=game.pk).moves.count() > 10
    late = {name: count(cast[name]) for name in ("alice", "bob", "carol")}
    assert late == early
