"""Turn actions over HTTP (rummy:act): the edges hold — only the player to move acts,
every refusal is a 4xx in plain words, and a refused request changes nothing."""

import re

import pytest
from django.urls import reverse

from rummy import engine
from rummy.models import Game, Move
from tests.rummy.conftest import set_state, start_two

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def act(client, game, **data):
    return client.post(reverse("rummy:act", args=[game.pk]), data)


def unchanged(game):
    fresh = Game.objects.get(pk=game.pk)
    return fresh.version == game.version and fresh.state == game.state


def test_draw_without_js_redirects_back_to_the_table(client, game, cast):
    client.force_login(cast["alice"])
    response = act(client, game, action="draw", version=game.version)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.version == game.version + 1
    assert len(fresh.engine_state().hands[0]) == 11
    assert Move.objects.filter(game=game, kind="draw").count() == 1


def test_draw_with_htmx_returns_the_new_view(client, game, cast):
    client.force_login(cast["alice"])
    response = client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": "draw", "version": game.version},
        headers=HX,
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    # After a draw: Meld and Draw (again) are offered (R3.2, R3.3).
    assert 'value="meld"' in html and 'value="draw"' in html
    assert f'data-version="{game.version + 1}"' in html


def test_player_not_to_move_is_forbidden(client, game, cast):
    client.force_login(cast["bob"])
    response = act(client, game, action="draw", version=game.version)
    assert response.status_code == 403
    assert "It is not your turn." in response.content.decode()
    assert unchanged(game)


def test_spectating_member_is_forbidden(client, game, cast):
    client.force_login(cast["carol"])
    response = act(client, game, action="draw", version=game.version)
    assert response.status_code == 403 and unchanged(game)


def test_outsider_gets_404_and_anonymous_goes_to_log_in(client, game, cast):
    assert act(client, game, action="draw", version=game.version).status_code == 302
    client.force_login(cast["dave"])
    assert act(client, game, action="draw", version=game.version).status_code == 404
    assert unchanged(game)


def test_get_is_not_allowed(client, game, cast):
    client.force_login(cast["alice"])
    assert client.get(reverse("rummy:act", args=[game.pk])).status_code == 405


def test_stale_version_says_so_and_shows_the_fresh_table(client, game, cast):
    client.force_login(cast["alice"])
    act(client, game, action="draw", version=game.version)
    response = act(client, game, action="draw", version=game.version)  # a double tap
    html = response.content.decode()
    assert response.status_code == 409
    assert "The table changed before your action arrived" in html
    assert f'data-version="{game.version + 1}"' in html
    assert Game.objects.get(pk=game.pk).version == game.version + 1


@pytest.mark.parametrize(
    "data",
    [
        {"action": "draw"},  # no version
        {"action": "draw", "version": "abc"},  # garbage version
        {"action": "draw", "version": "-1"},
        {"action": "draw", "version": "9" * 100},  # oversized
        {"action": "fly", "version": "{v}"},  # unknown action
        {"version": "{v}"},  # no action
        {"action": "x" * 5000, "version": "{v}"},  # oversized payload
        {"action": "select:zz", "version": "{v}"},
        {"action": "move:99", "version": "{v}"},
        {"action": "declare:h0:QQ", "version": "{v}"},
    ],
)
def test_malformed_input_is_a_400_with_a_message_and_changes_nothing(client, game, cast, data):
    client.force_login(cast["alice"])
    data = {k: v.replace("{v}", str(game.version)) for k, v in data.items()}
    response = act(client, game, **data)
    assert response.status_code == 400
    assert 'class="message error"' in response.content.decode()
    assert unchanged(game)


def test_pass_only_when_the_stock_is_empty(client, league, cast):
    game = set_state(start_two(league, cast), engine.position(["KC KD", "KS"], stock="2C", drawn=1))
    client.force_login(cast["alice"])
    response = act(client, game, action="pass", version=game.version)
    assert response.status_code == 400
    # The message in words; its rule id links to that rule's section of the guide.
    html = response.content.decode()
    assert "You can only pass when the stock is empty (R8)." in re.sub(r"<[^>]+>", "", html)
    assert 'href="/how-to-play/#R8"' in html
    # With an empty stock (R8.2: a final turn), Pass is offered and works.
    game = set_state(game, engine.position(["KC KD", "KS"], stock="", final_turns=2))
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'value="pass"' in html and 'value="draw"' not in html
    assert act(client, game, action="pass", version=game.version).status_code == 302
    assert Game.objects.get(pk=game.pk).engine_state().turn == 1


