"""Alembic migrations of the stkit store. Run through :func:`stkit.store.db.upgrade` (no alembic.ini needed)."""
