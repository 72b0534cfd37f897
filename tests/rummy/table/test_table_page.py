"""The table page (rummy:table): who may see it, and what each viewer sees."""

import re

import pytest
from django.urls import reverse

from leagues.models import Membership
from rummy import engine
from tests.rummy.conftest import cards_shown, set_state, start_two

pytestmark = pytest.mark.django_db


def url(game):
    return reverse("rummy:table", args=[game.pk])


def test_player_sees_own_hand_and_only_legal_buttons(client, game, cast):
    client.force_login(cast["alice"])
    html = client.get(url(game)).content.decode()
    shown, revealed = cards_shown(html)
    hand = [str(c) for c in game.engine_state().hands[0]]
    assert sorted(shown) == sorted(hand)
    assert revealed == []
    assert 'value="draw"' in html and ">Draw<" in html
    # Nothing drawn yet: no meld, no knock; the stock is not empty: no pass (R3.1, R8).
    assert 'value="meld"' not in html and 'value="knock"' not in html
    assert 'value="pass"' not in html
    assert 'id="hand"' in html and "33 cards in the stock" in html
    assert 'aria-label="' in html and "Bob" in html


def test_player_not_to_move_has_no_buttons(client, game, cast):
    client.force_login(cast["bob"])
    html = client.get(url(game)).content.decode()
    assert 'name="action"' not in html
    assert "Alice’s turn" in html
    shown, _ = cards_shown(html)
    assert sorted(shown) == sorted(str(c) for c in game.engine_state().hands[1])


def test_member_spectator_sees_no_hand(client, game, cast):
    client.force_login(cast["carol"])
    html = client.get(url(game)).content.decode()
    assert cards_shown(html) == ([], [])
    assert 'id="hand"' not in html and 'name="action"' not in html
    assert "hands are hidden" in html


def test_private_league_game_is_404_for_outsider(client, game, cast):
    client.force_login(cast["dave"])
    assert client.get(url(game)).status_code == 404


def test_anonymous_is_sent_to_log_in(client, game):
    response = client.get(url(game))
    assert response.status_code == 302 and "login" in response["Location"]


def test_public_league_game_can_be_watched_by_any_signed_in_user(client, public_league, cast):
    game = start_two(public_league, cast)
    client.force_login(cast["dave"])
    response = client.get(url(game))
    assert response.status_code == 200
    assert cards_shown(response.content.decode()) == ([], [])


def test_sort_toggle_by_rank_and_by_suit_without_js(client, league, cast):
    state = engine.position(["KC 2S 2C KH 5D", "3C 4C 5C"], stock="9C 9D 9H")
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    by_rank, _ = cards_shown(client.get(url(game) + "?sort=rank").content.decode())
    assert by_rank == ["2C", "2S", "5D", "KC", "KH"]
    # The choice is remembered for later pages (e.g. after a POST redirect).
    again, _ = cards_shown(client.get(url(game)).content.decode())
    assert again == by_rank
    by_suit, _ = cards_shown(client.get(url(game) + "?sort=suit").content.decode())
    assert by_suit == ["2C", "KC", "5D", "KH", "2S"]


def test_cards_have_words_for_screen_readers(client, league, cast):
    state = engine.position(["10H AS QC *", "3C 4C 5C"], table=["7D 8D *9D"], stock="9C")
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    html = client.get(url(game)).content.decode()
    for label in (
        "10 of hearts",
        "A of spades",  # the spoken name starts with what the card shows (WCAG 2.5.3)
        "Q of clubs",
        "joker",
        "joker as 9 of diamonds",
    ):
        assert f'aria-label="{label}"' in html
    assert "<b>10</b><i>♥</i>" in html  # the suit by its symbol's shape, not colour alone


