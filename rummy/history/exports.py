"""The portable record: a finished game as ``carousel-vectors/1`` (the shared
conformance README), one ``game`` case per round from its dealt position, every action
a step with its expected results, so that ``python -m rummy.engine.vectors`` (or any
other implementation of the rules) replays it; and a season's games (one JSON line per
game) and results (CSV) for its league's admins."""

import csv
import io
import json

from rummy import engine
from rummy.engine.vectors import FORMAT
from rummy.history.log import ACTION_KINDS, DEAL_KINDS, game_steps, games_with_moves, steps
from rummy.models import Game, Move, Seat
from rummy.play.replay import ReplayMismatch

# The timeout's own steps (R3.4, R8): what engine.play_timeout does, one action at a time.
MAX_TIMEOUT_STEPS = 4


def _position(state):
    """A dealt state as a ``game`` position (conformance README, "The position")."""
    position = {
        "hands": [engine.format_cards(h) for h in state.hands],
        "stock": engine.format_cards(state.stock),
        "turn": state.turn,
        "scores": list(state.scores),
        "rounds_won": list(state.rounds_won),
        "knock_limit": state.settings.knock_limit,
        "target": state.settings.target,
    }
    if state.table:
        position["table"] = [engine.format_cards(m) for m in state.table]
    if state.drawn:
        position["drawn"] = state.drawn
    if state.final_turns is not None:
        position["final_turns"] = state.final_turns
    return position


def expectation(state):
    """Everything a step's result fixes. Once the round is over, the round's result
    instead of whose turn it would be (the format leaves that open after a round end)."""
    expect = {
        "hands": [engine.format_cards(h) for h in state.hands],
        "table": [engine.format_cards(m) for m in state.table],
        "stock": engine.format_cards(state.stock),
        "round_over": state.round_over,
    }
    if not state.round_over:
        expect.update(turn=state.turn, drawn=state.drawn, final_turns=state.final_turns)
        return expect
    expect.update(
        round_points=list(state.last_round["points"]),
        round_winners=list(state.last_round["winners"]),
        scores=list(state.scores),
        rounds_won=list(state.rounds_won),
        game_over=state.game_over,
    )
    if state.game_over:
        expect.update(final_scores=list(state.final_scores), game_winners=list(state.game_winners))
    return expect


def _action_steps(step):
    """The vector steps of one logged move: one for an action, the draws or passes of a
    timeout (checked against what the log replayed to)."""
    move = step.move
    if move.kind in ACTION_KINDS:
        action = {"do": move.payload["do"]}
        if move.kind == Move.Kind.MELD:
            action["table"] = list(move.payload["table"])
            if move.payload.get("knock"):
                action["knock"] = True
        return [{"seat": move.seat, **action, "expect": expectation(step.after)}]
    out = []
    state = step.before
    for _ in range(MAX_TIMEOUT_STEPS):
        if state.round_over or state.turn != move.seat:
            break
        do = engine.Action.DRAW if state.stock else engine.Action.PASS
        state = engine.apply_action(state, move.seat, {"do": do})
        out.append({"seat": move.seat, "do": str(do), "expect": expectation(state)})
    if state.to_dict() != step.after.to_dict():
        raise ReplayMismatch(f"move {move.seq}: the timeout's steps do not add up")
    return out


def vector_cases(game, moves=None):
    """The ``game`` cases of ``game``'s log, one per round (a round ended early ends
    with its last action, unscored)."""
    cases = []
    case = None
    log = game_steps(game) if moves is None else steps(moves)
    for step in log:
        kind = step.move.kind
        if kind in DEAL_KINDS:
            state = step.after
            case = {
                "id": f"game-{game.pk}-round-{state.round_no}",
                "game": _position(state),
                "steps": [],
            }
            cases.append(case)
        elif kind in (*ACTION_KINDS, Move.Kind.TIMEOUT) and case is not None:
            case["steps"].extend(_action_steps(step))
        elif kind == Move.Kind.END_EARLY and case is not None:
            case["id"] += "-ended-early"
    return cases


def vector_document(game, moves=None):
    """The whole game as one ``carousel-vectors/1`` file."""
    return {"format": FORMAT, "cases": vector_cases(game, moves)}


def vector_filename(game):
    return f"carousel-game-{game.pk}.json"


# --- a season's downloads -------------------------------------------------------------


def _season_games(season):
    return (
        Game.objects.filter(season=season, status=Game.Status.FINISHED)
        .select_related("league", "season")
        .prefetch_related("seats__user", "rounds")
    )


def placements(seats):
    """Seat number -> place by final score (1 is best; equal scores share a place)."""
    scores = [s.final_score for s in seats if s.final_score is not None]
    return {
        s.number: 1 + sum(1 for other in scores if other > s.final_score)
        for s in seats
        if s.final_score is not None
    }


def game_line(game, moves):
    """One game of a season's download: who played, the rounds, the results and the
    portable record."""
    seats = sorted(game.seated(), key=lambda s: s.number)
    places = placements(seats)
    return {
        "game": game.pk,
        "league": game.league.slug if game.league else None,
        "season": game.season.name if game.season else None,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "target": game.target_score,
        "knock_limit": game.knock_limit,
        "players": [
            {
                "seat": s.number,
                "username": s.user.username,
                "name": s.user.name,
                "final_score": s.final_score,
                "rounds_won": s.rounds_won,
                "winner": s.is_winner,
                "place": places.get(s.number),
            }
            for s in seats
        ],
        "rounds": [
            {
                "number": r.number,
                "reason": r.reason,
                "knocker": r.knocker,
                "points": r.points,
                "winners": r.winners,
                "hands": r.hands,
            }
            for r in game.rounds.all()
        ],
        "record": vector_document(game, moves),
    }


def season_lines(season, chunk=100):
    """The season's finished games, one JSON line each, a chunk of games in memory at
    a time (a StreamingHttpResponse sends them as they come)."""
    for game, moves in games_with_moves(_season_games(season), chunk=chunk):
        yield json.dumps(game_line(game, moves), ensure_ascii=False) + "\n"


CSV_HEADER = [
    "game",
    "finished_at",
    "seat",
    "username",
    "name",
    "final_score",
    "rounds_won",
    "winner",
    "place",
]


def _cell(value):
    """A spreadsheet must not run a player's name as a formula (CSV injection)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def season_csv_rows(season, chunk=500):
    """The season's results as CSV text, a line at a time: one row per seat of every
    finished game."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def flush():
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(CSV_HEADER)
    yield flush()
    seats = (
        Seat.objects.filter(game__season=season, game__status=Game.Status.FINISHED)
        .select_related("user", "game")
        .order_by("game_id", "number")
    )
    current, group = None, []
    for seat in seats.iterator(chunk_size=chunk):
        if seat.game_id != current and group:
            yield _game_rows(writer, group, flush)
            group = []
        current = seat.game_id
        group.append(seat)
    if group:
        yield _game_rows(writer, group, flush)


def _game_rows(writer, seats, flush):
    places = placements(seats)
    for s in seats:
        finished_at = s.game.finished_at.isoformat() if s.game.finished_at else ""
        writer.writerow(
            [
                s.game_id,
                finished_at,
                s.number,
                _cell(s.user.username),
                _cell(s.user.name),
                s.final_score,
                s.rounds_won,
                int(s.is_winner),
                places.get(s.number, ""),
            ]
        )
    return flush()
