"""The character store: Werewolf characters and the roll log in SQLite (default) or PostgreSQL.

Modules: ``db`` (engines, one transaction per command, migrations), ``models`` (tables), ``sheet`` (a
character as plain data), ``traits`` (names and fuzzy matching), ``forms`` (the form table), ``pools``
(dice pools from a sheet), ``characters`` (use cases), ``rolls`` (rolling from the sheet, the roll log),
``files`` (YAML/JSON/Foundry files), ``gateway`` (THE way use cases run SQL: over sqlite3 for fast
start-up, or over a SQLAlchemy Session), ``scenes`` (scenes, turns, Willpower once per turn, try again),
``tracked`` (extended actions and contests). Importing this package loads nothing heavy.
"""