def test_knock_button_only_within_the_knock_limit(client, league, cast):
    game = set_state(
        start_two(league, cast), engine.position(["AC 2D KS", "KH"], stock="3C 4C", drawn=1)
    )
    client.force_login(cast["alice"])
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'value="knock"' not in html  # 13 points > 5 (R6.1)
    response = act(client, game, action="knock", version=game.version)
    assert response.status_code == 400 and "knock limit" in response.content.decode()
    game = set_state(game, engine.position(["AC 2D", "KH KS"], stock="3C 4C", drawn=1))
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'value="knock"' in html
    assert act(client, game, action="knock", version=game.version).status_code == 302
    fresh = Game.objects.get(pk=game.pk).engine_state()
    assert fresh.round_no == 2 and fresh.scores == [17, 0]  # dealt by itself (R9.1)


def _queries_of_draw(client, game, django_assert_max_num_queries):
    with django_assert_max_num_queries(100) as captured:
        response = client.post(
            reverse("rummy:act", args=[game.pk]),
            {"action": "draw", "version": game.version},
            headers=HX,
        )
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in captured.captured_queries]


def test_htmx_draw_answers_without_reading_a_draft(
    client, game, cast, django_assert_max_num_queries
):
    # A turn action makes a new version, and a draft belongs to one version: none can
    # exist yet, so the answer is rendered without asking (the hot path of every move).
    client.force_login(cast["alice"])
    html, queries = _queries_of_draw(client, game, django_assert_max_num_queries)
    assert not [sql for sql in queries if "rummy_draft" in sql]
    assert 'value="meld"' in html and f'data-version="{game.version + 1}"' in html
    # The game with its league, season, seats and users is one query each time it is
    # read: once for the access check (nothing in memory yet), once locked.
    reads = [sql for sql in queries if '"rummy_game"' in sql and sql.startswith("SELECT")]
    assert len(reads) == 2
    assert all('FROM "rummy_seat"' in sql and '"leagues_user"' in sql for sql in reads)


def test_after_opening_the_editor_the_page_still_reads_the_draft(client, game, cast):
    # The editor's draft is read whenever the player to move may be arranging.
    client.force_login(cast["alice"])
    act(client, game, action="draw", version=game.version)
    version = game.version + 1
    client.post(reverse("rummy:act", args=[game.pk]), {"action": "meld", "version": version})
    response = client.get(reverse("rummy:table", args=[game.pk]))
    assert 'id="btn-new-meld"' in response.content.decode()


STAMP = re.compile(r'id="view-stamp" value="([0-9a-f]+)"')


def _page_stamp(client, game):
    (stamp,) = STAMP.findall(client.get(reverse("rummy:table", args=[game.pk])).content.decode())
    return stamp


def test_a_post_that_says_which_view_its_page_shows_gets_only_what_changed(client, game, cast):
    """The page's form carries the stamp of the view it shows (every frame and answer
    keeps it current): an HTMX POST is then answered like a socket frame, with only the
    parts that changed and the new stamp, not the whole view."""
    client.force_login(cast["alice"])
    stamp = _page_stamp(client, game)
    whole = act(client, game, action="draw", version=game.version)  # no JS: a redirect
    assert whole.status_code == 302
    game.refresh_from_db()
    stamp = _page_stamp(client, game)
    full = client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": "meld", "version": game.version, "stamp": "0" * 16},  # unknown stamp
        headers=HX,
    ).content.decode()
    assert full.startswith('<form id="game-view"')  # nothing to compare with
    client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": "close", "version": game.version},
        headers=HX,
    )
    answer = client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": "draw", "version": game.version, "stamp": stamp},
        headers=HX,
    )
    html = answer.content.decode()
    assert answer.status_code == 200 and not html.startswith("<form")
    assert f'data-version="{game.version + 1}"' in html and 'id="hand"' in html
    assert 'id="flash"' in html  # the message area always travels
    assert 'id="table-melds"' not in html and 'id="last-round"' not in html  # unchanged
    assert len(html) < len(full) * 3 / 4
    # The answer's stamp is the new view's: the next POST is answered the same way.
    (new,) = STAMP.findall(html)
    assert new != stamp and new == _page_stamp(client, Game.objects.get(pk=game.pk))


def test_a_refused_post_with_its_stamp_carries_the_message(client, game, cast):
    client.force_login(cast["alice"])
    stamp = _page_stamp(client, game)
    act(client, game, action="draw", version=game.version)
    response = client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": "draw", "version": game.version, "stamp": stamp},  # a double tap
        headers=HX,
    )
    html = response.content.decode()
    assert response.status_code == 409 and not html.startswith("<form")
    assert "The table changed before your action arrived" in html
    assert f'data-version="{game.version + 1}"' in html and STAMP.search(html)
