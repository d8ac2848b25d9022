"""Running SQL for the store: ``engine`` (engines, one transaction per command, migrations), ``gateway``
(the one way use cases run SQL: over sqlite3 or libpq for fast start-up, or over a SQLAlchemy Session),
``pgfast`` (the PostgreSQL connection of that fast path), ``libpq`` (libpq through ctypes, for it), ``handle``
(the store as an adapter opens it: the ``--db`` choice resolved once), ``models`` and ``scene_models``
(table definitions) and ``migrations`` (alembic revisions). Importing this package loads nothing heavy.
"""
