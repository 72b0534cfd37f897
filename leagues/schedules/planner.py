"""The season planner: who sits with whom, round by round, in a scheduled season.

Pure Python (no Django): members are the numbers 0 … n-1, and the caller maps them to
users. A plan is a list of rounds; in a round each member plays at most one game, at a
table of 2 to ``seats`` players (R1.1), listed in seat order, which the game keeps
(``rummy.play.rounds``). The plan balances seat 0 too, the first to move only if the
game's first dealer were its last seat (R2.3); R2.1 draws the first dealer at random,
and the site keeps that rule, so "first moves" here are first seats, and in play first
moves are balanced in expectation (README, "Scheduled seasons").

How it plans, and what it promises:

- **Games**: every member plays exactly ``games_each`` games, never two in one round.
  A round seats everyone who is due, at ``ceil(due / seats)`` tables whose sizes differ
  by at most one (so 10 members at tables of 4 sit 4, 3, 3). With tables of 2 and an odd
  number due, one member rests that round (a bye), in turn.
- **Make-up**: a member who cannot play a round (on vacation at its start) is owed a
  game. The rounds still to come are counted as what the member owing most needs; the
  others are given rests spread over those rounds so that everyone finishes in the
  same round, and no one is ever left owing a game with nobody to play it with.
- **Pairs**: the tables are chosen to make every pair of members share a table as
  equally often as possible: a greedy start (each member to the table where they met
  fewest), then a local search that swaps two members between tables of one round
  (which keeps every member's games and every table's size), on a cost that is least
  exactly when the meeting counts are as equal as the numbers allow. It is a heuristic,
  and promises only what it measures: the spread it reached (:func:`figures`). Where
  every pair can meet equally often or within one of it, it often gets there, but not
  always: the tight cases (members who can meet each other at most once, as 12 at
  tables of 4 over 3 rounds) are the social golfer problem, which swaps of one member
  solve poorly. ``bench/planner.py`` prints how close it gets over the sizes a league
  has.
- **Seats**: each table's seat order is chosen, round by round, to even out how often
  each member sits in each position, seat 0 (the first turn) first.

Everything is deterministic for a given ``seed``: the work is counted in swaps tried,
never in time, so the same input gives the same plan on any machine.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

MIN_SEATS = 2  # R1.1
MAX_SEATS = 5  # R1.1
MAX_MEMBERS = 200
MAX_GAMES_EACH = 50

# Steps of the local search after the greedy start. More steps barely help on the sizes
# a league has (bench/planner.py measures it), and this keeps the largest plan (60
# members, 20 games each) to a second or two.
SEARCH_STEPS = 20000


class PlanError(ValueError):
    """The numbers asked for admit no plan. ``code`` and ``params`` let a page say it in
    the reader's language; ``str()`` is the English sentence, for the command line."""

    def __init__(self, code: str, message: str, **params: int) -> None:
        super().__init__(message.format(**params))
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Round:
    """One round: its tables (members in seat order, seat 0 moves first) and the
    members who rest (due but not seated, or away)."""

    tables: tuple[tuple[int, ...], ...]
    resting: tuple[int, ...] = ()


@dataclass(frozen=True)
class Plan:
    members: int
    seats: int
    games_each: int
    rounds: tuple[Round, ...]


@dataclass(frozen=True)
class Figures:
    """What a plan achieved, for the preview and the benchmark."""

    games: tuple[int, ...]  # per member
    pair_min: int
    pair_max: int
    first_moves: tuple[int, ...]  # per member: games at seat 0
    seat_counts: tuple[tuple[int, ...], ...]  # per member, per seat position
    table_sizes: tuple[int, ...]  # the distinct sizes used, ascending

    @property
    def pair_spread(self) -> int:
        return self.pair_max - self.pair_min


