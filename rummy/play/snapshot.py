"""A game as a broadcast carries it: plain, JSON-ready data built and read here.

After a turn the write path has the whole new version in memory: the game row, its
seats, their users, its league and season. The broadcast carries them (``dump``) so
that the sockets of every other server process render the new version from it
(``load``) instead of each process reading it again. On the channel layer it travels as
one JSON text (``to_text``, ``from_text``): a layer copies or packs a message once per
socket, a text whole and a nested dict value by value, and a process reads the text
once however many of its sockets receive it.

Each row travels as ``{column: value}`` (its concrete fields by ``attname``), dates and
times as ISO 8601 text, and is made again through ``Model.from_db``, as a read makes it.
The users travel without their password hashes: the rows made from a snapshot stand in
for the stored ones for reading only, and saving one raises (``ReadOnlyRow``), so that
a stray ``save()`` cannot write an empty password or an old version over the database.
"""

import json
from typing import Any

from django.db import models, router
from django.db.models.signals import pre_save

from config import caches
from leagues.models import League, Season, User
from rummy.models import Game, Seat

# Fields whose values are not JSON values as such, and how they are written.
TEXT_TYPES = (models.DateTimeField, models.DateField, models.TimeField)
SECRET: dict[type[models.Model], str] = {User: "password"}
# Set on every row made from a snapshot.
MARK = "from_snapshot"


class ReadOnlyRow(Exception):
    """A row made from a snapshot was about to be saved."""


@caches.memo()
def _columns(model: type[models.Model]) -> tuple[tuple[str, ...], dict[str, models.Field]]:
    """(every column's attname in order, the fields of those written as text)."""
    fields = model._meta.concrete_fields
    return (
        tuple(f.attname for f in fields),
        {f.attname: f for f in fields if isinstance(f, TEXT_TYPES)},
    )


def _row(obj: models.Model) -> dict[str, Any]:
    names, as_text = _columns(type(obj))
    secret = SECRET.get(type(obj))
    row = {}
    for name in names:
        value = getattr(obj, name)
        if name == secret:
            value = ""
        elif name in as_text and value is not None:
            value = value.isoformat()
        row[name] = value
    return row


def _instance(model: type[models.Model], db: str, row: dict[str, Any]) -> Any:
    # Model.from_db, as a read that selected every column makes the instance.
    names, as_text = _columns(model)
    values = [row[name] for name in names]
    for i, name in enumerate(names):
        if name in as_text and values[i] is not None:
            values[i] = as_text[name].to_python(values[i])
    made = model.from_db(db, names, values)
    setattr(made, MARK, True)
    return made


def _loaded(obj: models.Model, name: str) -> bool:
    """Whether ``obj``'s related object ``name`` is in memory (a read would query)."""
    return obj._meta.get_field(name).is_cached(obj)  # type: ignore[union-attr]


def dump(game: Game) -> dict[str, Any] | None:
    """``game`` with its kept seats (``Game.keep_seats``), their users, its league and
    season, or None when any of them is not in memory."""
    seats = getattr(game, "kept_seats", None)
    if seats is None or any(not _loaded(seat, "user") for seat in seats):
        return None
    if (game.league_id and not _loaded(game, "league")) or (
        game.season_id and not _loaded(game, "season")
    ):
        return None
    league, season = game.league, game.season
    return {
        "game": _row(game),
        "league": _row(league) if league is not None else None,
        "season": _row(season) if season is not None else None,
        "seats": [{"seat": _row(seat), "user": _row(seat.user)} for seat in seats],
    }


def load(data: dict[str, Any]) -> Game:
    """The game ``dump`` wrote, its seats kept (``Game.seated``); every row read-only."""
    db = router.db_for_read(Game)
    game = _instance(Game, db, data["game"])
    if data["league"] is not None:
        game.league = _instance(League, db, data["league"])
    if data["season"] is not None:
        game.season = _instance(Season, db, data["season"])
    seats = []
    for entry in data["seats"]:
        seat = _instance(Seat, db, entry["seat"])
        seat.user = _instance(User, db, entry["user"])
        seats.append(seat)
    return game.keep_seats(seats)


def to_text(data: dict[str, Any]) -> str:
    """``dump``'s data as the broadcast carries it."""
    return json.dumps(data, separators=(",", ":"))


def from_text(text: str) -> Game:
    """The game a broadcast's ``to_text`` carries (``load``)."""
    return load(json.loads(text))


def _refuse(sender, instance, **kwargs):
    if getattr(instance, MARK, False):
        raise ReadOnlyRow(f"{sender.__name__} {instance.pk} was made from a snapshot: read it")


for _model in (Game, Seat, User, League, Season):
    pre_save.connect(_refuse, sender=_model, dispatch_uid=f"snapshot-{_model.__name__}")
