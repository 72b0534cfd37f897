"""The write path (rummy.play: store, seating, turns): the one way a game changes —
locking, versions, the log, results."""

import json
import threading

import pytest
import time_machine
from django.db import IntegrityError, transaction

from leagues.models import User
from rummy import engine, play
from rummy.models import Game, Move, Round, Seat
from rummy.play import snapshot
from rummy.play.replay import check as check_replay
from tests.factories import make_league, make_season, make_user, player_at, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def bob():
    return make_user("bob")


@pytest.fixture
def carol():
    return make_user("carol")


def test_open_table_takes_active_season_settings(alice, bob):
    league = make_league(alice, members=[bob])
    make_season(league, target_score=100, knock_limit=3, turn_seconds=3600)
    game = play.open_table(league, alice, max_seats=3)
    assert (game.target_score, game.knock_limit, game.turn_seconds) == (100, 3, 3600)
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("user", flat=True)) == [alice.pk]


@pytest.mark.parametrize("seats", [1, 6, "x", None])
def test_open_table_refuses_bad_seat_count(alice, seats):
    league = make_league(alice)
    with pytest.raises(play.ActionRefused):
        play.open_table(league, alice, max_seats=seats)
    assert not Game.objects.exists()


def test_outsider_cannot_open_or_sit(alice, bob):
    league = make_league(alice)
    with pytest.raises(play.NotAllowed):
        play.open_table(league, bob)
    game = play.open_table(league, alice)
    with pytest.raises(play.NotAllowed):
        play.take_seat(game.pk, bob)
    assert game.seats.count() == 1


