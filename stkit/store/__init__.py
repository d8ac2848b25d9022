"""The character store: Werewolf characters, the roll log, scenes and the table's events, in SQLite
(default) or PostgreSQL. Importing this package loads nothing heavy.

Modules:

- Running SQL: ``db`` (engines, one transaction per command, migrations), ``gateway`` (THE way use cases
  run SQL: over sqlite3 for fast start-up, or over a SQLAlchemy Session), ``handle`` (the store as an
  adapter opens it: the --db choice resolved once, the kept connection or the engine), ``models`` and
  ``scene_models`` (table definitions), ``migrations`` (alembic revisions).
- A character as data: ``sheet`` (a sheet, its validation and edits), ``traits`` (names and forgiving
  matching), ``breeds`` (the Changing Breeds, breeds, auspices), ``forms`` (the form table), ``pools``
  (dice pools from a sheet), ``specialties`` (specialties in a pool), ``vocab`` (the store's vocabularies).
- Use cases: ``rolling`` (the one roll use case: every roll and every odds answer under the rules in
  force), ``characters`` (create, find, list, edit, delete), ``rolls`` (rolling from the sheet, the roll
  log), ``house`` (a chronicle's house rules, the free botch), ``scenes`` (scenes and turns),
  ``participants``, ``extended``, ``contests`` and ``tracked`` (actions that last across commands),
  ``multi_actions`` (several actions in one turn), ``combat`` (initiative, attacks, damage and soak),
  ``fight`` (dodges, regeneration, shifting, Rage and frenzy), ``fight_rules`` and ``fight_data`` (who soaks
  what, wounds past Incapacitated, weapons and maneuvers, the Fera forms, from ``fight_rules.yaml``),
  ``unskilled`` (rolling a Trait with no dots), ``saved`` (a character's saved rolls), ``growth`` (a
  character's life: the creation check, raises, undo, Renown, history), ``lifebook`` (the pure rules of
  creation, experience and Renown over a sheet), ``guided`` (guided creation as steps).
- Files: ``files`` (YAML/JSON import and export), ``foundry`` and ``foundry_layouts`` (Foundry VTT actors and the
  layouts its versions wrote), ``htmltext`` (other tools' rich text as plain text), ``grapevine``
  (Grapevine ``.gex``), ``imported`` (what reading a file gives).
- The table: ``events`` (the event log and the join links), ``links`` (revoking one person's links),
  ``eventstream`` (reading the events as a stream for the table server), ``completion`` (what Tab
  completion offers), ``talk`` (table messages and whispers), ``discord_feed`` (what the Discord door
  keeps: its settings, how far the feed has posted, claims and bindings).
"""
