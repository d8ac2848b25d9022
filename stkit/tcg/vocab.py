"""The card game's closed vocabularies, as string enums shared by the library and its adapters.

Each member's value is the word used in files, ``--json`` output and command options, so a member compares
equal to its plain string (``CombatKind.ATTACK == "attack"``). Sources: Equinox Update "Combat" (card
kinds, fast and slow cards), "Setting Up: Building a deck" (new and full moons); rule kinds are stkit's
own classification of its rules corpus.
"""

from __future__ import annotations

from enum import StrEnum


class CombatKind(StrEnum):
    """What a Combat Action card does in a round (Equinox Update, "Combat")."""

    ATTACK = "attack"
    DEFENSE = "defense"
    FLEX = "flex"
    COUNTERATTACK = "counterattack"


class Speed(StrEnum):
    """When a Combat card resolves against the other side's card: fast first, slow last."""

    FAST = "fast"
    NORMAL = "normal"
    SLOW = "slow"


class Moon(StrEnum):
    """The moon icon of a Combat card; a Combat deck holds as many of each."""

    NEW = "new"
    FULL = "full"


class RuleKind(StrEnum):
    """An entry of the rules corpus: a restated rule, a ruling (an FAQ answer) or a recorded conflict."""

    RULE = "rule"
    RULING = "ruling"
    CONFLICT = "conflict"


def values(enum: type[StrEnum]) -> tuple[str, ...]:
    """The members' values in definition order, for messages ("one of attack, defense, ...")."""
    return tuple(member.value for member in enum)


class Derangement(StrEnum):
    """The mental flaws the Equinox Update lists ("Special Abilities: Derangements"), as written in files."""

    AMNESIAC = "amnesiac"
    DEMOPHOBIC = "demophobic"
    HYSTERICAL = "hysterical"
    MELANCHOLIC = "melancholic"
    MANIC_DEPRESSIVE = "manic-depressive"
    MULTIPLE_PERSONA = "multiple-persona"
    OBSESSIVE = "obsessive"
    PARANOID = "paranoid"
    PERFECTIONIST = "perfectionist"
    POWERMAD = "powermad"
    VENGEFUL = "vengeful"
