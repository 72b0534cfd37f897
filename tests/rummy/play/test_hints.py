"""Hints: the solver's best meld for the player to move, laid out in their
draft, logged as a move, refused like any other action, and solved from the seat's view
only."""

import dataclasses
import threading

import pytest
from django.urls import reverse

from rummy import engine, play
from rummy.models import Draft, Game, Move
from rummy.play import hints, solver_time
from rummy.solver import Position, position_of, solve
from rummy.solver.moved import moved_cards
from tests.factories import make_season
from tests.rummy.conftest import set_state, start_two

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}

# Alice (seat 0) has drawn. The best meld: 10H JH on the table's sequence and 2C 2D 2S
# as a group, leaving KC (10 points, R7.1).
ALICE = "10H JH 2C 2D 2S KC"
BOB = "3C 4C 9D 9S QD"
TABLE = ["7H 8H 9H"]


def position(alice=ALICE, table=TABLE, drawn=1):
    return engine.position([alice, BOB], table=table, stock="QC QS 5D 6D", drawn=drawn)


@pytest.fixture
def hinting(league, cast):
    """A two-player game in a season that allows hints; Alice has drawn."""
    make_season(league, hints_allowed=True)
    return set_state(start_two(league, cast), position())


def post(client, game, action="hint", version=None, headers=HX):
    game.refresh_from_db()
    return client.post(
        reverse("rummy:act", args=[game.pk]),
        {"action": action, "version": game.version if version is None else version},
        headers=headers,
    )


def test_hint_lays_out_a_meld_the_engine_accepts_when_played(client, cast, hinting):
    client.force_login(cast.alice)
    response = post(client, hinting)
    html = response.content.decode()
    assert response.status_code == 200, html[:400]
    # The editor is open with the hint's arrangement, and the words say what it leaves.
    assert 'id="btn-play"' in html
    draft = Draft.objects.get(game=hinting, seat=0)
    hinting.refresh_from_db()
    assert draft.base_version == hinting.version
    assert "Hint: the best meld leaves 10 points in your hand" in html
    assert 'class="message"' in html  # advice, not styled as an error
    # Every card of the hint is one Alice holds or one of the table (nobody else's).
    before = engine.parse_cards(ALICE + " " + " ".join(TABLE))
    shown = [c for m in draft.data["table"] for c in m] + draft.data["hand"]
    assert sorted(engine.Card.parse(c).physical.pcode for c in shown) == sorted(
        c.pcode for c in before
    )
    # One tap on Play plays it: the engine accepts it, and Alice keeps only the king.
    response = post(client, hinting, "play")
    assert response.status_code == 200, response.content.decode()[:400]
    hinting.refresh_from_db()
    assert [str(c) for c in hinting.engine_state().hands[0]] == ["KC"]
    assert hinting.moves.filter(kind=Move.Kind.MELD).count() == 1


def test_hint_says_when_no_meld_exists(client, cast, league):
    make_season(league, hints_allowed=True)
    game = set_state(start_two(league, cast), position(alice="2C 5D KS", table=[]))
    client.force_login(cast.alice)
    html = post(client, game).content.decode()
    assert "Hint: no meld is possible with your hand and this table." in html
    assert not Draft.objects.filter(game=game).exists()
    # Still recorded: the player was told something about their position.
    hint = game.moves.get(kind=Move.Kind.HINT)
    assert hint.payload["found"] is False and hint.seat == 0


def test_hint_is_logged_as_a_move_that_changes_no_state(client, cast, hinting):
    client.force_login(cast.alice)
    before = hinting.engine_state().to_dict()
    version = hinting.version
    post(client, hinting)
    hinting.refresh_from_db()
    assert hinting.version == version + 1
    hint = hinting.moves.get(seq=version + 1)
    assert (hint.kind, hint.seat, hint.user) == (Move.Kind.HINT, 0, cast.alice)
    assert hint.payload == {
        "do": "hint",
        "found": True,
        "count": 10,
        "proven": True,
        # What it said, and for which view: kept for the same request again.
        "view": hints.view_digest(hinting.engine_state(), 0),
        "goes_out": False,
        "table": [["7H", "8H", "9H", "10H", "JH"], ["2C", "2D", "2S"]],
        "hand_left": ["KC"],
    }
    assert hinting.engine_state().to_dict() == before
    assert hinting.to_move == cast.alice


