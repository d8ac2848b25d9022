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
        """A draft from :meth:`to_dict`'s shape: a mapping with ``sheet`` (a sheet's mapping), ``step`` (a
        whole number 0 to 6, not a float, text or true/false) and ``past`` (at most 200 earlier states of
        the same shape). Raises InvalidValue, one line naming what is wrong, for anything else."""
        d = cls(_read_sheet(data, "the draft"), _read_step(data, "the draft"))
        past = data.get("past", [])
        if not isinstance(past, list) or len(past) > 200:
            raise InvalidValue("the draft character cannot be read: its undo list is not a list of at most 200 states")
        for i, before in enumerate(past):
            _read_sheet(before, f"undo state {i + 1}")
            _read_step(before, f"undo state {i + 1}")
        d.past = [{"sheet": b["sheet"], "step": b["step"]} for b in past]
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
        if word in ("help", "?"):
            return [self.prompt()]
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
            names = [_gift_name(n) for n in line.split(";") if n.strip()]
            if len(work.gifts) + len(names) > 3:
                raise InvalidValue(
                    f"{len(work.gifts) + len(names)} Gifts; a new character has three (more with freebies)"
                )
            for n in names:
                work.set_trait(f"gift:{n}", 1)
                if L.gift_standing(work, n)[0] == "unknown" and work.fera == "Garou":
                    said.append(f"{n!r} is in none of stkit's Gift lists: kept, but `char check` cannot judge it")
        else:
            for item in _pairs(line, keyed=self.name == "character"):
                said += self._set(work, *item)
        self._fits(work)
        self.past.append(snapshot)
        self.sheet = work
        return self.status() + [f"Warning: {w}" for w in said]

    # ----- pickers ------------------------------------------------------------------------------------
    def choices(self) -> dict[str, Any]:
        """What the current step's pickers offer, as plain data for a page:

        ``{"step": name, "fields": [...], "groups": [...], "gifts": [...]}``; a field is ``{"field",
        "label", "value", "options"}`` (``options`` None: free text); a group is ``{"title", "allot"
        (dots to place, or None), "placed", "items": [{"field", "label", "value", "values": [allowed
        ratings]}]}``; a Gift list is ``{"title", "field": "gift", "value" (the chosen Gift or ''),
        "options": [level-one Gift names]}`` (empty where stkit's partial lists hold none: the Gift is
        then typed). The values allowed are the step's: Attributes 1-5,
        Abilities 0-3 (0-5 with freebies), Backgrounds 0-5, Rage, Gnosis and Willpower 1-10."""
        s = self.sheet
        out: dict[str, Any] = {"step": self.name, "fields": [], "groups": [], "gifts": []}
        if self.name == "character":
            tribes = list(L.rules()["tribes"])
            out["fields"] = [
                {
                    "field": "name",
                    "label": "Name",
                    "value": "" if s.name == "New character" else s.name,
                    "options": None,
                },
                {"field": "breed", "label": "Breed", "value": s.breed, "options": list(T.BREEDS)},
                {"field": "auspice", "label": "Auspice", "value": s.auspice, "options": list(T.AUSPICES)},
                {"field": "tribe", "label": "Tribe", "value": s.tribe, "options": tribes},
                {"field": "player", "label": "Player", "value": s.player, "options": None},
                {"field": "concept", "label": "Concept", "value": s.concept, "options": None},
            ]
            names, _ = deformity_list()  # offered with the breed: a metis picks both on one page
            label = "Deformity (a metis has one)"
            out["fields"].append({"field": "deformity", "label": label, "value": s.deformity, "options": list(names)})
            return out
        free = self.name == "freebies"
        if self.name in ("attributes", "freebies"):
            dots = _attr_dots(s)
            for i, (group, attrs) in enumerate(T.ATTRIBUTE_GROUPS.items()):
                items = [_item(a, s.attributes[a], range(1, T.MAX_DOTS + 1)) for a in attrs]
                out["groups"].append({"title": f"{group} Attributes", "allot": None, "placed": dots[i], "items": items})
            if not free:
                _allot(out["groups"], dots, [7, 5, 3])
        if self.name in ("abilities", "freebies"):
            top = T.MAX_DOTS if free else 3
            dots = _ability_dots(s)
            for i, group in enumerate(("Talents", "Skills", "Knowledges")):
                have = s.abilities
                items = [
                    _item(a, have.get(a, 0), range(0, max(top, have.get(a, 0)) + 1)) for a in T.ABILITY_GROUPS[group]
                ]
                out["groups"].append({"title": group, "allot": None, "placed": dots[i], "items": items})
            if not free:
                _allot(out["groups"], dots, [13, 9, 5])
        if self.name in ("backgrounds", "freebies"):
            bgs = list(dict.fromkeys([*T.BACKGROUNDS, *s.backgrounds]))
            items = [_item(f"background:{b}", s.backgrounds.get(b, 0), range(0, T.MAX_DOTS + 1), b) for b in bgs]
            placed = sum(s.backgrounds.values())
            out["groups"].append(
                {"title": "Backgrounds", "allot": None if free else 5, "placed": placed, "items": items}
            )
        if free:
            items = [_item(p, s.powers[p].permanent, range(1, T.MAX_POWER + 1)) for p in T.POWERS]
            out["groups"].append({"title": "Rage, Gnosis, Willpower", "allot": None, "placed": 0, "items": items})
        if self.name in ("gifts", "freebies"):
            out["gifts"] = self._gift_lists()
        return out

    def _gift_lists(self) -> list[dict[str, Any]]:
        """The Gift pickers: at the Gift step one per own list (breed, auspice, tribe) holding its level-one
        Gifts, the chosen one selected; at the freebie step one more level-one Gift from those lists."""
        s = self.sheet
        lists = L.gift_lists()
        taken = [g["name"] for g in s.gifts]
        own = [(x, k) for x, k in ((s.breed, "breed"), (s.auspice, "auspice"), (s.tribe, "tribe")) if x]
        found = []
        for x, kind in own:
            key = L._list_key(x)
            table = next((v for n, v in lists.items() if L._list_key(n) == key), {})
            found.append((x, kind, sorted(g for g, lvl in table.items() if lvl == 1)))
        if self.name == "freebies":
            pool = sorted({g for _, _, names in found for g in names} - set(taken))
            return [
                {"title": "Another level-one Gift (7 freebie points)", "field": "gift", "value": "", "options": pool}
            ]
        out = []
        listed = {g for _, _, names in found for g in names}
        typed = [t for t in taken if t not in listed]  # shown in the typed pickers, in order
        for x, kind, names in found:
            chosen = next((t for t in taken if t in names), "") if names else (typed.pop(0) if typed else "")
            out.append({"title": f"{x} ({kind}) Gift", "field": "gift", "value": chosen, "options": names})
        return out

    def pick(self, values: dict[str, str], gifts: list[str] | tuple[str, ...] = ()) -> list[str]:
        """Apply the pickers of the current step: ``values`` {field: value} with the fields and values
        :meth:`choices` offers (a field left out keeps its value), ``gifts`` the Gifts chosen, each from
        its picker's list in order ('' for none; the Gift step: exactly these level-one Gifts, one from each
        of the breed, auspice and tribe lists; the freebie step: added at level one). Returns what to tell
        the player, as :meth:`answer`. Raises InvalidValue, one line naming the field or value, for a field
        or value the step does not offer, or a result the step refuses; nothing is changed then."""
        if self.finished:
            raise InvalidValue("the character is finished")
        offered = self.choices()
        known: dict[str, Any] = {f["field"]: f for f in offered["fields"]}
        known.update({i["field"]: i for g in offered["groups"] for i in g["items"]})
        work = copy.deepcopy(self.sheet)
        said: list[str] = []
        for field_name, raw in values.items():
            spec = known.get(field_name)
            if spec is None:
                raise InvalidValue(f"{field_name[:40]!r} is not a choice of the {self.name} step")
            value = str(raw).strip()
            if "values" in spec:
                allowed = spec["values"]
                if not value.isdigit() or int(value) not in allowed:
                    raise InvalidValue(
                        f"{spec['label']} {value[:20]!r}: allowed {allowed[0]} to {allowed[-1]} at the {self.name} step"
                    )
                if int(value) != spec["value"]:
                    said += self._set(work, field_name, value)
                continue
            if spec["options"] is not None and value and value not in spec["options"]:
                raise InvalidValue(f"{spec['label']} {value[:40]!r} is not one of the choices offered")
            if value != (spec["value"] or ""):
                if field_name != "name" and not value:
                    setattr(work, field_name, "")
                    continue
                said += self._set(work, field_name, value)
        if self.name == "character" and work.deformity and not needs_deformity(work.fera, work.creature, work.breed):
            raise InvalidValue(f"deformity {work.deformity!r}: only a metis has a deformity; choose none")
        chosen = [g.strip() for g in gifts if g and g.strip()]
        lists = offered["gifts"]
        if self.name == "gifts" and len(gifts) > len(lists):
            raise InvalidValue(f"{len(gifts)} Gift choices; the Gift step has {len(lists)} lists, one Gift from each")
        for i, g in enumerate(gifts):  # the i-th choice from the i-th list (one each: breed, auspice, tribe)
            own = lists[i] if self.name == "gifts" else lists[0] if lists else {"title": "", "options": []}
            if g and g.strip() and own["options"] and g.strip() not in own["options"]:  # an empty list: typed
                raise InvalidValue(
                    f"Gift {g.strip()[:40]!r} is not a level-one Gift of the list offered ({own['title']})"
                )
        if self.name in ("gifts", "freebies") and chosen:
            if len(set(chosen)) != len(chosen):
                raise InvalidValue("the same Gift chosen twice; choose three different Gifts")
            if self.name == "gifts":
                work.gifts = []
            for g in chosen:
                work.set_trait(f"gift:{g}", 1)
        elif self.name == "gifts":
            work.gifts = []
        if self.name == "gifts" and len(work.gifts) > 3:
            raise InvalidValue(f"{len(work.gifts)} Gifts; a new character has three (more with freebies)")
        self._fits(work)
        if work.to_dict() != self.sheet.to_dict():  # the same choices sent again leave no undo step
            self.past.append({"sheet": _compact(self.sheet.to_dict()), "step": self.step})
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
            if T.norm(trait) in _TRAIT_KEYS:
                raise InvalidValue(f"{trait.strip()!r} is a Trait, not a Background; {HELP[self.name]}")
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
        steps = {"attributes": (1, T.MAX_DOTS), "abilities": (0, T.MAX_DOTS), "backgrounds": (0, T.MAX_DOTS)}
        low, high = steps.get(self.name, (0, T.MAX_POWER))
        text = value.strip()
        if self.name in steps and text.lstrip("-").isdigit() and len(text) < 6 and not low <= int(text) <= high:
            raise InvalidValue(f"{ref.name} {text}: allowed {low} to {high} at the {self.name} step")
        return work.set_trait(trait, value, fill_points=True)[2]

    def _fits(self, work: Sheet) -> None:
        """Refuse a state that breaks the current step's rule (the freebie step: an over-spend)."""
        if self.name in ("attributes", "freebies"):
            low = [a for a in T.ATTRIBUTES if work.attributes[a] < 1]
            if low:
                raise InvalidValue(f"{low[0]} {work.attributes[low[0]]}: an Attribute is 1 to 5")
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

    def _unplaced(self) -> str:
        """At a dot step (Attributes, Abilities, Backgrounds): one line saying which dots are not placed
        yet ('' when all are). Dots not placed at their step are lost, so the step is not left with any."""
        s = self.sheet
        if self.name == "attributes":
            dots, allot, flex = _attr_dots(s), [7, 5, 3], 0
        elif self.name == "abilities":
            dots, allot = _ability_dots(s), [13, 9, 5]
            flex = sum(min(v, 3) for v in _flexible(s).values())  # a secondary or custom Ability fits any group
        elif self.name == "backgrounds":
            placed = sum(s.backgrounds.values())
            return "" if placed >= 5 else f"Backgrounds: {placed} of 5 dots placed; place the other {5 - placed} first"
        else:
            return ""
        left = sum(allot) - sum(dots) - flex
        if left <= 0:
            return ""
        what = "Attributes" if self.name == "attributes" else "Abilities"
        shown = _groups_line(what, dots, allot).split(": ", 1)[1]
        return f"{what}: {left} dot{'s' if left != 1 else ''} not placed yet ({shown}); place them first"

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
        left = self._unplaced()
        if left:
            raise InvalidValue(left)
        if (self.name == "gifts" or last) and len([g for g in s.gifts if g["level"] == 1]) < 3:
            raise InvalidValue(f"{len(s.gifts)} of 3 Gifts chosen; name the rest")
        if last:
            check = L.check_creation(s)
            if not check.passed:
                raise InvalidValue("; ".join(f"{d.rule}: {d.message}" for d in check.deviations))


