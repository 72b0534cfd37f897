"""Prints a scheduled season's plan and its balance figures, as the admin's preview
shows them: ``manage.py plan_season --players 12 --seats 4 --games-each 6 --seed 1``.
Impossible numbers end with a message and a non-zero exit."""

from django.core.management.base import BaseCommand, CommandError

from leagues.schedules.planner import PlanError, figures, least_spread, plan


class Command(BaseCommand):
    help = "Plan a scheduled season: rounds, tables and balance figures."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="members (2-200)")
        parser.add_argument("--seats", type=int, required=True, help="table size (2-5)")
        parser.add_argument("--games-each", type=int, required=True, help="games per member")
        parser.add_argument("--seed", type=int, default=0, help="the same seed, the same plan")

    def handle(self, *args, players, seats, games_each, seed, **options):
        try:
            result = plan(players, seats, games_each, seed)
        except PlanError as error:
            raise CommandError(str(error)) from error
        width = len(str(players))

        def name(member: int) -> str:
            return f"P{member + 1:0{width}d}"

        out = self.stdout
        for number, round_ in enumerate(result.rounds, start=1):
            out.write(f"Round {number}")
            for table_number, table in enumerate(round_.tables, start=1):
                out.write(f"  table {table_number}: " + " ".join(name(m) for m in table))
            if round_.resting:
                out.write("  resting: " + " ".join(name(m) for m in round_.resting))
        seen = figures(result)
        out.write("")
        out.write(
            f"{players} members, tables of {seats} "
            f"(sizes used: {', '.join(map(str, seen.table_sizes))}), "
            f"{games_each} games each, {len(result.rounds)} rounds"
        )
        out.write(
            f"games played: min {min(seen.games)}, max {max(seen.games)}; "
            f"pair meetings: min {seen.pair_min}, max {seen.pair_max} "
            f"(spread {seen.pair_spread}; no plan of these numbers has less than "
            f"{least_spread(players, seats, games_each)})"
        )
        out.write(f"first moves: min {min(seen.first_moves)}, max {max(seen.first_moves)}")
        out.write("seats (games in seat 1, 2, ...):")
        for member in range(players):
            counts = " ".join(f"{c:2d}" for c in seen.seat_counts[member])
            out.write(f"  {name(member)}: {counts}   first {seen.first_moves[member]}")
