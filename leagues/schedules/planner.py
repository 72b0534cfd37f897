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
- **Pairs**: every pair of members should share a table as equally often as the numbers
  allow. :func:`least_spread` is a lower bound on the spread (most minus fewest
  meetings over the pairs) that no plan of the numbers beats: 0 when the meetings
  divide evenly over the pairs, else 1, raised to 2 where a counting argument rules 1
  out (two tables a round; or too few meetings for every pair with more seats at a
  table than tables).
- **Guaranteed**: where the members and the table size are those of a resolvable
  design built in, or of one with a member more (every pair at one table in exactly
  one round; :func:`_resolvable`), and no one is away, the plan takes that design's
  rounds in turn, so the spread is the bound: 0 when the design's rounds divide the
  games, else 1. That is, at tables of 3, the 9, 15, 21, 27, 39, 45, 57, 63, 81, 117,
  135, 171 or 189 members of a Kirkman triple system built in, or one fewer; 9, 15 or
  16 at tables of 4 and 16, 24 or 25 at tables of 5 (the affine planes of order 3, 4
  and 5; 16 sit at four tables of 4 either way); and an even number at tables of 2
  (the round robin). Always: every member plays the games set, never twice in a
  round (above).
- **Searched otherwise**: a greedy start (each member to the table where they met
  fewest), then local search that changes who sits where within a round (which keeps
  every member's games and every table's size): an annealing on the squares of the
  meeting counts, then, where that leaves the spread above the least the numbers
  allow, a conflict-directed tabu search as used for the social golfer problem (or,
  for a few members at two tables, a round re-split in the best of every way there
  is), aiming at the narrowest band of counts around the mean and widening it a step
  at a time. That is a heuristic, and promises only what it measures: the spread it
  reached (:func:`figures`); ``bench/planner.py`` prints how close it gets to the
  bound over the sizes a league has, and how long it takes.
- **Seats**: each table's seat order is chosen, round by round, to even out how often
  each member sits in each position, seat 0 (the first turn) first.

Everything is deterministic for a given ``seed``: the work is counted in steps and
look-ups, never in time, so the same input gives the same plan on any machine.
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