def _item(trait: str, value: int, values: range, label: str | None = None) -> dict[str, Any]:
    return {"field": trait, "label": label or trait, "value": value, "values": list(values)}


def _allot(groups: list[dict[str, Any]], dots: list[int], allot: list[int]) -> None:
    """Give each of the three groups its allotment (7/5/3 or 13/9/5) by the best fit of the dots so far."""
    _, given = L.group_excess(dots, allot)
    ranked = sorted(allot, reverse=True)
    for i, g in enumerate(groups[-3:]):
        g["allot"] = ranked[given[i]]


def _read_sheet(data: Any, what: str) -> Sheet:
    """The sheet of a draft (or of one of its undo states) ``data``; InvalidValue naming ``what`` otherwise."""
    if not isinstance(data, dict):
        raise InvalidValue(f"the draft character cannot be read: {what} is not a mapping with a sheet and a step")
    sheet = data.get("sheet")
    if not isinstance(sheet, dict):
        raise InvalidValue(f"the draft character cannot be read: {what} has no sheet")
    try:
        return Sheet.from_dict(sheet, source="draft")
    except StkitError as exc:
        raise InvalidValue(f"the draft character cannot be read: {str(exc).splitlines()[0]}") from None
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
        raise InvalidValue(f"the draft character cannot be read: the sheet of {what} is damaged") from None


