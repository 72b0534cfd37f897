"""The database infrastructure, outside the apps it serves: the hand-written SQL that a
measurement justifies (docs/benchmarks.md) and the database adapters.

- ``reads``: one model's rows by equal columns, and a few models' rows joined (the read
  of every move: ``rummy.models.seats_of_game``), with their SQL written once;
- ``writes``: a conditional UPDATE of one row and a multi-row INSERT (the write path's
  save: ``rummy.play.store``), with their SQL written once;
- ``sessions``: the session store (``SESSION_ENGINE``), Django's database sessions
  with the read of a session written once;
- ``backends``: the authentication backend, ``ModelBackend`` with the read of a
  request's user written once;
- ``timestamps``: PostgreSQL ``timestamptz`` values parsed by psycopg's C loader.

Every row made here is the ORM's own instance (``Model.from_db``), every value through
the fields' own preparation and converters, so that a caller cannot tell these reads
and writes from the ORM's.
"""