def check(members: int, seats: int, games_each: int) -> None:
    """Raises PlanError, in words, for numbers that admit no plan."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise PlanError(
            "seats",
            "A table seats {low} to {high} players, not {seats}.",
            low=MIN_SEATS,
            high=MAX_SEATS,
            seats=seats,
        )
    if not 2 <= members <= MAX_MEMBERS:
        raise PlanError(
            "members",
            "A schedule is planned for 2 to {high} members, not {members}.",
            high=MAX_MEMBERS,
            members=members,
        )
    if not 1 <= games_each <= MAX_GAMES_EACH:
        raise PlanError(
            "games",
            "Each member plays 1 to {high} games, not {games}.",
            high=MAX_GAMES_EACH,
            games=games_each,
        )
    if seats == 2 and members * games_each % 2:
        raise PlanError(
            "odd",
            "At tables of 2, {members} members cannot each play {games} games: the "
            "number of members times the games each must be even.",
            members=members,
            games=games_each,
        )


def table_sizes(players: int, seats: int) -> list[int]:
    """The sizes of the fewest tables of at most ``seats`` that seat ``players``, as
    equal as possible, largest first (``players`` >= 2; with tables of 2, even)."""
    tables = math.ceil(players / seats)
    small, extra = divmod(players, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def plan(
    members: int,
    seats: int,
    games_each: int,
    seed: int = 0,
    *,
    away: Mapping[int, Collection[int]] | None = None,
    search_steps: int = SEARCH_STEPS,
) -> Plan:
    """A whole season's plan. ``away`` maps a round's index (from 0) to the members
    who cannot play it (on vacation at its start); they are made up for later."""
    check(members, seats, games_each)
    tables_by_round, resting_by_round = _plan(
        [games_each] * members, seats, random.Random(seed), away or {}, None, search_steps
    )
    rounds = _order_seats(tables_by_round, resting_by_round, members)
    return Plan(members, seats, games_each, tuple(rounds))


def plan_rest(
    owed: Sequence[int],
    seats: int,
    seed: int = 0,
    *,
    away: Collection[int] = (),
    met: Sequence[Sequence[int]] | None = None,
    search_steps: int = SEARCH_STEPS,
) -> tuple[Round, ...]:
    """The rounds still to come of a season under way: member m owes ``owed[m]`` games
    (members who joined late owe them all), ``away`` cannot play the first of these
    rounds (made up for later), and ``met[a][b]`` is how often a and b met already, so
    that the new rounds even out the whole season's meetings, not only their own.

    The same promises as :func:`plan`, with one more case: a member left owing games
    when no one else owes any has nobody to play them with, and is not seated."""
    members = len(owed)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise PlanError(
            "seats",
            "A table seats {low} to {high} players, not {seats}.",
            low=MIN_SEATS,
            high=MAX_SEATS,
            seats=seats,
        )
    if members > MAX_MEMBERS or any(not 0 <= o <= MAX_GAMES_EACH for o in owed):
        raise PlanError(
            "members",
            "A schedule is planned for 2 to {high} members, not {members}.",
            high=MAX_MEMBERS,
            members=members,
        )
    if members < 2:
        return ()
    meetings = [list(row) for row in met] if met is not None else None
    tables_by_round, resting_by_round = _plan(
        list(owed), seats, random.Random(seed), {0: set(away)}, meetings, search_steps
    )
    return tuple(_order_seats(tables_by_round, resting_by_round, members))


def _plan(
    owed: list[int],
    seats: int,
    rng: random.Random,
    away: Mapping[int, Collection[int]],
    meetings: list[list[int]] | None,
    search_steps: int,
) -> tuple[list[list[list[int]]], list[list[int]]]:
    """The rounds' tables (not yet in seat order) and resting members, until every
    member has played what they owe (or nobody is left to play them with)."""
    members = len(owed)
    if meetings is None:
        meetings = [[0] * members for _ in range(members)]
    rests = [0] * members
    tables_by_round: list[list[list[int]]] = []
    resting_by_round: list[list[int]] = []
    while any(owed):
        index = len(tables_by_round)
        absent = set(away.get(index, ()))
        playing, resting = _who_plays(owed, absent, rests, seats, rng)
        if not playing and not absent:
            break  # one member owes games that nobody is left to play with them
        tables = _seat_greedily(playing, seats, meetings, rng)
        for table in tables:
            _meet(meetings, table, +1)
            for member in table:
                owed[member] -= 1
        for member in resting:
            rests[member] += 1
        tables_by_round.append(tables)
        resting_by_round.append(sorted({*resting, *(m for m in absent if owed[m])}))
    _improve(tables_by_round, meetings, rng, search_steps)
    return tables_by_round, resting_by_round


def figures(result: Plan) -> Figures:
    n = result.members
    games = [0] * n
    first = [0] * n
    seat_counts = [[0] * result.seats for _ in range(n)]
    meetings = [[0] * n for _ in range(n)]
    sizes = set()
    for round_ in result.rounds:
        for table in round_.tables:
            sizes.add(len(table))
            _meet(meetings, table, +1)
            for position, member in enumerate(table):
                games[member] += 1
                seat_counts[member][position] += 1
            first[table[0]] += 1
    pairs = [meetings[a][b] for a, b in itertools.combinations(range(n), 2)]
    return Figures(
        games=tuple(games),
        pair_min=min(pairs),
        pair_max=max(pairs),
        first_moves=tuple(first),
        seat_counts=tuple(tuple(row) for row in seat_counts),
        table_sizes=tuple(sorted(sizes)),
    )


# --- who plays this round ---------------------------------------------------------------


def _who_plays(
    owed: Sequence[int], absent: set[int], rests: Sequence[int], seats: int, rng: random.Random
) -> tuple[list[int], list[int]]:
    """The members seated this round and those resting (due but not seated).

    The rounds left are as many as the member owing most needs (one more if that member
    is away now). A member may rest in as many of them as they owe fewer games than
    that; this round's rests are that total spread over the rounds left, given to those
    who may rest most (then to those who rested least)."""
    due = [m for m in range(len(owed)) if owed[m] and m not in absent]
    rounds_left = max([owed[m] for m in due] + [owed[m] + 1 for m in absent if owed[m]])
    slack = {m: rounds_left - owed[m] for m in due}
    rest_now = math.ceil(sum(slack.values()) / rounds_left) if rounds_left else 0
    order = sorted(due, key=lambda m: (-slack[m], rests[m], rng.random()))
    resting = [m for m in order[:rest_now] if slack[m] > 0]
    playing = [m for m in due if m not in resting]
    # A round must seat its players: at least two, and an even number at tables of 2.
    # The member who may rest most rests, or (with a single player left) the one who
    # rested most comes back.
    while playing and (len(playing) < 2 or (seats == 2 and len(playing) % 2)):
        if len(playing) >= 2:
            out = max(playing, key=lambda m: (slack[m], -rests[m]))
            playing.remove(out)
            resting.append(out)
        elif resting:
            back = resting.pop()
            playing.append(back)
        else:
            return [], resting + playing
    return playing, resting


# --- pairs -----------------------------------------------------------------------------


def _meet(meetings: list[list[int]], table: Sequence[int], step: int) -> None:
    for a, b in itertools.combinations(table, 2):
        meetings[a][b] += step
        meetings[b][a] += step


def _seat_greedily(
    playing: list[int], seats: int, meetings: list[list[int]], rng: random.Random
) -> list[list[int]]:
    """Fills the round's tables one member at a time, each with whom they met least."""
    if not playing:
        return []
    sizes = table_sizes(len(playing), seats)
    pool = playing[:]
    rng.shuffle(pool)
    tables: list[list[int]] = [[] for _ in sizes]
    for member in pool:
        open_tables = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
        best = min(
            open_tables,
            key=lambda i: (
                sum(2 * meetings[member][other] + 1 for other in tables[i]),
                -(sizes[i] - len(tables[i])),
                rng.random(),
            ),
        )
        tables[best].append(member)
    return tables


