"""A Werewolf character sheet as plain data, its validation, and the edits the `char` commands make.

Pure Python (no database): the store keeps a sheet as one JSON document next to its indexed columns, and
the same dict is the YAML/JSON character file format (see docs/characters.md).

Ranges (Chapter Five: Rules, "Ratings"): Attributes and Abilities 0-5 (0 exists: a deformity, Appearance
in Crinos); Rage, Gnosis, Willpower and Renown rated 0-10 with temporary points beside the rating.
Health: the seven levels of the Revised sheet and their wound penalties (docs/characters.md, "Health").
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from dataclasses import dataclass, field
from typing import Any, NoReturn

from stkit.errors import DataFileError, InvalidValue, RuleRefusal
from stkit.sheet import breeds as B
from stkit.sheet import traits as T
from stkit.sheet.deformity import lookup_deformity
from stkit.sheet.forms import FORM_NAMES, METIS_BREEDS, breed_form, lookup_form
from stkit.sheet.vocab import TraitKind
from stkit.text import (
    MAX_NAME,
    MAX_NOTES,
    check_text,
    counted,
    parse_whole_number,
    printable,
    shown_path,
    value_kind,
    with_article,
    without_quotes,
)

#: The seven health levels, shallowest first, with their dice penalty (None: cannot act).
HEALTH_LEVELS: tuple[tuple[str, int | None], ...] = (
    ("Bruised", 0),
    ("Hurt", -1),
    ("Injured", -1),
    ("Wounded", -2),
    ("Mauled", -2),
    ("Crippled", -5),
    ("Incapacitated", None),
)
DEFAULT_ATTRIBUTE = 1
#: Most experience a sheet may hold in all (stkit's bound, so a stored sheet always reads back).
MAX_XP = 1_000_000
#: Most Rage points (Rage may go above its rating; stkit's bound).
MAX_RAGE_POINTS = 99

#: Most entries one list or table of a sheet may hold (Gifts, custom abilities, fetishes, ...): an elder
#: has some dozens; an imported file (a Grapevine troupe may be 20 MB) must not store thousands, which
#: every `char show` and table page would then print.
MAX_ENTRIES = 1_000

#: The sections :data:`MAX_ENTRIES` bounds.
COUNTED_SECTIONS = (
    "custom_abilities",
    "backgrounds",
    "gifts",
    "rites",
    "merits",
    "flaws",
    "fetishes",
    "weapons",
    "armor",
    "specialties",
)
#: The Rage and Gnosis a Kinfolk or mortal sheet starts with (neither has them unless the sheet says so).
KIN_POWERS = {"Rage": 0, "Gnosis": 0, "Willpower": 3}

#: The fields of a weapon on the sheet: field -> ("text" | "flag" | "int", default, low, high) or
#: ("choice", default, choices). Attack and damage name the Attribute / Ability rolled; accuracy and
#: damage_bonus are extra dice. Ranges are stkit's bounds, wide enough for any published weapon.
WEAPON_FIELDS: dict[str, tuple] = {
    "name": ("text", ""),
    "kind": ("choice", "melee", ("melee", "ranged")),
    "attack_attribute": ("text", "Dexterity"),
    "attack_ability": ("text", ""),
    "accuracy": ("int", 0, -10, 10),
    "damage_attribute": ("text", ""),
    "damage_bonus": ("int", 0, 0, 20),
    "damage_type": ("choice", "bashing", T.DAMAGE_TYPES),
    "difficulty": ("int", 6, 2, 10),
    "natural": ("flag", False),
    "two_handed": ("flag", False),
    "equipped": ("flag", False),
    "conceal": ("text", ""),
    "range": ("int", 0, 0, 10_000),
    "rate": ("int", 0, 0, 100),
    "clip": ("int", 0, 0, 1000),
    "loaded": ("int", 0, 0, 1000),  # rounds in the clip now
}
#: The fields of a piece of armour: soak dice by damage type, the Dexterity penalty (dice lost), the forms
#: it can be worn in.
ARMOR_FIELDS: dict[str, tuple] = {
    "name": ("text", ""),
    "bashing": ("int", 0, 0, 10),
    "lethal": ("int", 0, 0, 10),
    "aggravated": ("int", 0, 0, 10),
    "dexterity_penalty": ("int", 0, 0, 5),
    "equipped": ("flag", False),
    "forms": ("forms", ("Homid",)),
}
FETISH_FIELDS: dict[str, tuple] = {
    "name": ("text", ""),
    "level": ("int", 1, 1, 6),
    "gnosis": ("int", 0, 0, 10),
}
#: stkit's defaults for a new sheet (not from the rules chapter): Rage 1, Gnosis 1, Willpower 3, full points.
DEFAULT_POWERS = {"Rage": 1, "Gnosis": 1, "Willpower": 3}
#: The Revised books allow a specialty on an Attribute or Ability of this many dots or more.
SPECIALTY_MIN_DOTS = 4
#: Words that make a ``char set`` name a specialty: "Brawl specialty" (also the Foundry spelling).
_SPECIALTY_WORDS = ("specialty", "speciality")


@dataclass
class Track:
    """A rating (0-10) and its temporary points (0..rating; Rage's points may exceed the rating)."""

    permanent: int
    temporary: int

    def to_dict(self) -> dict:
        return {"permanent": self.permanent, "temporary": self.temporary}


def _levels(n: int) -> str:
    return f"{n} level{'s' if n != 1 else ''}"


@dataclass
class DamageTaken:
    """What :meth:`Sheet.take_damage` did: ``marked`` empty levels filled, ``upgraded`` lighter levels turned
    into ``kind`` (by the kind they were), ``lost`` levels that had nowhere to go."""

    requested: int
    kind: str
    marked: int = 0
    upgraded: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    was_incapacitated: bool = False
    incapacitated: bool = False
    #: bashing levels past Incapacitated that turned a bashing level into lethal
    overflowed: int = 0
    #: a level past Incapacitated found nothing to turn: the character is dead
    killed: bool = False
    #: a shapeshifter whose Incapacitated level now holds lethal or worse: back to this breed form
    reverted_to: str | None = None

    @property
    def taken(self) -> int:
        """Levels that changed the health track (marked or upgraded)."""
        return self.marked + sum(self.upgraded.values())

    def warnings(self, name: str) -> list[str]:
        """Plain sentences for what did not simply fill empty levels, and for being Incapacitated."""
        out = []
        for lighter, count in self.upgraded.items():
            out.append(
                f"{_levels(count)} of {lighter} damage became {self.kind}: all seven health levels were "
                f"filled, and worse damage replaces lighter damage"
            )
        holding = {"aggravated": "aggravated damage", "lethal": "lethal or aggravated damage", "bashing": "damage"}[
            self.kind
        ]
        if self.overflowed:
            out.append(
                f"{_levels(self.overflowed)} of bashing damage past Incapacitated turned bashing levels into lethal"
            )
        if self.reverted_to:
            out.append(
                f"{name} falls back to {self.reverted_to} form with lethal damage past Incapacitated; "
                f"a Rage roll at difficulty 8 may keep them in the fight (stkit char stay-active)"
            )
        if self.killed:
            out.append(f"{name} is dead: {_levels(self.lost)} of {self.kind} damage came past Incapacitated")
            return out
        if self.lost and self.taken:  # only a full track (so Incapacitated) turns damage away
            out.append(
                f"{self.taken} of {_levels(self.requested)} of {self.kind} damage taken: {name} is "
                f"Incapacitated; {self.lost} more had nowhere to go (all seven health levels now hold "
                f"{holding})"
            )
        elif self.lost:
            out.append(
                f"the {_levels(self.requested)} of {self.kind} damage had nowhere to go: all seven "
                f"health levels already held {holding}; {name} is Incapacitated"
            )
        elif self.incapacitated:
            out.append(f"{name} {'is still' if self.was_incapacitated else 'is now'} Incapacitated")
        return out

    def to_dict(self) -> dict:
        return {
            "requested": self.requested,
            "kind": self.kind,
            "taken": self.taken,
            "marked": self.marked,
            "upgraded": dict(self.upgraded),
            "lost": self.lost,
            "overflowed": self.overflowed,
            "killed": self.killed,
            "reverted_to": self.reverted_to,
        }


@dataclass
class Sheet:
    """One character. Names of traits are display names ('Animal Ken'); only non-zero Abilities are kept."""

    name: str
    chronicle: str = "default"
    player: str = ""
    concept: str = ""
    nature: str = ""
    demeanor: str = ""
    breed: str = ""
    auspice: str = ""
    tribe: str = ""
    pack: str = ""
    totem: str = ""  # the pack totem
    deformity: str = ""  # a metis's deformity (stkit.sheet.deformity)
    fera: str = B.GAROU  # the Changing Breed (stkit.sheet.breeds)
    creature: str = "shapeshifter"  # shapeshifter | kinfolk | mortal
    rank: int = 0
    form: str = "Homid"
    attributes: dict[str, int] = field(default_factory=lambda: {a: DEFAULT_ATTRIBUTE for a in T.ATTRIBUTES})
    abilities: dict[str, int] = field(default_factory=dict)
    custom_abilities: dict[str, int] = field(default_factory=dict)
    specialties: dict[str, str] = field(default_factory=dict)  # trait display name -> specialty
    backgrounds: dict[str, int] = field(default_factory=dict)
    gifts: list[dict] = field(default_factory=list)  # {"name": str, "level": 1..6}
    rites: list[dict] = field(default_factory=list)  # {"name": str, "level": 1..6}
    merits: list[dict] = field(default_factory=list)  # {"name": str, "points": 0..7}
    flaws: list[dict] = field(default_factory=list)
    fetishes: list[dict] = field(default_factory=list)  # {"name", "level": 1..6, "gnosis": 0..10}
    weapons: list[dict] = field(default_factory=list)  # WEAPON_FIELDS
    armor: list[dict] = field(default_factory=list)  # ARMOR_FIELDS
    renown: dict[str, Track] = field(default_factory=lambda: {r: Track(0, 0) for r in T.RENOWN})
    powers: dict[str, Track] = field(default_factory=lambda: {p: Track(v, v) for p, v in DEFAULT_POWERS.items()})
    health: dict[str, int] = field(default_factory=lambda: {d: 0 for d in T.DAMAGE_TYPES})
    xp_total: int = 0
    xp_spent: int = 0
    xp_log: list[dict] = field(default_factory=list)  # {"at": iso, "kind": award|spend, "amount": n, "reason": str}
    biography: str = ""
    notes: str = ""
    storyteller_notes: str = ""
    # saved rolls by name: {"pool": "Dexterity + Brawl", "difficulty": 6, "spec": bool} (stkit.store.saved)
    saved_rolls: dict[str, dict] = field(default_factory=dict)

    # ----- reading -----------------------------------------------------------------------------------------
    def rating(self, trait: str) -> int:
        """The sheet's own rating of a display-named trait (no form change): Attribute, Ability, custom
        Ability, Background, Rage/Gnosis/Willpower rating or Renown (permanent). 0 when absent."""
        if trait in self.attributes:
            return self.attributes[trait]
        if trait in self.powers:
            return self.powers[trait].permanent
        if trait in self.renown:
            return self.renown[trait].permanent
        for table in (self.abilities, self.custom_abilities, self.backgrounds):
            if trait in table:
                return table[trait]
        return 0

    @property
    def damage_boxes(self) -> int:
        """Health levels filled, 0..7."""
        return sum(self.health.values())

    @property
    def health_level(self) -> str | None:
        """The deepest damaged level's name, or None when unhurt."""
        n = self.damage_boxes
        return HEALTH_LEVELS[n - 1][0] if n else None

    @property
    def incapacitated(self) -> bool:
        return self.damage_boxes >= len(HEALTH_LEVELS)

    @property
    def wound_penalty(self) -> int:
        """Dice lost to wounds (0, 1, 2 or 5): the penalty of the deepest damaged level. Incapacitated
        characters cannot act at all (callers check :attr:`incapacitated`)."""
        n = self.damage_boxes
        if n == 0 or self.incapacitated:
            return 0
        return -(HEALTH_LEVELS[n - 1][1] or 0)

    def health_boxes(self) -> list[str]:
        """Seven entries, worst damage first: 'aggravated', 'lethal', 'bashing' or '' (unhurt level)."""
        boxes = [d for d in T.DAMAGE_TYPES for _ in range(self.health[d])]
        return boxes + [""] * (len(HEALTH_LEVELS) - len(boxes))

    @property
    def xp_available(self) -> int:
        return self.xp_total - self.xp_spent

    # ----- editing -----------------------------------------------------------------------------------------
    def set_trait(
        self, text: str, value: str | int, *, custom: bool = False, fill_points: bool = False
    ) -> tuple[T.TraitRef, object, list[str]]:
        """Set a trait from text (see :func:`stkit.sheet.traits.resolve_settable`). Returns (trait, new value,
        warnings). Ratings are checked against their range; a value of 0 removes Abilities, Backgrounds and
        entries. ``custom=True`` makes an unknown name a custom Ability. Raises InvalidValue.

        A new Rage, Gnosis or Willpower rating leaves the points alone (``char set`` on a character in
        play), except that Willpower and Gnosis points are lowered to a lowered rating (they never exceed
        it). ``fill_points=True`` (a sheet being created) sets the points to the new rating instead."""
        warnings: list[str] = []
        trait = specialty_trait(text)
        if trait is not None:
            return self.set_specialty(trait, str(value))
        text = self._renown_words(text)
        try:
            ref = T.resolve_settable(
                text, custom_abilities=tuple(self.custom_abilities), backgrounds=tuple(self.backgrounds)
            )
        except InvalidValue:
            if not custom or ":" in text:
                raise
            ref = T.TraitRef(TraitKind.custom_ability, text.strip())
        if ref.kind == TraitKind.identity:
            new: object = str(value)
            check_identity_text(ref.name, str(value))
            if ref.name == "breed":
                new = B.lookup_breed(str(value), self.fera)
            elif ref.name == "auspice":
                new = B.lookup_auspice(str(value), self.fera)
            elif ref.name == "fera":
                new = B.get_changing_breed(str(value)).name
                warnings += self._refit_breed(str(new))
            elif ref.name == "deformity":
                new, more = lookup_deformity(str(value))
                warnings += more
            elif ref.name == "creature":
                new = B.lookup_creature(str(value))
                if new != "shapeshifter" and self.form != "Homid":
                    warnings.append(f"{self.name} is now in Homid form: a {new} has no other forms")
                    self.form = "Homid"
            setattr(self, ref.name, new)
            return ref, new, warnings
        if ref.kind == TraitKind.specialty:
            return self.set_specialty(ref.name, str(value))
        n = _int(value, ref)
        if ref.kind in (
            TraitKind.gift,
            TraitKind.rite,
            TraitKind.merit,
            TraitKind.flaw,
            TraitKind.custom_ability,
            TraitKind.background,
        ):
            check_text(ref.name, f"{ref.kind.replace('_', ' ')} name")
        if ref.kind in (TraitKind.gift, TraitKind.rite, TraitKind.merit, TraitKind.flaw):
            entries = getattr(self, ref.kind + "s")
            key = "level" if ref.kind in (TraitKind.gift, TraitKind.rite) else "points"
            keep = [e for e in entries if T.norm(e["name"]) != T.norm(ref.name)]
            if n != 0:
                T.check_rating(n, ref)
                keep.append({"name": ref.name, key: n})
            setattr(self, ref.kind + "s", keep)
            return ref, n, warnings
        if ref.kind == TraitKind.power_points:
            track = self.powers[ref.name]
            if ref.name == "Rage":
                T.check_rating(n, T.TraitRef(TraitKind.power_points, "Rage", 99))
                if n > track.permanent:
                    warnings.append(f"Rage points {n} exceed the Rage rating {track.permanent}")
            else:
                T.check_rating(n, T.TraitRef(TraitKind.power_points, ref.name, track.permanent))
            track.temporary = n
            return ref, n, warnings
        T.check_rating(n, ref)
        if ref.name in self.specialties and n < SPECIALTY_MIN_DOTS:
            warnings.append(
                f"{ref.name} specialty {self.specialties.pop(ref.name)!r} removed: {ref.name} is now {n}, "
                f"below the {SPECIALTY_MIN_DOTS} dots a specialty needs"
            )
        if ref.kind == TraitKind.attribute:
            self.attributes[ref.name] = n
        elif ref.kind in (TraitKind.ability, TraitKind.custom_ability, TraitKind.background):
            table = {
                "ability": self.abilities,
                "custom_ability": self.custom_abilities,
                "background": self.backgrounds,
            }[ref.kind]
            if n:
                table[ref.name] = n
            else:
                table.pop(ref.name, None)
        elif ref.kind == TraitKind.power:
            track = self.powers[ref.name]
            track.permanent = n
            if fill_points:
                track.temporary = n
            elif ref.name != "Rage" and track.temporary > n:
                track.temporary = n
                warnings.append(f"{ref.name} points lowered to the new rating {n}")
            elif ref.name == "Rage" and track.temporary > n:
                warnings.append(f"Rage points {track.temporary} exceed the Rage rating {n}")
        elif ref.kind == TraitKind.renown:
            self.renown[ref.name].permanent = n
        elif ref.kind == TraitKind.renown_temporary:
            self.renown[ref.name].temporary = n
        elif ref.kind == TraitKind.rank:
            self.rank = n
        return ref, n, warnings

    def set_specialty(self, trait: str, value: str) -> tuple[T.TraitRef, object, list[str]]:
        """Give the Attribute or Ability ``trait`` the specialty ``value`` ('' or 'none' removes it); returns
        (trait, new specialty or '', warnings) like :meth:`set_trait`.

        The Revised books allow a specialty only on a Trait of SPECIALTY_MIN_DOTS dots or more. Raises
        InvalidValue for another kind of Trait, a lower rating (naming it), or text with control characters
        or over MAX_SHORT_TEXT characters."""
        name = self.specialty_target(trait)
        ref = T.TraitRef(TraitKind.specialty, name)
        text = value.strip()
        if text.casefold() in ("", "none", "-", "remove"):
            self.specialties.pop(name, None)
            return ref, "", []
        check_text(text, f"{name} specialty")
        rating = self.rating(name)
        if rating < SPECIALTY_MIN_DOTS:
            raise InvalidValue(
                f"{name} is rated {rating}; a specialty needs a Trait of {SPECIALTY_MIN_DOTS} dots or more"
            )
        self.specialties[name] = text
        return ref, text, []

    def specialty_target(self, text: str) -> str:
        """The display name of the Attribute, Ability or custom Ability ``text`` names, for a specialty.
        Raises InvalidValue (with a suggestion) for anything else."""
        if (a := T.lookup_attribute(text)) is not None or (a := T.lookup_ability(text)) is not None:
            return a
        for name in self.custom_abilities:
            if T.norm(name) == T.norm(text):
                return name
        if T.lookup_power(text) or T.lookup_renown(text):
            raise InvalidValue(
                f"{text.strip()} is rated to 10 and cannot have a specialty; specialties go on Attributes and Abilities"
            )
        choices = list(T.ATTRIBUTES) + list(T.ABILITIES) + list(self.custom_abilities)
        raise InvalidValue(
            f"{text.strip()!r} cannot have a specialty{T.did_you_mean(text, choices)}; "
            "specialties go on Attributes and Abilities"
        )

    def set_new_traits(self, items: list[tuple[str, str | int]], *, custom: bool = False) -> list[str]:
        """Set the traits of a sheet being created (``char new --set TRAIT=VALUE ...``); returns the warnings.

        A new sheet starts with full points (stkit's choice, see docs/characters.md), so a Rage, Gnosis or
        Willpower rating set here also sets its points to the rating, unless the points are given too
        (``"Willpower points"=2``): those are applied after every rating, whatever the order they were
        given in, and checked against the new rating. Raises InvalidValue for the first bad item."""
        ratings: list[tuple[str, str | int]] = []
        points: list[tuple[str, str | int]] = []
        for text, value in items:
            try:
                kind = T.resolve_settable(
                    text, custom_abilities=tuple(self.custom_abilities), backgrounds=tuple(self.backgrounds)
                ).kind
            except InvalidValue:
                kind = None  # set_trait raises it again (or makes a custom Ability), in order
            # points and specialties are checked against the ratings, so they come after every rating
            later = kind == "power_points" or specialty_trait(text) is not None
            (points if later else ratings).append((text, value))
        warnings: list[str] = []
        for text, value in ratings:
            warnings += self.set_trait(text, value, custom=custom, fill_points=True)[2]
        for text, value in points:
            warnings += self.set_trait(text, value, custom=custom)[2]
        return warnings

    def spend(self, power: str, n: int = 1) -> Track:
        """Spend ``n`` (>= 1) temporary points of Rage, Gnosis or Willpower.

        Raises RuleRefusal, with nothing spent, when fewer than ``n`` points are left."""
        name = _power_name(power)
        _positive(n, "points to spend")
        track = self.powers[name]
        if track.temporary < n:
            left = f"no {name} points" if track.temporary == 0 else f"only {counted(track.temporary, f'{name} point')}"
            raise RuleRefusal(f"{self.name} has {left} left; cannot spend {n}")
        track.temporary -= n
        return track

    def regain(self, power: str, n: int = 1) -> tuple[Track, list[str]]:
        """Regain ``n`` (>= 1) points. Willpower and Gnosis stop at the rating (the rest is lost, with a
        warning); Rage may go above its rating, with a warning."""
        name = _power_name(power)
        _positive(n, "points to regain")
        track, warnings = self.powers[name], []
        target = track.temporary + n
        if name != "Rage" and target > track.permanent:
            warnings.append(f"{name} points stop at the rating {track.permanent}")
            target = track.permanent
        if name == "Rage" and target > MAX_RAGE_POINTS:
            raise InvalidValue(
                f"{self.name} has {track.temporary} Rage points; regaining {n} would make {target}, "
                f"outside the allowed range 0 to {MAX_RAGE_POINTS}"
            )
        if name == "Rage" and target > track.permanent:
            warnings.append(f"Rage points {target} exceed the Rage rating {track.permanent}")
        track.temporary = max(track.temporary, target)
        return track, warnings

    def take_damage(self, n: int, kind: str = "bashing", *, mortal_overflow: str = "kill") -> DamageTaken:
        """Take ``n`` (>= 1) health levels of ``kind`` damage and report what happened to each level.

        Rules (docs/combat.md, "Wounds past Incapacitated"; the Revised sheet's health track): each level
        fills the next empty health level (seven at most). Once all seven are filled:

        - a level of bashing damage turns a bashing level into lethal (none left: it is a killing level);
        - a level of lethal or aggravated damage kills a mortal or Kinfolk outright; a shapeshifter's turns the
          lightest lighter level into ``kind`` (aggravated beats lethal beats bashing).

        A level with nothing left to turn has nowhere to go (``lost`` counts them). For a mortal it kills;
        a shapeshifter whose Incapacitated level comes to hold lethal or worse instead falls back to the
        breed form (``reverted_to``; the sheet's form changes; a metis stays in Crinos) with the Rage roll
        to stay active offered, and dies of the next level that finds them so downed, in this hit or a later one
        (``killed``): 9 levels at once kill as 7 then 2 do.
        ``mortal_overflow`` (the `mortal-overflow` house key): ``kill`` as above; ``upgrade``: a mortal's level
        of lethal or aggravated damage turns a lighter box into its kind as a shapeshifter's does, and kills
        only when nothing is left to turn (docs/characters.md's reading).
        Raises InvalidValue for a bad kind, ``mortal_overflow`` or ``n`` below 1."""

        kind = damage_type(kind)
        if mortal_overflow not in ("kill", "upgrade"):
            raise InvalidValue(f"mortal overflow {mortal_overflow!r} is not allowed; allowed: kill or upgrade")
        _positive(n, "health levels of damage")
        report = DamageTaken(requested=n, kind=kind, was_incapacitated=self.incapacitated)
        mortal = self.creature != "shapeshifter"
        was_down_lethal = self.incapacitated and not self.health["bashing"]
        for i in range(n):
            if self.damage_boxes < len(HEALTH_LEVELS):
                self.health[kind] += 1
                report.marked += 1
                continue
            if kind == "bashing" and self.health["bashing"]:
                self.health["bashing"] -= 1
                self.health["lethal"] += 1
                report.overflowed += 1
                continue
            lighter = [d for d in reversed(T.DAMAGE_TYPES) if self.health[d] and _worse(kind, d)]
            if kind == "bashing" or (mortal and mortal_overflow == "kill") or not lighter:
                report.lost = n - i
                # downed by lethal or worse, by an earlier hit or by this one's first levels: the same
                # damage kills however it is split
                report.killed = mortal or was_down_lethal or not self.health["bashing"]
                break
            self.health[lighter[0]] -= 1
            self.health[kind] += 1
            report.upgraded[lighter[0]] = report.upgraded.get(lighter[0], 0) + 1
        report.incapacitated = self.incapacitated
        if (
            not mortal
            and not report.killed
            and self.incapacitated
            and not self.health["bashing"]
            and not was_down_lethal
        ):
            home = breed_form(self.fera, self.breed) or ("Crinos" if self.breed in METIS_BREEDS else "Homid")
            report.reverted_to = home
            self.form = home
        return report

    def damage(self, n: int, kind: str = "bashing") -> list[str]:
        """:meth:`take_damage`, returning only the warnings (see :meth:`DamageTaken.warnings`)."""
        return self.take_damage(n, kind).warnings(self.name)

    def heal(self, n: int, kind: str | None = None) -> int:
        """Heal up to ``n`` (>= 1) levels of ``kind`` (default: the lightest damage first). Returns levels healed."""
        _positive(n, "health levels to heal")
        order = [damage_type(kind)] if kind else list(reversed(T.DAMAGE_TYPES))
        healed = 0
        for d in order:
            take = min(self.health[d], n - healed)
            self.health[d] -= take
            healed += take
        return healed

    def _refit_breed(self, fera: str) -> list[str]:
        """Empty the breed and auspice that the Changing Breed ``fera`` does not have; returns warnings."""
        warnings = []
        for f, lookup in (("breed", B.lookup_breed), ("auspice", B.lookup_auspice)):
            try:
                lookup(getattr(self, f), fera)
            except InvalidValue:
                warnings.append(f"{f} {getattr(self, f)!r} is not one of the {fera}'s; emptied, set it again")
                setattr(self, f, "")
        return warnings

    def shift(self, form: str) -> str:
        """Change to ``form`` (Homid, Glabro, Crinos, Hispo, Lupus, or the breed's own name for one). Returns
        the form's slot. A Fera's forms are its breed's (:func:`stkit.sheet.forms.form_slots`: a form it
        lacks is refused); Kinfolk and mortals have no other form than Homid (RuleRefusal)."""
        new = lookup_form(form, self.fera)
        if new != "Homid" and self.creature != "shapeshifter":
            raise RuleRefusal(f"{self.name} is {self.creature_label} and has no {new} form; only Homid")
        self.form = new
        return self.form

    @property
    def has_forms(self) -> bool:
        """A shapeshifter has forms; a Kinfolk's or mortal's sheet has no form row."""
        return self.creature == "shapeshifter"

    def shown_powers(self) -> tuple[str, ...]:
        """The Rage, Gnosis and Willpower rows a sheet shows, in that order: all three for a shapeshifter;
        for a Kinfolk or mortal Willpower, and Rage or Gnosis only where the sheet gives it a rating or
        points (a Kinfolk with the Gnosis Merit)."""
        return tuple(
            p
            for p in T.POWERS
            if self.has_forms or p == "Willpower" or self.powers[p].permanent or self.powers[p].temporary
        )

    def renown_slot(self, text: str) -> str | None:
        """The Renown slot (Glory, Honor or Wisdom) ``text`` names on this sheet: the breed's own name for it
        ('Ferocity' on a Bastet is the Glory slot, 'Infamy' on a Ratkin too) or the slot's name; None
        otherwise."""
        key = T.norm(text)
        for slot, own in B.renown_names(self.fera).items():
            if T.norm(own) == key:
                return slot
        return T.lookup_renown(text)

    def renown_label(self, slot: str) -> str:
        """The name the sheet's breed gives the Renown ``slot`` ('Glory' on a Bastet -> 'Ferocity'); the
        slot's own name for the Garou, a Kinfolk or mortal, and a breed without Renown."""
        if self.creature != "shapeshifter":
            return slot
        return B.renown_names(self.fera).get(slot, slot)

    def renown_names_allowed(self) -> str:
        """'Ferocity, Honor, Cunning' for a Bastet; 'Glory, Honor, Wisdom' for the Garou (error messages)."""
        return ", ".join(self.renown_label(r) for r in T.RENOWN)

    def _renown_words(self, text: str) -> str:
        """``text`` with a breed's own Renown name turned into its slot's ('Ferocity points' -> 'Glory
        points' on a Bastet), so the Garou-named trait lookups find it; other text unchanged."""
        words = text.split()
        for lo, hi in ((0, len(words)), (1, len(words)), (0, len(words) - 1)):
            core = " ".join(words[lo:hi])
            if not core or T.lookup_renown(core) is not None:
                continue
            slot = self.renown_slot(core)
            if slot is not None:
                return " ".join([*words[:lo], slot, *words[hi:]])
        return text

    def shown_renown(self) -> list[tuple[str, str]]:
        """The Renown rows a sheet shows, as (slot, label): a shapeshifter its breed's own names for the
        three slots (:func:`stkit.sheet.breeds.renown_names`; none for the Nagah); a Kinfolk or mortal only
        a slot holding points, under the Garou name."""
        if self.has_forms:
            return list(B.renown_names(self.fera).items())
        return [(r, r) for r, t in self.renown.items() if t.permanent or t.temporary]

    @property
    def creature_label(self) -> str:
        """'a Garou', 'a Bastet', 'Kinfolk of the Bastet', 'a mortal'."""
        if self.creature == "mortal":
            return "a mortal"
        if self.creature == "kinfolk":
            return f"Kinfolk of the {self.fera}"
        return with_article(self.fera)

    def xp(self, kind: str, amount: int, reason: str = "", *, at: str | None = None, again: bool = False) -> dict:
        """Award or spend experience (``amount`` 1..MAX_XP). Spending more than is available raises
        RuleRefusal; an award taking the total above MAX_XP (what a stored sheet may hold), or a reason with
        control characters or over MAX_SHORT_TEXT characters, raises InvalidValue, with nothing changed.

        The same award a second time in one game night (same amount and reason, the first less than
        SAME_NIGHT_HOURS earlier) raises RuleRefusal unless ``again``: typing a command twice must not award
        twice."""
        _positive(amount, "experience points")
        if kind not in ("award", "spend"):
            raise InvalidValue(f"experience entry kind {kind!r}; allowed: award, spend")
        when = at or _now()
        if kind == "award" and not again:
            earlier = _same_award(self.xp_log, amount, reason, when)
            if earlier is not None:
                what = f"for {reason!r}" if reason else "with no reason"
                shown = earlier.replace("T", " ")[:16]
                raise RuleRefusal(
                    f"{self.name} was already awarded {amount} experience {what} at {shown} UTC, the same night; "
                    "add --again to award it a second time"
                )
        if kind == "spend":
            if amount > self.xp_available:
                raise RuleRefusal(f"{self.name} has {self.xp_available} experience to spend; cannot spend {amount}")
            self.xp_spent += amount
        else:
            if self.xp_total + amount > MAX_XP:
                raise InvalidValue(
                    f"{self.name} has {self.xp_total} experience in all; awarding {amount} would make "
                    f"{self.xp_total + amount}, outside the allowed range 0 to {MAX_XP}"
                )
            self.xp_total += amount
        check_text(reason, "experience reason")
        entry = {"at": when, "kind": kind, "amount": amount, "reason": reason}
        self.xp_log.append(entry)
        return entry

    # ----- files ------------------------------------------------------------------------------------------
    def to_dict(self, *, player_view: bool = False) -> dict:
        """The character-file shape (see docs/characters.md); ``player_view`` leaves Storyteller notes out."""
        data: dict = {
            "name": self.name,
            "chronicle": self.chronicle,
            "player": self.player,
            "concept": self.concept,
            "nature": self.nature,
            "demeanor": self.demeanor,
            "breed": self.breed,
            "auspice": self.auspice,
            "tribe": self.tribe,
            "pack": self.pack,
            "totem": self.totem,
            **({"deformity": self.deformity} if self.deformity else {}),
            "fera": self.fera,
            "creature": self.creature,
            "rank": self.rank,
            "form": self.form,
            "attributes": dict(self.attributes),
            "abilities": {a: self.abilities[a] for a in T.ABILITIES if a in self.abilities},
            "custom_abilities": dict(self.custom_abilities),
            **({"specialties": dict(self.specialties)} if self.specialties else {}),
            "backgrounds": dict(self.backgrounds),
            "gifts": [dict(g) for g in self.gifts],
            "rites": [dict(r) for r in self.rites],
            "merits": [dict(m) for m in self.merits],
            "flaws": [dict(f) for f in self.flaws],
            "fetishes": [dict(f) for f in self.fetishes],
            "weapons": [dict(w) for w in self.weapons],
            "armor": [_copy_entry(a) for a in self.armor],
            "renown": {self.renown_label(r): t.to_dict() for r, t in self.renown.items()},
            "rage": self.powers["Rage"].to_dict(),
            "gnosis": self.powers["Gnosis"].to_dict(),
            "willpower": self.powers["Willpower"].to_dict(),
            "health": dict(self.health),
            "experience": {"total": self.xp_total, "spent": self.xp_spent, "log": [dict(e) for e in self.xp_log]},
            "biography": self.biography,
            "notes": self.notes,
            **({"saved_rolls": {k: dict(v) for k, v in self.saved_rolls.items()}} if self.saved_rolls else {}),
        }
        if not player_view:
            data["storyteller_notes"] = self.storyteller_notes
        return data

    @classmethod
    def from_dict(cls, data: object, *, source: str = "character", strict: bool = True) -> Sheet:
        """Build and validate a sheet from the character-file shape. Missing fields take their defaults.

        ``strict`` (files) also checks free text (no control characters, length limits, see
        :func:`check_sheet_text`) and experience-log dates; a sheet read back from the store passes
        ``strict=False`` so rows stored before those checks still open (the CLI escapes them on display).
        Raises DataFileError naming ``source``, the field and the allowed range on any bad value."""
        return _SheetReader(source, strict=strict).read(data)


#: A saved roll's fields in a character file, and the longest name and pool text.
SAVED_ROLL_FIELDS = ("pool", "difficulty", "spec")
SAVED_NAME_MAX = 40
SAVED_POOL_MAX = 120


def _shown(value: object) -> str:
    """A bad value for a message: text quoted (so '6' reads as text), anything else as it prints; cut short."""
    return repr(value[:20]) if isinstance(value, str) else str(value)[:20]


def check_saved_roll(name: str, entry: object) -> tuple[str, dict]:
    """A saved roll as a character file or the store holds it: ``name`` (one line, 1 to 40 characters)
    and ``entry`` {"pool": text (1 to 120 characters), "difficulty": 2..10 (default 6), "spec": bool
    (default false)}, or the pool text alone. Returns (name, entry) cleaned; InvalidValue naming the field
    otherwise. The pool is checked against a sheet only when it is saved or rolled (stkit.store.saved)."""
    name = check_text(str(name), "saved roll name", limit=SAVED_NAME_MAX).strip()
    if not name:
        raise InvalidValue("a saved roll needs a name, e.g. claws")
    if isinstance(entry, str):
        entry = {"pool": entry}
    if not isinstance(entry, dict):
        raise InvalidValue("expected pool, difficulty and spec, e.g. {pool: Dexterity + Brawl, difficulty: 6}")
    extra = [k for k in entry if k not in SAVED_ROLL_FIELDS]
    if extra:
        raise InvalidValue(f"unknown field {str(extra[0])[:20]!r}; allowed: {', '.join(SAVED_ROLL_FIELDS)}")
    pool = entry.get("pool")
    if not isinstance(pool, str) or not pool.strip():
        raise InvalidValue("pool: write the Traits to roll, e.g. Dexterity + Brawl")
    pool = check_text(pool, "pool", limit=SAVED_POOL_MAX).strip()
    difficulty = entry.get("difficulty", 6)
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or not 2 <= difficulty <= 10:
        raise InvalidValue(f"difficulty {_shown(difficulty)}: allowed 2 to 10")
    spec = entry.get("spec", False)
    if not isinstance(spec, bool):
        raise InvalidValue(f"spec {_shown(spec)}: write true or false")
    return name, {"pool": pool, "difficulty": difficulty, "spec": spec}


_TOP_FIELDS = {
    "name",
    "chronicle",
    "player",
    "concept",
    "nature",
    "demeanor",
    "breed",
    "auspice",
    "tribe",
    "pack",
    "totem",
    "deformity",
    "fera",
    "creature",
    "rank",
    "form",
    "attributes",
    "abilities",
    "custom_abilities",
    "specialties",
    "saved_rolls",
    "backgrounds",
    "gifts",
    "rites",
    "merits",
    "flaws",
    "fetishes",
    "weapons",
    "armor",
    "biography",
    "renown",
    "rage",
    "gnosis",
    "willpower",
    "health",
    "experience",
    "notes",
    "storyteller_notes",
}


def _hidden(message: str, value: object) -> str:
    """A lookup's message about ``value`` read from a file, with the quoted value taken out."""
    text = str(value).strip() if value is not None else ""
    for quoted in (repr(text), repr(str(value)), f"'{text}'"):
        if len(quoted) > 2:
            message = message.replace(" " + quoted, "").replace(quoted, "the value")
    return message


class _SheetReader:
    """Strict reader of the character-file shape; every error names the source and the field."""

    def __init__(self, source: str, *, strict: bool = True) -> None:
        self.source = source
        self.strict = strict

    def fail(self, where: str, message: str) -> DataFileError:
        """The error naming the file and the field; a key that is not a field name is not shown, nor is
        any value (the file may be anything, a link to /etc/shadow included)."""
        return DataFileError(f"{self.source}: {shown_path(where)}: {message}")

    def rating(self, value: object, where: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            return self._raise(where, f"{value_kind(value)} is not a whole number; allowed: {lo} to {hi}")
        if not lo <= value <= hi:
            return self._raise(where, f"{value} is outside the allowed range {lo} to {hi}")
        return value

    def _raise(self, where: str, message: str) -> NoReturn:
        raise self.fail(where, message)

    def mapping(self, value: object, where: str) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self._raise(where, f"expected a mapping of names to values, got {type(value).__name__}")
        return value

    def text(self, value: object, where: str) -> str:
        if value is None:
            return ""
        if isinstance(value, (dict, list)):
            self._raise(where, "expected text")
        return str(value)

    def read(self, data: object) -> Sheet:
        if not isinstance(data, dict):
            raise DataFileError(f"{self.source}: expected a mapping (one character), got {type(data).__name__}")
        unknown = [k for k in data if k not in _TOP_FIELDS]
        if unknown:
            k = str(unknown[0])
            raise self.fail(
                k, f"unknown field{T.did_you_mean(k, sorted(_TOP_FIELDS))}; allowed: {', '.join(sorted(_TOP_FIELDS))}"
            )
        name = self.text(data.get("name"), "name").strip()
        if not name:
            raise self.fail("name", "a character needs a name")
        s = Sheet(name=name)
        s.chronicle = self.text(data.get("chronicle"), "chronicle").strip() or "default"
        for f in (
            "player",
            "concept",
            "nature",
            "demeanor",
            "tribe",
            "pack",
            "totem",
            "deformity",
            "biography",
            "notes",
            "storyteller_notes",
        ):
            setattr(s, f, self.text(data.get(f), f))
        field_name = "fera"
        try:
            s.fera = B.get_changing_breed(self.text(data.get("fera"), "fera")).name
            field_name = "creature"
            s.creature = B.lookup_creature(self.text(data.get("creature"), "creature"))
            field_name = "breed"
            s.breed = B.lookup_breed(self.text(data.get("breed"), "breed"), s.fera)
            field_name = "auspice"
            s.auspice = B.lookup_auspice(self.text(data.get("auspice"), "auspice"), s.fera)
            field_name = "form"
            s.form = lookup_form(self.text(data.get("form"), "form") or "Homid", s.fera)
        except (InvalidValue, RuleRefusal) as exc:
            raise self.fail(field_name, _hidden(str(exc), data.get(field_name))) from None
        if s.creature != "shapeshifter":
            if s.form != "Homid":
                raise self.fail("form", f"{s.form!r}: {s.creature_label} has no form but Homid")
            s.powers = {p: Track(v, v) for p, v in KIN_POWERS.items()}
        s.rank = self.rating(data.get("rank", 0), "rank", 0, T.MAX_RANK)
        for k, v in self.mapping(data.get("attributes"), "attributes").items():
            a = T.lookup_attribute(str(k))
            if a is None:
                raise self.fail(f"attributes.{k}", f"unknown Attribute{T.did_you_mean(str(k), T.ATTRIBUTES)}")
            s.attributes[a] = self.rating(v, f"attributes.{k}", 0, T.MAX_DOTS)
        for k, v in self.mapping(data.get("abilities"), "abilities").items():
            a = T.lookup_ability(str(k))
            if a is None:
                raise self.fail(
                    f"abilities.{k}",
                    f"unknown Ability{T.did_you_mean(str(k), T.ABILITIES)}; put other abilities under custom_abilities",
                )
            n = self.rating(v, f"abilities.{k}", 0, T.MAX_DOTS)
            if n:
                s.abilities[a] = n
        for section, schema in (("fetishes", FETISH_FIELDS), ("weapons", WEAPON_FIELDS), ("armor", ARMOR_FIELDS)):
            entries = data.get(section) or []
            if not isinstance(entries, list):
                raise self.fail(section, "expected a list of entries, each with a name")
            setattr(s, section, [self.entry(e, f"{section}[{i}]", schema) for i, e in enumerate(entries)])
        for section in ("custom_abilities", "backgrounds"):
            table = getattr(s, section)
            for k, v in self.mapping(data.get(section), section).items():
                n = self.rating(v, f"{section}.{k}", 0, T.MAX_DOTS)
                if section == "custom_abilities" and T.lookup_ability(str(k)):
                    raise self.fail(f"{section}.{k}", "is a standard Ability: put it under abilities")
                if n:
                    table[str(k).strip()] = n
        for section, key, lo, hi in (
            ("gifts", "level", 1, 6),
            ("rites", "level", 1, 6),
            ("merits", "points", 0, 7),
            ("flaws", "points", 0, 7),
        ):
            entries = data.get(section) or []
            if not isinstance(entries, list):
                raise self.fail(section, "expected a list of entries with name and " + key)
            out = []
            for i, e in enumerate(entries):
                where = f"{section}[{i}]"
                if isinstance(e, str):
                    e = {"name": e, key: lo}
                if not isinstance(e, dict) or not str(e.get("name") or "").strip():
                    raise self.fail(where, f"expected an entry with a name and a {key}")
                extra = [x for x in e if x not in ("name", key)]
                if extra:
                    raise self.fail(f"{where}.{extra[0]}", f"unknown field; allowed: name, {key}")
                out.append({"name": str(e["name"]).strip(), key: self.rating(e.get(key, lo), f"{where}.{key}", lo, hi)})
            setattr(s, section, out)
        for k, v in self.mapping(data.get("renown"), "renown").items():
            r = s.renown_slot(str(k))
            if r is None:
                own = [s.renown_label(x) for x in T.RENOWN]
                raise self.fail(
                    f"renown.{k}", f"unknown Renown{T.did_you_mean(str(k), own)}; allowed: {s.renown_names_allowed()}"
                )
            s.renown[r] = self.track(v, f"renown.{k}", allow_over=True)
        defaults = DEFAULT_POWERS if s.creature == "shapeshifter" else KIN_POWERS
        for p in T.POWERS:
            if p.lower() in data:
                s.powers[p] = self.track(data[p.lower()], p.lower(), allow_over=p == "Rage", default=defaults[p])
        health = self.mapping(data.get("health"), "health")
        for k, v in health.items():
            d = str(k).strip().lower()
            if d not in T.DAMAGE_TYPES:
                raise self.fail(f"health.{k}", "unknown damage type; allowed: bashing, lethal, aggravated")
            s.health[d] = self.rating(v, f"health.{k}", 0, len(HEALTH_LEVELS))
        if s.damage_boxes > len(HEALTH_LEVELS):
            raise self.fail("health", f"{s.damage_boxes} levels of damage; allowed: 0 to {len(HEALTH_LEVELS)} in all")
        for k, v in self.mapping(data.get("specialties"), "specialties").items():
            where = f"specialties.{k}"
            if isinstance(v, (dict, list)) or v is None:
                raise self.fail(where, "expected the specialty as text, e.g. Brawl: Claws")
            try:
                s.set_specialty(str(k), str(v))
            except InvalidValue as exc:
                raise self.fail(where, _hidden(str(exc), v)) from None
        for k, v in self.mapping(data.get("saved_rolls"), "saved_rolls").items():
            try:
                name, entry = check_saved_roll(str(k), v)
            except InvalidValue as exc:
                raise self.fail(f"saved_rolls.{k}", str(exc)) from None
            s.saved_rolls[name] = entry
        xp = self.mapping(data.get("experience"), "experience")
        extra = [x for x in xp if x not in ("total", "spent", "log")]
        if extra:
            raise self.fail(f"experience.{extra[0]}", "unknown field; allowed: total, spent, log")
        s.xp_total = self.rating(xp.get("total", 0), "experience.total", 0, 1_000_000)
        s.xp_spent = self.rating(xp.get("spent", 0), "experience.spent", 0, s.xp_total)
        log = xp.get("log") or []
        if not isinstance(log, list):
            raise self.fail("experience.log", "expected a list of entries")
        for i, e in enumerate(log):
            where = f"experience.log[{i}]"
            if not isinstance(e, dict) or e.get("kind") not in ("award", "spend"):
                raise self.fail(where, "expected an entry with kind (award or spend), amount, reason, at")
            at = self.text(e.get("at"), f"{where}.at")
            if self.strict:
                try:
                    _dt.datetime.fromisoformat(at.strip())
                except ValueError:
                    raise self.fail(
                        f"{where}.at",
                        "not a date; write e.g. 2024-05-01 or 2024-05-01T20:30:00+00:00",
                    ) from None
            s.xp_log.append(
                {
                    "at": at,
                    "kind": e["kind"],
                    "amount": self.rating(e.get("amount"), f"{where}.amount", 1, 1_000_000),
                    "reason": self.text(e.get("reason"), f"{where}.reason"),
                }
            )
        if self.strict:
            try:
                check_sheet_text(s)
            except InvalidValue as exc:
                raise DataFileError(f"{self.source}: {exc}") from None
        return s

    def entry(self, e: object, where: str, schema: dict[str, tuple]) -> dict:
        """One fetish, weapon or piece of armour checked against ``schema`` (see WEAPON_FIELDS); fields left
        out take their defaults, unknown fields are refused."""
        if isinstance(e, str):
            e = {"name": e}
        if not isinstance(e, dict) or not str(e.get("name") or "").strip():
            raise self.fail(where, "expected an entry with a name")
        extra = [x for x in e if x not in schema]
        if extra:
            raise self.fail(f"{where}.{extra[0]}", f"unknown field; allowed: {', '.join(schema)}")
        out: dict = {}
        for key, spec in schema.items():
            kind, default = spec[0], spec[1]
            value = e.get(key, default)
            at = f"{where}.{key}"
            if kind == "text":
                out[key] = self.text(value, at).strip()
            elif kind == "flag":
                if not isinstance(value, bool):
                    self._raise(at, f"{value_kind(value)} is not true or false")
                out[key] = value
            elif kind == "int":
                out[key] = self.rating(value, at, spec[2], spec[3])
            elif kind == "choice":
                t = str(value).strip().lower()
                if t not in spec[2]:
                    self._raise(at, f"{value_kind(value)} that is not allowed; allowed: {', '.join(spec[2])}")
                out[key] = t
            else:  # forms: a list of form names, kept in the table's order
                if not isinstance(value, (list, tuple)):
                    self._raise(at, "expected a list of forms")
                try:
                    named = {lookup_form(str(f)) for f in value}
                except InvalidValue as exc:
                    self._raise(at, without_quotes(str(exc)))
                out[key] = [f for f in FORM_NAMES if f in named]
        for key in ("attack_attribute", "damage_attribute"):
            if out.get(key):
                out[key] = T.lookup_attribute(out[key]) or out[key]
        if out.get("attack_ability"):
            out["attack_ability"] = T.lookup_ability(out["attack_ability"]) or out["attack_ability"]
        return out

    def track(self, value: object, where: str, *, allow_over: bool, default: int = 0) -> Track:
        """A rating and its points: ``5`` (both), or ``{permanent: 5, temporary: 3}``. Points left out are the
        rating (a sheet starts with full points); a rating left out is ``default`` (stkit's default)."""
        if isinstance(value, int) and not isinstance(value, bool):
            n = self.rating(value, where, 0, T.MAX_POWER)
            return Track(n, n)
        v = self.mapping(value, where)
        extra = [x for x in v if x not in ("permanent", "temporary")]
        if extra:
            raise self.fail(f"{where}.{extra[0]}", "unknown field; allowed: permanent, temporary")
        perm = self.rating(v.get("permanent", default), f"{where}.permanent", 0, T.MAX_POWER)
        temp = self.rating(v.get("temporary", perm), f"{where}.temporary", 0, 99 if allow_over else perm)
        return Track(perm, temp)


def drop_low_specialties(sheet_data: dict, warnings: list[str], where: str = "") -> None:
    """For importers: remove from ``sheet_data["specialties"]`` each specialty whose Trait is rated below
    SPECIALTY_MIN_DOTS in ``sheet_data`` (attributes, abilities, custom_abilities), naming each in
    ``warnings``, so a file from another tool imports with the rest of its sheet instead of being refused."""
    ratings: dict[str, int] = {}
    for section in ("attributes", "abilities", "custom_abilities"):
        ratings.update(sheet_data.get(section) or {})
    specialties = sheet_data.get("specialties") or {}
    for trait in list(specialties):
        rating = ratings.get(trait, 0)
        if rating < SPECIALTY_MIN_DOTS:
            warnings.append(
                f"{where}{trait} specialty {specialties.pop(trait)!r}: not kept: {trait} is rated {rating}, "
                f"a specialty needs {SPECIALTY_MIN_DOTS} dots or more"
            )


def specialty_trait(text: str) -> str | None:
    """'Brawl specialty' -> 'Brawl' (also 'specialty Brawl', 'Brawl speciality'); None when ``text`` does
    not name a specialty."""
    words = text.split()
    if len(words) >= 2 and words[-1].casefold() in _SPECIALTY_WORDS:
        return " ".join(words[:-1])
    if len(words) >= 2 and words[0].casefold() in _SPECIALTY_WORDS:
        return " ".join(words[1:])
    return None


def check_identity_text(field_name: str, value: str) -> str:
    """``value`` if fit for the identity field ``field_name`` (player, concept, ..., notes): no control
    characters (notes may hold newlines and tabs), at most MAX_SHORT_TEXT characters (notes MAX_NOTES).
    Raises InvalidValue naming the field."""
    label = T.IDENTITY_FIELDS.get(field_name, field_name)
    if field_name in ("notes", "storyteller_notes", "biography"):
        return check_text(value, label, limit=MAX_NOTES, multiline=True)
    return check_text(value, label)


def check_sheet_text(sheet: Sheet) -> None:
    """Every free text of ``sheet`` checked (a sheet about to be created): at most MAX_ENTRIES entries in
    each of COUNTED_SECTIONS, name and chronicle (at most MAX_NAME characters), identity fields, entry names,
    experience reasons. Raises InvalidValue."""
    check_text(sheet.name, "character name", limit=MAX_NAME)
    check_text(sheet.chronicle, "chronicle", limit=MAX_NAME)
    for section in COUNTED_SECTIONS:
        count = len(getattr(sheet, section))
        if count > MAX_ENTRIES:
            label = section.replace("_", " ")
            raise InvalidValue(f"{label} holds {count} entries; allowed: at most {MAX_ENTRIES}")
    for f in T.IDENTITY_FIELDS:
        check_identity_text(f, str(getattr(sheet, f)))
    for section in ("gifts", "rites", "merits", "flaws"):
        for e in getattr(sheet, section):
            check_text(str(e["name"]), f"{section[:-1]} name")
    for section in ("fetishes", "weapons", "armor"):
        for e in getattr(sheet, section):
            for k, v in e.items():
                if isinstance(v, str):
                    check_text(v, f"{section} {k}")
    for table, label in ((sheet.custom_abilities, "custom ability name"), (sheet.backgrounds, "background name")):
        for k in table:
            check_text(str(k), label)
    for k, v in sheet.specialties.items():
        check_text(str(k), "specialty trait")
        check_text(str(v), f"{k} specialty")
    for e in sheet.xp_log:
        check_text(str(e.get("reason", "")), "experience reason")
    for trait, text in sheet.specialties.items():
        check_text(text, f"{trait} specialty")


#: Two identical awards less than this many hours apart are one game night's (stkit's reading of "the same
#: night": a session runs for hours and may cross midnight).
SAME_NIGHT_HOURS = 12


def _same_award(log: list[dict], amount: int, reason: str, at: str) -> str | None:
    """The time (ISO) of an award in ``log`` equal to (``amount``, ``reason``) less than SAME_NIGHT_HOURS
    before or after ``at``, or None. Entries with unreadable dates never match."""
    try:
        now = _dt.datetime.fromisoformat(at)
    except ValueError:
        return None
    if now.tzinfo is None:
        now = now.replace(tzinfo=_dt.UTC)
    for e in reversed(log):
        if e.get("kind") != "award" or e.get("amount") != amount or str(e.get("reason", "")) != reason:
            continue
        try:
            then = _dt.datetime.fromisoformat(str(e.get("at", "")))
        except ValueError:
            continue
        if then.tzinfo is None:
            then = then.replace(tzinfo=_dt.UTC)
        if abs((now - then).total_seconds()) < SAME_NIGHT_HOURS * 3600:
            return str(e.get("at"))
    return None


def xp_log_warnings(sheet: Sheet) -> list[str]:
    """Warnings when the experience log's awards or spends do not add up to the sheet's total or spent
    experience (an imported file; ``char xp`` keeps them in step). stkit keeps the totals, which are what
    spending is checked against, and the log as written. An empty log says nothing and warns nothing."""
    if not sheet.xp_log:
        return []
    out = []
    for kind, stated, label in (("award", sheet.xp_total, "total"), ("spend", sheet.xp_spent, "spent")):
        summed = sum(int(e.get("amount", 0)) for e in sheet.xp_log if e.get("kind") == kind)
        if summed != stated:
            out.append(
                f"experience: the log's {kind}s add up to {summed} but the {label} experience is {stated}; "
                f"stkit keeps the {label} {stated} and the log as written"
            )
    return out


def damage_type(text: str) -> str:
    """'Lethal' -> 'lethal'; raises InvalidValue for anything but bashing, lethal, aggravated (or agg)."""
    t = (text or "").strip().lower()
    t = {"agg": "aggravated", "aggr": "aggravated", "bash": "bashing"}.get(t, t)
    if t not in T.DAMAGE_TYPES:
        raise InvalidValue(f"damage type {text!r}; allowed: bashing, lethal, aggravated")
    return t


def _copy_entry(e: dict) -> dict:
    return {k: list(v) if isinstance(v, list) else v for k, v in e.items()}


def _worse(a: str, b: str) -> bool:
    return T.DAMAGE_TYPES.index(a) < T.DAMAGE_TYPES.index(b)


def _power_name(text: str) -> str:
    p = T.lookup_power(text)
    if p is None:
        raise InvalidValue(
            f"{text!r} has no points to spend{T.did_you_mean(text, T.POWERS)}; allowed: rage, gnosis, willpower"
        )
    return p


def _positive(n: int, what: str) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidValue(f"{n!r} {what}: must be a whole number, 1 or more")


_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*")


def _int(value: str | int, ref: T.TraitRef) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("none", "-", "remove"):
        return 0
    allowed = f"allowed: {ref.minimum} to {ref.maximum}"
    if not _WHOLE.fullmatch(text):
        raise InvalidValue(f"{ref.name} value {printable(str(value).strip()[:40])!r} is not a whole number; {allowed}")
    digits = len(text.strip().lstrip("+-").lstrip("0"))
    if digits > 9:  # refused before Python converts it; the trait's own range is checked after
        raise InvalidValue(f"{ref.name} value is a number of {digits} digits; {allowed}")
    return parse_whole_number(text, f"{ref.name} value", -(10**9), 10**9)


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


# ----- the row <-> sheet mapping of the ``characters`` table (the one place it is written) ----------------


def sheet_from_json(text: str, name: str, chronicle: str) -> Sheet:
    """The validated Sheet stored as JSON ``text`` in the row of ``name`` in ``chronicle`` (the columns
    win over the document for the name and chronicle). Raises DataFileError for a damaged document."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise DataFileError(f"stored character {name!r}: the sheet is not valid JSON ({exc})") from None
    s = Sheet.from_dict(data, source=f"stored character {name!r}", strict=False)
    s.name, s.chronicle = name, chronicle
    return s


def sheet_columns(sheet: Sheet, *, with_key: bool = True) -> dict[str, Any]:
    """The ``characters`` columns that follow from ``sheet``: the indexed identity columns (``name_key``
    from :func:`stkit.sheet.traits.name_key`) and the whole sheet as JSON text. ``with_key=False`` (an
    edit) leaves ``name_key`` out: a row keeps the key it was stored with, which for a name that reads like
    another ('Zoë' beside 'Zoe', from before accents were folded) is not the folded one."""
    key = {"name_key": T.name_key(sheet.name)} if with_key else {}
    return {
        "name": sheet.name,
        **key,
        "chronicle": sheet.chronicle,
        "player": sheet.player,
        "breed": sheet.breed,
        "auspice": sheet.auspice,
        "tribe": sheet.tribe,
        "form": sheet.form,
        "sheet": json.dumps(sheet.to_dict(), ensure_ascii=False, sort_keys=False),
    }


__all__ = [
    "FORM_NAMES",
    "HEALTH_LEVELS",
    "SPECIALTY_MIN_DOTS",
    "DamageTaken",
    "Sheet",
    "Track",
    "damage_type",
    "drop_low_specialties",
    "sheet_columns",
    "sheet_from_json",
    "specialty_trait",
    "xp_log_warnings",
]
