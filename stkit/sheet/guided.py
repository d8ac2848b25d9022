"""Guided character creation: the creation steps as a small state machine both the terminal (`char create`,
prompt_toolkit) and the table server's page drive. Pure Python; nothing is stored here: the finished
sheet passes :func:`stkit.sheet.lifebook.check_creation` and the caller stores it.

Steps: the character (name, breed, auspice, tribe; Rage, Gnosis, Willpower, Renown and Rank follow from
them), Attributes, Abilities, Backgrounds, Gifts, freebies, done. An answer is a list of ``Trait=N``
(``next`` moves on, ``undo`` takes the last answer back). A step refuses what would break its rule, so
the totals left never go below zero before the freebie step; the freebie step refuses an over-spend.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from stkit.errors import InvalidValue, StkitError
from stkit.sheet import breeds as B
from stkit.sheet import lifebook as L
from stkit.sheet import traits as T
from stkit.sheet.deformity import deformity_list, needs_deformity
from stkit.sheet.forms import METIS_BREEDS, breed_form, form_label, form_slots
from stkit.sheet.sheet import Sheet

STEPS = ("character", "attributes", "abilities", "backgrounds", "gifts", "freebies", "done")
TITLES = {
    "character": "The character",
    "attributes": "Attributes (7 / 5 / 3 on top of the free dot)",
    "abilities": "Abilities (13 / 9 / 5, none above 3)",
    "backgrounds": "Backgrounds (5 dots)",
    "gifts": "Gifts (three level-one Gifts: breed, auspice, tribe)",
    "freebies": "Freebie points (15)",
    "done": "Done",
}
HELP = {
    "character": (
        "name=NAME breed=Homid|Metis|Lupus auspice=AUSPICE tribe=TRIBE (player=, concept= too; a metis: deformity=NAME)"
    ),
    "attributes": "e.g. Strength=3 Dexterity=3 Wits=2 (ratings with the free dot)",
    "abilities": "e.g. Brawl=3 Alertness=2 Occult=1",
    "backgrounds": "e.g. Resources=2 Kinfolk=3",
    "gifts": "the Gifts' names separated by ';', e.g. Razor Claws; Smell of Man; Resist Pain",
    "freebies": "any Trait=N, Gift names as gift:NAME=1, Merits as merit:NAME=N, Flaws as flaw:NAME=N",
    "done": "the sheet is finished",
}


@dataclass
class Draft:
    """A character being made: the sheet so far, the step (index into STEPS) and, for undo, the states
    before each accepted answer. ``to_dict`` / ``from_dict`` carry a draft across web requests."""

    sheet: Sheet = field(default_factory=lambda: Sheet(name="New character"))
    step: int = 0
    past: list[dict] = field(default_factory=list)

    @property
    def name(self) -> str:
        return STEPS[self.step]

    @property
    def finished(self) -> bool:
        return self.name == "done"

    def to_dict(self, *, undo_depth: int | None = None) -> dict:
        """The draft as plain data; ``undo_depth`` keeps only that many of the newest undo states (a web
        form stays small)."""
        past = self.past if undo_depth is None else self.past[len(self.past) - undo_depth :] if undo_depth else []
        return {"sheet": _compact(self.sheet.to_dict()), "step": self.step, "past": past}

    @classmethod
    def from_dict(cls, data: Any) -> Draft:
        """A draft from :meth:`to_dict`'s shape. Raises InvalidValue for anything else."""
        try:
            d = cls(Sheet.from_dict(data["sheet"], source="draft"), int(data["step"]), list(data.get("past", [])))
        except (KeyError, TypeError, ValueError, StkitError) as exc:
            raise InvalidValue(f"the draft character cannot be read ({exc})") from None
        if not 0 <= d.step < len(STEPS) or len(d.past) > 200:
            raise InvalidValue("the draft character cannot be read (step out of range)")
        return d

    # ----- what is left -------------------------------------------------------------------------------
    def status(self) -> list[str]:
        """One line per total the current step cares about: dots left per group, freebies left."""
        s = self.sheet
        if self.name == "character":
            line = f"{s.name}: {s.breed or 'breed?'} {s.auspice or 'auspice?'} {s.tribe or 'tribe?'}"
            if needs_deformity(s.fera, s.creature, s.breed):
                line += f", deformity {s.deformity or '?'}"
            return [line]
        if self.name == "attributes":
            return [_groups_line("Attributes", _attr_dots(s), [7, 5, 3])]
        if self.name == "abilities":
            return [_groups_line("Abilities", _ability_dots(s), [13, 9, 5])]
        if self.name == "backgrounds":
            return [f"Backgrounds: {sum(s.backgrounds.values())} of 5 dots"]
        if self.name == "gifts":
            return [f"Gifts: {len(s.gifts)} of 3: " + (", ".join(g["name"] for g in s.gifts) or "none yet")]
        check = L.check_creation(s)
        lines = [f"Freebie points: {check.available - check.spent} of {check.available} left"]
        lines += [f"  {d.rule}: {d.message}" for d in check.deviations if d.rule != "Freebie points"]
        return lines

    def prompt(self) -> str:
        return f"{TITLES[self.name]}: {HELP[self.name]}; `next` when done, `undo`, `quit`"

    # ----- answers ------------------------------------------------------------------------------------
    def answer(self, text: str) -> list[str]:
        """Apply one typed line; returns what to tell the player. Raises InvalidValue (nothing changed)
        for an answer the step refuses."""
        line = text.strip()
        word = line.casefold()
        if word == "undo":
            if not self.past:
                raise InvalidValue("nothing to undo")
            before = self.past.pop()
            self.sheet = Sheet.from_dict(before["sheet"], source="draft")
            self.step = int(before["step"])
            return [f"undone; back at: {TITLES[self.name]}"]
        if self.finished:
            raise InvalidValue("the character is finished")
        snapshot = {"sheet": _compact(self.sheet.to_dict()), "step": self.step}
        if word in ("next", ""):
            self._leave()
            self.past.append(snapshot)
            self.step += 1
            return [f"now: {TITLES[self.name]}"]
        work = copy.deepcopy(self.sheet)
        said: list[str] = []
        if self.name == "gifts":
            names = [n.strip() for n in line.split(";") if n.strip()]
            if len(work.gifts) + len(names) > 3:
                raise InvalidValue(
                    f"{len(work.gifts) + len(names)} Gifts; a new character has three (more with freebies)"
                )
            for n in names:
                work.set_trait(f"gift:{n}", 1)
        else:
            for item in _pairs(line, keyed=self.name == "character"):
                said += self._set(work, *item)
        self._fits(work)
        self.past.append(snapshot)
        self.sheet = work
        return self.status() + [f"Warning: {w}" for w in said]

    def _set(self, work: Sheet, trait: str, value: str) -> list[str]:
        """Apply one ``trait=value`` of the current step to ``work``; returns the warnings to show."""
        if self.name == "character":
            key = trait.strip().casefold()
            if key == "name":
                if not value.strip():
                    raise InvalidValue("a character needs a name")
                work.name = value.strip()
                return []
            if key not in ("breed", "auspice", "tribe", "player", "concept", "nature", "demeanor", "deformity"):
                raise InvalidValue(
                    f"{trait!r}: the character step takes name, breed, auspice, tribe, player, concept, deformity"
                )
            said = work.set_trait(key, value)[2]
            if key == "tribe" and L.tribe_willpower(work.tribe) is None:
                # freebies price Willpower above the tribe's starting value: without one they could not
                known = ", ".join(L.rules()["tribes"])
                raise InvalidValue(
                    f"tribe {work.tribe!r}: guided creation needs the tribe's starting Willpower, which stkit's "
                    f"table gives for {known}; make another tribe with `char new`"
                )
            _starting_values(work)
            return said
        if self.name == "backgrounds" and ":" not in trait:
            trait = f"background:{trait.strip()}"
        ref = T.resolve_settable(
            trait, custom_abilities=tuple(work.custom_abilities), backgrounds=tuple(work.backgrounds)
        )
        allowed = {
            "attributes": ("attribute",),
            "abilities": ("ability", "custom_ability"),
            "backgrounds": ("background",),
        }.get(self.name)
        if allowed is not None and ref.kind not in allowed:
            raise InvalidValue(f"{trait.strip()!r} is not one of the {self.name}; {HELP[self.name]}")
        return work.set_trait(trait, value, fill_points=True)[2]

    def _fits(self, work: Sheet) -> None:
        """Refuse a state that breaks the current step's rule (the freebie step: an over-spend)."""
        if self.name == "attributes":
            over, _ = L.group_excess(_attr_dots(work), [7, 5, 3])
            if over:
                raise InvalidValue(
                    f"{over} Attribute dot{'s' if over != 1 else ''} too many for 7 / 5 / 3 (freebies come later)"
                )
        elif self.name == "abilities":
            high = [a for a, v in (work.abilities | work.custom_abilities).items() if v > 3]
            if high:
                raise InvalidValue(f"{', '.join(high)} above 3: only freebies raise an Ability past 3")
            over, _ = L.group_excess(_ability_dots(work), [13, 9, 5], sum(_flexible(work).values()))
            if over:
                raise InvalidValue(f"{over} Ability dot{'s' if over != 1 else ''} too many for 13 / 9 / 5")
        elif self.name == "backgrounds" and sum(work.backgrounds.values()) > 5:
            raise InvalidValue(f"{sum(work.backgrounds.values())} Background dots; 5 before freebies")
        elif self.name == "freebies":
            check = L.check_creation(work)
            if check.spent > check.available:
                raise InvalidValue(f"that needs {check.spent} freebie points; {check.available} available")

    def _leave(self) -> None:
        """Refuse to leave a step that is not complete; the freebie step (the last) checks them all again,
        and the whole sheet, so no draft finishes half made."""
        s = self.sheet
        last = self.name == "freebies"
        if self.name == "character" or last:
            missing = [f for f in ("breed", "auspice", "tribe") if not getattr(s, f)]
            if needs_deformity(s.fera, s.creature, s.breed) and not s.deformity:
                names, _ = deformity_list()
                missing.append(f"deformity (a metis has one, e.g. {', '.join(names[:5])}...)")
            if s.name == "New character":
                missing.insert(0, "name")
            if missing:
                raise InvalidValue(f"give the {', '.join(missing)} first")
        if (self.name == "gifts" or last) and len([g for g in s.gifts if g["level"] == 1]) < 3:
            raise InvalidValue(f"{len(s.gifts)} of 3 Gifts chosen; name the rest")
        if last:
            check = L.check_creation(s)
            if not check.passed:
                raise InvalidValue("; ".join(f"{d.rule}: {d.message}" for d in check.deviations))


