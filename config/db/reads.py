"""Reads with their SQL written once per database: one model's rows by equal columns,
and the rows of a few models joined (``joined``).

``rows(model, field=value, ...)`` returns what ``model.objects.filter(field=value, ...)
.order_by("pk")`` returns (``limit``: at most that many), and ``first`` what ``.first()``
returns. The rows are the ORM's own: every concrete column, each value through the
backend's and the field's converters, then ``Model.from_db``, so an instance read here is
the same as one read through the ORM. Only the SQL is not compiled again for every call:
for a read of one small row Django's query compiler costs more CPU than the read, and
these run on every signed-in request and socket update (bench/load.py): the
user of a request's session, a member's rights in a league, the count in the header.

For plain columns and equality only; anything else goes through the ORM.

``joined`` is the read of every move and socket update (``rummy.models.seats_of_game``):
a model's rows with the rows their foreign keys name, in one query, each row the ORM's
own instance as above.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Field, Model

from config import caches

_sql: dict[tuple, str] = caches.statements("config.db.reads")
_layouts: dict[tuple, tuple] = caches.statements("config.db.reads.layouts")


def from_row(model: type[Model], alias: str, values: Sequence[Any]) -> Any:
    """``model.from_db`` for ``values``, a whole row in ``concrete_fields`` order,
    already converted."""
    return model.from_db(alias, layout_names(model), values)


@caches.memo()
def layout_names(model: type[Model]) -> tuple[str, ...]:
    """Every column's attname, in ``concrete_fields`` order."""
    return tuple(f.attname for f in model._meta.concrete_fields)


def layout(model: type[Model], connection) -> tuple:
    """(attnames, where the key stands among them, per column the converters and the
    expression they take), per model and database alias: the converters belong to the
    fields and to settings of the alias that are the same for all its connections (under
    ASGI every request has a connection object of its own). The columns are
    ``concrete_fields`` in order, as every read written here selects them."""
    key = (model._meta.label, connection.alias)
    found = _layouts.get(key)
    if found is not None:
        return found
    fields = model._meta.concrete_fields
    per_column = []
    for f in fields:
        col = f.get_col(model._meta.db_table)
        per_column.append(
            (connection.ops.get_db_converters(col) + col.get_db_converters(connection), col)
        )
    names = [f.attname for f in fields]
    found = _layouts[key] = (names, names.index(model._meta.pk.attname), per_column)
    return found


def instance(model: type[Model], alias: str, connection, values: list[Any]) -> Any:
    """The instance the ORM makes of one row's ``values`` (its columns in ``layout``'s
    order, converted here in place): each value through its converters, then
    ``Model.from_db`` (``from_row``)."""
    _names, _pk_at, per_column = layout(model, connection)
    for i, (converters, col) in enumerate(per_column):
        for convert in converters:
            values[i] = convert(values[i], col, connection)
    return from_row(model, alias, values)


def _field(model: type[Model], name: str):
    return model._meta.pk if name == "pk" else model._meta.get_field(name)


def _statement(model: type[Model], connection, names: tuple[str, ...], limit, count) -> str:
    key = (model._meta.label, connection.vendor, names, limit, count)
    sql = _sql.get(key)
    if sql is not None:
        return sql
    q = connection.ops.quote_name
    table = q(model._meta.db_table)
    where = " AND ".join(f"{table}.{q(_field(model, n).column)} = %s" for n in names)
    if count:
        sql = f"SELECT COUNT(*) FROM {table} WHERE {where}"
    else:
        columns = ", ".join(f"{table}.{q(f.column)}" for f in model._meta.concrete_fields)
        order = f"{table}.{q(model._meta.pk.column)} ASC"
        sql = f"SELECT {columns} FROM {table} WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
    _sql[key] = sql
    return sql


def _params(model: type[Model], connection, equal: dict[str, Any]) -> list[Any]:
    """Each value as the ORM would send it for ``field=value``: a model instance for a
    foreign key by its key, then the field's own preparation for a lookup."""
    params = []
    for name, value in equal.items():
        field = _field(model, name)
        if isinstance(value, Model):
            value = value.pk
        target = field.target_field if field.is_relation else field
        params.append(target.get_db_prep_value(target.get_prep_value(value), connection))
    return params


