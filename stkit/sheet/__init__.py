"""The Revised character sheet and its rules, pure: standard library, PyYAML for the packaged tables, and
:mod:`stkit.dice`; no database, no CLI, no web.

Modules:

- ``sheet``: a character sheet as data (:class:`~stkit.sheet.sheet.Sheet`), its validation and its edits.
- ``traits``: Trait names and forgiving matching (long names, short names, prefixes, aliases).
- ``vocab``: the words the sheet and the store share (damage types, powers, creatures, statuses), as
  string enumerations equal to their stored text.
- ``breeds``: the Changing Breeds, their breeds, auspices and tribes; ``forms``: the form table.
- ``pools``: dice pools read from a sheet; ``specialties``: specialties in a pool; ``unskilled``: rolling a
  Trait with no dots; ``compose``: a roll's composition under the rules in force (unskilled rule, a
  player's extra dice and difficulty).
- ``lifebook``: creation, experience and Renown over a sheet; ``ranks``: the Renown each Rank needs and
  the Rank titles; ``guided``: guided creation as steps;
  ``deformity``: the metis deformities (``data/metis_deformities.yaml``) and who must have one.
- ``fight_data``: the packaged combat tables (``data/fight_rules.yaml``), read once; ``arms``: the
  packaged weapon and armour table (``data/arms.yaml``) and arming a sheet from it.

Every table of numbers is a packaged data file in ``data/`` that names its public source beside it.
"""