IDENTITY_KEYS = ("name", "breed", "auspice", "tribe", "player", "concept", "nature", "demeanor", "deformity")


def _compact(data: dict) -> dict:
    """``data`` (a sheet's file shape) without what a new sheet has anyway: :meth:`Sheet.from_dict` reads
    it back the same (Attributes left out are 1)."""
    blank = Sheet(name=str(data.get("name", ""))).to_dict()
    out = {k: v for k, v in data.items() if k == "name" or v != blank.get(k)}
    if "attributes" in out:
        out["attributes"] = {a: v for a, v in out["attributes"].items() if v != 1}
    return out


def _pairs(line: str, *, keyed: bool = False) -> list[tuple[str, str]]:
    """'Strength=3 Animal Ken=2' -> [('Strength', '3'), ('Animal Ken', '2')]; ``keyed`` (the character
    step): values may hold spaces and each pair starts with one of IDENTITY_KEYS ('tribe=Get of Fenris
    player=Sam'). Commas separate pairs too. Raises InvalidValue for a part without '='."""

    if keyed:
        chunks = re.split(r"\s+(?=(?:" + "|".join(IDENTITY_KEYS) + r")\s*=)", line.strip(), flags=re.I)
    else:
        chunks = [part for chunk in line.split(",") for part in _split_pairs(chunk)]
    out = []
    for part in chunks:
        part = part.strip()
        if not part:
            continue
        trait, sep, value = part.rpartition("=")
        if not sep or not trait.strip():
            raise InvalidValue(f"{part!r}: write Trait=N")
        out.append((trait.strip(), value.strip()))
    return out