def test_hint_is_refused_when_it_is_not_your_turn(client, cast, hinting):
    client.force_login(cast.bob)
    response = post(client, hinting)
    assert response.status_code == 403
    assert "It is not your turn." in response.content.decode()
    assert not hinting.moves.filter(kind=Move.Kind.HINT).exists()


@pytest.mark.parametrize("who", ["carol", "dave"])
def test_hint_is_refused_to_anyone_not_at_the_table(client, cast, hinting, who):
    client.force_login(cast[who])
    response = post(client, hinting)
    # Carol watches (a member): forbidden; Dave may not even see the game: 404.
    assert response.status_code == (403 if who == "carol" else 404)
    assert not hinting.moves.filter(kind=Move.Kind.HINT).exists()
    assert not Draft.objects.exists()


def test_hint_needs_a_login(client, hinting):
    response = post(client, hinting)
    assert response.status_code == 302 and "/login" in response["Location"]
    assert not hinting.moves.filter(kind=Move.Kind.HINT).exists()


def test_hint_is_refused_in_a_season_without_hints(client, cast, league):
    make_season(league)  # the default: off
    game = set_state(start_two(league, cast), position())
    client.force_login(cast.alice)
    html = post(client, game).content.decode()
    assert 'id="btn-hint"' not in html
    response = post(client, game)
    assert response.status_code == 403
    assert "Hints are not allowed in this game." in response.content.decode()
    assert not game.moves.filter(kind=Move.Kind.HINT).exists()


def test_a_game_outside_any_season_has_no_hints(cast, league):
    game = start_two(league, cast)
    assert game.season is None and not hints.hints_allowed(game)


def test_hint_is_refused_on_a_stale_version(client, cast, hinting):
    client.force_login(cast.alice)
    response = post(client, hinting, version=hinting.version - 1)
    assert response.status_code == 409
    assert not hinting.moves.filter(kind=Move.Kind.HINT).exists()


def test_hint_is_refused_before_the_draw(client, cast, league):
    make_season(league, hints_allowed=True)
    game = set_state(start_two(league, cast), position(drawn=0))
    client.force_login(cast.alice)
    html = post(client, game, "meld").content.decode()
    assert 'id="btn-hint"' not in html
    response = post(client, game)
    assert response.status_code == 400
    assert "Draw a card first" in response.content.decode()


@pytest.mark.parametrize("version", ["", "abc", "-1", "9" * 70])
def test_hint_with_a_bad_version_changes_nothing(client, cast, hinting, version):
    client.force_login(cast.alice)
    response = client.post(
        reverse("rummy:act", args=[hinting.pk]), {"action": "hint", "version": version}, headers=HX
    )
    assert response.status_code == 400
    assert not hinting.moves.filter(kind=Move.Kind.HINT).exists()


def test_hint_control_shows_on_your_turn_after_the_draw(client, cast, hinting):
    client.force_login(cast.alice)
    html = client.get(reverse("rummy:table", args=[hinting.pk])).content.decode()
    assert 'id="btn-hint"' in html
    client.force_login(cast.bob)
    html = client.get(reverse("rummy:table", args=[hinting.pk])).content.decode()
    assert 'id="btn-hint"' not in html


def test_hint_without_javascript_redirects_with_its_words(client, cast, hinting):
    client.force_login(cast.alice)
    response = post(client, hinting, headers={})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Hint: the best meld leaves 10 points" in page
    assert 'id="btn-play"' in page  # the editor, with the hint laid out


def test_the_solver_reads_only_the_seats_view(cast, hinting, monkeypatch):
    """The solver entry is given a Position: it holds Alice's hand and the table, and
    no card of Bob's hand or of the stock."""
    seen = []
    real = hints.solve

    def spy(pos, *args, **kwargs):
        seen.append(pos)
        return real(pos, *args, **kwargs)

    monkeypatch.setattr(hints, "solve", spy)
    play.hint(hinting.pk, cast.alice, hinting.version)
    (pos,) = seen
    assert isinstance(pos, Position)
    assert sorted(str(c) for c in pos.hand) == sorted(ALICE.split())
    assert [" ".join(str(c) for c in m) for m in pos.table] == TABLE
    others = set(BOB.split()) | {"QC", "QS", "5D", "6D"}
    assert not others & {str(c) for c in pos.hand}


