"""The table's hot templates render their numbers with localisation off (a
per-number format lookup in every render). Their numbers are whole numbers and the site
groups no thousands, so the view is exactly what it is with localisation on, in every
language and state."""

import pytest
from django.templatetags import l10n
from django.utils import translation

from rummy import play
from rummy.play import drafts
from rummy.table import memory, rendering
from rummy.table.access import rights
from rummy.table.presenters import game_page
from tests.factories import game_at, make_league, make_user
from tests.positions import editor_position, table_position

pytestmark = pytest.mark.django_db

HOT = ["_move_count", "_meld"]  # the status line, players panel and hand are Python's


def _view(game, user, draft=None):
    memory.clear_all()
    frames = rendering.build_frames(
        game_page(game, user, "suit", rights=rights(user, game), draft=draft)
    )
    return frames.html


def _views(game, users):
    """Everyone's view; the player to move's while arranging, with a card selected."""
    drafted = drafts.current_draft(game, 0)
    return [_view(game, user, drafted if i == 0 else None) for i, user in enumerate(users)]


@pytest.mark.parametrize("language", ["en", "lv", "et"])
@pytest.mark.parametrize("melds", [1, 20, "editing"])
def test_with_localisation_off_the_view_is_the_same(monkeypatch, language, melds):
    users = [make_user(n) for n in ("ann", "ben", "cal")]
    league = make_league(users[0], members=users[1:])
    if melds == "editing":
        game = game_at(editor_position(20, hand_size=10), users, league=league)
        play.open_editor(game.pk, users[0], game.version)
        play.select(game.pk, users[0], game.version, "h0")
    else:
        game = game_at(table_position(melds, hand_size=12), users, league=league)
    with translation.override(language):
        off = _views(game, users)
        # Every {% localize off %} as if it said "on": localisation as everywhere else.
        render = l10n.LocalizeNode.render
        monkeypatch.setattr(
            l10n.LocalizeNode,
            "render",
            lambda self, context: render(type(self)(self.nodelist, True), context),
        )
        on = _views(game, users)
    assert off == on
    if melds == "editing":
        assert 'id="btn-new-meld"' in off[0] and 'id="btn-new-meld"' not in off[1]
    assert all("localize" not in html for html in off)


def test_the_hot_templates_say_localize_off():
    from pathlib import Path

    from django.conf import settings

    for name in HOT:
        source = (Path(settings.BASE_DIR) / "templates" / "rummy" / f"{name}.html").read_text()
        assert "{% localize off %}" in source and "{% endlocalize %}" in source, name
