"""Alembic environment of the stkit store.

stkit runs migrations in code (:func:`stkit.store.db.upgrade`), handing over an open connection in
``config.attributes["connection"]`` inside its own transaction (so a concurrent first open waits instead of
migrating twice). From the alembic CLI a URL comes from ``-x url=...`` or the usual stkit configuration.
Revisions use explicit ``op`` calls and batch mode (SQLite cannot ALTER most things in place).
"""

from __future__ import annotations

from alembic import context

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=None, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    from stkit.config import database_url
    from stkit.store.db.engine import make_engine

    url = context.get_x_argument(as_dictionary=True).get("url") or database_url()
    engine = make_engine(url)
    with engine.connect() as conn:
        _run(conn)
        conn.commit()