def test_the_hint_is_shown_in_the_record_and_the_replay(client, cast, hinting):
    client.force_login(cast.alice)
    post(client, hinting)
    seq = hinting.moves.get(kind=Move.Kind.HINT).seq
    client.force_login(cast.carol)  # a member watching sees that a hint was used
    html = client.get(reverse("rummy:record", args=[hinting.pk])).content.decode()
    assert 'id="hints-used"' in html and "Round 1: Alice used a hint." in html
    replay = client.get(reverse("rummy:replay", args=[hinting.pk]) + f"?at={seq}")
    assert "Alice asked for a hint." in replay.content.decode()


def test_a_record_without_hints_has_no_hints_section(client, cast, hinting):
    client.force_login(cast.alice)
    html = client.get(reverse("rummy:record", args=[hinting.pk])).content.decode()
    assert 'id="hints-used"' not in html


def test_a_second_hint_on_the_same_version_is_stale(cast, hinting):
    version = hinting.version
    play.hint(hinting.pk, cast.alice, version)
    with pytest.raises(play.StaleVersion):
        play.hint(hinting.pk, cast.alice, version)
    assert Game.objects.get(pk=hinting.pk).moves.filter(kind=Move.Kind.HINT).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_hint_many_times_at_once_records_one(client, cast, league):
    """Eight identical hint POSTs at once: one is recorded, the others are told the
    table changed (409); none fails."""
    from django.db import connections
    from django.test import Client

    make_season(league, hints_allowed=True)
    game = set_state(start_two(league, cast), position())
    version = game.version
    clients = []
    for _ in range(8):
        c = Client()
        c.force_login(cast.alice)
        clients.append(c)
    barrier = threading.Barrier(len(clients))
    statuses = []

    def submit(c):
        try:
            barrier.wait()
            response = c.post(
                reverse("rummy:act", args=[game.pk]),
                {"action": "hint", "version": version},
                headers=HX,
            )
            statuses.append(response.status_code)
        except Exception as error:
            statuses.append(repr(error))
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 7
    assert Move.objects.filter(game=game, kind=Move.Kind.HINT).count() == 1


def test_a_hint_says_when_the_meld_allows_a_knock(client, cast, league):
    make_season(league, hints_allowed=True)
    game = set_state(start_two(league, cast), position(alice="10H JH 2C"))
    client.force_login(cast.alice)
    html = post(client, game).content.decode()
    assert "leaves 2 points" in html and "You may knock with it" in html


def test_a_hint_is_laid_out_moving_the_fewest_table_cards(client, cast, league):
    """The best meld plays 9H, 6C and 6S. The quick arrangement takes AH down to the low
    run to make room for 6H's group (two table cards moved: 6H and AH); the exact
    tie-break (``HINT_TIE_BREAK``) finds that AH may stay, with 9H below it (one moved:
    6H). The hint lays out the latter."""
    make_season(league, hints_allowed=True)
    table = ["2H 3H 4H 5H 6H", "10H JH QH KH AH"]
    game = set_state(
        start_two(league, cast),
        engine.position(
            ["9S 9H QC 3D 10D 7D 6C 6S", "4C 5C 8D KS JS"],
            table=table,
            stock="7C 8C 2S 3S",
            drawn=1,
        ),
    )
    client.force_login(cast.alice)
    assert post(client, game).status_code == 200
    draft = Draft.objects.get(game=game, seat=0)
    laid = [engine.parse_cards(" ".join(meld)) for meld in draft.data["table"]]
    assert moved_cards([engine.parse_cards(m) for m in table], laid) == 1
    assert sorted(draft.data["hand"]) == sorted(["9S", "QC", "3D", "10D", "7D"])