# The local search's budget after the greedy start: rounds visited, and the work done
# in them counted in pair look-ups (a round of n members out of m costs n(n + m)),
# whichever runs out first. Counted, never timed, so a plan is the same on any machine;
# sized so that the largest plans a league has stay within a few seconds
# (bench/planner.py measures it).
SEARCH_STEPS = 200_000
# The annealing that starts the search (see _improve) makes at most this many steps.
ANNEAL_STEPS = 20_000
SEARCH_WORK = 12_000_000
# Each band the search aims at (see _improve) gets this share of the work (the narrowest,
# often out of reach, less), and the bands go this much wider than the narrowest.
NARROWEST_SHARE = 6
BAND_SHARE = 3
BANDS_WIDER = 2
# A round of two tables is chosen among every way to split it when there are at most
# this many.
REDRAW_MOST = 500
# A step tries the swaps of at most this many members in conflict, drawn at random.
CONFLICTED_TRIED = 6
# What a step costs in look-ups besides its look-ups (choosing, swapping, bookkeeping).
STEP_WORK = 300
# A member moved in a round may not be moved in it again for this many visits of the
# round (drawn between the two each time, so the search does not cycle).
TABU_LOW = 1
TABU_HIGH = 3
# Visits to every round without a new best before the search goes back to its best
# plan and shakes it with this many random swaps.
PATIENCE_VISITS = 30
SHAKE_SWAPS = 3


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
    rng = random.Random(seed)
    away = away or {}
    design = None if any(away.values()) else _resolvable(members, seats)
    if design is not None:
        tables_by_round = _from_design(design, members, games_each, rng)
        resting_by_round: list[list[int]] = [[] for _ in tables_by_round]
    else:
        tables_by_round, resting_by_round = _plan(
            [games_each] * members, seats, rng, away, None, search_steps
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


def least_spread(members: int, seats: int, games_each: int) -> int:
    """A lower bound on the pair spread of any plan of these numbers with no one away:
    no plan does better, and where the bound is 0 or 1 it may still be out of reach.

    - 0 when the meetings divide evenly over the pairs, else 1 (every plan seats the
      same tables, so it makes the same number of meetings).
    - 2 where 1 is ruled out at two tables a round (up to twice as many members as
      a table seats; everyone plays every round): a member's side, round by round, is
      a word of 0s and 1s, and two members meet in the rounds where their words agree.
      The meetings of any three members then add up to the number of rounds modulo 2,
      so if every pair meets k or k + 1 times, the pairs meeting k + 1 times are either
      all the pairs across a split of the members in two, or all the pairs within
      such a split; if neither has as many pairs as the total meetings leave over
      k per pair, no plan is within one.
    - 2 where the meetings are fewer than the pairs (so some pair never meets), there
      are at least two rounds and a table seats more than there are tables: any table
      of the second round holds two members who shared a table in the first.
    """
    check(members, seats, games_each)
    pairs = members * (members - 1) // 2
    if seats == 2 and members % 2:
        # Someone rests every round: each game is one meeting.
        return 1 if members * games_each // 2 % pairs else 0
    sizes = table_sizes(members, seats)
    rounds = games_each
    total = rounds * sum(s * (s - 1) // 2 for s in sizes)
    k, over = divmod(total, pairs)
    least = 1 if over else 0
    if len(sizes) == 2:
        splits = range(members // 2 + 1)
        if (rounds + k) % 2 == 0:
            fits = any(s * (members - s) == over for s in splits)
        else:
            fits = any(math.comb(s, 2) + math.comb(members - s, 2) == over for s in splits)
        if not fits:
            least = 2
    if k == 0 and over and rounds >= 2 and max(sizes) > len(sizes):
        least = 2
    return least


# --- known designs ----------------------------------------------------------------------

# GF(4) as 0, 1, x, x + 1 (the numbers 0 to 3 as bits): addition is exclusive or, and
# multiplication is modulo x^2 + x + 1.
_GF4_TIMES = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _resolvable(members: int, seats: int) -> list[list[list[int]]] | None:
    """A resolvable design (every pair at one table in exactly one round) whose rounds
    seat these members as :func:`table_sizes` does, if one is built in:

    - the affine plane of order q (q = 3, 4, 5): q^2 members at q tables of q, q + 1
      rounds, the lines of each slope one round;
    - Kirkman triple systems (:func:`_kirkman`): 15, 21, 27, 39, 45, 57, 63, 81,
      117, 135, 171 and 189 members at tables of 3, half as many rounds as the others
      a member meets;
    - the round robin (the circle method): an even number at tables of 2, one round
      fewer than the members.

    A design on one member more serves too: without its last member, the table they
    sat at is one seat short each round, and every other pair still meets once.
    """
    if seats == 2:
        return _round_robin(members) if members % 2 == 0 and members >= 4 else None
    wanted = table_sizes(members, seats)
    for points in (members, members + 1):
        design = _design(points, max(wanted))
        if design is None:
            continue
        rounds = [[[m for m in t if m < members] for t in tables] for tables in design]
        if all(sorted(map(len, tables), reverse=True) == wanted for tables in rounds):
            return rounds
    return None


def _design(points: int, size: int) -> list[list[list[int]]] | None:
    """The built-in resolvable design on ``points`` members at tables of ``size``."""
    if size in (3, 4, 5) and points == size * size:
        return _affine_plane(size)
    if size == 3:
        return _kirkman(points)
    return None


def _kirkman(points: int) -> list[list[list[int]]] | None:
    """A Kirkman triple system on ``points`` members, by the two constructions of
    Ray-Chaudhuri and Wilson (constructions 1.1 and 1.2 in Stinson's survey of Kirkman
    triple systems, 1991) over the integers modulo a prime q = 6t + 1 (7, 13 or 19),
    a a primitive root: on 2q + 1 members and on 3q members; and on three times the
    members of one of those (:func:`_tripled`). A member is a residue x and a copy c
    (the member x + q c), and a round is a base round with p added to every residue,
    for each p mod q (the member 2q of the first kind stays put)."""
    for q in (7, 13, 19):
        if points not in (2 * q + 1, 3 * q):
            continue
        t = (q - 1) // 6
        a = next(g for g in range(2, q) if len({pow(g, i, q) for i in range(q)}) == q - 1)

        def power(i: int, q: int = q, a: int = a) -> int:
            return pow(a, i, q)

        def turned(base: list[list[tuple[int, int]]], p: int, q: int = q) -> list[list[int]]:
            return [[(x + p) % q + q * c for x, c in triple] for triple in base]

        thirds = [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]
        if points == 2 * q + 1:
            m = next(i for i in range(q - 1) if 2 * power(i) % q == (power(t) + 1) % q)
            base = [[(power(i), 0), (power(t + i), 0), (power(m + i), 1)] for i in thirds]
            base += [[(power(m + t * k + i), 1) for k in (1, 3, 5)] for i in range(t)]
            return [[[p, p + q, 2 * q], *turned(base, p)] for p in range(q)]
        across = [[(power(i + 2 * t * c), c) for c in range(3)] for i in range(6 * t)]
        within = [[(power(i + 2 * t * k), c) for k in range(3)] for c in range(3) for i in range(t)]
        base = [[(0, 0), (0, 1), (0, 2)], *within]
        base += [across[i] for i in range(6 * t) if i not in thirds]
        rounds = [turned(base, p) for p in range(q)]
        # The rest of the triples across: each one turned is a round of its own.
        rounds += [[turned([across[i]], p)[0] for p in range(q)] for i in thirds]
        return rounds
    if points % 3 == 0 and (inner := _kirkman(points // 3)) is not None:
        return _tripled(inner, points // 3)
    return None


def _tripled(inner: list[list[list[int]]], m: int) -> list[list[list[int]]]:
    """A Kirkman triple system on 3m members from one on m (m odd): the members are
    three copies of the m, x + m c for copy c. First m rounds across the copies, the
    round b of triples x, x + b, x + 2b (each its own copy, modulo m): two members of
    different copies meet in exactly one of them, since 1 and 2 are invertible modulo
    an odd m. Then the m-member system's rounds, played by each copy at once."""
    across = [[[x, m + (x + b) % m, 2 * m + (x + 2 * b) % m] for x in range(m)] for b in range(m)]
    within = [
        [[m * c + x for x in table] for c in range(3) for table in tables] for tables in inner
    ]
    return across + within


def _affine_plane(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of AG(2, q), member x * q + y at the point (x, y):
    the lines y = m x + b, one class for each slope m, and the lines x = c."""
    if q == 4:
        add, times = (lambda a, b: a ^ b), (lambda a, b: _GF4_TIMES[a][b])
    else:
        add, times = (lambda a, b: (a + b) % q), (lambda a, b: a * b % q)
    rounds = [[[x * q + add(times(m, x), b) for x in range(q)] for b in range(q)] for m in range(q)]
    rounds.append([[c * q + y for y in range(q)] for c in range(q)])
    return rounds


def _round_robin(members: int) -> list[list[list[int]]]:
    """The circle method: the last member stays put, the others turn one place a
    round, and each sits with the one opposite."""
    turning = members - 1
    rounds = []
    for r in range(turning):
        ring = [(r + i) % turning for i in range(turning)]
        tables = [[ring[0], members - 1]]
        tables += [[ring[i], ring[turning - i]] for i in range(1, members // 2)]
        rounds.append(tables)
    return rounds


def _from_design(
    design: list[list[list[int]]], members: int, games_each: int, rng: random.Random
) -> list[list[list[int]]]:
    """``games_each`` rounds taken from the design's in turn (in an order drawn once,
    its members relabelled at random): after whole passes every pair met equally often,
    and the last part pass adds at most one meeting to a pair, so the spread is 0 when
    the design's rounds divide the games, else 1."""
    label = list(range(members))
    rng.shuffle(label)
    order = list(range(len(design)))
    rng.shuffle(order)
    return [
        [[label[m] for m in table] for table in design[order[r % len(design)]]]
        for r in range(games_each)
    ]


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


def _improve(
    tables_by_round: list[list[list[int]]],
    meetings: list[list[int]],
    rng: random.Random,
    steps: int,
) -> None:
    """Makes the pair meetings as even as it can, keeping the plan of least spread seen.

    First an annealing on the sum of the meeting counts' squares (:func:`_anneal`), which
    is quick and often reaches the least spread the numbers allow: 0 when the meetings
    divide evenly over the pairs, else 1. That is a bound, not always reachable (6
    members at two tables of 3 for 15 rounds cannot all meet equally often). If the
    annealing falls short, a tabu search (:func:`_search`, or :func:`_redraw` for a few
    members at two tables) aims at every pair meeting within that band around the
    mean; failing that, at a band one wider, on either side of the mean, and so on:
    each band a search of its own, on a share of the work, from the best
    plan so far, whose result is kept only if its spread is smaller."""
    members = len(meetings)
    movable = [r for r, tables in enumerate(tables_by_round) if len(tables) > 1]
    if not movable or steps <= 0:
        return
    pair_meetings = sum(len(t) * (len(t) - 1) // 2 for tables in tables_by_round for t in tables)
    pairs = members * (members - 1) // 2
    low = pair_meetings // pairs
    high = low if pair_meetings % pairs == 0 else low + 1
    bands = [(low, high)]
    for wider in range(1, BANDS_WIDER + 1):
        bands += [(low - below, high + wider - below) for below in range(wider + 1)]
    _anneal(tables_by_round, meetings, rng, min(steps, ANNEAL_STEPS))
    _recount(meetings, tables_by_round)
    best = _spread(meetings)
    best_tables = [[t[:] for t in tables] for tables in tables_by_round]
    work_left = SEARCH_WORK
    for index, band in enumerate(bands):
        if best <= band[1] - band[0] or band[0] < 0 or work_left <= 0:
            continue
        budget = min(SEARCH_WORK // (NARROWEST_SHARE if index == 0 else BAND_SHARE), work_left)
        search = _redraw if _few_partitions(tables_by_round) else _search
        reached, used = search(tables_by_round, meetings, rng, steps, band, budget)
        work_left -= used
        if reached < best:
            best = reached
            best_tables = [[t[:] for t in tables] for tables in tables_by_round]
        else:
            tables_by_round[:] = [[t[:] for t in tables] for tables in best_tables]
            _recount(meetings, tables_by_round)
        if best <= high - low:
            break
    tables_by_round[:] = best_tables
    _recount(meetings, tables_by_round)


def _few_partitions(tables_by_round: list[list[list[int]]]) -> bool:
    """Whether every round that can change seats its members at two tables, in few
    enough ways that a round can be chosen among all of them."""
    return all(
        len(tables) == 2
        and math.comb(len(tables[0]) + len(tables[1]), len(tables[0])) <= REDRAW_MOST
        for tables in tables_by_round
        if len(tables) > 1
    )


def _redraw(
    tables_by_round: list[list[list[int]]],
    meetings: list[list[int]],
    rng: random.Random,
    steps: int,
    band: tuple[int, int],
    work_limit: int,
) -> tuple[int, int]:
    """The search for small memberships at two tables a round, where one swap changes
    too much at once: a step takes a round out and puts it back split in the way that
    costs least (on the same cost as :func:`_search`), among every way there is; when a
    pass over the rounds changes nothing, one round is split at random. Keeps the best
    plan seen, and returns its spread and the work done."""
    low, high = band
    most = len(tables_by_round) + 2
    cost = [max(0, (c - low) * (c - high)) for c in range(most + 1)]
    more = [cost[c + 1] - cost[c] for c in range(most)]
    movable = [r for r, tables in enumerate(tables_by_round) if len(tables) > 1]
    current = _cost(meetings, cost)
    best = current
    best_tables = [[t[:] for t in tables] for tables in tables_by_round]
    work = 0
    step = 0
    stale = 0
    while current and step < steps and work < work_limit:
        step += 1
        r = movable[step % len(movable)]
        if step % len(movable) == 0:
            rng.shuffle(movable)
        tables = tables_by_round[r]
        for table in tables:
            _meet(meetings, table, -1)
        seated = sorted(tables[0] + tables[1])
        first, rest = seated[0], seated[1:]
        choices: list[tuple[int, float, list[int], list[int]]] = []
        for size in sorted({len(tables[0]), len(tables[1])}):
            for others in itertools.combinations(rest, size - 1):
                group = [first, *others]
                other = [m for m in rest if m not in others]
                gain = sum([more[meetings[a][b]] for a, b in itertools.combinations(group, 2)])
                gain += sum([more[meetings[a][b]] for a, b in itertools.combinations(other, 2)])
                choices.append((gain, rng.random(), group, other))
        work += STEP_WORK + len(choices) * len(seated) * len(seated) // 2
        before = sum(
            [more[meetings[a][b]] for t in tables for a, b in itertools.combinations(t, 2)]
        )
        if stale >= len(movable):
            gain, _, chosen, rest = rng.choice(choices)
            stale = 0
        else:
            gain, _, chosen, rest = min(choices)
        stale = stale + 1 if gain >= before else 0
        tables[:] = sorted([chosen, rest], key=len, reverse=True)
        for table in tables:
            _meet(meetings, table, +1)
        current = _cost(meetings, cost)
        if current < best:
            best = current
            best_tables = [[t[:] for t in tabs] for tabs in tables_by_round]
    tables_by_round[:] = best_tables
    _recount(meetings, tables_by_round)
    return _spread(meetings), work


def _spread(meetings: list[list[int]]) -> int:
    counts = [row[b] for a, row in enumerate(meetings) for b in range(a + 1, len(row))]
    return max(counts) - min(counts)


def _search(
    tables_by_round: list[list[list[int]]],
    meetings: list[list[int]],
    rng: random.Random,
    steps: int,
    band: tuple[int, int],
    work_limit: int,
) -> tuple[int, int]:
    """Tabu search on the pairs' cost, conflict-directed as in Dotú and Van Hentenryck's
    search for the social golfer problem, keeping the best plan seen.

    The cost of a pair that met c times outside the band from low to high is
    (c - low)(c - high), nothing inside it: growing with the square of how far off it
    is. For the narrowest band (the whole numbers either side of the mean) its sum
    differs from the sum of the counts' squares by a constant, so it is least exactly
    when the counts are as equal as they can be. It is nothing exactly when every pair
    meets within the band. The search leaves the best plan it found in place, and
    returns its spread.

    A step visits one round (each in turn, in a shuffled order) and makes the best swap
    of two members at different tables of it that moves a member in conflict (one who
    shares a table with someone met too often, or meets someone too seldom), even when
    it makes things worse; but not a swap of a member moved in that round recently (the
    tabu), unless it reaches a new best. When the best has not improved for a while, the
    search goes back to it and shakes it with a few random swaps. It stops at a cost of
    nothing, or when its steps, or its share of the work counted in pair look-ups, are
    spent: counted, never timed, so the same input gives the same plan anywhere."""
    members = len(meetings)
    movable = [r for r, tables in enumerate(tables_by_round) if len(tables) > 1]
    low, high = band
    most = len(tables_by_round) + 2
    cost = [max(0, (c - low) * (c - high)) for c in range(most + 1)]
    # The change in a pair's cost when it meets once more, and once less.
    more = [cost[c + 1] - cost[c] for c in range(most)]
    less = [0] + [cost[c - 1] - cost[c] for c in range(1, most + 1)]
    current = _cost(meetings, cost)
    best = current
    best_tables = [[t[:] for t in tables] for tables in tables_by_round]
    table_of = _tables_of(tables_by_round, members)
    tabu_until = [[0] * members for _ in tables_by_round]
    visits = [0] * len(tables_by_round)
    since_best = 0
    patience = PATIENCE_VISITS * len(movable)
    work = 0
    order: list[int] = []
    step = 0
    while current and step < steps and work < work_limit:
        step += 1
        if not order:
            order = movable[:]
            rng.shuffle(order)
        r = order.pop()
        tables, where = tables_by_round[r], table_of[r]
        seated = [m for t in tables for m in t]
        # A member is in conflict who sits with someone met too often, or meets
        # someone too seldom (below the band: then wherever they sit). The members
        # themselves count as met never, hence one more below the band.
        conflicted = [
            y
            for y in seated
            if sum([meetings[y].count(c) for c in range(low)]) > 1
            or any(meetings[y][z] > high for z in tables[where[y]])
        ]
        if not conflicted:
            work += STEP_WORK + len(seated) * 2
            continue
        if len(conflicted) > CONFLICTED_TRIED:
            # In a large round, the moves of a few of them: more, cheaper steps.
            conflicted = rng.sample(conflicted, CONFLICTED_TRIED)
        # Each member's change in cost on leaving their table, and on joining each table
        # a member in conflict sits at (for the members in conflict: every table).
        size = len(tables[0])
        leaves = [0] * members
        for y in seated:
            row = meetings[y]
            leaves[y] = sum([less[row[z]] for z in tables[where[y]] if z != y])
        joins_of = {x: [sum([more[meetings[x][z]] for z in t]) for t in tables] for x in conflicted}
        joins_at = {
            t: {y: sum([more[meetings[y][z]] for z in tables[t]]) for y in seated}
            for t in {where[x] for x in conflicted}
        }
        work += STEP_WORK + len(seated) * (2 + size + len(conflicted) + size * len(joins_at))
        visits[r] += 1
        visit = visits[r]
        tabu = tabu_until[r]
        chosen: tuple[int, float, int, int] | None = None
        for x in conflicted:
            row_x, join_x, leave_x, tx = meetings[x], joins_of[x], leaves[x], where[x]
            join_tx = joins_at[tx]
            x_free = tabu[x] <= visit
            for y in seated:
                ty = where[y]
                if ty == tx:
                    continue
                delta = leave_x + leaves[y] + join_x[ty] + join_tx[y] - 2 * more[row_x[y]]
                if not (x_free and tabu[y] <= visit) and current + delta >= best:
                    continue
                if chosen is None or delta <= chosen[0]:
                    tie = rng.random()
                    if chosen is None or (delta, tie) < chosen[:2]:
                        chosen = (delta, tie, x, y)
        if chosen is None:
            continue
        delta, _, x, y = chosen
        _swap(tables, where, meetings, x, y)
        tabu[x] = visit + rng.randint(TABU_LOW, TABU_HIGH)
        tabu[y] = visit + rng.randint(TABU_LOW, TABU_HIGH)
        current += delta
        if current < best:
            best, since_best = current, 0
            best_tables = [[t[:] for t in tabs] for tabs in tables_by_round]
            continue
        since_best += 1
        if since_best >= patience:
            # Back to the best plan, shaken.
            since_best = 0
            tables_by_round[:] = [[t[:] for t in tabs] for tabs in best_tables]
            table_of = _tables_of(tables_by_round, members)
            _recount(meetings, tables_by_round)
            for _ in range(SHAKE_SWAPS):
                rr = rng.choice(movable)
                tabs = tables_by_round[rr]
                i, j = rng.sample(range(len(tabs)), 2)
                _swap(tabs, table_of[rr], meetings, rng.choice(tabs[i]), rng.choice(tabs[j]))
            current = _cost(meetings, cost)
    tables_by_round[:] = best_tables
    _recount(meetings, tables_by_round)
    return _spread(meetings), work


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


def _anneal(
    tables_by_round: list[list[list[int]]],
    meetings: list[list[int]],
    rng: random.Random,
    steps: int,
) -> None:
    """Simulated annealing on the pairs' squares, keeping the best plan seen.

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


def _cost(meetings: list[list[int]], cost: list[int]) -> int:
    return sum(cost[meetings[a][b]] for a, b in itertools.combinations(range(len(meetings)), 2))


def _tables_of(tables_by_round: list[list[list[int]]], members: int) -> list[list[int]]:
    """Per round, each member's table (-1 when resting)."""
    table_of = [[-1] * members for _ in tables_by_round]
    for r, tables in enumerate(tables_by_round):
        for i, table in enumerate(tables):
            for m in table:
                table_of[r][m] = i
    return table_of


def _recount(meetings: list[list[int]], tables_by_round: list[list[list[int]]]) -> None:
    for row in meetings:
        row[:] = [0] * len(row)
    for tables in tables_by_round:
        for table in tables:
            _meet(meetings, table, +1)


def _swap(
    tables: list[list[int]], where: list[int], meetings: list[list[int]], x: int, y: int
) -> None:
    """Swaps x and y (at different tables of one round), and their meetings."""
    table_x, table_y = tables[where[x]], tables[where[y]]
    _meet(meetings, table_x, -1)
    _meet(meetings, table_y, -1)
    table_x[table_x.index(x)], table_y[table_y.index(y)] = y, x
    where[x], where[y] = where[y], where[x]
    _meet(meetings, table_x, +1)
    _meet(meetings, table_y, +1)


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
    each change lowers the sum of squares of the first-seat counts, so this ends. Then
    the same between members at different tables, along chains of tables
    (:func:`_first_seat_chain`)."""
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
    while (chain := _first_seat_chain(tables, first)) is not None:
        giver, taker, path = chain
        for table, member in path:
            position = table.index(member)
            table[0], table[position] = member, table[0]
        first[giver] -= 1
        first[taker] += 1
    return [
        Round(tuple(tuple(t) for t in round_tables), r.resting)
        for round_tables, r in zip(tables, rounds, strict=True)
    ]


def _first_seat_chain(
    tables: list[list[list[int]]], first: list[int]
) -> tuple[int, int, list[tuple[list[int], int]]] | None:
    """Members two or more first seats apart who never share a table: a chain from
    the one who sat first more to the other, each step a table where one member of the
    chain sits first and the next sits too. Moving each next member to seat 0 gives
    the first a first seat less and the last one more, and everyone between gives one
    and takes one; so the sum of squares of the counts goes down, and the chains end.
    Returns the giver, the taker and the steps (table, member to seat first), or
    None when there is no such chain."""
    leads: dict[int, list[list[int]]] = {}
    for round_tables in tables:
        for table in round_tables:
            leads.setdefault(table[0], []).append(table)
    fewest = min(first)
    for giver in sorted(leads, key=lambda m: (-first[m], m)):
        if first[giver] - fewest < 2:
            return None
        came: dict[int, tuple[list[int], int] | None] = {giver: None}
        queue = [giver]
        for member in queue:
            if first[member] <= first[giver] - 2:
                path = []
                step = came[member]
                taker = member
                while step is not None:
                    path.append((step[0], member))
                    member = step[1]
                    step = came[member]
                return giver, taker, path
            for table in leads.get(member, ()):
                for other in table[1:]:
                    if other not in came:
                        came[other] = (table, member)
                        queue.append(other)
    return None
