"""rummy.play.replay: the move log rebuilds the stored state, and a log or a state that
was changed behind the write path's back is reported (ReplayMismatch)."""

import pytest

from rummy import engine, play
from rummy.models import Game
from rummy.play import replay
from tests.factories import game_at, player_at

pytestmark = [pytest.mark.django_db, pytest.mark.unreplayable]  # these tamper on purpose

POSITION = engine.position(["2C 3D KS", "KH QS"], stock="9H 5D 6D")


@pytest.fixture
def game(cast, league):
    game = game_at(POSITION, [cast.alice, cast.bob], league=league)
    play.draw(game.pk, player_at(game, 0), game.version)
    game.refresh_from_db()
    return game


def test_a_game_played_through_the_write_path_replays(game):
    assert replay.check(game).to_dict() == game.engine_state().to_dict()


def test_a_stored_state_changed_by_hand_is_reported(game):
    state = game.engine_state()
    tampered = state.to_dict()
    tampered["scores"] = [100, 0]
    Game.objects.filter(pk=game.pk).update(state=tampered)
    game.refresh_from_db()
    with pytest.raises(replay.ReplayMismatch, match="differs from its move log"):
        replay.check(game)


def test_a_tampered_logged_move_is_reported(game):
    start = game.moves.get(kind="start")
    dealt = dict(start.payload["state"])
    dealt["stock"] = " ".join(reversed(dealt["stock"].split()))  # the draw took another card
    game.moves.filter(pk=start.pk).update(payload={"state": dealt})
    with pytest.raises(replay.ReplayMismatch):
        replay.check(game)


def test_a_missing_move_is_reported(game):
    game.moves.filter(kind="start").delete()
    game.moves.create(seq=1, kind="start", payload={"state": POSITION.to_dict()})
    with pytest.raises(replay.ReplayMismatch, match="missing"):
        replay.replay(game)