def test_a_hint_cut_short_by_its_time_limit_says_so(cast, hinting):
    """The solver marks an answer cut short by its time limit as not proven (positions
    hard enough to hit the limit are rare and slow to find, so the solver's answer for
    this one is marked so here): the words say it is the best found in the time."""
    state = hinting.engine_state()
    seat = hinting.seats.get(number=0)
    solution = solve(position_of(state, 0), state.settings)
    words = hints._words(state, seat, dataclasses.replace(solution, proven=False))
    assert "It is the best found in the time a hint may take." in words
    none = dataclasses.replace(solution, found=False, proven=False)
    assert "no meld was found in the time a hint may take" in hints._words(state, seat, none)


def test_a_hint_in_a_practice_game_is_laid_out_and_recorded(client, cast):
    """A practice game (no league, no season) always allows hints: Dave, against a bot,
    asks for one after his draw; the record, which only he may see, says he used it."""
    from rummy import background

    dave = cast.dave
    game = play.start_practice(dave, 1, "beginner")
    for _ in range(50):
        game.refresh_from_db()
        if game.to_move_id == dave.pk:
            break
        background.bot_poll()
    assert game.to_move_id == dave.pk
    client.force_login(dave)
    post(client, game, "draw")
    response = post(client, game)
    assert response.status_code == 200
    assert "Hint:" in response.content.decode()
    hint = game.moves.get(kind=Move.Kind.HINT)
    assert hint.user == dave
    record = client.get(reverse("rummy:record", args=[game.pk])).content.decode()
    assert "Dave used a hint." in record
    client.force_login(cast.alice)
    assert client.get(reverse("rummy:record", args=[game.pk])).status_code == 404


# --- What a hint may cost -----------------------------------------------------------------


@pytest.fixture
def solves(monkeypatch):
    """The solver calls made (the real solver runs)."""
    calls = []
    real = hints.solve

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(hints, "solve", counted)
    return calls


def test_the_same_position_is_answered_with_the_kept_hint_without_solving(
    client, cast, hinting, solves, django_capture_on_commit_callbacks
):
    """Asked again at the version the hint made (the same view), the hint is laid out
    again: no solve, no new version, no logged move, nothing broadcast."""
    client.force_login(cast.alice)
    first = post(client, hinting)
    assert first.status_code == 200 and len(solves) == 1
    hinting.refresh_from_db()
    version = hinting.version
    laid_out = Draft.objects.get(game=hinting, seat=0).data
    post(client, hinting, "reset")  # the player undoes the hint's arrangement
    assert Draft.objects.get(game=hinting, seat=0).data != laid_out
    with django_capture_on_commit_callbacks(execute=True) as broadcasts:
        again = post(client, hinting)
    assert again.status_code == 200
    assert "Hint: the best meld leaves 10 points in your hand" in again.content.decode()
    assert len(solves) == 1
    assert broadcasts == []
    hinting.refresh_from_db()
    assert hinting.version == version
    assert hinting.moves.filter(kind=Move.Kind.HINT).count() == 1
    assert Draft.objects.get(game=hinting, seat=0).data == laid_out  # laid out again


def test_a_turn_has_at_most_its_hints(client, cast, league, solves):
    """``HINTS_PER_TURN`` answers a turn (one solve per position: the second draw's is
    another), then a refusal in words (429) that changes nothing, also after a draw
    that makes a new position in the same turn; the next turn has its own."""
    make_season(league, hints_allowed=True)
    stock = "QC QS 5D 6D 7D 8D 9C 10C 3S 4S"
    game = set_state(
        start_two(league, cast),
        engine.position([ALICE, BOB], table=TABLE, stock=stock, drawn=1),
    )
    client.force_login(cast.alice)
    for _n in range(hints.HINTS_PER_TURN - 1):
        assert post(client, game).status_code == 200
    assert len(solves) == 1
    post(client, game, "draw")  # the second draw: a new position, the same turn
    assert post(client, game).status_code == 200
    assert len(solves) == 2
    game.refresh_from_db()
    version = game.version
    post(client, game, "reset")
    draft = Draft.objects.get(game=game, seat=0).data
    response = post(client, game)
    assert response.status_code == 429
    assert "You have had 3 hints this turn, the most a turn allows." in response.content.decode()
    assert len(solves) == 2
    game.refresh_from_db()
    assert game.version == version
    assert Draft.objects.get(game=game, seat=0).data == draft
    assert game.moves.filter(kind=Move.Kind.HINT).count() == 2
    # The third draw ends Alice's turn (R3.4); Bob draws three; Alice's next turn.
    post(client, game, "draw")
    for _n in range(3):
        game.refresh_from_db()
        play.draw(game.pk, cast.bob, game.version)
    post(client, game, "draw")
    assert post(client, game).status_code == 200
    assert len(solves) == 3