def _split_pairs(line: str) -> list[str]:
    """'Animal Ken=2 Brawl=3' -> ['Animal Ken=2', 'Brawl=3'] (names may hold spaces)."""
    parts, current = [], []
    for word in line.split():
        current.append(word)
        if "=" in word and not word.endswith("="):
            parts.append(" ".join(current))
            current = []
    if current:
        parts.append(" ".join(current))
    return parts


def _attr_dots(s: Sheet) -> list[int]:
    return [sum(max(0, s.attributes[a] - 1) for a in attrs) for attrs in T.ATTRIBUTE_GROUPS.values()]


def _ability_dots(s: Sheet) -> list[int]:
    return [sum(min(s.abilities.get(a, 0), 3) for a in g) for g in (T.TALENTS, T.SKILLS, T.KNOWLEDGES)]


def _flexible(s: Sheet) -> dict[str, int]:
    return {a: v for a, v in s.abilities.items() if a in T.SECONDARY_ABILITIES} | dict(s.custom_abilities)


def _groups_line(what: str, dots: list[int], allot: list[int]) -> str:
    names = ("Physical", "Social", "Mental") if what == "Attributes" else ("Talents", "Skills", "Knowledges")
    _, given = L.group_excess(dots, allot)
    ranked = sorted(allot, reverse=True)
    cells = [f"{n} {d} of {ranked[given[i]]}" for i, (n, d) in enumerate(zip(names, dots, strict=True))]
    return f"{what}: " + ", ".join(cells)


