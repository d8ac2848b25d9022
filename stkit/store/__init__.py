"""The character store: Werewolf characters and the roll log in SQLite (default) or PostgreSQL.

Modules: ``db`` (engines, one transaction per command, migrations), ``models`` (tables), ``sheet`` (a
character as plain data), ``traits`` (names and fuzzy matching), ``forms`` (the form table), ``pools``
(dice pools from a sheet), ``characters`` (use cases), ``rolls`` (rolling from the sheet, the roll log),
``files`` (YAML/JSON/Foundry files), ``fastread`` (sqlite3 read paths for fast start-up), ``scenes`` (the
scenes work's hooks). Importing this package loads nothing heavy.
"""