def test_a_stale_hint_is_refused_without_solving(client, cast, hinting, solves):
    client.force_login(cast.alice)
    assert post(client, hinting, version=hinting.version - 1).status_code == 409
    post(client, hinting)
    # The hint moved the version on: a second request from the page before it is stale.
    assert post(client, hinting, version=hinting.version - 1).status_code == 409
    assert len(solves) == 1


def _alice_to_meld_in(games, league, cast):
    """``games`` games of Alice and Bob where Alice has drawn."""
    return [set_state(start_two(league, cast), position()) for _n in range(games)]


def test_solver_time_per_user_and_minute(client, cast, league, monkeypatch):
    """Each solve takes 1.2 s of (substituted) CPU time: over all of Alice's games, a
    minute's ``CPU_SECONDS_PER_MINUTE`` (3 s) allows three, since the next would not fit
    in what is left; the fourth is refused in words without solving and changes
    nothing, and the next minute allows hints again."""
    make_season(league, hints_allowed=True)
    games = _alice_to_meld_in(5, league, cast)
    clock = {"cpu": 0.0, "minute": 1000}
    solved = []
    real = hints.solve

    def solve_taking_cpu(*args, **kwargs):
        solved.append(args[0])
        clock["cpu"] += 1.2
        return real(*args, **kwargs)

    monkeypatch.setattr(hints, "solve", solve_taking_cpu)
    monkeypatch.setattr(solver_time, "cpu_time", lambda: clock["cpu"])
    monkeypatch.setattr(solver_time, "minute", lambda: clock["minute"])
    monkeypatch.setattr(solver_time, "CPU_SECONDS_PER_MINUTE", 3.0)
    client.force_login(cast.alice)
    for game in games[:3]:
        assert post(client, game).status_code == 200
    assert len(solved) == 3
    fourth = games[3]
    fourth.refresh_from_db()
    version = fourth.version
    response = post(client, fourth)
    assert response.status_code == 429
    assert "You have used the solver time hints may take in a minute." in (
        response.content.decode()
    )
    assert len(solved) == 3
    fourth.refresh_from_db()
    assert fourth.version == version
    assert not fourth.moves.filter(kind=Move.Kind.HINT).exists()
    assert not Draft.objects.filter(game=fourth).exists()
    # Bob's minute is his own.
    bobs = set_state(
        start_two(league, cast),
        engine.position([BOB, ALICE], table=TABLE, stock="QC QS 5D 6D", turn=1, drawn=1),
    )
    client.force_login(cast.bob)
    assert post(client, bobs).status_code == 200
    assert len(solved) == 4
    clock["minute"] += 1
    client.force_login(cast.alice)
    assert post(client, fourth).status_code == 200
    assert len(solved) == 5


def _at_once(game, user, n, version):
    """``n`` hint POSTs of ``user`` at once (each its own session); their statuses, as
    they answer, and an event set once all but one have answered."""
    from django.db import connections
    from django.test import Client

    clients = []
    for _n in range(n):
        c = Client()
        c.force_login(user)
        clients.append(c)
    barrier = threading.Barrier(n)
    statuses = []
    lock = threading.Lock()
    all_but_one = threading.Event()

    def submit(c):
        try:
            barrier.wait()
            response = c.post(
                reverse("rummy:act", args=[game.pk]),
                {"action": "hint", "version": version},
                headers=HX,
            )
            answer = (response.status_code, response.content.decode())
        except Exception as error:
            answer = (repr(error), "")
            barrier.abort()
        finally:
            connections.close_all()
        with lock:
            statuses.append(answer)
            if len(statuses) >= n - 1:
                all_but_one.set()

    threads = [threading.Thread(target=submit, args=(c,)) for c in clients]
    return threads, statuses, all_but_one


