"""A roll's composition: what the rules in force make of one roll before its dice are rolled.

Pure: given the chronicle's house rules (read once per roll), the roll's own choices, the sheet and the
pool as the sheet builds it, decide

- the difficulty: the roll's own, else the difficulty the Storyteller called (or a saved roll's), else
  the chronicle's default; a player's own difficulty counts only under the house rule
  ``player-difficulty yes`` (Chapter Five, "Difficulties": the Storyteller sets the difficulty);
- the rule choices: a player's roll never chooses house rules, the Storyteller's may;
- the extra-dice limit: a player adds or takes away at most ``table-extra-dice`` dice (a limit on what a
  player may choose, not a dice rule);
- the unskilled rule (:mod:`stkit.sheet.unskilled`): an untrained Skill at difficulty +1 (the Revised
  Abilities text; ``unskilled-skill dice``: two dice fewer), a Talent with no penalty, an unrated
  Knowledge refused.

Every door (`stkit roll -c`, the shell, saved rolls, the table page, Discord) gets the same answer through
:func:`stkit.store.rolling.make_roll` and ``odds_for``, which call :func:`compose_roll`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stkit.dice.house import NO_OVERRIDES, ChronicleRules, RuleOverrides
from stkit.dice.model import MAX_DIFFICULTY
from stkit.errors import InvalidValue

if TYPE_CHECKING:
    from stkit.sheet.pools import PoolBreakdown
    from stkit.sheet.sheet import Sheet


@dataclass(frozen=True)
class Composition:
    """What the rules make of one roll.

    Attributes:
        overrides: the roll's own choices as they stand (a player's rule choices dropped), with the
            difficulty filled in whenever it is not the chronicle's default (then None).
        dice_change: dice added to the pool (0, or -2 for an untrained Skill under ``unskilled-skill dice``).
        difficulty_change: the unskilled raise folded into ``overrides.difficulty`` (0 or 1).
        notes: lines to show beside the roll ('Melee 0: an untrained Skill, difficulty +1').
        asked: the difficulty before the unskilled rule (the roll's own, the preset or the chronicle's
            default), kept in the log so that the same roll can be made again.
    """

    overrides: RuleOverrides = NO_OVERRIDES
    dice_change: int = 0
    difficulty_change: int = 0
    notes: tuple[str, ...] = ()
    asked: int | None = None


def base_difficulty(
    rules: ChronicleRules, own: int | None, *, preset: int | None = None, by_player: bool = False
) -> int | None:
    """The difficulty a roll is made at before the unskilled rule: ``own`` (the roll's own, 2..10) unless
    a player chose it without the house rule ``player-difficulty yes``, else ``preset`` (called by the
    Storyteller, or a saved roll's), else None (the chronicle's default, ``rules.difficulty``)."""
    if own is not None and (not by_player or rules.player_difficulty):
        return own
    return preset


def check_extra_dice(rules: ChronicleRules, pool: PoolBreakdown | None, *, by_player: bool) -> None:
    """Refuse (InvalidValue) a player's roll whose extra dice, or dice of penalty, pass the chronicle's
    ``table-extra-dice`` (0..20) either way; the Storyteller's rolls are not bound by it."""
    if not by_player or pool is None:
        return
    added = sum(n for n in pool.extra if n > 0)
    taken = -sum(n for n in pool.extra if n < 0)
    limit = rules.table_extra_dice
    if added > limit or taken > limit:
        raise InvalidValue(
            f"extra dice: at most {limit} either way on a player's roll (house rule table-extra-dice); "
            f"{pool.expression!r} adds {added} and takes away {taken}"
        )


def compose_roll(
    rules: ChronicleRules,
    overrides: RuleOverrides = NO_OVERRIDES,
    *,
    sheet: Sheet | None = None,
    pool: PoolBreakdown | None = None,
    by_player: bool = False,
    preset_difficulty: int | None = None,
    unskilled_rule: bool = True,
) -> Composition:
    """The composition of one roll under the chronicle's house ``rules`` (as stored, before the roll's
    ``overrides``): see the module docstring. ``sheet`` and ``pool``: the roll's sheet and its pool as
    built (None for a bare number of dice); ``by_player``: made from a player's link, phone or claimed
    Discord user; ``preset_difficulty``: the Storyteller's called difficulty or a saved roll's (2..10);
    ``unskilled_rule`` False for a pool built by its door (an attack's, a fight rule's). Raises
    RuleRefusal for an unrated Knowledge, InvalidValue for extra dice past the player's limit."""
    own = overrides.difficulty
    kept = RuleOverrides() if by_player else dataclasses.replace(overrides, difficulty=None)
    check_extra_dice(rules, pool, by_player=by_player)
    difficulty = base_difficulty(rules, own, preset=preset_difficulty, by_player=by_player)
    asked = difficulty if difficulty is not None else rules.difficulty
    change, dice = 0, 0
    notes: tuple[str, ...] = ()
    if unskilled_rule and sheet is not None and pool is not None:
        from stkit.sheet.unskilled import unskilled  # lazy: start-up (a plain roll reads no sheet)

        rule = unskilled(sheet, [p.name for p in pool.parts], skill_rule=rules.unskilled_skill)
        change, dice, notes = rule.difficulty_change, rule.dice_change, rule.notes
    if change:
        start = difficulty if difficulty is not None else rules.difficulty
        difficulty = min(MAX_DIFFICULTY, start + change)
    return Composition(kept.at_difficulty(difficulty), dice, change, tuple(notes), asked)
