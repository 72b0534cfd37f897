"""A scheduled season under way: its plan stored when it starts, and each round's tables
settled when the round starts (the background work deals them: ``rummy.play.rounds``).

Who is in the schedule: the league's members (people, not bots), and, when the season
lets a bot stand in for a member who leaves (``Season.leaver_games``), those who left
since: their places stay and a bot plays them. With ``VOID`` a member who leaves
drops out of the rounds still to come (their games under way are voided).

When a round starts, the rounds not dealt yet are planned again
(``planner.plan_rest``) if the plan no longer fits: someone joined (they enter from
this round, owing every game), someone left, or someone due in this round is on
vacation at its start (they rest now and are made up for in later rounds). The new
plan keeps what was played: each member owes the games they were not dealt yet, and
the meetings so far are evened out with the new rounds.
"""

from datetime import datetime, time, timedelta

from django.utils import timezone

from leagues.models import Membership, ScheduledRound, ScheduledTable, Season, User, Vacation
from leagues.schedules.planner import plan, plan_rest


def _members(season: Season) -> list[User]:
    """The league's people, in the order the preview lists them (names), so that the
    plan stored at the start is the one the admin saw."""
    return [
        membership.user
        for membership in Membership.objects.filter(league_id=season.league_id)
        .exclude(user__bot_level__gt="")
        .select_related("user")
        .order_by("user__display_name", "user__username")
    ]


def first_start(season: Season, now: datetime) -> datetime:
    """When round 1 starts: now, or the start of the season's first day if later."""
    day = datetime.combine(season.starts_on, time(0), tzinfo=timezone.get_default_timezone())
    return max(now, day)


def _starts_at(season: Season, first: datetime, index: int) -> datetime | None:
    """When the round ``index`` rounds after ``first`` starts: on its date, or (rounds
    after the one before) when that one's games have ended: not a time."""
    if index == 0:
        return first
    if season.round_start == Season.RoundStart.ON_DATES:
        return first + timedelta(days=index * (season.round_days or 1))
    return None


def store_plan(season: Season, now: datetime) -> int:
    """The plan of a scheduled season that starts now, stored as its rounds and tables
    (the same seed as the preview: the stored plan is the one the admin saw). Returns
    how many rounds it has."""
    users = _members(season)
    if len(users) < 2 or not season.table_size or not season.games_each:
        return 0
    result = plan(len(users), season.table_size, season.games_each, seed=season.pk)
    first = first_start(season, now)
    ids = [user.pk for user in users]
    _write_rounds(season, 1, first, [(r.tables, r.resting) for r in result.rounds], ids)
    return len(result.rounds)


def _write_rounds(season, number, first, rounds, ids, keep=None):
    """Stores ``rounds`` (tables and resting, as the planner's member numbers) from
    round ``number`` on; ``keep`` is that round's existing row, reused."""
    for index, (tables, resting) in enumerate(rounds):
        if index == 0 and keep is not None:
            row = keep
            row.resting = [ids[m] for m in resting]
            row.save(update_fields=["resting"])
        else:
            row = ScheduledRound.objects.create(
                season=season,
                number=number + index,
                starts_at=_starts_at(season, first, index),
                resting=[ids[m] for m in resting],
            )
        ScheduledTable.objects.bulk_create(
            ScheduledTable(round=row, number=n, players=[ids[m] for m in table])
            for n, table in enumerate(tables, start=1)
        )


def in_schedule(season: Season) -> list[int]:
    """The user ids the schedule is for now (the module's docstring says who)."""
    ids = [user.pk for user in _members(season)]
    if season.leaver_games == Season.LeaverGames.STAND_IN:
        known = set(ids)
        for players in ScheduledTable.objects.filter(round__season=season).values_list(
            "players", flat=True
        ):
            for user_id in players:
                if user_id not in known:
                    known.add(user_id)
                    ids.append(user_id)
    return ids


def on_vacation(season: Season, user_ids, now: datetime) -> set[int]:
    return set(
        Vacation.objects.filter(
            season=season, user_id__in=list(user_ids), starts_at__lte=now, ends_at__gt=now
        ).values_list("user_id", flat=True)
    )


