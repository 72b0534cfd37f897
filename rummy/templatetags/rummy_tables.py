from django import template

from rummy.lobby.forms import OpenTableForm
from rummy.models import Game
from rummy.table.access import games_with_seats

register = template.Library()


@register.simple_tag
def league_tables(league, user):
    """A league's open tables and games in progress, with what ``user`` may do at each
    (for ``rummy/_league_tables.html``). Two queries, however many games."""
    games = list(
        games_with_seats()
        .filter(league=league, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .order_by("created_at")
    )
    rows = []
    for game in games:
        seats = list(game.seated())
        seated = any(s.user_id == user.pk for s in seats)
        rows.append(
            {
                "game": game,
                "names": [s.user.name for s in seats],
                "free": game.max_seats - len(seats),
                "may_sit": game.is_open and not seated and len(seats) < game.max_seats,
                "may_leave": game.is_open and seated,
                "may_start": game.is_open and game.host_id == user.pk and len(seats) >= 2,
                "your_move": game.to_move_id == user.pk,
            }
        )
    return {
        "open": [r for r in rows if r["game"].is_open],
        "active": [r for r in rows if r["game"].is_active],
        "form": OpenTableForm(),
    }
