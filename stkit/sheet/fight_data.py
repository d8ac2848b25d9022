"""The packaged combat tables (``data/fight_rules.yaml`` beside this module), read once: the one place that
reads the file, so the form tables (:mod:`stkit.sheet.forms`) and the fight rules
(:mod:`stkit.store.fight.rules`) share it without importing each other."""

from __future__ import annotations

from functools import cache
from typing import Any

from stkit import yamlsafe

RULES_FILE = "fight_rules.yaml"


@cache
def rules_data() -> dict[str, Any]:
    """The packaged combat tables, each with its public source named beside it. Raises DataFileError if
    the file is damaged."""

    data: dict[str, Any] = yamlsafe.load_packaged("stkit.sheet", RULES_FILE)
    return data