def _read_step(data: dict, what: str) -> int:
    step = data.get("step")
    if type(step) is not int or not 0 <= step < len(STEPS):
        raise InvalidValue(
            f"the draft character cannot be read: the step of {what} must be a whole number 0 to {len(STEPS) - 1}"
        )
    return step


NEW = "New character"
IDENTITY_KEYS = ("name", "breed", "auspice", "tribe", "player", "concept", "nature", "demeanor", "deformity")


def _compact(data: dict) -> dict:
    """``data`` (a sheet's file shape) without what a new sheet has anyway: :meth:`Sheet.from_dict` reads
    it back the same (Attributes left out are 1)."""
    blank = Sheet(name=str(data.get("name", ""))).to_dict()
    out = {k: v for k, v in data.items() if k == "name" or v != blank.get(k)}
    if "attributes" in out:
        out["attributes"] = {a: v for a, v in out["attributes"].items() if v != 1}
    return out


#: The comparison keys of the Attributes, Abilities, Rage, Gnosis, Willpower and Renown: names that are
#: never a Background, so that an Ability typed at the Background step is refused, not stored as one.
_TRAIT_KEYS = frozenset(T.norm(t) for t in T.ATTRIBUTES + T.ABILITIES + T.POWERS + T.RENOWN)


def _gift_name(text: str) -> str:
    """One Gift of the Gift step's answer: 'Razor Claws' or 'gift:Razor Claws' (the freebie step's
    spelling) -> 'Razor Claws'. Raises InvalidValue for a rating ('Razor Claws=1', 'Resources=2'): the
    step takes names only, each Gift at level 1."""
    name = text.strip()
    if name.casefold().startswith("gift:"):
        name = name[5:].strip()
    if "=" in name or ":" in name or not name:
        raise InvalidValue(f"{text.strip()!r}: name the Gifts only, each at level 1; {HELP['gifts']}")
    return name


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
            notes.append(f"{s.name} starts in its breed form, {form_label(home, s.fera)}")
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
