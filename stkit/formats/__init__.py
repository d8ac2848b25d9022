"""Other tools' character files, read into sheets and written back, pure: no database, no CLI, no web.

Modules:

- ``foundry``: Foundry VTT actors (the WoD20 system) to and from sheets; ``foundry_layouts``: the layouts
  its versions wrote (3.1 onwards); ``foundry_splats``: the system's own Splat items (soak, Renown, forms)
  from ``data/foundry_splats.json``.
- ``printsheet``: a character on paper (PDF through fpdf2, HTML with print CSS).
- ``grapevine``: Grapevine ``.gex`` troupe files (read with defusedxml), with ``data/grapevine_vocabulary.yaml``.
- ``htmltext``: other tools' rich text as plain text.
- ``imported``: what reading a file gives (a sheet and the warnings about what was not kept).

The store's import use case (:mod:`stkit.store.files`) calls these and saves what they return.
"""
