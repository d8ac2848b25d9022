"""Rolling an Ability the character has no dots in (Revised, "Abilities": Talents, Skills, Knowledges).

- a Talent: the Attribute alone, no penalty (everyone has some knack for it);
- a Skill: the Attribute alone, difficulty one higher (untrained work is clumsier); house rule
  ``unskilled-skill dice``: two dice fewer instead;
- a Knowledge: no roll at all, unless the Storyteller allows one (then roll the Attribute alone).

Sources: the Revised Abilities text as published on snakepit.wikidot.com/abilities (Talents, Skills) and
wodpedia.wikidot.com/knowledges (Knowledges); wodpedia's Skills page reads "two dice fewer" instead: the
Revised reading is the default, the other the house rule ``unskilled-skill dice``. Custom and secondary
Abilities have no category and no penalty. Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from stkit.errors import RuleRefusal
from stkit.sheet import traits as T
from stkit.sheet.sheet import Sheet


@dataclass(frozen=True)
class Unskilled:
    """What the rule does to a pool: ``difficulty_change`` (0 or 1), ``dice_change`` (0 or -2) and
    ``notes`` to show beside the roll ('Brawl 0: a Talent, no penalty'). Empty when every Ability of the
    pool is rated."""

    difficulty_change: int = 0
    notes: tuple[str, ...] = ()
    dice_change: int = 0


def unskilled(sheet: Sheet, traits: list[str], *, skill_rule: str = "difficulty") -> Unskilled:
    """The unskilled rule for the Traits of a pool (display names as the sheet uses them); ``skill_rule``
    is the house rule ``unskilled-skill`` (``difficulty`` or ``dice``). Raises RuleRefusal naming the
    Knowledge when one is unrated (a Storyteller's call, not a roll)."""
    change = 0
    dice = 0
    notes: list[str] = []
    for trait in traits:
        ability = T.lookup_ability(trait)
        if ability is None or sheet.abilities.get(ability, 0) > 0:
            continue
        if ability in T.TALENTS:
            notes.append(f"{ability} 0: a Talent, rolled on the Attribute alone with no penalty")
        elif ability in T.SKILLS and skill_rule == "dice":
            dice = -2
            notes.append(f"{ability} 0: an untrained Skill, two dice fewer (house rule)")
        elif ability in T.SKILLS:
            change = 1
            notes.append(f"{ability} 0: an untrained Skill, difficulty +1")
        elif ability in T.KNOWLEDGES:
            raise RuleRefusal(
                f"{ability} is a Knowledge and {sheet.name} has no dots in it: it cannot be rolled untrained "
                "unless the Storyteller allows it (then roll the Attribute alone)"
            )
    return Unskilled(change, tuple(notes), dice)