def _execute(model, equal, limit=None, count=False):
    alias = router.db_for_read(model)
    connection = connections[alias]
    sql = _statement(model, connection, tuple(equal), limit, count)
    with connection.cursor() as cursor:
        cursor.execute(sql, _params(model, connection, equal))
        return alias, connection, cursor.fetchall()


def rows(model: type[Model], limit: int | None = None, **equal) -> list[Any]:
    """``model.objects.filter(**equal).order_by("pk")[:limit]``, written once."""
    alias, connection, fetched = _execute(model, equal, limit)
    if not fetched:
        return []
    return [instance(model, alias, connection, list(row)) for row in fetched]


def first(model: type[Model], **equal) -> Any:
    """``model.objects.filter(**equal).first()`` (by key), written once."""
    found = rows(model, limit=1, **equal)
    return found[0] if found else None


def count(model: type[Model], **equal) -> int:
    """``model.objects.filter(**equal).count()``, written once."""
    return int(_execute(model, equal, count=True)[2][0][0])


# A join: (model, None for the first, else (join kind, the model before it whose foreign
# key names it, that foreign key's name)).
Join = tuple[type[Model], tuple[str, type[Model], str] | None]


def column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field), name
    return field.column


def _joined_statement(name: str, chain: Sequence[Join], where: str, lock_of, connection) -> str:
    key = ("joined", name, connection.vendor, lock_of is not None)
    sql = _sql.get(key)
    if sql is not None:
        return sql
    q = connection.ops.quote_name
    first = chain[0][0]
    columns = []
    joins = []
    for model, join in chain:
        table = q(model._meta.db_table)
        columns += [f"{table}.{q(f.column)}" for f in model._meta.concrete_fields]
        if join is not None:
            kind, parent, fk = join
            joins.append(
                f"{kind} JOIN {table} ON ({q(parent._meta.db_table)}."
                f"{q(column(parent, fk))} = {table}.{q(model._meta.pk.column)})"
            )
    base = q(first._meta.db_table)
    order = ", ".join(
        f"{base}.{q(column(first, n.lstrip('-')))} {'DESC' if n.startswith('-') else 'ASC'}"
        for n in first._meta.ordering or ()
    )
    sql = (
        f"SELECT {', '.join(columns)} FROM {base} {' '.join(joins)}"
        f" WHERE {base}.{q(column(first, where))} = %s ORDER BY {order}"
    )
    if lock_of is not None and connection.features.has_select_for_update:
        if connection.features.has_select_for_update_of:
            sql += f" FOR UPDATE OF {q(lock_of._meta.db_table)}"
        else:
            sql += " FOR UPDATE"
    _sql[key] = sql
    return sql


def joined(
    name: str, chain: Sequence[Join], shared, where: str, value: Any, lock_of=None
) -> list[list[Any]]:
    """The rows of ``chain[0]`` whose ``where`` equals ``value``, in its model's
    ``Meta.ordering``, each joined with the rows of the models after it: per row, one
    instance per model (None where an outer join found nothing). The models in
    ``shared`` are the same in every row (one parent row): made from the first row only,
    then None. ``lock_of``: the model whose row is locked (``select_for_update(of=…)``).
    ``name`` names the statement (written once per name and database)."""
    alias = router.db_for_read(chain[0][0])
    connection = connections[alias]
    sql = _joined_statement(name, chain, where, lock_of, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        fetched = cursor.fetchall()
    layouts = [(model, *layout(model, connection)[:2]) for model, _join in chain]
    out = []
    for n, row in enumerate(fetched):
        made: list[Any] = []
        start = 0
        for model, names, pk_at in layouts:
            values = list(row[start : start + len(names)])
            start += len(names)
            if (n and model in shared) or values[pk_at] is None:
                made.append(None)
                continue
            made.append(instance(model, alias, connection, values))
        out.append(made)
    return out
