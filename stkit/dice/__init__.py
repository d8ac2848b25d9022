"""The Storyteller dice engine: pure Python, standard library only, randomness passed in.

One roll is a :class:`RollRequest` (validated when built) resolved by :func:`resolve_roll` into a
:class:`RollResult`; :mod:`stkit.dice.expr` parses the dice expressions people type; :mod:`stkit.dice.odds`
(not imported here) gives exact odds.

Each name below is loaded from its module on first use (PEP 562), so that importing one module of the
engine (``stkit.dice.house`` for the house-rule vocabulary) does not load the others.

Rules source: Chapter Five: Rules (the Werewolf: The Apocalypse Revised rulebook).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stkit.dice.actions import (
        ActionSlot,
        ExtendedTally,
        ResistedResult,
        TeamworkResult,
        advance_extended,
        combine_teamwork,
        multiple_action_penalties,
        multiple_action_pools,
        resolve_resisted,
    )
    from stkit.dice.expr import eval_pool_sum, parse_faces, parse_pool_number, pick_difficulties
    from stkit.dice.model import (
        DEFAULT_DIFFICULTY,
        MAX_DIFFICULTY,
        MAX_POOL,
        MAX_TARGET,
        MIN_DIFFICULTY,
        STANDARD_RULES,
        Degree,
        HouseRules,
        Outcome,
        RollResult,
        Specialty,
        retry_difficulty,
        validate_difficulty,
        validate_pool,
        validate_target,
    )
    from stkit.dice.request import RollKind, RollRequest, resolve_roll, roll_multiple_actions, validate_roll_options
    from stkit.dice.roll import (
        RandomSource,
        check_faces,
        count_dice,
        roll_faces,
        roll_pool,
        score_dice,
        take_automatic_success,
    )

#: Where each public name lives.
_HOME: dict[str, str] = {
    "ActionSlot": "stkit.dice.actions",
    "ExtendedTally": "stkit.dice.actions",
    "ResistedResult": "stkit.dice.actions",
    "TeamworkResult": "stkit.dice.actions",
    "advance_extended": "stkit.dice.actions",
    "combine_teamwork": "stkit.dice.actions",
    "multiple_action_penalties": "stkit.dice.actions",
    "multiple_action_pools": "stkit.dice.actions",
    "resolve_resisted": "stkit.dice.actions",
    "eval_pool_sum": "stkit.dice.expr",
    "parse_faces": "stkit.dice.expr",
    "parse_pool_number": "stkit.dice.expr",
    "pick_difficulties": "stkit.dice.expr",
    "DEFAULT_DIFFICULTY": "stkit.dice.model",
    "MAX_DIFFICULTY": "stkit.dice.model",
    "MAX_POOL": "stkit.dice.model",
    "MAX_TARGET": "stkit.dice.model",
    "MIN_DIFFICULTY": "stkit.dice.model",
    "STANDARD_RULES": "stkit.dice.model",
    "Degree": "stkit.dice.model",
    "HouseRules": "stkit.dice.model",
    "Outcome": "stkit.dice.model",
    "RollResult": "stkit.dice.model",
    "Specialty": "stkit.dice.model",
    "retry_difficulty": "stkit.dice.model",
    "validate_difficulty": "stkit.dice.model",
    "validate_pool": "stkit.dice.model",
    "validate_target": "stkit.dice.model",
    "RollKind": "stkit.dice.request",
    "RollRequest": "stkit.dice.request",
    "resolve_roll": "stkit.dice.request",
    "roll_multiple_actions": "stkit.dice.request",
    "validate_roll_options": "stkit.dice.request",
    "RandomSource": "stkit.dice.roll",
    "check_faces": "stkit.dice.roll",
    "count_dice": "stkit.dice.roll",
    "roll_faces": "stkit.dice.roll",
    "roll_pool": "stkit.dice.roll",
    "score_dice": "stkit.dice.roll",
    "take_automatic_success": "stkit.dice.roll",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


__all__ = [
    "DEFAULT_DIFFICULTY",
    "MAX_DIFFICULTY",
    "MAX_POOL",
    "MAX_TARGET",
    "MIN_DIFFICULTY",
    "STANDARD_RULES",
    "ActionSlot",
    "Degree",
    "ExtendedTally",
    "HouseRules",
    "Outcome",
    "RandomSource",
    "ResistedResult",
    "RollKind",
    "RollRequest",
    "RollResult",
    "Specialty",
    "TeamworkResult",
    "advance_extended",
    "check_faces",
    "combine_teamwork",
    "count_dice",
    "eval_pool_sum",
    "multiple_action_penalties",
    "multiple_action_pools",
    "parse_faces",
    "parse_pool_number",
    "pick_difficulties",
    "resolve_resisted",
    "resolve_roll",
    "retry_difficulty",
    "roll_faces",
    "roll_multiple_actions",
    "roll_pool",
    "score_dice",
    "take_automatic_success",
    "validate_difficulty",
    "validate_pool",
    "validate_roll_options",
    "validate_target",
]