def test_full_table_starts_by_itself_in_the_active_season(alice, bob):
    league = make_league(alice, members=[bob])
    season = make_season(league)
    game = play.open_table(league, alice, max_seats=2)
    play.take_seat(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.season == season
    state = game.engine_state()
    # R2.2/R2.3: ten cards each, the player left of the dealer moves first.
    assert [len(h) for h in state.hands] == [10, 10]
    assert state.turn == (state.dealer + 1) % 2
    assert game.to_move == player_at(game, state.turn)
    assert game.turn_deadline is not None


def test_game_outside_a_season_counts_for_none(alice, bob):
    game = started_game([alice, bob])
    assert game.season is None


def test_only_host_starts_and_needs_two(alice, bob):
    league = make_league(alice, members=[bob])
    game = play.open_table(league, alice, max_seats=4)
    with pytest.raises(play.ActionRefused):
        play.start_game(game.pk, alice)  # alone at the table
    play.take_seat(game.pk, bob)
    with pytest.raises(play.NotAllowed):
        play.start_game(game.pk, bob)
    play.start_game(game.pk, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    with pytest.raises(play.ActionRefused):
        play.start_game(game.pk, alice)


def test_seats_taken_in_one_instant_are_numbered_in_the_order_taken():
    # One clock tick gives all three the same joined_at. The users are made in the
    # reverse of the order they sit down, and the host's row is rewritten after the
    # others (an indexed column changed and changed back, so that PostgreSQL gives it a
    # new place in the table and its indexes): neither a user index nor the rows'
    # physical order gives the seat order.
    carol, bob, alice = make_user("carol"), make_user("bob"), make_user("alice")
    with time_machine.travel("2026-12-02 10:00", tick=False):
        game = play.open_table(make_league(alice, members=[bob, carol]), alice, max_seats=4)
        play.take_seat(game.pk, bob)
        play.take_seat(game.pk, carol)
        Seat.objects.filter(game=game, user=alice).update(number=9)
        Seat.objects.filter(game=game, user=alice).update(number=None)
        play.start_game(game.pk, alice)
    numbers = dict(Seat.objects.filter(game=game).values_list("user__username", "number"))
    assert numbers == {"alice": 0, "bob": 1, "carol": 2}


def test_leave_before_start_only(alice, bob, carol):
    league = make_league(alice, members=[bob, carol])
    game = play.open_table(league, alice, max_seats=3)
    play.take_seat(game.pk, bob)
    play.leave_seat(game.pk, bob)
    assert game.seats.count() == 1
    play.take_seat(game.pk, bob)
    play.take_seat(game.pk, carol)  # full: starts
    with pytest.raises(play.ActionRefused):
        play.leave_seat(game.pk, bob)
    assert game.seats.count() == 3


def test_host_leaving_hands_the_table_on(alice, bob):
    league = make_league(alice, members=[bob])
    game = play.open_table(league, alice, max_seats=3)
    play.take_seat(game.pk, bob)
    play.leave_seat(game.pk, alice)
    game.refresh_from_db()
    assert game.host == bob


def _two_player_game(alice, bob, **position):
    state = engine.position(**position)
    return started_game([alice, bob], state=state)


def test_draw_appends_a_move_and_bumps_the_version(alice, bob):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    version = game.version
    result = play.draw(game.pk, alice, version)
    assert result.version == version + 1
    move = Move.objects.get(game=game, seq=version + 1)
    assert (move.kind, move.seat, move.user) == (Move.Kind.DRAW, 0, alice)
    assert engine.format_cards(result.game.engine_state().hands[0]) == "2C 3D 9H"


def test_stale_or_repeated_submission_is_refused_and_changes_nothing(alice, bob):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    version = game.version
    play.draw(game.pk, alice, version)
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(play.StaleVersion):
        play.draw(game.pk, alice, version)  # the double tap
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert game.moves.count() == before.moves.count()


@pytest.mark.parametrize("version", [None, "abc", "", [], {"a": 1}])
def test_unreadable_version_is_refused(alice, bob, version):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D")
    with pytest.raises(play.ActionRefused) as refused:
        play.draw(game.pk, alice, version)
    assert refused.value.status == 400


def test_not_your_turn_is_forbidden(alice, bob):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D")
    with pytest.raises(play.NotAllowed):
        play.draw(game.pk, bob, game.version)


def test_outsider_cannot_act(alice, bob, carol):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D")
    with pytest.raises(play.NotAllowed):
        play.draw(game.pk, carol, game.version)


def test_rule_refusal_carries_a_readable_message(alice, bob):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D")
    with pytest.raises(play.RuleRefused) as refused:
        play.knock(game.pk, alice, game.version)
    assert refused.value.code == "must_draw"
    assert "Draw a card first" in refused.value.message


@pytest.mark.parametrize(
    "action", [{"do": "fly"}, {"do": "meld"}, {"do": "meld", "table": "x"}, "draw", None]
)
def test_malformed_actions_change_nothing(alice, bob, action):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D", drawn=1)
    with pytest.raises(play.ActionRefused):
        play.act(game.pk, alice, game.version, action)
    assert Game.objects.get(pk=game.pk).version == game.version


def test_meld_given_as_card_lists_is_logged_as_notation(alice, bob):
    game = _two_player_game(alice, bob, hands=["7H 8H 9H 2C 3C", "KS QS"], stock="3D 4C", drawn=1)
    game = play.meld(game.pk, alice, game.version, [["7H", "8H", "9H"]]).game
    move = game.moves.get(kind=Move.Kind.MELD)
    assert move.payload["table"] == ["7H 8H 9H"]
    check_replay(game)


def test_meld_and_knock_ends_round_records_it_and_deals_the_next(alice, bob):
    # R6.1 + R7: alice melds 7-8-9 of hearts, keeps 2C (2 points) and knocks.
    game = _two_player_game(alice, bob, hands=["7H 8H 9H 2C", "KS QS"], stock="3C 4C 5C", drawn=1)
    result = play.meld(game.pk, alice, game.version, ["7H 8H 9H"], knock=True)
    game = result.game
    rnd = Round.objects.get(game=game)
    assert (rnd.number, rnd.reason, rnd.knocker) == (1, "knock", 0)
    assert rnd.points == [18, 0] and rnd.winners == [0]
    state = game.engine_state()
    # The next round was dealt by itself, by the player left of the previous dealer.
    assert state.round_no == 2 and not state.round_over
    assert state.dealer == 0 and [len(h) for h in state.hands] == [10, 10]
    assert state.scores == [18, 0]
    kinds = list(game.moves.values_list("kind", flat=True))
    assert kinds[-2:] == [Move.Kind.MELD, Move.Kind.DEAL]
    check_replay(game)


def test_game_end_records_results(alice, bob):
    game = _two_player_game(
        alice, bob, hands=["AH", "KS QS"], stock="AD 9C", scores=[145, 60], rounds_won=[4, 2]
    )
    play.draw(game.pk, alice, game.version)
    game.refresh_from_db()
    play.knock(game.pk, alice, game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at
    assert game.to_move is None and game.turn_deadline is None
    seats = {s.number: s for s in game.seats.all()}
    # R9.2: 163 + 100 + 5*25 = 388; 60 + 2*25 = 110.
    assert (seats[0].final_score, seats[0].rounds_won, seats[0].is_winner) == (388, 5, True)
    assert (seats[1].final_score, seats[1].is_winner) == (110, False)
    with pytest.raises(play.ActionRefused):
        play.draw(game.pk, bob, game.version)
    check_replay(game)


def test_turn_deadline_restarts_only_when_the_turn_passes(alice, bob):
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    deadline = game.turn_deadline
    game = play.draw(game.pk, alice, game.version).game
    assert game.turn_deadline == deadline  # same turn
    game = play.draw(game.pk, alice, game.version).game
    game = play.draw(game.pk, alice, game.version).game  # third draw ends the turn
    assert game.to_move == bob
    assert game.turn_deadline > deadline


def _race(game, user, n=20):
    version = game.version
    outcomes = []
    barrier = threading.Barrier(n)

    def submit():
        from django.db import connections

        barrier.wait()
        try:
            play.draw(game.pk, user, version)
            outcomes.append("ok")
        except play.StaleVersion:
            outcomes.append("stale")
        except Exception as error:
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok"] + ["stale"] * (n - 1)
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.moves.filter(seq__gt=version).count() == 1
    assert len(game.engine_state().hands[0]) == 3


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_identical_submissions_apply_once():
    """Twenty threads, each with its own connection, submit the same draw on the same
    version: exactly one applies (row lock / IMMEDIATE transaction + version check)."""
    alice, bob = make_user("alice"), make_user("bob")
    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    _race(game, alice)


def test_timeout_draws_until_the_turn_ends(alice, bob):
    import datetime

    import time_machine

    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    with pytest.raises(play.ActionRefused):
        play.timeout(game.pk, game.version)  # not due yet
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        result = play.timeout(game.pk, game.version)
        with pytest.raises(play.StaleVersion):
            play.timeout(game.pk, game.version)  # a second clock: nothing twice
    state = result.game.engine_state()
    assert len(state.hands[0]) == 5 and state.turn == 1  # R3.4: three draws
    assert Seat.objects.get(game=game, number=0).timeouts_in_row == 1
    assert game.moves.filter(kind=Move.Kind.TIMEOUT).count() == 1
    check_replay(result.game)


def test_end_early_needs_admin_and_an_absent_player(alice, bob, carol):
    league = make_league(alice, members=[bob], admins=[carol])
    game = started_game(
        [alice, bob],
        league=league,
        state=engine.position(hands=["2C", "KS"], stock="9H 5D", scores=[20, 0], rounds_won=[1, 0]),
    )
    with pytest.raises(play.ActionRefused):
        play.end_early(game.pk, carol)  # nobody absent
    Seat.objects.filter(game=game, number=1).update(timeouts_in_row=3)
    with pytest.raises(play.NotAllowed):
        play.end_early(game.pk, bob)  # a member, not an admin
    play.end_early(game.pk, carol)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    winners = [s.user for s in game.seats.filter(is_winner=True)]
    assert winners == [alice]
    check_replay(game)


def test_a_voided_game_still_replays(alice, bob):
    from leagues.seasons import void_game

    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    game = play.draw(game.pk, alice, game.version).game
    void_game(game, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.VOIDED
    assert game.moves.last().kind == Move.Kind.VOID
    check_replay(game)


@pytest.mark.django_db
def test_the_locked_read_loads_seats_users_league_and_season_in_one_query(
    league, cast, django_assert_num_queries
):
    """Every move reads its game locked, with what the rules and the page need: one query
    through the seats; a table nobody sits at is read alone; none at all is refused."""
    from django.db import transaction

    from rummy.play import store
    from rummy.table.access import game_with_seats
    from tests.rummy.conftest import start_two

    game = start_two(league, cast)
    with transaction.atomic(), django_assert_num_queries(1):
        locked = store.locked_game(game.pk, with_seats=True)
        seats = list(locked.seated())
        assert [s.user.username for s in seats] == ["alice", "bob"]
        assert all(s.game is locked for s in seats) and locked.league == league
        assert len(locked.seated()) == 2 and locked.engine_state() is not None
    read = game_with_seats(game.pk)
    assert read.version == game.version and [s.number for s in read.seated()] == [0, 1]
    Seat.objects.filter(game=game).delete()
    with transaction.atomic():
        assert list(store.locked_game(game.pk, with_seats=True).seated()) == []
    assert list(game_with_seats(game.pk).seated()) == []
    Game.objects.filter(pk=game.pk).delete()
    assert game_with_seats(game.pk) is None
    with transaction.atomic(), pytest.raises(play.ActionRefused):
        store.locked_game(game.pk, with_seats=True)


@pytest.fixture
def broadcasts(monkeypatch):
    """The keyword arguments of every ``broadcast.game_updated`` after commit."""
    from rummy.play import broadcast

    sent = []
    monkeypatch.setattr(broadcast, "game_updated", lambda *a, **kw: sent.append((a, kw)))
    return sent


def test_a_turns_broadcast_carries_the_game_as_written(
    alice, bob, broadcasts, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """After a turn the broadcast carries the game at its new version with its seats,
    users, league and season as plain data (``rummy.play.snapshot``): the other
    processes' sockets render from it without a query. It survives JSON; the users
    travel without their password hashes; a row made from it cannot be saved."""
    game = _two_player_game(alice, bob, hands=["7H 8H 9H 2C", "KS QS"], stock="3C 4C 5C")
    with django_capture_on_commit_callbacks(execute=True):
        play.draw(game.pk, alice, game.version)
    ((_args, kw),) = broadcasts
    data = json.loads(json.dumps(kw["snapshot"]))
    assert data == kw["snapshot"]
    text = json.dumps(data)
    assert alice.password not in text and bob.password not in text
    stored = Game.objects.select_related("league", "season").get(pk=game.pk)
    with django_assert_num_queries(0):
        shipped = snapshot.load(data)
        assert _columns(shipped) == _columns(stored)
        assert _columns(shipped.league) == _columns(stored.league)
        assert shipped.season_id is None or _columns(shipped.season) == _columns(stored.season)
        seats = [(s.number, s.user.username, s.user.password) for s in shipped.seated()]
        assert all(seat.game is shipped for seat in shipped.seated())
    for ours, theirs in zip(shipped.seated(), stored.seats.all(), strict=True):
        assert _columns(ours) == _columns(theirs)
    assert seats == [(0, "alice", ""), (1, "bob", "")]
    # Dumped again, the same data; and as the channel layer carries it, one JSON text.
    assert snapshot.dump(shipped) == data
    text = snapshot.to_text(kw["snapshot"])
    assert isinstance(text, str) and json.loads(text) == data
    with django_assert_num_queries(0):
        assert _columns(snapshot.from_text(text)) == _columns(stored)
    for row in (shipped, shipped.seated()[0], shipped.seated()[0].user, shipped.league):
        with pytest.raises(snapshot.ReadOnlyRow):
            row.save()
    assert User.objects.get(pk=alice.pk).password == alice.password


def _columns(row):
    return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}


def test_the_last_move_of_a_game_carries_no_game(
    alice, bob, broadcasts, django_capture_on_commit_callbacks
):
    """The move that ends the game writes the seats' results after its save: the game
    in memory is not the whole new version, so the sockets read it instead."""
    game = _two_player_game(
        alice, bob, hands=["AH", "KS QS"], stock="AD 9C", scores=[145, 60], rounds_won=[4, 2]
    )
    with django_capture_on_commit_callbacks(execute=True):
        play.draw(game.pk, alice, game.version)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        play.knock(game.pk, alice, game.version)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert isinstance(broadcasts[0][1]["snapshot"], dict)
    assert broadcasts[1][1]["snapshot"] is None


def test_a_game_without_its_seats_in_memory_has_no_snapshot(alice, bob):
    game = _two_player_game(alice, bob, hands=["7H 8H 9H 2C", "KS QS"], stock="3C 4C 5C")
    assert snapshot.dump(Game.objects.get(pk=game.pk)) is None
    assert snapshot.dump(Game.objects.get(pk=game.pk).load_seats()) is None  # no league loaded


def test_the_save_writes_what_the_orms_update_and_bulk_create_would(alice, bob):
    """store.save's UPDATE and INSERT are written once (config.db.writes), not compiled by the
    ORM for every move: every column of the game and of the logged moves is as the
    ORM's own statements would have written it."""
    from django.utils import timezone

    from config.db import writes

    game = _two_player_game(alice, bob, hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    old = Game.objects.get(pk=game.pk)
    before = timezone.now()
    result = play.draw(game.pk, alice, game.version)
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == old.version + 1 == result.version
    assert stored.state == result.game.state and stored.state != old.state
    assert (stored.to_move_id, stored.turn_deadline) == (alice.pk, old.turn_deadline)
    move = Move.objects.get(game=game, seq=stored.version)
    assert (move.kind, move.seat, move.user_id, move.bot_level) == (Move.Kind.DRAW, 0, alice.pk, "")
    assert move.payload == {"do": "draw"}  # the JSON column, as the engine action logged
    assert before <= move.created_at <= timezone.now()
    # A foreign key by its name (an instance or None) or by its _id, and several moves.
    v = stored.version
    assert writes.update(Game, {"to_move": bob}, pk=game.pk, version=v) == 1
    assert Game.objects.get(pk=game.pk).to_move_id == bob.pk
    assert writes.update(Game, {"to_move": None}, pk=game.pk, version=v) == 1
    assert Game.objects.get(pk=game.pk).to_move_id is None
    # The version check: a stale version updates nothing.
    assert writes.update(Game, {"to_move_id": alice.pk}, pk=game.pk, version=v - 1) == 0
    writes.insert(
        [
            Move(game=game, seq=v + 1 + i, kind=Move.Kind.CLOCK, payload={"i": i}, bot_level="x")
            for i in range(2)
        ]
    )
    assert (
        writes.update(Game, {"to_move_id": alice.pk, "version": v + 2}, pk=game.pk, version=v) == 1
    )
    logged = list(Move.objects.filter(game=game, seq__gt=v).values_list("seq", "payload"))
    assert logged == [(v + 1, {"i": 0}), (v + 2, {"i": 1})]
    assert Game.objects.values_list("to_move_id", "version").get(pk=game.pk) == (alice.pk, v + 2)
    with pytest.raises(IntegrityError), transaction.atomic():  # the log's (game, seq) is unique
        writes.insert([Move(game=game, seq=v + 1, kind=Move.Kind.CLOCK)])
