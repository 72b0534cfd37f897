"""``solve``: the best meld for a position (R5), as a whole new table the engine accepts.

Best means: the lowest count left in the hand (R7.1); among those, the fewest table cards
moved (``moved.moved_cards`` defines it: cards that leave their meld, old and new melds
matched one to one by the most cards they share). ``Solution.proven`` says whether the
count is proven optimal (or "no meld" proven); it is False only when the time limit cut
the exact search short, in which case the best arrangement found so far is returned.
``Solution.moved_proven`` says whether no arrangement with that count moves fewer table
cards. The tie-break is first a quick greedy search (``arrange``: an upper bound, proven
only when it moves none), then, given ``tie_break`` seconds (``TIE_BREAK``, 5 ms by
default; within the time limit), an exact one: from ``PROGRAM_FROM`` (hints, the proof)
the integer program (``program``, HiGHS), which proves the fewest on nearly
every table in that time; otherwise, or where it is cut short, the greedy search again
with more states (``_wider``, from a few hundredths of a second) and the exact search
(``fewest``). When one finishes, the answer moves the fewest table cards possible and
``moved_proven`` is True; when cut, the fewest found so far is returned, not proven.

The count: the search and the integer program, racing. What was chosen and why. Most
positions play every card that could fit, and a depth-first search aimed at that bound
finds it in a few hundred states, proven at once (``QUICK``). When it does not, the
bound is weak, and the search must exhaust its states to prove the optimum: its time
then ranges from milliseconds to most of a second. The integer program
(``program.most_points``, HiGHS) proves good bounds quickly but may take as long to
find the meld that meets them, and it has a set-up cost that the quick search beats
wherever it succeeds. Their slow positions are rarely the same. So on any table not
empty, and on an empty one with a big hand (``_program_first``), the quick search gets
fewer states (``QUICK_FIRST``), then the program runs and the search takes turns at its
interrupt points (``_Race``: ``TURN`` states, a third to a half of the program's time,
and more each turn as a race goes on), aimed at the most the program has proven
possible; each better meld the search finds is offered to the program
(``_Race.offered``: HiGHS takes it as its best so far, drops what cannot beat it and
looks near it for better, where its own melds may stay poor for long). Whichever
settles the count stops the other: the search meeting the program's bound, or proving
that nothing plays more, or the program proving its own answer, which is replayed as
the search's result and checked by the engine (when its melds do not replay, the
search goes on, asking first for those points). Tried and dropped: the program alone
with a slice of the time and the search after it (the search then climbs from a weak
answer and proves the last step by exhausting its states: the old tail), a second
program with the plain program's columns after a slice of the first (HiGHS's path
differs there, but it was no better and more code), and the search's melds offered
only once the program has its own or its root is solved (each moved the slow
positions around, none did better); figures in
docs/benchmarks.md. Whichever proves the count, the default tie-break then gets less
when the program was needed (``PROGRAM_ARRANGE``): those are the slow solves, and the
few cards more they sometimes move cost less than their time.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rummy.engine import DEFAULT_SETTINGS, Action, GameState, Settings, apply_action
from rummy.engine import position as engine_position
from rummy.engine.bots import plan_table
from rummy.engine.cards import (
    BY_PCODE,
    JOKER,
    JOKER_PCODE,
    POINTS,
    REAL_CARDS,
    Card,
    format_cards,
    hand_points,
)
from rummy.engine.errors import RuleError

from . import clock, program, search
from .arrange import TOTAL_BUDGET, TRY_BUDGET, Arranged, arrange, counts_without, played
from .build import build_table
from .fewest import Fewest
from .moved import moved_cards
from .position import Position

#: the CPU seconds a solve may take (a player waits at most a second, with room to spare)
TIME_LIMIT = 0.8
#: the wall-clock guard, as a multiple of the time limit: only a machine so busy that the
#: solve gets less than a tenth of a core reaches it before the CPU limit (what the
#: shared machine gave a solve under heavy load: docs/benchmarks.md)
WALL_LIMIT = 10.0
#: states the first, unbounded try at the upper bound may visit (most positions need few)
QUICK = 2000
#: ... when the integer program comes next (``_program_first``): a try that has not
#: found it by then is mostly one the bound is too weak for, and the states past this
#: cost more than the program saves on the few they find
QUICK_FIRST = 400
#: seconds the exact tie-break (``fewest``) may take at most, within the time limit: past
#: it the fewest moved found so far is returned, not proven. Honoured to within about a
#: millisecond (its set-up and its search check the deadline); the default keeps full
#: tables under the speed target even on a machine under load, where twice as much did
#: not always (docs/benchmarks.md); a caller that wants the fewest moved proven more
#: often passes more (hints, the proof)
TIE_BREAK = 0.005
#: a tie-break of at least this many seconds is first given to the integer program
#: (``program``: HiGHS proves most full tables within a hint's time, but its set-up
#: alone costs about the default's whole tie-break, so the default keeps to the
#: searches); hints and the proof qualify
PROGRAM_FROM = 0.05
#: the hand from which a count the search did not find at once goes to the program
#: first on an empty table too (``_program_first``)
EMPTY_TABLE_HAND = 15
#: while the integer program settles a count the search did not find at once, the
#: search's first turn at its interrupt points (``_Race``): the states it may visit,
#: a few milliseconds' worth, a third to a half of what the program does between two;
#: counted in states, not time, so that the race, and the answer, are the same on any
#: machine
TURN = 500
#: each turn after the first is longer by ``TURN // TURN_GROWTH`` states: a race that
#: goes on is mostly one where HiGHS is stuck at its root (with the search's meld in
#: hand it may spend long on cuts), and there the search settles it sooner given more
TURN_GROWTH = 16
#: a default tie-break (shorter than ``SHORT``) after the program settled the count: the
#: greedy search with these budgets (``arrange``: states a try, states in all), and no
#: exact search; the count has taken its time already, and these are the solves of the
#: slow tail
PROGRAM_ARRANGE = (150, 250)
#: a tie-break shorter than ``SHORT`` (the default's) runs the exact search only on
#: tables of fewer cards than ``SHORT_SEARCH_BELOW``: on bigger ones its set-up alone
#: (the four suit relaxations) takes about the default's whole tie-break, and on
#: positions from real play it almost never moved fewer cards there, for a noticeable
#: cost a solve (docs/benchmarks.md)
SHORT = 0.01
SHORT_SEARCH_BELOW = 50
#: the wider pass of the heuristic (``_wider``): states a try may visit per second of
#: tie-break (at most ``WIDE_TRY``), and as many tries' worth in all as ``WIDE_TRIES``
WIDE_STATES_PER_SECOND = 10_000
WIDE_TRY = 5_000
WIDE_TRIES = 20
#: states each of ``_playable``'s count searches may visit
PLAYABLE = 200


@dataclass(frozen=True)
class Solution:
    """The solver's answer for one position.

    ``found``: a meld exists (R5.2 a: at least one hand card can be added). Then
    ``table`` is the whole table after the meld, ``played`` the hand cards it adds,
    ``hand_left`` what stays in the hand and ``count`` its points (R7.1). Without a meld
    ``table`` is the table as it was and ``count`` the hand's points.
    ``knock``: the meld leaves a hand that may knock (R6.1: not empty, at most the knock
    limit; whether the turn allows a knock at all is the engine's ``can_knock_after``).
    ``goes_out``: the meld plays the last card (R6.2). ``proven``: optimal (or "no meld")
    is proven; False when the time limit stopped the exact search. ``moved``: table cards
    the meld moves; ``moved_proven``: no arrangement with this count moves fewer.
    """

    found: bool
    table: tuple[tuple[Card, ...], ...]
    played: tuple[Card, ...]
    hand_left: tuple[Card, ...]
    count: int
    moved: int
    knock: bool
    goes_out: bool
    proven: bool
    seconds: float = 0.0
    states: int = 0
    moved_proven: bool = False

    def action(self, knock: bool | None = None) -> dict[str, Any]:
        """The engine action that plays this meld (``knock`` defaults to ``self.knock``)."""
        if not self.found:
            raise ValueError("There is no meld to play.")
        return {
            "do": Action.MELD,
            "table": [format_cards(m) for m in self.table],
            "knock": self.knock if knock is None else knock,
        }

    def describe(self) -> str:
        if not self.found:
            return "no meld"
        return (
            f"play {format_cards(self.played)}, leave {self.count}"
            f" ({'proven' if self.proven else 'not proven'}, {self.moved} moved)"
        )


def _counts(pos: Position, keep: Iterable[Card]) -> search.Counts:
    table_real = [c.pcode for m in pos.table for c in m if not c.joker]
    table_jok = [c.ecode for m in pos.table for c in m if c.joker]
    keep_count = Counter(c.pcode for c in keep)
    hand = Counter(c.pcode for c in pos.hand) - keep_count
    hand_real = [t for t in hand.elements() if t != JOKER_PCODE]
    return search.counts_of([table_real], hand_real, table_jok, hand[JOKER_PCODE])


def solve(
    position: Position,
    settings: Settings = DEFAULT_SETTINGS,
    *,
    time_limit: float = TIME_LIMIT,
    deadline: float | None = None,
    keep: Sequence[Card] = (),
    tie_break: float = TIE_BREAK,
    wall_limit: float | None = None,
) -> Solution:
    """The best meld for ``position`` (see the module docstring).

    Times are the solving thread's CPU seconds (``clock``), so that a busy machine does
    not change the answer: ``time_limit`` from now, or ``deadline`` (a ``clock.now()``
    instant), the earlier wins. ``wall_limit``: the wall-clock seconds after which the
    solve stops whatever its CPU time (a last guard; ``WALL_LIMIT`` times the time limit
    by default). ``keep``: hand cards the meld must not play (e.g. a bot's policy of
    keeping its joker). ``tie_break``: the seconds (within the time limit) the exact
    tie-break may take. Raises ``SolverError`` for an impossible position (or a ``keep``
    card not in the hand).
    """
    if wall_limit is None:
        wall_limit = WALL_LIMIT * time_limit
    with clock.ceiling(wall_limit):
        return _solve(position, settings, time_limit, deadline, keep, tie_break)


def _solve(
    position: Position,
    settings: Settings,
    time_limit: float,
    deadline: float | None,
    keep: Sequence[Card],
    tie_break: float,
) -> Solution:
    start = clock.cpu()
    position.check()
    position.check_keep(keep)
    stop = start + time_limit
    if deadline is not None:
        stop = min(stop, deadline)
    counts = _counts(position, keep)
    narrow = search.placeable(counts)
    top = search.upper_bound(narrow)
    best: search.Result | None = None
    proven = True
    states = 0
    programmed = False
    counted: program.Counted | None = None  # the program's answer, when it ran
    try:
        # Aim at the upper bound first: a search that must reach ``need`` drops every
        # state that cannot, so this is quick, and when it succeeds it is proven.
        dfs = search.DepthFirst(narrow, deadline=stop)
        first = top > 0 and _program_first(position) and program.ready()
        try:
            # most positions play every card that could fit: found at once, proven
            found = dfs.find(max(1, top), budget=QUICK_FIRST if first else QUICK)
        except search.Budget:
            found = None
        known, settled, most = 0, False, None
        if found is None and first:
            # Not at once: the search's bound is weak here (the cards that could fit do
            # not all fit). The integer program and the search then race, taking turns
            # in this thread (``_Race``): each has a tail where the other has none.
            race = _Race(dfs, position)
            counted = program.most_points(position, keep, stop, race, race.offered)
            programmed = True
            most = _least(race.most, None if counted is None else counted.most)
            if counted is not None and counted.points:
                known = counted.points
                settled = counted.proven or (most is not None and known >= most)
            if race.best is not None and race.best.value >= known:
                found, settled = race.best, False  # the climb below goes on from it
            elif settled and counted is not None:
                best = _from_program(position, settings, counted)
        if found is None and best is None:
            # Bound every state by the suits' relaxations, take the first arrangement
            # the search meets (it plays the most cards it can first), then ask for one
            # point more until none exists; only that last search must exhaust the
            # states, and the bounds its predecessors proved are kept. Points the
            # program found are asked for first: what it proved the most needs no
            # further search (its melds did not replay as a table, the search's do).
            dfs.use_futures()
            found = dfs.find(max(1, known))
            if found is None and known > 1:
                settled = False  # not reached after all: the search alone decides
                found = dfs.find(1)
            if settled and found is not None and found.value == known:
                best, found = found, None
        while found is not None:
            best = found
            if most is not None and best.value >= most:
                break  # the program's bound: the last search, which must exhaust, is not needed
            found = dfs.find(best.value + 1)
        states = dfs.visited
    except search.Timeout:
        proven = False
        states = dfs.visited
        if best is None and counted is not None and counted.points:
            best = _from_program(position, settings, counted)  # the program's best so far
        if best is None:
            return _fallback(position, settings, clock.cpu() - start, states, keep)
    laid = None
    if best is not None:
        # the tie-break: few table cards moved, with what time is left
        short = tie_break < SHORT
        budgets = PROGRAM_ARRANGE if short and programmed else (TRY_BUDGET, TOTAL_BUDGET)
        laid = arrange(position.table, narrow, best, stop, budgets)
        if proven and not laid.proven and tie_break > 0:
            end = min(stop, clock.now() + tie_break)
            if tie_break >= PROGRAM_FROM and program.ready():
                laid = _program(position, settings, keep, best.value, laid, end)
            if not laid.proven:
                laid = _wider(position, narrow, best, laid, tie_break, end)
            hopeless = short and (programmed or position.table_cards >= SHORT_SEARCH_BELOW)
            if not laid.proven and not hopeless:
                laid = _fewest(position, settings, narrow, best.value, laid, end)
    return _solution(position, settings, narrow, laid, proven, clock.cpu() - start, states)


class _Race:
    """The count search's turns while the integer program runs, given at the program's
    interrupt points (``program.most_points``'s ``enough``). Each turn the search may
    visit ``TURN`` states, a little more each turn (``TURN_GROWTH``): aimed at the most
    the program has proven possible (or, while it has no bound, climbing from the most
    points either has found), asking for one point less each time it proves that many
    cannot be played. Its bounds are kept between turns (``DepthFirst``), so that a
    turn goes on about where the last stopped. The program stops when one of them has
    settled the count: the search meets the program's bound or proves that no more than
    what was found can be played, or the program proves its own answer.

    Why race: where the search's bound is weak, its time ranges from milliseconds to
    most of a second, and so does the program's, but rarely on the same positions (the
    program proves bounds well and may take long to find the meld that meets them; the
    search, asked for the points the program proved possible, often finds that meld at
    once). The search's first turns take a third to a half of the program's time, so a
    short race takes up to one and a half times what the program alone would, or three
    to four times what the search would. The search's best meld is offered to the
    program (``offered``): where HiGHS's own melds stay poor for long, that saves it
    most of its time; on a few tables it takes HiGHS down a longer path (with a meld in
    hand, its root does without some of its own heuristics), which the search's
    growing turns then cut short."""

    def __init__(self, dfs: search.DepthFirst, pos: Position) -> None:
        self.dfs = dfs
        self.pos = pos
        self.best: search.Result | None = None  # the search's best arrangement
        self.most: int | None = None  # proven by the search: nothing plays more
        self.given: search.Result | None = None  # the best the program was offered
        self.turns = 0  # turns taken

    def offered(self) -> list[list[Card]] | None:
        """The search's best meld as a table, once each time it improves (offered to
        the program: ``program.most_points``)."""
        best = self.best
        if best is None or best is self.given:
            return None
        self.given = best
        return _table_of(self.pos, best)

    def __call__(self, found: int | None, most: int | None) -> bool:
        turn = self.turns
        self.turns += 1
        if found is not None and most is not None and found >= most:
            return True  # the program's own answer is proven
        dfs = self.dfs
        low = max(found or 0, self.best.value if self.best is not None else 0)
        most = _least(most, self.most)
        try:
            dfs.use_futures()  # once
            left = TURN + TURN * turn // TURN_GROWTH
            while most is None or low < most:
                # aimed at the program's bound, the search drops every state that
                # cannot reach it; without one, it climbs from what was found
                need = low + 1 if most is None else most
                before = dfs.visited
                got = dfs.find(need, budget=left)
                left -= dfs.visited - before
                if got is None:
                    most = self.most = need - 1  # nothing plays that much
                else:
                    self.best, low = got, got.value
            return True
        except search.Budget:
            return False  # its turn is over
        except search.Timeout:
            return False  # past the solve's deadline: the program stops at its own check


def _table_of(pos: Position, result: search.Result) -> list[list[Card]]:
    """The whole table after ``result``'s meld (as ``arrange`` writes it first)."""
    return build_table(counts_without(pos.table, set(), *played(result)), result)


