"""The write path's two statements, with their SQL written once per database and shape:
for these small statements Django's compiler cost about as much CPU as running them, on
every move (docs/benchmarks.md). Values go through each field's own preparation for
saving, as the ORM's do."""

from typing import Any

from django.db import connections, router
from django.db.models import Model

from config import caches

_sql: dict[tuple, str] = caches.statements("config.db.writes")


def update(model: type[Model], values: dict[str, Any], **equal) -> int:
    """``model.objects.filter(**equal).update(**values)`` for plain values (a foreign
    key by its name with an instance or None, or by its ``_id``); the number of rows."""
    connection = connections[router.db_for_write(model)]
    fields: list[Any] = [model._meta.get_field(name) for name in values]
    where: list[Any] = [model._meta.pk if n == "pk" else model._meta.get_field(n) for n in equal]
    key = ("update", model._meta.label, connection.vendor, *values, "where", *equal)
    sql = _sql.get(key)
    if sql is None:
        q = connection.ops.quote_name
        sets = ", ".join(f"{q(f.column)} = %s" for f in fields)
        conditions = " AND ".join(f"{q(f.column)} = %s" for f in where)
        sql = _sql[key] = f"UPDATE {q(model._meta.db_table)} SET {sets} WHERE {conditions}"
    params = [
        f.get_db_prep_save(v.pk if isinstance(v, Model) else v, connection)
        for f, v in zip(fields, values.values(), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *equal.values()])
        return cursor.rowcount


def insert(objs: list[Model]) -> None:
    """``type(objs[0]).objects.bulk_create(objs)``, less reading back the keys."""
    if not objs:
        return
    model = type(objs[0])
    connection = connections[router.db_for_write(model)]
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    key = ("insert", model._meta.label, connection.vendor, len(objs))
    sql = _sql.get(key)
    if sql is None:
        q = connection.ops.quote_name
        row = f"({', '.join(['%s'] * len(fields))})"
        sql = _sql[key] = (
            f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(f.column) for f in fields)})"
            f" VALUES {', '.join([row] * len(objs))}"
        )
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
