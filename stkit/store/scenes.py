"""Scene hooks called by the character roll use case (stkit.store.rolls).

CONTRACT between the character-store work and the scenes work (the scenes work owns this file and fills
these in; the character-store work calls them from its roll use case, in the same transaction as the roll):

- find_turn_context(session, character) -> TurnContext | None: the open scene/turn of the character's
  chronicle, or None when no scene is open.
- check_willpower_allowed(session, character, ctx) -> None: raise stkit.errors.RuleRefusal when the
  character already spent Willpower in this turn (called before anything is spent or rolled).
- retry_count_for_task(session, character, task) -> int: how many failed tries of `task` since the last
  success (0 when task is None), so the roll's difficulty is raised by that many (capped at 10).
- record_roll_in_scene(session, character, log_entry, ctx, task) -> None: anything extra to store once the
  roll log entry exists (log_entry.id is set; the log entry already carries scene_id, turn and task).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TurnContext:
    """Where a roll falls: the open scene's id and its current turn number (1-based)."""

    scene_id: int
    turn: int


def find_turn_context(session, character) -> TurnContext | None:  # noqa: ANN001
    return None


def check_willpower_allowed(session, character, ctx: TurnContext | None) -> None:  # noqa: ANN001
    return None


def retry_count_for_task(session, character, task: str | None) -> int:  # noqa: ANN001
    return 0


def record_roll_in_scene(session, character, log_entry, ctx: TurnContext | None, task: str | None) -> None:  # noqa: ANN001
    return None