def _least(a: int | None, b: int | None) -> int | None:
    """The tighter of two bounds on the most points (None: no bound)."""
    return b if a is None else a if b is None else min(a, b)


def _program_first(pos: Position) -> bool:
    """Whether a count the search did not find at once goes to the program first: on
    every table not empty, and on an empty one with a hand of ``EMPTY_TABLE_HAND``
    cards or more. With a smaller hand on an empty table the search has few states and
    finishes in a few milliseconds even so, sooner than the program is set up and
    solved; otherwise its exhaustive last step has a tail that the program's lacks."""
    return pos.table_cards > 0 or len(pos.hand) >= EMPTY_TABLE_HAND


def _from_program(
    pos: Position, settings: Settings, counted: program.Counted
) -> search.Result | None:
    """The program's melds as the count search's result for the same cards: each
    layer's choice (hand copies played, table jokers freed, wildcards, copies into
    groups, aces kept for a run's high end), so that ``build`` and the tie-break can use
    it; None unless the table ``build`` writes from it is one the engine accepts,
    playing the program's points."""
    hand = [t for t in range(52) for _ in range(counted.played[t])]
    counts = counts_without(pos.table, set(), hand, counted.jokers)
    grouped = [0] * 52
    high = [0] * 4
    for tpl, copies in counted.melds:
        if len({t % 13 for t in tpl}) == 1:
            for t in tpl:
                grouped[t] += copies
        elif tpl[-1] % 13 == 0:
            high[tpl[0] // 13] += copies  # a run ending at the high ace (R4.3)
    choices = {}
    wild_used = freed_all = 0
    for p, s in search.LAYERS:
        if p == 14:
            choices[(p, s)] = search.Choice(0, 0, 0, 0, 0)
            continue
        t = search._pcode(p, s)
        used = counts.hand[t]
        freed = min(counts.jokers[t], counts.table[t] + used)
        wild = counted.declared[t] - (counts.jokers[t] - freed)
        if wild < 0:
            return None
        choices[(p, s)] = search.Choice(used, high[s] if p == 1 else 0, wild, grouped[t], freed)
        wild_used += wild
        freed_all += freed
    result = search.Result(counted.points, choices, wild_used, freed_all, 0)
    try:
        table = build_table(counts, result)
    except (IndexError, KeyError, ValueError, AssertionError):
        return None
    if not _same_cards(pos, settings, table, counted.points):
        return None
    return result


def _program(
    pos: Position,
    settings: Settings,
    keep: Sequence[Card],
    points: int,
    laid: Arranged,
    end: float,
) -> Arranged:
    """The tie-break as an integer program (``program``), when the heuristic's ``laid``
    is not proven: its table is checked by the engine and counted by ``moved_cards``
    before it replaces ``laid``; proven when HiGHS proved it within ``end``."""
    found = program.fewest_moved(
        pos, points, lambda table: _moved(pos, settings, table, points), keep, end
    )
    # ``laid`` is not proven: keep it unless the program moves fewer, or as few, proven
    if found is None or (found.moved, not found.proven) >= (laid.moved, True):
        return laid
    return Arranged(found.table, laid.result, laid.counts, found.moved, found.proven)


def _wider(
    pos: Position,
    counts: search.Counts,
    best: search.Result,
    laid: Arranged,
    tie_break: float,
    end: float,
) -> Arranged:
    """The heuristic (``arrange``) again, each of its tries allowed more states, when the
    tie-break has the time (up to half of it): on big tables its quick pass often gives
    up on freezing a meld that a few thousand states would have kept (it closes some of
    the proof's gaps: docs/benchmarks.md); then with the smallest melds frozen first.
    The best table goes on to the exact search, which then also starts from it."""
    per_try = min(WIDE_TRY, int(tie_break * WIDE_STATES_PER_SECOND))
    if per_try <= TRY_BUDGET:
        return laid  # no wider than the quick pass
    half = min(end, clock.now() + tie_break / 2)
    budgets = (per_try, per_try * WIDE_TRIES)
    wide = arrange(pos.table, counts, best, half, budgets)
    if wide.moved and clock.now() < half:
        # and once more freezing the smallest melds first: the greedy order of freezing
        # is what stands in the way most often (the proof's figures: docs/benchmarks.md)
        other = arrange(pos.table, counts, best, half, budgets, smallest_first=True)
        if other.moved < wide.moved:
            wide = other
    return wide if wide.moved < laid.moved else laid


def _fewest(
    pos: Position,
    settings: Settings,
    counts: search.Counts,
    points: int,
    laid: Arranged,
    stop: float,
) -> Arranged:
    """The exact tie-break (``fewest``) after the heuristic's ``laid``: ask for ``points``
    moving no card, then for fewer than the fewest found so far, until refused (then
    that is proven the fewest: ``fewest`` refuses only when no table moves so few).
    Past ``stop`` the best table so far is returned, not proven."""
    try:
        hand = _playable(counts, points, stop)
        fw = Fewest(pos.table, hand, counts.hand_jokers, points, deadline=stop, counts=counts)
        fw.start_from(laid.table)
    except ValueError:
        return laid
    except search.Timeout:
        return laid
    # k = 0 first (often the answer when the heuristic moved some), then downwards from
    # the fewest found: each table found moves fewer, and the first k refused proves it.
    # ``fw`` charges a meld it breaks up one card less than its size (a bound: it may
    # keep one card); when its table keeps none there, ``honest`` (charging the whole
    # meld, so that every table it writes moves at most what it was asked) is asked.
    honest: Fewest | None = None
    best = laid
    low = 0  # every k below is refused
    k = 0
    try:
        while low <= k < best.moved:
            table = fw.find(k)
            if table is None:
                low = k + 1
                if low < best.moved and k > 0:
                    break  # refused here, but no table moving k + 1 was written
                k = best.moved - 1
                continue
            moved = _moved(pos, settings, table, points)
            if moved is None or moved > k:
                # a core it charged one card kept none, or a run it wrote is too long
                if honest is None:
                    honest = Fewest(
                        pos.table, hand, counts.hand_jokers, points, stop, counts, single=False
                    )
                table = honest.find(k)
                moved = None if table is None else _moved(pos, settings, table, points)
                if table is None or moved is None or moved >= best.moved:
                    k -= 1  # no table moving k written: ask for fewer
                    continue
            best = Arranged(table, laid.result, laid.counts, moved, False)
            k = moved - 1
    except search.Timeout:
        return best
    if low < best.moved:
        return best
    return Arranged(best.table, best.result, best.counts, best.moved, True)


def _playable(counts: search.Counts, points: int, stop: float) -> list[int]:
    """The hand's cards that some arrangement playing ``points`` (the optimum) plays: a
    card worth more than the hand's spare points (placeable points less ``points``) is
    in every one; any other is asked of the count search with one copy (then two) put
    on the table, needing its points less (a search that needs more than ``PLAYABLE``
    states leaves the card in). The tie-break then tries only these."""
    hand = list(counts.hand)
    spare = search.upper_bound(counts) - points
    for t in range(52):
        if not hand[t] or POINTS[t] > spare:
            continue
        most = 0
        if clock.now() > stop:
            # each search below visits too few states to look at the clock itself
            raise search.Timeout
        for c in range(1, hand[t] + 1):
            table = list(counts.table)
            table[t] += c
            rest = list(counts.hand)
            rest[t] -= c
            forced = search.Counts(
                table=tuple(table),
                hand=tuple(rest),
                jokers=counts.jokers,
                hand_jokers=counts.hand_jokers,
                wild_max=counts.wild_max,
                extra_real=counts.extra_real,
            )
            dfs = search.DepthFirst(search.placeable(forced), deadline=stop)
            try:
                found = dfs.find(points - c * POINTS[t], budget=PLAYABLE)
            except search.Budget:
                most = hand[t]  # not settled quickly: the card stays a choice
                break
            if found is None:
                break
            most = c
        hand[t] = most
    return hand


def _moved(
    pos: Position, settings: Settings, table: Sequence[Sequence[Card]], points: int
) -> int | None:
    """The table cards ``table`` moves, or None unless ``_same_cards``."""
    if not _same_cards(pos, settings, table, points):
        return None
    return moved_cards(pos.table, table)


def _same_cards(
    pos: Position, settings: Settings, table: Sequence[Sequence[Card]], points: int
) -> bool:
    """The engine accepts ``table`` as a meld (R5.2), and it plays hand cards worth
    ``points``."""
    state = position_state(pos.table, pos.hand, settings)
    action = {"do": Action.MELD, "table": [format_cards(m) for m in table], "knock": False}
    try:
        apply_action(state, 0, action)
    except RuleError:
        return False
    before = Counter(c.pcode for m in pos.table for c in m)
    after = Counter(c.pcode for m in table for c in m)
    if before - after:
        return False
    played = after - before
    if played - Counter(c.pcode for c in pos.hand):
        return False
    return sum(POINTS[t] * n for t, n in played.items()) == points


def _fallback(
    pos: Position, settings: Settings, seconds: float, states: int, keep: Sequence[Card]
) -> Solution:
    """Out of time before any arrangement: the engine's simple bot's plan (legal by
    construction), not proven; or no meld, not proven."""
    hand = list(pos.hand)
    kept = list(keep)
    for c in kept:
        if c in hand:
            hand.remove(c)
    state = position_state(pos.table, hand, settings)
    plan = plan_table(state, 0, random.Random(0), level=1)
    if plan is None:
        return _solution(pos, settings, _counts(pos, keep), None, False, seconds, states)
    table, left = plan
    left = left + kept
    count = hand_points(left)
    played = Counter(c.pcode for c in pos.hand) - Counter(c.pcode for c in left)
    return Solution(
        found=True,
        table=tuple(tuple(m) for m in table),
        played=tuple(sorted(BY_PCODE[p] for p in played.elements())),
        hand_left=tuple(left),
        count=count,
        moved=moved_cards(pos.table, table),
        knock=bool(left) and count <= settings.knock_limit,
        goes_out=not left,
        proven=False,
        seconds=seconds,
        states=states,
    )


def position_state(
    table: Sequence[Sequence[Card]], hand: Sequence[Card], settings: Settings
) -> GameState:
    """A two-seat engine state with this table and hand, seat 0 to move after a draw
    (for the engine's bot and for applying an answer through ``apply_action``)."""
    state = engine_position(
        [list(hand), []],
        table=[list(m) for m in table],
        stock="2C",
        drawn=1,
        knock_limit=settings.knock_limit,
        target=settings.target,
    )
    return state


def _solution(
    pos: Position,
    settings: Settings,
    counts: search.Counts,
    laid: Arranged | None,
    proven: bool,
    seconds: float,
    states: int,
) -> Solution:
    hand = list(pos.hand)
    if laid is None:
        return Solution(
            found=False,
            table=pos.table,
            played=(),
            hand_left=tuple(hand),
            count=hand_points(hand),
            moved=0,
            knock=False,
            goes_out=False,
            proven=proven,
            seconds=seconds,
            states=states,
            moved_proven=proven,
        )
    table = laid.table
    # the hand cards the table holds beyond the old one's (the exact tie-break may play
    # other cards of the same points than the count search's answer)
    added = Counter(c.pcode for m in table for c in m) - Counter(
        c.pcode for m in pos.table for c in m
    )
    played: list[Card] = sorted(REAL_CARDS[t] for t in added.elements() if t != JOKER_PCODE)
    played.extend([JOKER] * added[JOKER_PCODE])
    left = Counter(c.pcode for c in hand) - Counter(c.pcode for c in played)
    hand_left = []
    for c in hand:
        if left[c.pcode]:
            left[c.pcode] -= 1
            hand_left.append(c)
    count = hand_points(hand_left)
    return Solution(
        found=True,
        table=tuple(tuple(m) for m in table),
        played=tuple(played),
        hand_left=tuple(hand_left),
        count=count,
        moved=laid.moved,
        knock=bool(hand_left) and count <= settings.knock_limit,
        goes_out=not hand_left,
        proven=proven,
        seconds=seconds,
        states=states,
        moved_proven=proven and laid.proven,
    )
