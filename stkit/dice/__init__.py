"""The Storyteller dice engine: pure Python, standard library only, randomness passed in.

Rules source: Chapter Five: Rules (``shared/seeds/004_*.txt``).
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
from stkit.dice.model import (
    DEFAULT_DIFFICULTY,
    MAX_DIFFICULTY,
    MAX_POOL,
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
)
from stkit.dice.roll import (
    count_dice,
    roll_faces,
    roll_multiple_actions,
    roll_pool,
    score_dice,
    take_automatic_success,
)

__all__ = [
    "DEFAULT_DIFFICULTY",
    "MAX_DIFFICULTY",
    "MAX_POOL",
    "MIN_DIFFICULTY",
    "STANDARD_RULES",
    "ActionSlot",
    "Degree",
    "ExtendedTally",
    "HouseRules",
    "Outcome",
    "ResistedResult",
    "RollResult",
    "Specialty",
    "TeamworkResult",
    "advance_extended",
    "combine_teamwork",
    "count_dice",
    "multiple_action_penalties",
    "multiple_action_pools",
    "resolve_resisted",
    "retry_difficulty",
    "roll_faces",
    "roll_multiple_actions",
    "roll_pool",
    "score_dice",
    "take_automatic_success",
    "validate_difficulty",
    "validate_pool",
]