def _pair_costs(meetings_each: float, most: int) -> list[float]:
    """The cost of a pair that met c times, for c = 0 … most + 1: the square of its
    distance from the mean, whose sum is least when the counts are as equal as possible.
    (A steeper cost for the counts furthest out made the search's landscape rougher and
    its plans no better.)"""
    return [(c - meetings_each) ** 2 for c in range(most + 2)]


def _swap_cost(
    meetings: list[list[int]],
    costs: list[float],
    a: int,
    table_a: list[int],
    b: int,
    table_b: list[int],
) -> float:
    """The change in the pairs' cost if a and b change tables (a and b themselves meet
    just as often: they are at different tables before and after)."""
    delta = 0.0
    row_a, row_b = meetings[a], meetings[b]
    for x in table_a:
        if x != a:
            ca, cb = row_a[x], row_b[x]
            delta += costs[ca - 1] - costs[ca] + costs[cb + 1] - costs[cb]
    for y in table_b:
        if y != b:
            ca, cb = row_a[y], row_b[y]
            delta += costs[cb - 1] - costs[cb] + costs[ca + 1] - costs[ca]
    return delta


def _improve(
    tables_by_round: list[list[list[int]]],
    meetings: list[list[int]],
    rng: random.Random,
    steps: int,
) -> None:
    """Simulated annealing on the pairs' cost, keeping the best plan seen.

    A step takes one member in one round (mostly a member of a pair that meets off the
    mean, in a round where their tables are the wrong way round for it), finds the best
    swap of that member with anyone at another table of the round, and makes it if it
    lowers the cost, or, with a chance that shrinks as the search cools, if it does not;
    so the search can leave a local minimum early on and settles at the end. It stops as
    soon as no pair is off the mean."""
    members = len(meetings)
    movable = [r for r, tables in enumerate(tables_by_round) if len(tables) > 1]
    if not movable:
        return
    pairs = list(itertools.combinations(range(members), 2))
    # The mean over every meeting: those planned now and, for the rest of a season
    # under way, those already played.
    mean = sum(meetings[a][b] for a, b in pairs) / len(pairs)
    low, high = math.floor(mean), math.ceil(mean)
    costs = _pair_costs(mean, max(max(row) for row in meetings) + len(tables_by_round))
    current = best = sum(costs[meetings[a][b]] for a, b in pairs)
    best_tables = [[t[:] for t in tables] for tables in tables_by_round]
    table_of = [{m: i for i, t in enumerate(tables) for m in t} for tables in tables_by_round]
    off: list[tuple[int, int]] = []
    for step in range(steps):
        if step % 32 == 0:
            off = [(a, b) for a, b in pairs if not low <= meetings[a][b] <= high]
            if not off:
                break
        r, x = _pick(off, meetings, high, table_of, movable, rng)
        tables, where = tables_by_round[r], table_of[r]
        table_x = tables[where[x]]
        delta, _, y = min(
            (_swap_cost(meetings, costs, x, table_x, y, tables[where[y]]), rng.random(), y)
            for y in where
            if where[y] != where[x]
        )
        temperature = 1.5 * (1 - step / steps) + 0.05
        if delta > -1e-9 and rng.random() >= math.exp(-max(delta, 0.3) / temperature):
            continue
        table_y = tables[where[y]]
        _meet(meetings, table_x, -1)
        _meet(meetings, table_y, -1)
        table_x[table_x.index(x)], table_y[table_y.index(y)] = y, x
        where[x], where[y] = where[y], where[x]
        _meet(meetings, table_x, +1)
        _meet(meetings, table_y, +1)
        current += delta
        if current < best - 1e-9:
            best = current
            best_tables = [[t[:] for t in tables] for tables in tables_by_round]
    tables_by_round[:] = best_tables


