"""Tracked actions that last across commands, by seam: who takes part (:mod:`stkit.store.participants`),
extended actions (:mod:`stkit.store.extended`), contests (:mod:`stkit.store.contests`) and several actions
from the sheet in one turn (:mod:`stkit.store.multi_actions`). This module only gathers their names.

Each use case runs inside the caller's transaction: a roll, its roll-log entry and its effect on a tally
are written together or not at all, and the tracked row is read with a row lock.

Rules: Chapter Five: Rules, "Extended Actions", "Teamwork", "Resisted Actions", "Try It Out", "Multiple
Actions" (see stkit.dice.contest and stkit.dice.actions).
"""

from __future__ import annotations

from stkit.store.contests import (
    abandon_contest,
    contest_rolls,
    contest_status,
    get_contest,
    list_contests,
    roll_contest,
    start_contest,
)
from stkit.store.extended import (
    ODDS_HORIZONS,
    ExtendedRollOutcome,
    abandon_extended,
    abandon_row,
    extended_rolls,
    extended_status,
    finish_odds,
    get_action,
    get_locked,
    list_extended,
    newest_first,
    replay_check,
    roll_extended,
    start_extended,
)
from stkit.store.multi_actions import (
    SheetActionSlot,
    multi_from_sheet,
)
from stkit.store.participants import (
    MAX_INTERVAL_SECONDS,
    Participant,
    ParticipantRoll,
    check_interval,
    check_pool,
    check_scene_chronicle,
    check_target,
    faces_list,
    numeric_pool,
    opponent_difficulty,
    participant,
    roll_for,
)

__all__ = [
    "MAX_INTERVAL_SECONDS",
    "ODDS_HORIZONS",
    "ExtendedRollOutcome",
    "Participant",
    "ParticipantRoll",
    "SheetActionSlot",
    "abandon_contest",
    "abandon_extended",
    "abandon_row",
    "check_interval",
    "check_pool",
    "check_scene_chronicle",
    "check_target",
    "contest_rolls",
    "contest_status",
    "extended_rolls",
    "extended_status",
    "faces_list",
    "finish_odds",
    "get_action",
    "get_contest",
    "get_locked",
    "list_contests",
    "list_extended",
    "multi_from_sheet",
    "newest_first",
    "numeric_pool",
    "opponent_difficulty",
    "participant",
    "replay_check",
    "roll_contest",
    "roll_extended",
    "roll_for",
    "start_contest",
    "start_extended",
]