def test_htmx_request_gets_the_fragments_only(client, game, cast):
    client.force_login(cast["alice"])
    html = client.get(url(game), headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in html
    assert 'id="game-view"' in html and 'id="flash"' in html


def test_round_result_and_final_scores_are_shown(client, league, cast):
    # Alice knocks with 3 points against Bob's 30: she scores 27 (R7.3) and, with a
    # target of 20, the game ends: +100 bonus and +25 for the round won (R9.2).
    state = engine.position(["AC 2D", "KC KD KH"], stock="5S 6S 7S", drawn=1, target=20)
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    response = client.post(
        reverse("rummy:act", args=[game.pk]), {"action": "knock", "version": game.version}
    )
    assert response.status_code == 302
    html = client.get(url(game)).content.decode()
    assert "Round 1 result" in html and "The round ended with a knock." in html
    assert "Final scores" in html and "152" in html and "winner" in html
    _shown, revealed = cards_shown(html)
    assert sorted(revealed) == sorted(["AC", "2D", "KC", "KD", "KH"])


def test_removed_member_loses_the_page(client, game, cast, league):
    Membership.objects.filter(league=league, user=cast["carol"]).delete()
    client.force_login(cast["carol"])
    assert client.get(url(game)).status_code == 404


def test_going_out_is_named_as_the_reason(client, league, cast):
    # R6.2/R7.5: Alice melds her last cards; the next round is dealt by itself and the
    # page names how the last one ended.
    state = engine.position(["7H 8H 9H", "KC KD 2H"], stock="5S 6S 7S 2C 3C", drawn=1)
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    table = engine.format_cards(engine.parse_cards("7H 8H 9H"))
    from rummy import play

    play.meld(game.pk, cast["alice"], game.version, [table])
    html = client.get(url(game)).content.decode()
    assert "The round ended when a player went out." in html


def test_shared_fragments_are_rendered_once_and_stay_per_language(client, league, cast):
    """The table and the last round's revealed hands look the same to every viewer: the
    second viewer's page reuses them, and a viewer in another language gets their own."""
    from rummy.table import memory

    state = engine.position(["AC 2D", "KC KD KH"], table=["7S 8S 9S"], stock="5S 6S 7C", drawn=1)
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    client.post(reverse("rummy:act", args=[game.pk]), {"action": "knock", "version": game.version})
    alice_html = client.get(url(game)).content.decode()
    rendered = len(memory.fragments)

    def shared():  # the parts every viewer sees alike
        keys = list(memory.fragments._values)
        return [k for k in keys if k[0] in ("rummy/_meld.html", "rummy/_last_round.html")]

    before = shared()
    client.force_login(cast["carol"])
    carol_html = client.get(url(game)).content.decode()
    assert before and shared() == before  # not rendered again for the second viewer
    assert "Round 1 result" in alice_html and "Round 1 result" in carol_html
    client.cookies["django_language"] = "lv"
    client.get(url(game))
    assert len(memory.fragments) > rendered  # Latvian has its own copies


def test_finished_game_shows_no_stock_and_no_live_hand(client, league, cast):
    # R9: once the game is over the stock and the hands no longer matter; the final
    # scores and the last round's revealed hands say it all.
    state = engine.position(["AC 2D", "KC KD KH"], stock="5S 6S 7S", drawn=1, target=20)
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    client.post(reverse("rummy:act", args=[game.pk]), {"action": "knock", "version": game.version})
    html = client.get(url(game)).content.decode()
    assert "Final scores" in html
    assert 'id="stock-size"' not in html and 'id="hand"' not in html
    assert "You are watching this game" not in html
    shown, revealed = cards_shown(html)
    assert shown == [] and sorted(revealed) == sorted(["AC", "2D", "KC", "KD", "KH"])


def test_after_another_players_move_only_what_changed_is_rendered(monkeypatch, league, cast):
    """A move re-renders every open view of the game. The hand of a player who did not
    move has not changed and is not rendered again, and the status line is rendered
    once for all who are not to move; the pages are the same as when rendered afresh."""
    from rummy import play
    from rummy.models import Game
    from rummy.table import html, memory, rendering
    from rummy.table.access import game_at_least

    lines, hands = [], []
    status_line = html.status_line
    monkeypatch.setattr(html, "status_line", lambda *a: lines.append(a) or status_line(*a))
    hand_section = html.hand_section
    monkeypatch.setattr(html, "hand_section", lambda *a: hands.append(a) or hand_section(*a))
    game = start_two(league, cast)  # alice to move
    bob, carol = cast["bob"], cast["carol"]

    def page(user, version):
        return rendering.render_frames(game_at_least(game.pk, version), user, "suit").html

    page(bob, game.version)
    play.draw(game.pk, cast["alice"], game.version)
    lines.clear()
    hands.clear()
    bob_html = page(bob, game.version + 1)
    carol_html = page(carol, game.version + 1)
    assert hands == []  # neither hand changed (built in Python: html.hand_section)
    assert len(lines) == 1  # the status line (built in Python: html.status_line)
    memory.fragments.clear()
    game_now = Game.objects.get(pk=game.pk)
    assert 'id="hand"' in bob_html and 'id="status"' in carol_html
    assert bob_html == rendering.render_frames(game_now, bob, "suit").html
    assert carol_html == rendering.render_frames(game_now, carol, "suit").html


def hint(html):
    return re.search(r'<p id="hint"[^>]*>(.*?)</p>', html, re.S).group(1).strip()


def test_the_next_step_names_only_the_actions_that_exist(client, league, cast):
    client.force_login(cast["alice"])
    # Final lap (R8): no draw; 13 points in hand, so no knock either (R6.1).
    game = set_state(start_two(league, cast), engine.position(["KC 3D", "5S"], stock=""))
    html = client.get(url(game)).content.decode()
    assert hint(html) == "Meld or pass." and 'id="btn-knock"' not in html
    # 3 points: the knock exists, and is named.
    game = set_state(game, engine.position(["AC 2D", "5S"], stock=""))
    html = client.get(url(game)).content.decode()
    assert hint(html) == "Meld, knock or pass." and 'id="btn-knock"' in html
    game = set_state(game, engine.position(["AC 2D", "5S"], stock="9C 8C", drawn=1))
    html = client.get(url(game)).content.decode()
    assert hint(html) == "You have drawn 1 card. Meld, knock, or draw again."


def test_the_card_just_drawn_is_marked_until_the_next_action(client, league, cast):
    client.force_login(cast["alice"])
    game = set_state(start_two(league, cast), engine.position(["KC 3D", "5S"], stock="9H 4C"))
    tap = {"action": "draw", "version": game.version}
    client.post(reverse("rummy:act", args=[game.pk]), tap)
    html = client.get(url(game)).content.decode()
    assert re.findall(r'class="card[^"]*\bdrawn\b[^"]*" data-card="([^"]+)"', html) == ["9H"]
    assert 'aria-label="9 of hearts, just drawn"' in html
    client.post(reverse("rummy:act", args=[game.pk]), {**tap, "version": game.version + 1})
    html = client.get(url(game)).content.decode()
    assert re.findall(r'class="card[^"]*\bdrawn\b[^"]*" data-card="([^"]+)"', html) == ["4C"]
    # Bob's page marks nothing: it is not his draw, and he sees no hand but his own.
    client.force_login(cast["bob"])
    assert " drawn" not in client.get(url(game)).content.decode()


def test_while_arranging_the_count_and_points_follow_the_draft(client, league, cast):
    client.force_login(cast["alice"])
    state = engine.position(["7H 8H 9H KC", "5S"], stock="2C 3C", drawn=1)
    game = set_state(start_two(league, cast), state)
    act = reverse("rummy:act", args=[game.pk])
    client.post(act, {"action": "meld", "version": game.version})
    for ref in ("h0", "h1", "h2"):
        client.post(act, {"action": f"select:{ref}", "version": game.version})
    client.post(act, {"action": "new_meld", "version": game.version})
    html = client.get(url(game)).content.decode()
    heading = re.search(r'<h2 id="hand-h">(.*?)</h2>', html, re.S).group(1)
    assert "1 card · 10 points" in heading  # KC alone, not the 34 points before (R7.1)
