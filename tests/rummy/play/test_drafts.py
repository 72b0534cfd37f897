"""The arrangement editor: a server-side draft per game and seat (DESIGN "Drafts")."""

import pytest
from django.urls import reverse

from rummy import engine
from rummy.models import Draft, Game
from tests.rummy.conftest import cards_shown, set_state, start_two

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def melding(league, cast, client):
    """Alice has drawn; she holds 7H 8H 9H 2C * and the table has 5S 6S 7S."""
    state = engine.position(
        ["7H 8H 9H 2C *", "KD KC"], table=["5S 6S 7S"], stock="QD QC QS", drawn=1
    )
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    return game


def tap(client, game, action, status=200):
    game.refresh_from_db()
    response = client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": action, "version": game.version},
        headers=HX,
    )
    assert response.status_code == status, response.content.decode()[:500]
    return response.content.decode()


def ref_of(html, code):
    """The place (``select:<ref>``) of the (first) button showing ``code``."""
    import re

    pattern = rf'value="select:([^"]+)" class="[^"]*" data-card="{re.escape(code)}"'
    return re.search(pattern, html).group(1)


def knock_offered(html):
    """ "Play and knock" stays in its place while arranging, disabled unless R6.1 allows it."""
    assert 'id="btn-play-knock"' in html
    return 'id="btn-play-knock">' in html


def draft_table(game):
    return Draft.objects.get(game=game).data["table"]


def test_meld_opens_the_editor_and_a_draft_without_bumping_the_version(client, melding):
    html = tap(client, melding, "meld")
    assert 'id="btn-new-meld"' in html and ">+ New meld<" in html and ">Reset<" in html
    assert ">Play<" in html
    assert Game.objects.get(pk=melding.pk).version == melding.version
    assert Draft.objects.get(game=melding).base_version == melding.version


def test_new_meld_from_selected_hand_cards_and_validity_in_words(client, melding):
    html = tap(client, melding, "meld")
    for code in ("7H", "8H"):
        html = tap(client, melding, f"select:{ref_of(html, code)}")
    assert html.count('aria-pressed="true"') == 2
    html = tap(client, melding, "new_meld")
    assert draft_table(melding) == [["5S", "6S", "7S"], ["7H", "8H"]]
    assert "A meld needs at least 3 cards; this one has 2." in html
    html = tap(client, melding, f"select:{ref_of(html, '9H')}")
    html = tap(client, melding, "move:1")
    assert draft_table(melding)[1] == ["7H", "8H", "9H"]
    assert "✗" not in html and html.count("✓ valid") == 2


def test_joker_is_inferred_when_only_one_card_fits(client, melding):
    html = tap(client, melding, "meld")
    html = tap(client, melding, f"select:{ref_of(html, '*')}")
    html = tap(client, melding, "move:0")
    # 5S 6S 7S + joker: 4S or 8S fit, so the player is asked (R4.4 Decision).
    assert draft_table(melding)[0][-1] == "*"
    assert 'value="declare:t0.3:4S"' in html and 'value="declare:t0.3:8S"' in html
    html = tap(client, melding, "declare:t0.3:8S")
    assert draft_table(melding)[0] == ["5S", "6S", "7S", "*8S"]
    assert "✗" not in html
    # A card that does not fit is refused in words (400), the draft unchanged.
    tap(client, melding, "declare:t0.3:KD", status=400)
    assert draft_table(melding)[0] == ["5S", "6S", "7S", "*8S"]


def test_single_fitting_card_is_declared_by_itself(client, league, cast):
    state = engine.position(["7H 8H * 2C", "KD"], table=["QS KS AS"], stock="2D 3D", drawn=1)
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    html = tap(client, game, "meld")
    html = tap(client, game, f"select:{ref_of(html, '*')}")
    tap(client, game, "move:0")
    # Q K A of spades: only J♠ fits (no wrapping, R4.3).
    assert draft_table(game)[0] == ["*JS", "QS", "KS", "AS"]


