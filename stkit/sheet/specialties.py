"""Specialties in a dice pool: which Trait of a pool has one on the sheet, and the house rule that then
applies to the roll's 10s (`--spec`).

A specialty sits on an Attribute or Ability of four dots or more (the Revised books; see
:meth:`stkit.sheet.sheet.Sheet.set_specialty`). What a 10 does on a specialised roll is a house rule
(:class:`stkit.dice.Specialty`): the rules chapter has none.
"""

from __future__ import annotations

from dataclasses import dataclass

from stkit.dice import HouseRules, Specialty
from stkit.errors import InvalidValue
from stkit.sheet.pools import PoolBreakdown
from stkit.sheet.sheet import Sheet


@dataclass(frozen=True)
class SpecialtyUse:
    """The specialty a roll used: the Trait, the specialty's name, and the house rule applied to its 10s."""

    trait: str
    name: str
    rule: Specialty

    def to_dict(self) -> dict[str, str]:
        return {"trait": self.trait, "name": self.name, "rule": self.rule.value}

    @property
    def text(self) -> str:
        words = {
            Specialty.NONE: "a 10 is one success (house rule: none)",
            Specialty.DOUBLE: "a 10 counts two successes (house rule: double)",
            Specialty.REROLL: "each 10 rolls one more die (house rule: reroll)",
        }[self.rule]
        return f"specialty {self.name} ({self.trait}): {words}"


def pool_specialty(sheet: Sheet, pool: PoolBreakdown) -> tuple[str, str] | None:
    """(Trait, specialty) of the first Trait of ``pool`` with a specialty on ``sheet``, or None."""
    for part in pool.parts:
        if part.name in sheet.specialties:
            return part.name, sheet.specialties[part.name]
    return None


def apply_specialty(sheet: Sheet, pool: PoolBreakdown, rules: HouseRules) -> tuple[HouseRules, SpecialtyUse]:
    """``--spec``: the specialty house rule in ``rules`` applies because a Trait of ``pool`` has a specialty.

    Returns the rules unchanged and what was used. Raises InvalidValue naming the pool's Traits when none
    of them has a specialty on the sheet.
    """
    found = pool_specialty(sheet, pool)
    if found is None:
        traits = ", ".join(p.name for p in pool.parts) or "no Traits"
        raise InvalidValue(
            f"--spec: no Trait of the pool {pool.expression!r} ({traits}) has a specialty on {sheet.name}'s sheet"
        )
    return rules, SpecialtyUse(found[0], found[1], rules.specialty)


__all__ = ["SpecialtyUse", "apply_specialty", "pool_specialty"]