def _pick(
    off: list[tuple[int, int]],
    meetings: list[list[int]],
    high: int,
    table_of: list[dict[int, int]],
    movable: list[int],
    rng: random.Random,
) -> tuple[int, int]:
    """A round and a member to move in it: mostly one of a pair that meets off the mean,
    in a round where moving them would mend that pair; now and then anyone."""
    if off and rng.random() < 0.8:
        a, b = rng.choice(off)
        x, partner = (a, b) if rng.random() < 0.5 else (b, a)
        apart = meetings[a][b] > high
        rounds = [
            r
            for r in movable
            if x in table_of[r]
            and partner in table_of[r]
            and (table_of[r][x] == table_of[r][partner]) == apart
        ]
        if rounds:
            return rng.choice(rounds), x
    r = rng.choice(movable)
    return r, rng.choice(list(table_of[r]))


# --- seats -----------------------------------------------------------------------------


def _order_seats(
    tables_by_round: list[list[list[int]]], resting_by_round: list[list[int]], members: int
) -> list[Round]:
    """Each table's seat order, round by round: the order that adds least to the squares
    of how often its members sat in each position, seat 0 (the first turn) weighing
    most; tables of one size share positions, so counts are kept per size."""
    counts: dict[int, list[list[int]]] = {}
    first = [0] * members
    rounds = []
    for tables, resting in zip(tables_by_round, resting_by_round, strict=True):
        ordered = []
        for table in tables:
            size = len(table)
            seat = counts.setdefault(size, [[0] * size for _ in range(members)])

            def cost(order: tuple[int, ...], seat=seat) -> tuple[int, int, tuple[int, ...]]:
                return (
                    2 * first[order[0]] + 1,
                    sum(2 * seat[m][p] + 1 for p, m in enumerate(order)),
                    order,
                )

            best = min(itertools.permutations(sorted(table)), key=cost)
            for position, member in enumerate(best):
                seat[member][position] += 1
            first[best[0]] += 1
            ordered.append(best)
        rounds.append(Round(tuple(ordered), tuple(resting)))
    return _even_first_seats(rounds, first)


def _even_first_seats(rounds: list[Round], first: list[int]) -> list[Round]:
    """Round by round the first seats can drift apart (a member whose tables all come
    with members who sat first less). Afterwards: wherever a table's seat 0 sat first
    at least two times more than another member at that table, the two change seats;
    each change lowers the sum of squares of the first-seat counts, so this ends."""
    tables = [[list(t) for t in r.tables] for r in rounds]
    changed = True
    while changed:
        changed = False
        for round_tables in tables:
            for table in round_tables:
                lead = table[0]
                other = min(table, key=lambda m: (first[m], m))
                if first[lead] - first[other] >= 2:
                    position = table.index(other)
                    table[0], table[position] = other, lead
                    first[lead] -= 1
                    first[other] += 1
                    changed = True
    return [
        Round(tuple(tuple(t) for t in round_tables), r.resting)
        for round_tables, r in zip(tables, rounds, strict=True)
    ]
