"""The read of every move and socket update, with its SQL written once per database.

``seats_of_game(game_id, lock)`` returns what
``Seat.objects.select_related("game__league", "game__season", "user").filter(game_id=…)``
(with ``select_for_update(of=("game",))`` when ``lock``) returns: the game's seats in
``Seat.Meta.ordering``, each with its user, and one game shared by all of them with its
league and season. The rows and their values are the ORM's own (every column of each
model, each value through the backend's and the field's converters, then
``Model.from_db``); only the SQL is not compiled again for every call: for this query
Django's compiler cost about as much CPU as the rest of the read, and this read runs
for every action (issue 11, bench/load.py).
"""

from __future__ import annotations

from typing import Any

from django.db import connections, router

from leagues import reads
from leagues.models import League, Season, User
from rummy.models import Game, Seat

# Each model once, by its table: (model, how it joins the ones before, the FK it fills).
_MODELS = (
    (Seat, None),
    (Game, ("INNER", Seat, "game")),
    (League, ("LEFT OUTER", Game, "league")),
    (Season, ("LEFT OUTER", Game, "season")),
    (User, ("INNER", Seat, "user")),
)

# The models every row of one game carries the same columns of (the game, its league
# and season): made from the first row only.
_SHARED = (Game, League, Season)

_sql: dict[tuple[str, bool], str] = {}


def _fields(model):
    return model._meta.concrete_fields


def _column(model, name) -> str:
    return model._meta.get_field(name).column


def _statement(connection, lock: bool) -> str:
    key = (connection.vendor, lock)
    sql = _sql.get(key)
    if sql is not None:
        return sql
    q = connection.ops.quote_name
    columns = []
    joins = []
    for model, join in _MODELS:
        table = q(model._meta.db_table)
        columns += [f"{table}.{q(f.column)}" for f in _fields(model)]
        if join is not None:
            kind, parent, name = join
            joins.append(
                f"{kind} JOIN {table} ON ({q(parent._meta.db_table)}.{q(_column(parent, name))}"
                f" = {table}.{q(model._meta.pk.column)})"
            )
    seat = q(Seat._meta.db_table)
    order = ", ".join(
        f"{seat}.{q(_column(Seat, name.lstrip('-')))} {'DESC' if name.startswith('-') else 'ASC'}"
        for name in Seat._meta.ordering or ()
    )
    sql = (
        f"SELECT {', '.join(columns)} FROM {seat} {' '.join(joins)}"
        f" WHERE {seat}.{q(_column(Seat, 'game'))} = %s ORDER BY {order}"
    )
    if lock and connection.features.has_select_for_update:
        of = q(Game._meta.db_table)
        if connection.features.has_select_for_update_of:
            sql += f" FOR UPDATE OF {of}"
        else:
            sql += " FOR UPDATE"
    _sql[key] = sql
    return sql


def seats_of_game(game_id: int, lock: bool = False) -> list[Seat]:
    """The seats of ``game_id`` as described in the module docstring ([] when none)."""
    alias = router.db_for_read(Seat)
    connection = connections[alias]
    sql = _statement(connection, lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        rows = cursor.fetchall()
    if not rows:
        return []
    # Each model's columns, where its key stands among them (``leagues.reads.layout``).
    layouts = [(model, *reads.layout(model, connection)[:2]) for model, _join in _MODELS]
    seats: list[Seat] = []
    game = None
    for row in rows:
        made: list[Any] = []
        start = 0
        for model, names, pk_at in layouts:
            values = list(row[start : start + len(names)])
            start += len(names)
            if game is not None and model in _SHARED:
                made.append(None)  # every row repeats the game's columns: made once
                continue
            if values[pk_at] is None:
                made.append(None)  # an outer join found nothing: no league, no season
                continue
            made.append(reads.instance(model, alias, connection, values))
        seat, this_game, league, season, user = made
        if game is None:
            game = this_game
            game.league = league
            game.season = season
        seat.game = game
        seat.user = user
        seats.append(seat)
    return seats
