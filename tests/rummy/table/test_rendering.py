"""The view as parts, and what a socket sends after a change (rummy.table.rendering):
only the parts that differ, the table's melds one by one while its frame stands."""

import re

import pytest

from rummy import play
from rummy.models import Game
from rummy.table import memory, rendering
from rummy.table.access import rights
from rummy.table.presenters import game_page
from tests.factories import game_at, make_league, make_user
from tests.positions import editor_position, table_position

pytestmark = pytest.mark.django_db

OOB_IDS = re.compile(r'<[a-z]+ id="([^"]+)"[^>]*hx-swap-oob="true"')


@pytest.fixture
def players():
    users = [make_user(n) for n in ("ann", "ben", "cal")]
    league = make_league(users[0], members=users[1:])
    return users, league


def frames_for(game, user, draft=None):
    memory.clear_all()
    return rendering.build_frames(
        game_page(game, user, "suit", rights=rights(user, game), draft=draft)
    )


def test_the_page_and_a_socket_agree_on_the_view(players):
    users, league = players
    game = game_at(table_position(10, hand_size=10), users, league=league)
    first, again = frames_for(game, users[1]), frames_for(game, users[1])
    assert first.stamp == again.stamp  # a socket whose view is the page's sends nothing
    assert first.since(again.digests) == ("", first.digests)
    assert frames_for(game, users[2]).stamp != first.stamp  # another hand, another view
    # With nothing to compare with, the whole form.
    html, _shown = first.since(None)
    assert html.startswith('<form id="game-view"')


def test_after_a_move_only_the_changed_melds_and_counts_travel(players):
    users, league = players
    ann, _ben, cal = users
    game = game_at(editor_position(20, hand_size=10), users, league=league)
    before = frames_for(game, cal)
    # Ann lays a joker off on the group of eights (it can only be 8S, R4.4) and plays.
    play.open_editor(game.pk, ann, game.version)
    play.select(game.pk, ann, game.version, "h0")
    play.move_selection(game.pk, ann, game.version, "1")
    play.play_draft(game.pk, ann, game.version)
    after = frames_for(Game.objects.get(pk=game.pk), cal)
    html, shown = after.since(before.digests)
    sent = OOB_IDS.findall(html)
    # Cal's hand did not change, nor did the other 19 melds: none of them travels.
    assert "meld-1" in sent and "hand" not in sent
    assert not any(i.startswith("meld-") and i != "meld-1" for i in sent), sent
    assert set(sent) <= {"view-version", "status", "meld-1", "players"}, sent
    assert 'data-card="*8S"' in html and len(html) < 4000, len(html)
    assert shown == after.digests


def test_new_and_removed_melds_are_inserted_and_deleted_not_resent():
    def part(n, changed=()):
        children = tuple(
            rendering.Part(f"meld-{i}", f'<div id="meld-{i}">{"x" if i in changed else i}</div>')
            for i in range(n)
        )
        melds = rendering.Part(
            "table-melds",
            "<section>" + "".join(c.html for c in children) + "</section>",
            children,
            b"shell",
            "beforeend:#meld-list",
            "meld-",
        )
        return rendering.Frames(
            lambda stamp: "<form/>", 1, (melds,), "game", rendering._digests("game", (melds,))
        )

    three, four, two, changed = part(3), part(4), part(2), part(3, changed={1})
    # Every frame ends with the view's new stamp, which the page's form then sends.
    html, _ = four.since(three.digests)
    assert html == (
        '<div hx-swap-oob="beforeend:#meld-list"><div id="meld-3">3</div></div>'
        + rendering._stamp_html(four.stamp)
    )
    html, _ = two.since(three.digests)
    assert html == '<div id="meld-2" hx-swap-oob="delete"></div>' + rendering._stamp_html(two.stamp)
    html, _ = changed.since(three.digests)
    assert html == '<div id="meld-1" hx-swap-oob="true">x</div>' + rendering._stamp_html(
        changed.stamp
    )
    assert three.since(three.digests) == ("", three.digests)


