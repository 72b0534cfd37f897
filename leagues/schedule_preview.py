"""A scheduled season's plan as its admin page shows it before the season starts: the
league's members put through the planner (``leagues.schedules.planner``), with names,
and its balance figures; or, for numbers that admit no plan, why, in the reader's
language."""

from django.utils.translation import gettext_lazy as _

from leagues.models import Season
from leagues.schedules.planner import PlanError, figures, least_spread, plan

# The planner's refusals, by code, worded for the page (``PlanError.params`` fill them).
PLAN_ERRORS = {
    "seats": _("A table seats %(low)d to %(high)d players, not %(seats)d."),
    "members": _("A schedule is planned for 2 to %(high)d members, not %(members)d."),
    "games": _("Each member plays 1 to %(high)d games, not %(games)d."),
    "odd": _(
        "At tables of 2, %(members)d members cannot each play %(games)d games: the "
        "number of members times the games each must be even."
    ),
}


def plan_error_message(error: PlanError) -> str:
    template = PLAN_ERRORS.get(error.code)
    return str(template) % error.params if template is not None else str(error)


def preview(season: Season):
    """``{"rounds": [...], "members": [...], "pair_min", "pair_max", ...}`` for a
    scheduled season, or ``{"error": message}``. Members in name order; the season's
    id is the planner's seed, so the page shows the same plan each time."""
    users = [
        membership.user
        for membership in season.league.memberships.select_related("user").order_by(
            "user__display_name", "user__username"
        )
    ]
    try:
        result = plan(len(users), season.table_size or 0, season.games_each or 0, seed=season.pk)
    except PlanError as error:
        return {"error": plan_error_message(error)}
    seen = figures(result)
    rounds = [
        {
            "number": number,
            "tables": [[users[m].name for m in table] for table in round_.tables],
            "resting": [users[m].name for m in round_.resting],
        }
        for number, round_ in enumerate(result.rounds, start=1)
    ]
    return {
        "rounds": rounds,
        "pair_min": seen.pair_min,
        "pair_max": seen.pair_max,
        "spread": seen.pair_max - seen.pair_min,
        # What no plan of these numbers can beat, so that an admin can tell an uneven
        # plan from uneven numbers.
        "least_spread": least_spread(len(users), result.seats, season.games_each or 0),
        "first_min": min(seen.first_moves),
        "first_max": max(seen.first_moves),
        "seat_positions": range(1, result.seats + 1),
        "members": [
            {
                "name": user.name,
                "games": seen.games[index],
                "first": seen.first_moves[index],
                "seats": seen.seat_counts[index],
            }
            for index, user in enumerate(users)
        ],
    }