def test_reset_restores_the_table_and_play_commits(client, melding):
    html = tap(client, melding, "meld")
    html = tap(client, melding, f"select:{ref_of(html, '5S')}")
    html = tap(client, melding, "new_meld")
    assert "✗" in html
    html = tap(client, melding, "reset")
    assert draft_table(melding) == [["5S", "6S", "7S"]]
    for code in ("7H", "8H", "9H"):
        html = tap(client, melding, f"select:{ref_of(html, code)}")
    tap(client, melding, "new_meld")
    tap(client, melding, "play")
    fresh = Game.objects.get(pk=melding.pk)
    state = fresh.engine_state()
    assert [engine.format_cards(m) for m in state.table] == ["5S 6S 7S", "7H 8H 9H"]
    assert state.turn == 1 and not Draft.objects.filter(game=melding).exists()


def test_refused_play_keeps_the_draft_and_says_why(client, melding):
    html = tap(client, melding, "meld")
    html = tap(client, melding, f"select:{ref_of(html, '5S')}")
    tap(client, melding, "to_hand", status=400)  # a table card cannot go to a hand (R5.2 b)
    html = tap(client, melding, "play", status=400)
    assert "at least one card from your hand" in html
    assert Draft.objects.filter(game=melding).exists()


def test_play_and_knock_offered_only_when_the_hand_left_allows_it(client, league, cast):
    state = engine.position(["7H 8H 9H AC 2C KD", "KC"], stock="QD QC", drawn=1)
    game = set_state(start_two(league, cast), state)
    client.force_login(cast["alice"])
    html = tap(client, game, "meld")
    assert not knock_offered(html)
    for code in ("7H", "8H", "9H"):
        html = tap(client, game, f"select:{ref_of(html, code)}")
    html = tap(client, game, "new_meld")
    assert not knock_offered(html)  # A 2 K left: 13 points
    state = engine.position(["7H 8H 9H AC 2C", "KC KD"], stock="QD QC", drawn=1)
    game = set_state(game, state)
    html = tap(client, game, "meld")
    for code in ("7H", "8H", "9H"):
        html = tap(client, game, f"select:{ref_of(html, code)}")
    html = tap(client, game, "new_meld")
    assert knock_offered(html)
    tap(client, game, "play_knock")
    last = Game.objects.get(pk=game.pk).engine_state().last_round
    assert last["reason"] == "knock" and last["knocker"] == 0


def test_draft_survives_a_reload_and_restarts_when_the_game_moves_on(client, melding, cast):
    html = tap(client, melding, "meld")
    tap(client, melding, f"select:{ref_of(html, '7H')}")
    tap(client, melding, "new_meld")
    page = client.get(melding.get_absolute_url()).content.decode()
    assert 'id="btn-new-meld"' in page and 'data-meld="1"' in page
    # The game moves on (another version): the draft starts again from the table.
    Game.objects.filter(pk=melding.pk).update(version=melding.version + 5)
    page = client.get(melding.get_absolute_url()).content.decode()
    assert 'id="editor"' not in page


def test_only_the_player_to_move_may_edit_a_draft(client, melding, cast):
    client.force_login(cast["bob"])
    tap(client, melding, "meld", status=403)
    client.force_login(cast["carol"])
    tap(client, melding, "meld", status=403)
    assert not Draft.objects.exists()


def test_editor_needs_a_draw_first(client, league, cast):
    game = set_state(start_two(league, cast), engine.position(["7H", "KC"], stock="2C"))
    client.force_login(cast["alice"])
    html = tap(client, game, "meld", status=400)
    assert "Draw a card first" in html


def test_draft_cards_shown_are_own_hand_and_table_only(client, melding):
    html = tap(client, melding, "meld")
    shown, _ = cards_shown(html)
    assert sorted(shown) == sorted(["7H", "8H", "9H", "2C", "*", "5S", "6S", "7S"])
