"""The store's vocabularies: the words that name a kind of damage, an experience entry, a log entry, a
trait, a status or a contest side. Each is a ``StrEnum`` whose values are exactly the strings the database
and the ``--json`` output hold, so a member compares equal to (and serialises as) its stored text.

Dice-level words (specialty, outcome, degree) live in :mod:`stkit.dice`; these are the store's own.
Standard library only: the CLI uses these as its choices without importing anything heavier.
"""

from __future__ import annotations

from enum import StrEnum


class DamageType(StrEnum):
    """The three kinds of damage a health level can hold, lightest first (the sheet's health track)."""

    bashing = "bashing"
    lethal = "lethal"
    aggravated = "aggravated"


class Power(StrEnum):
    """The traits whose temporary points are spent and regained (Chapter Five: Rules, "Game Terms",
    Points: the temporary score beside the rating)."""

    willpower = "willpower"
    rage = "rage"
    gnosis = "gnosis"


class Creature(StrEnum):
    """What a character is (:mod:`stkit.sheet.breeds`): a Garou or Fera, Kinfolk of a Changing Breed, or a
    mortal. Kinfolk and mortals have no forms and start without Rage or Gnosis."""

    shapeshifter = "shapeshifter"
    kinfolk = "kinfolk"
    mortal = "mortal"


class XpKind(StrEnum):
    """An experience-log entry: points earned, or points spent on a trait."""

    award = "award"
    spend = "spend"


class LogKind(StrEnum):
    """What made a roll-log entry: a roll from the command line or the sheet, a roll of an extended
    action, an exchange of a contest, or a step of combat (an attack roll, a damage roll, a soak roll)."""

    roll = "roll"
    extended = "extended"
    contest = "contest"
    attack = "attack"
    damage = "damage"
    soak = "soak"
    rage_action = "rage action"  # an extra action bought with Rage (`multi --rage`)
    dodge = "dodge"  # a defender's dodge, block or parry roll against an attack
    regeneration = "regeneration"  # `char regen`: the Stamina roll to regenerate under stress
    shift = "shift"  # `char shift`: Stamina + Primal-Urge to change form
    stay_active = "stay active"  # `char stay-active`: the Rage roll past Incapacitated
    rage = "rage"  # `char rage`: a Rage roll with its frenzy verdict


class TraitKind(StrEnum):
    """What a trait name resolved to (:class:`stkit.sheet.traits.TraitRef` ``kind``)."""

    attribute = "attribute"
    ability = "ability"
    custom_ability = "custom_ability"
    background = "background"
    power = "power"  # the Rage, Gnosis or Willpower rating
    power_points = "power_points"  # their temporary points
    renown = "renown"
    renown_temporary = "renown_temporary"
    identity = "identity"
    rank = "rank"
    gift = "gift"
    rite = "rite"
    merit = "merit"
    flaw = "flaw"
    specialty = "specialty"  # "Brawl specialty": the specialty of an Attribute or Ability


class SceneStatus(StrEnum):
    """A scene is open (its turns count Willpower and try-again) until it is ended."""

    open = "open"
    ended = "ended"


class ActionStatus(StrEnum):
    """An extended action or a contest: open; done (target reached, or a contest won); failed (an extended
    action ended by a botch); abandoned (given up by the Storyteller)."""

    open = "open"
    done = "done"
    failed = "failed"
    abandoned = "abandoned"


class ContestSide(StrEnum):
    """The two sides of a contest (a resisted extended action)."""

    a = "a"
    b = "b"


class ContestMode(StrEnum):
    """How a contest is won: ``tally`` (first to the target), ``lead`` (ahead by the target)."""

    tally = "tally"
    lead = "lead"


__all__ = [
    "ActionStatus",
    "ContestMode",
    "ContestSide",
    "DamageType",
    "LogKind",
    "Power",
    "SceneStatus",
    "TraitKind",
    "XpKind",
]