def test_a_cards_words_are_remembered_per_language_and_mark():
    """``card_info`` works a card's face and spoken name out once per process, per
    language and "just drawn" mark: a second language, or the mark, gets its own."""
    from django.utils import translation

    from rummy.templatetags.cards import card_info

    with translation.override("en"):
        en = card_info("KS")
        drawn = card_info("KS", "h3", selected=True, drawn=True)
    with translation.override("lv"):
        lv = card_info("KS")
    with translation.override("en"):
        again = card_info("KS", "h0")
    assert en.label == again.label == "K of spades"
    assert lv.label != en.label and "K" in lv.label
    assert drawn.label == "K of spades, just drawn"
    assert (drawn.ref, drawn.selected, drawn.drawn) == ("h3", True, True)
    assert (again.ref, again.selected, again.drawn) == ("h0", False, False)
    with pytest.raises(AttributeError):  # a face is shared: nobody may change it
        again.label = "changed"  # type: ignore[misc]
    with translation.override("en"):
        assert card_info("KS").label == "K of spades"


def test_the_players_panel_is_rendered_once_and_marks_each_viewers_own_row(players, monkeypatch):
    """After a move every socket shows the same panel; it is rendered once per process
    (``memory.fragments``), and each viewer's own row says "(you)"; only a player whose seat a
    bot plays gets "I'm back"; a spectator's panel marks nobody."""
    from leagues.models import Membership
    from rummy.models import Seat
    from rummy.table import html as parts

    users, league = players
    ann, ben, cal = users
    watcher = make_user("wes")
    Membership.objects.create(league=league, user=watcher, role=Membership.Role.MEMBER)
    game = game_at(table_position(5, hand_size=10), users, league=league)
    Seat.objects.filter(game=game, user=ben).update(stand_in=True)
    game = Game.objects.get(pk=game.pk)
    renders = []
    real = parts.players_panel

    def counting(*args):
        renders.append(args)
        return real(*args)

    memory.clear_all()
    monkeypatch.setattr(parts, "players_panel", counting)
    seen = {}
    for user in (ann, ben, cal, watcher):
        page = game_page(game, user, "suit", rights=rights(user, game))
        seen[user.username] = rendering._players_html(page, page.play)
    assert len(renders) == 1
    you = ' <span class="muted">(you)</span>'
    for name, html in seen.items():
        assert "<!--" not in html
        rows = re.findall(r'<tr class="player.*?</tr>', html, re.S)
        assert len(rows) == 3
        marked = [i for i, row in enumerate(rows) if you in row]
        assert marked == {"ann": [0], "ben": [1], "cal": [2], "wes": []}[name], name
        assert ('id="btn-back"' in html) == (name == "ben")
    assert seen["ann"].replace(you, "") == seen["cal"].replace(you, "") == seen["wes"]


def test_a_move_builds_again_only_the_rows_it_changed(players, monkeypatch):
    """The panel's rows are made once per what each shows: after a draw only the
    drawing player's row (one more card) is built again, and the panel is the one a
    fresh render makes."""
    from rummy.table import html as parts

    users, league = players
    game = game_at(table_position(5, hand_size=10), users, league=league)
    rows = []
    real = parts.player_row

    def counting(p, *args):
        rows.append(p.number)
        return real(p, *args)

    memory.clear_all()
    monkeypatch.setattr(parts, "player_row", counting)
    watcher = users[1]

    def panel(game):
        page = game_page(game, watcher, "suit", rights=rights(watcher, game))
        return rendering._players_html(page, page.play)

    panel(game)
    assert sorted(rows) == [0, 1, 2]
    mover = game.engine_state().turn
    play.draw(game.pk, users[mover], game.version)
    game = Game.objects.get(pk=game.pk)
    rows.clear()
    kept = panel(game)
    assert rows == [mover]
    memory.clear_all()
    assert kept == panel(game)
