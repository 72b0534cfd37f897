"""What a seat sees is typed, frozen values (rummy.table.presenters.GamePage): no HTML,
no dicts, lists or sets anywhere inside, and nothing in them can be changed, so that a
value shared between renders (a hand's faces, a meld) cannot be changed by one of them."""

import dataclasses

import pytest
from django.db import models
from django.utils.functional import Promise
from django.utils.safestring import SafeData

from rummy import play
from rummy.models import Game
from rummy.play import drafts
from rummy.table import rendering
from rummy.table.access import rights
from rummy.table.presenters import GamePage, game_page
from tests.factories import game_at, make_league, make_user
from tests.positions import editor_position, table_position

pytestmark = pytest.mark.django_db

PLAIN = (str, int, float, bool, type(None), Promise)


def _walk(value, path="page"):
    """Every (path, value) inside ``value``, itself included; model rows are leaves."""
    yield path, value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _walk(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from _walk(item, f"{path}[{i}]")


def _assert_plain_values(page):
    assert isinstance(page, GamePage)
    for path, value in _walk(page):
        assert not isinstance(value, SafeData), f"{path} is HTML"
        assert not isinstance(value, dict | list | set), f"{path} is a {type(value).__name__}"
        if dataclasses.is_dataclass(value):
            assert type(value).__dataclass_params__.frozen, f"{path} can be changed"
        elif not isinstance(value, tuple | models.Model):
            assert isinstance(value, PLAIN) or type(value).__module__.startswith(
                ("datetime", "rummy.engine")
            ), f"{path} is a {type(value).__name__}"


@pytest.fixture
def players():
    users = [make_user(n) for n in ("ann", "ben", "cal")]
    return users, make_league(users[0], members=users[1:])


def test_a_game_in_play_is_plain_frozen_values_for_players_and_watchers(players):
    users, league = players
    watcher = make_user("wes")
    game = game_at(table_position(6, hand_size=10), users, league=league)
    for user in (*users, watcher):
        page = game_page(game, user, "suit", rights=rights(user, game))
        _assert_plain_values(page)
        assert page.play is not None and page.open is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        page.play.hint = "changed"  # type: ignore[misc]


def test_the_editor_and_the_last_round_are_plain_frozen_values(players):
    users, league = players
    game = game_at(editor_position(4, hand_size=10), users, league=league)
    ann = users[0]
    play.open_editor(game.pk, ann, game.version)
    play.select(game.pk, ann, game.version, "h0")
    game = Game.objects.get(pk=game.pk)
    page = game_page(
        game, ann, "rank", rights=rights(ann, game), draft=drafts.current_draft(game, 0)
    )
    _assert_plain_values(page)
    assert page.play is not None and page.play.hand.editing
    assert any(c.selected for c in page.play.hand.hand)
    assert all(m.cards for m in page.play.hand.melds)  # the editor's faces, per meld


def test_an_open_table_is_plain_frozen_values(players):
    users, league = players
    game = play.open_table(league, users[0], 4)
    game = Game.objects.get(pk=game.pk)
    page = rendering.page_of(game, users[0], "suit")
    _assert_plain_values(page)
    assert page.open is not None and page.play is None
    assert [s.name for s in page.open.seats] == [users[0].name]
