"""The character store: persistence and the use cases over it, in SQLite (default) or PostgreSQL.
Importing this package loads nothing heavy.

The sheet's rules live in :mod:`stkit.sheet` and other tools' files in :mod:`stkit.formats` (both pure);
running SQL (engines, the gateway, the handle, table models, migrations) in ``db`` (:mod:`stkit.store.db`).
Every use case takes the gateway (named ``gw``) first, works inside the caller's one transaction and
writes its table event there.

Use cases:

- Rolling: ``rolling`` (the one roll use case: every roll and every odds answer under the rules in
  force, and the roll log read back), ``house`` (a chronicle's house rules, the free botch), ``saved`` (a
  character's saved rolls).
- Characters: ``characters`` (create, find, list, edit, delete), ``growth`` (the creation check, raises,
  undo, Renown, history), ``files`` (YAML/JSON import and export, and other tools' files through
  :mod:`stkit.formats`; the sheets `char print` puts on paper), ``powers`` (`char use`: a Gift or fetish
  rolled and paid for).
- Scenes and actions that last: ``scenes`` (scenes and turns), ``participants``, ``extended`` and
  ``contests`` (tracked actions across commands), ``multi_actions`` (several actions in one turn).
- The fight: ``fight`` (attacks, hits and soak, initiative, a fight night, the fight rules read from a
  sheet, who is dead).
- The table: ``table`` (the event log and its streams, join links, table talk, the phones' prompts, what
  the Discord door keeps).
- The store as a whole: ``completion`` (what Tab completion offers), ``chronicles`` (a store's chronicles
  as a whole: start, list, show, remove).
"""