def _starting_values(s: Sheet) -> None:
    """Rage, Gnosis, Willpower, Renown and Rank of a new Garou from its auspice, breed and tribe (the data
    file's tables); a Ragabash's three Renown start as one of each."""
    r = L.rules()
    if s.auspice in r["auspices"]:
        a = r["auspices"][s.auspice]
        s.set_trait("Rage", a["rage"], fill_points=True)
        renown = a.get("renown") or {"Glory": 1, "Honor": 1, "Wisdom": 1}
        for name in T.RENOWN:
            s.renown[name].permanent = int(renown.get(name, 0))
    if s.breed in r["breeds"]:
        s.set_trait("Gnosis", r["breeds"][s.breed]["gnosis"], fill_points=True)
    wp = L.tribe_willpower(s.tribe) if s.tribe else None
    if wp is not None:
        s.set_trait("Willpower", wp, fill_points=True)
    s.rank = 1
    creation_defaults(s)


def creation_defaults(s: Sheet, *, rank_given: bool = False) -> list[str]:
    """What a new sheet starts with that follows from the rest: a shapeshifter starts in its breed form
    (Homid for the human breed, the animal form for the animal breed, Crinos for a metis: Revised, breed
    forms; :func:`stkit.sheet.forms.breed_form`), and a Garou's Rank is the highest its Renown meets (the
    auspice's Rank table, :func:`stkit.sheet.lifebook.qualifying_rank`) unless ``rank_given``. Returns the
    notes for the player (one per change)."""
    notes: list[str] = []
    if s.creature == "shapeshifter" and s.breed:
        home = breed_form(s.fera, s.breed) or ("Crinos" if s.breed in METIS_BREEDS else None)
        if home and home in form_slots(s.fera) and home != s.form:
            s.form = home
            notes.append(f"{s.name} starts in {form_label(home, s.fera)} form, the {s.breed} breed form")
    if not rank_given:
        qualified = L.qualifying_rank(s)
        if qualified is not None and qualified > s.rank:
            s.rank = qualified
            notes.append(f"{s.name} is Rank {qualified}: the Renown meets it")
    return notes


def new_draft(name: str | None = None, chronicle: str = "default") -> Draft:
    """A fresh draft (a Garou), named if ``name`` is given."""
    d = Draft(Sheet(name=(name or "New character").strip() or "New character", chronicle=chronicle, fera=B.GAROU))
    return d
