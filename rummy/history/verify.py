"""Does every stored game agree with its move log? (``manage.py verify_games``)

Each game's log is replayed through the engine and compared with what was stored from
it: the state (and the version, the number of the last move), the finished rounds
(``Round`` rows) and the results (status and each seat's final score, rounds won and
win). Games are read a chunk at a time with their moves streamed, so memory stays the
same however many games there are.
"""

from dataclasses import dataclass

from rummy import engine
from rummy.history.log import games_with_moves, steps
from rummy.models import Game
from rummy.play.replay import ReplayMismatch


@dataclass(frozen=True)
class Difference:
    game_id: int
    problems: tuple[str, ...]

    def __str__(self):
        return f"game {self.game_id}: " + "; ".join(self.problems)


def verify(games=None, chunk=200):
    """Yield (games checked so far, a ``Difference`` or None) for every game of the
    queryset ``games`` (default: all)."""
    games = (Game.objects.all() if games is None else games).prefetch_related("seats", "rounds")
    for n, (game, moves) in enumerate(games_with_moves(games, chunk=chunk), 1):
        problems = check_game(game, moves)
        yield n, (Difference(game.pk, tuple(problems)) if problems else None)


def _round_row(number, last):
    return {
        "number": number,
        "reason": str(last["reason"]),
        "knocker": last.get("knocker"),
        "points": list(last["points"]),
        "winners": list(last["winners"]),
        "hands": list(last["hands"]),
    }


def check_game(game, moves):
    """What differs between ``game`` as stored and the replay of ``moves``."""
    state = None
    last_seq = 0
    replayed_rounds = []
    try:
        for step in steps(moves):
            last_seq = step.move.seq
            state = step.after
            if step.ends_round and state.last_round["reason"] != engine.RoundEnd.ENDED_EARLY:
                replayed_rounds.append(_round_row(state.round_no, state.last_round))
    except ReplayMismatch as error:
        return [str(error)]
    problems = []
    if state is not None and last_seq != game.version:
        problems.append(f"version is {game.version} but the log ends at move {last_seq}")
    if (state.to_dict() if state else None) != game.state:
        problems.append("stored state differs from its move log")
    stored_rounds = [
        {
            "number": r.number,
            "reason": r.reason,
            "knocker": r.knocker,
            "points": r.points,
            "winners": r.winners,
            "hands": r.hands,
        }
        for r in game.rounds.all()
    ]
    if stored_rounds != replayed_rounds:
        problems.append(
            f"rounds differ: stored {[r['number'] for r in stored_rounds]}, "
            f"the log ends {[r['number'] for r in replayed_rounds]}"
            if len(stored_rounds) != len(replayed_rounds)
            else "rounds differ: "
            + ", ".join(
                str(a["number"])
                for a, b in zip(stored_rounds, replayed_rounds, strict=True)
                if a != b
            )
        )
    problems.extend(_result_problems(game, state))
    return problems


def _result_problems(game, state):
    seats = list(game.seated())
    over = state is not None and state.game_over
    if game.status == Game.Status.FINISHED:
        if not over:
            return ["finished, but its log does not end the game"]
        winners = set(state.game_winners or [])
        wrong = [
            str(s.number)
            for s in seats
            if s.final_score != state.final_scores[s.number]
            or s.rounds_won != state.rounds_won[s.number]
            or s.is_winner != (s.number in winners)
        ]
        return [f"results of seat {', '.join(wrong)} differ"] if wrong else []
    if over and game.status != Game.Status.VOIDED:
        return [f"the log ends the game, but it is {game.status}"]
    if game.status == Game.Status.ACTIVE and state is None:
        return ["in progress, but its log never started it"]
    if any(s.is_winner or s.final_score is not None for s in seats):
        return ["results recorded for a game that did not finish"]
    return []
