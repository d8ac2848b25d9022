"""The Storyteller dice engine: pure Python, standard library only, randomness passed in.

One roll is a :class:`RollRequest` (validated when built) resolved by :func:`resolve_roll` into a
:class:`RollResult`; :mod:`stkit.dice.expr` parses the dice expressions people type; :mod:`stkit.dice.odds`
(not imported here) gives exact odds.

Rules source: Chapter Five: Rules (the Werewolf: The Apocalypse Revised rulebook).
"""

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