def settle_round(row: ScheduledRound, now: datetime) -> list[ScheduledTable]:
    """The tables of the round ``row`` (not dealt yet, locked by the caller), after
    planning this and the later rounds again if the plan no longer fits."""
    season = row.season
    ids = in_schedule(season)
    away = on_vacation(season, ids, now)
    dealt: dict[int, int] = dict.fromkeys(ids, 0)
    planned: dict[int, int] = dict.fromkeys(ids, 0)
    index = {user_id: n for n, user_id in enumerate(ids)}
    met = [[0] * len(ids) for _ in ids]
    strangers = False
    now_playing: set[int] = set()
    for table in ScheduledTable.objects.filter(round__season=season).select_related("round"):
        counts = dealt if table.round.dealt_at is not None else planned
        for user_id in table.players:
            if user_id in counts:
                counts[user_id] += 1
            elif table.round.dealt_at is None:
                strangers = True  # planned for someone no longer in the schedule
        if table.round_id == row.pk:
            now_playing.update(table.players)
        if table.round.dealt_at is not None:
            seated = [index[u] for u in table.players if u in index]
            for a in seated:
                for b in seated:
                    if a != b:
                        met[a][b] += 1
    owed = [max((season.games_each or 0) - dealt[user_id], 0) for user_id in ids]
    fits = (
        not strangers
        and not (now_playing & away)
        # A round planned empty while games are owed (everyone owing was away when it
        # was planned) is planned again: they may be back.
        and (bool(now_playing) or not any(owed))
        and all(planned[user_id] == owed[index[user_id]] for user_id in ids)
    )
    if not fits:
        rounds = plan_rest(
            owed,
            season.table_size or 2,
            seed=season.pk * 1000 + row.number,
            away={index[user_id] for user_id in away},
            met=met,
        )
        ScheduledTable.objects.filter(round=row).delete()
        ScheduledRound.objects.filter(season=season, number__gt=row.number).delete()
        first = row.starts_at or now
        if rounds:
            _write_rounds(
                season, row.number, first, [(r.tables, r.resting) for r in rounds], ids, keep=row
            )
        else:
            row.resting = []
            row.save(update_fields=["resting"])
    return list(row.tables.order_by("number"))


def to_play(season: Season) -> dict[int, int]:
    """Per user id: the games planned for them in rounds not dealt yet."""
    counts: dict[int, int] = {}
    for players in ScheduledTable.objects.filter(
        round__season=season, round__dealt_at__isnull=True
    ).values_list("players", flat=True):
        for user_id in players:
            counts[user_id] = counts.get(user_id, 0) + 1
    return counts


def rounds_shown(season: Season) -> list[dict]:
    """The stored plan as the season's page shows it: each round with its start (a time
    for rounds on dates and the first; None: when the round before has ended), whether
    it was dealt, its tables (names in seat order, and the game's id once dealt) and
    who rests."""
    rows = list(ScheduledRound.objects.filter(season=season).order_by("number"))
    tables = list(
        ScheduledTable.objects.filter(round__season=season)
        .order_by("round__number", "number")
        .values("round_id", "players", "game__id")
    )
    ids = {u for t in tables for u in t["players"]} | {u for r in rows for u in r.resting}
    names = {user.pk: user.name for user in User.objects.filter(pk__in=ids)}
    shown = []
    for row in rows:
        shown.append(
            {
                "number": row.number,
                "starts_at": row.starts_at,
                "dealt": row.dealt_at is not None,
                "tables": [
                    {
                        "names": [names.get(u, "?") for u in t["players"]],
                        "game_id": t["game__id"],
                    }
                    for t in tables
                    if t["round_id"] == row.pk
                ],
                "resting": [names.get(u, "?") for u in row.resting],
            }
        )
    return shown


def next_games(season: Season, user) -> list[dict]:
    """``user``'s tables in the rounds not dealt yet, soonest first: the round, when it
    starts (None: when the round before has ended) and the others at the table."""
    tables = [
        table
        for table in ScheduledTable.objects.filter(
            round__season=season, round__dealt_at__isnull=True
        )
        .select_related("round")
        .order_by("round__number", "number")
        if user.pk in table.players
    ]
    others = {u for t in tables for u in t.players if u != user.pk}
    names = {u.pk: u.name for u in User.objects.filter(pk__in=others)}
    return [
        {
            "round": table.round.number,
            "starts_at": table.round.starts_at,
            "with": [names.get(u, "?") for u in table.players if u != user.pk],
        }
        for table in tables
    ]