@pytest.mark.django_db(transaction=True)
def test_sixteen_hints_at_once_at_one_version_solve_once(cast, league, monkeypatch):
    """Sixteen identical hint requests at once: the position is solved once. The solve
    that runs holds on until the fifteen others have been answered, so a second solve
    (which would wait as well) could not hide behind the first: they are told the hint
    is being worked out (409), and none of them solves."""
    make_season(league, hints_allowed=True)
    game = set_state(start_two(league, cast), position())
    game.refresh_from_db()
    threads, statuses, all_but_one = _at_once(game, cast.alice, 16, game.version)
    solved = []
    real = hints.solve

    def solve_when_the_others_answered(*args, **kwargs):
        solved.append(args[0])
        all_but_one.wait(timeout=60)  # the condition, not a time: 60 s is only a bound
        return real(*args, **kwargs)

    monkeypatch.setattr(hints, "solve", solve_when_the_others_answered)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(solved) == 1
    assert sorted(status for status, _body in statuses) == [200] + [409] * 15
    refused = [body for status, body in statuses if status == 409]
    assert all("being worked out" in body or "The table changed" in body for body in refused)
    assert Move.objects.filter(game=game, kind=Move.Kind.HINT).count() == 1


@pytest.mark.django_db(transaction=True)
def test_sixteen_hints_at_once_for_a_kept_position_keep_the_turns_limit(cast, league, monkeypatch):
    """After one hint, sixteen requests at once at the version it made: none solves,
    none makes a version, and only the turn's remaining hints are given (429 for the
    rest)."""
    make_season(league, hints_allowed=True)
    game = set_state(start_two(league, cast), position())
    game.refresh_from_db()
    play.hint(game.pk, cast.alice, game.version)
    game.refresh_from_db()
    solved = []
    monkeypatch.setattr(hints, "solve", lambda *a, **k: solved.append(a) or None)
    threads, statuses, _all_but_one = _at_once(game, cast.alice, 16, game.version)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    given = hints.HINTS_PER_TURN - 1
    assert sorted(status for status, _body in statuses) == [200] * given + [429] * (16 - given)
    assert solved == []
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Move.objects.filter(game=game, kind=Move.Kind.HINT).count() == 1


@pytest.mark.django_db(transaction=True)
def test_hints_at_once_in_many_games_keep_the_solver_time_budget(cast, league, monkeypatch):
    """Six hints at once, each in another of Alice's games, each solve taking half a
    second of (substituted, per-thread) CPU time, with a minute's budget of one second:
    exactly two solve, the four others are refused in words (429) without solving."""
    from django.db import connections
    from django.test import Client

    make_season(league, hints_allowed=True)
    games = _alice_to_meld_in(6, league, cast)
    spent = threading.local()
    solved = []
    real = hints.solve

    def solve_taking_cpu(*args, **kwargs):
        solved.append(args[0])
        spent.cpu = getattr(spent, "cpu", 0.0) + 0.5
        return real(*args, **kwargs)

    monkeypatch.setattr(hints, "solve", solve_taking_cpu)
    monkeypatch.setattr(solver_time, "cpu_time", lambda: getattr(spent, "cpu", 0.0))
    monkeypatch.setattr(solver_time, "minute", lambda: 1000)
    monkeypatch.setattr(solver_time, "CPU_SECONDS_PER_MINUTE", 1.0)
    barrier = threading.Barrier(len(games))
    answers = []

    def submit(game):
        c = Client()
        c.force_login(cast.alice)
        try:
            barrier.wait()
            response = c.post(
                reverse("rummy:act", args=[game.pk]),
                {"action": "hint", "version": game.version},
                headers=HX,
            )
            answers.append((response.status_code, response.content.decode()))
        except Exception as error:
            answers.append((repr(error), ""))
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(game,)) for game in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(solved) == 2
    assert sorted(status for status, _body in answers) == [200] * 2 + [429] * 4
    assert all(
        "solver time hints may take in a minute" in body
        for status, body in answers
        if status == 429
    )
    assert Move.objects.filter(kind=Move.Kind.HINT).count() == 2
