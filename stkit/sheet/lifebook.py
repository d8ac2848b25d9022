"""A character's life by the numbers: creation checked, experience priced, Renown turned into Rank.

Pure Python over a :class:`~stkit.sheet.sheet.Sheet` (no database). Every number comes from the packaged
data file ``stkit/sheet/data/character_rules.yaml``, which names the public restatement of each table
(Werewolf: The Apocalypse Revised creation steps and freebie costs, the experience costs, the Renown each
Rank needs by auspice). The store use cases that write these changes are in :mod:`stkit.store.growth`.

Readings of stkit's own (docs/characters.md, "Readings of the rules"):

- The Garou's Gift lists (``data/gift_lists.yaml``, names and levels from two public summaries of the
  Revised books and the W20 core book, each named in the file) judge a Gift only where they know it: a Gift in the
  character's breed, auspice or tribe list is priced in-list, one known only in other lists is outside
  (refused by ``char raise`` unless the Storyteller allows it, ``outside``), and a Gift the lists do not
  know is not checked (the raise's ``outside`` says which price). Which of the three starting Gifts came
  from which list is not checked.
- Secondary and custom Abilities may count in whichever Ability group is cheapest.
- An Attribute or power at 0 raised by experience costs as if it were rated 1 (the table prices by the
  current rating, which would make the first dot free).
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet import traits as T
from stkit.sheet.deformity import deformity_list, needs_deformity
from stkit.sheet.ranks import meets as meets  # Rank lives in stkit.sheet.ranks; these names stay here too
from stkit.sheet.ranks import next_rank as next_rank
from stkit.sheet.ranks import qualifying_rank, rules
from stkit.sheet.ranks import rank_name as rank_name
from stkit.sheet.ranks import rank_table as rank_table
from stkit.sheet.sheet import Sheet
from stkit.sheet.vocab import TraitKind
from stkit.text import counted
from stkit.yamlsafe import load_packaged

PRIORITY_WORDS = ("primary", "secondary", "tertiary")


@functools.cache
def gift_lists() -> dict[str, dict[str, int]]:
    """{list name (a Garou breed, auspice or tribe): {Gift: level}} from ``data/gift_lists.yaml``: the
    Revised core book's entries (``lists``), then the Revised supplements' (``revised_supplement_lists``), then
    the W20 core book's the Revised ones lack (``w20_lists``, then ``w20_core_lists`` from a second public
    source); the first section to name a Gift for a group sets its level."""
    data: dict[str, Any] = load_packaged("stkit.sheet", "gift_lists.yaml")
    out: dict[str, dict[str, int]] = {}
    for section in ("lists", "revised_supplement_lists", "w20_lists", "w20_core_lists"):
        for k, v in (data.get(section) or {}).items():
            table = out.setdefault(str(k), {})
            for g, n in v.items():
                table.setdefault(str(g), int(n))
    return out


def _list_key(text: str) -> str:
    key = T.norm(text)
    return key[:-1] if key.endswith("s") else key  # "Red Talon" and "Red Talons" are one tribe


def gift_standing(sheet: Sheet, gift: str) -> tuple[str, list[str]]:
    """Where the Gift ``gift`` stands for ``sheet``: ("in", ["Ahroun level 1", ...]) when one of its breed,
    auspice or tribe lists has it; ("outside", [the lists that have it]) when only other lists do;
    ("unknown", []) when no list knows it, or the sheet is not a Garou (only the Garou's lists are kept)."""
    if sheet.fera != "Garou" or sheet.creature != "shapeshifter":
        return "unknown", []
    key = T.norm(gift)
    own = {_list_key(x) for x in (sheet.breed, sheet.auspice, sheet.tribe) if x}
    mine: list[str] = []
    others: list[str] = []
    for name, gifts in gift_lists().items():
        for g, level in gifts.items():
            if T.norm(g) == key:
                (mine if _list_key(name) in own else others).append(f"{name} level {level}")
    if mine:
        return "in", mine
    if others:
        return "outside", [o.rsplit(" level ", 1)[0] for o in others]
    return "unknown", []


def creation_kind(sheet: Sheet) -> str | None:
    """Which creation rules judge ``sheet``: 'garou', 'kinfolk', 'mortal', 'ratkin', or None (a Changing
    Breed no public source gives numbers for)."""
    if sheet.creature in ("kinfolk", "mortal"):
        return sheet.creature
    if sheet.fera == "Garou":
        return "garou"
    if sheet.fera == "Ratkin":
        return "ratkin"
    return None


def _tribe_key(text: str) -> str:
    k = T.norm(text)
    return k[:-3] + "y" if k.endswith("ies") else k.removesuffix("s")


def _tribe_backgrounds(sheet: Sheet, dev: Any, out: Any) -> None:
    """The tribe's Background limits at creation (character_rules.yaml ``tribe_backgrounds``)."""
    limits = next(
        (v for k, v in (rules().get("tribe_backgrounds") or {}).items() if _tribe_key(k) == _tribe_key(sheet.tribe)),
        None,
    )
    if limits is None:
        if sheet.tribe:
            out.notes.append(f"Backgrounds: the {sheet.tribe} have no Background limits in stkit's table")
        return
    have = {T.norm(k): (k, v) for k, v in sheet.backgrounds.items() if v}
    for bg in limits.get("restricted") or []:
        if T.norm(bg) in have:
            name, n = have[T.norm(bg)]
            dev(Deviation("Backgrounds", f"{name} {n}: the {sheet.tribe} may not take {bg} at creation"))
    for bg, top in (limits.get("max") or {}).items():
        name, n = have.get(T.norm(bg), (bg, 0))
        if n > int(top):
            dev(Deviation("Backgrounds", f"{name} {n}: the {sheet.tribe} start with at most {top}"))
    for bg, low in (limits.get("min") or {}).items():
        name, n = have.get(T.norm(bg), (bg, 0))
        if n < int(low):
            dev(Deviation("Backgrounds", f"{name} {n}: the {sheet.tribe} start with at least {low}"))


def tribe_willpower(tribe: str) -> int | None:
    """The starting Willpower of the Garou tribe ``tribe`` (case, spaces and the plural ignored: Black Fury is
    Black Furies), or None."""

    def key(text: str) -> str:
        k = T.norm(text)
        return k[:-3] + "y" if k.endswith("ies") else k.removesuffix("s")

    want = key(tribe)
    for name, wp in rules()["tribes"].items():
        if key(name) == want:
            return int(wp)
    return None


def check_tribe(tribe: str, fera: str = "Garou") -> tuple[str, list[str]]:
    """(the tribe as kept, warnings) for a new character of the Changing Breed ``fera``: '' stays ''; a name
    without a letter ('999') is refused (InvalidValue naming the Garou tribes); a Garou tribe outside the
    book's thirteen is kept with a warning (lost tribes and house tribes exist); another Fera's tribe is
    kept as typed."""
    text = tribe.strip()
    if not text:
        return "", []
    names = ", ".join(rules()["tribes"])
    if not any(ch.isalpha() for ch in text):
        raise InvalidValue(f"tribe {text!r} is not a tribe's name; allowed: a name, e.g. one of {names}")
    if T.norm(fera) == "garou" and tribe_willpower(text) is None:
        return text, [f"tribe {text!r} is not one of the book's Garou tribes ({names}); kept as typed"]
    return text, []


# ----- creation ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deviation:
    """One way a sheet breaks the creation rules: ``rule`` (the step), ``message`` (what and how far)."""

    rule: str
    message: str

    def to_dict(self) -> dict:
        return {"rule": self.rule, "message": self.message}


@dataclass(frozen=True)
class Spend:
    """Freebie points the cheapest reading spends on one area: ``what``, ``dots`` bought, ``points``."""

    what: str
    dots: int
    points: int
    detail: str = ""

    def to_dict(self) -> dict:
        return {"what": self.what, "dots": self.dots, "points": self.points, "detail": self.detail}


@dataclass
class CreationCheck:
    """The verdict of :func:`check_creation`: ``kind`` of rules used, ``deviations`` (empty: it passes),
    the cheapest freebie reading (``spends``, ``spent`` of ``available``), the priorities that reading
    gives the groups, traits ``not_checked`` (with why) and ``notes`` that do not fail the sheet."""

    name: str
    kind: str | None
    deviations: list[Deviation] = field(default_factory=list)
    spends: list[Spend] = field(default_factory=list)
    available: int = 0
    priorities: dict[str, dict[str, str]] = field(default_factory=dict)
    not_checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    source: str = ""

    @property
    def spent(self) -> int:
        return sum(s.points for s in self.spends)

    @property
    def passed(self) -> bool:
        return not self.deviations

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "rules": self.kind,
            "passed": self.passed,
            "deviations": [d.to_dict() for d in self.deviations],
            "freebies": {
                "available": self.available,
                "spent": self.spent,
                "spends": [s.to_dict() for s in self.spends],
            },
            "priorities": self.priorities,
            "not_checked": self.not_checked,
            "notes": self.notes,
            "source": self.source,
        }


def group_excess(dots: list[int], allotments: list[int], flexible: int = 0) -> tuple[int, tuple[int, ...]]:
    """The fewest dots that must be bought with freebies when groups holding ``dots`` get the
    ``allotments`` in some order, and ``flexible`` more dots may go into any group. Returns (dots over,
    the allotment index each group gets). Sorting both, largest to largest, minimises the excess; the
    flexible dots fill what is left unspent, so the total is max(excess, all dots - all allotments)."""
    order = sorted(range(len(dots)), key=lambda i: -dots[i])
    given = [0] * len(dots)
    for rank, i in enumerate(order):
        given[i] = rank
    ranked = sorted(allotments, reverse=True)
    excess = sum(max(0, dots[i] - ranked[given[i]]) for i in range(len(dots)))
    return max(excess, sum(dots) + flexible - sum(allotments)), tuple(given)


def brute_force_excess(dots: list[int], allotments: list[int], flexible: int = 0) -> int:
    """:func:`group_excess`'s dots over, found by trying every order of the allotments and every split of
    the flexible dots (for tests; exponential)."""
    best = None
    for order in permutations(allotments):
        slack = [max(0, a - d) for a, d in zip(order, dots, strict=True)]
        over = sum(max(0, d - a) for a, d in zip(order, dots, strict=True))
        # each flexible dot goes free into any slack, else it is bought
        cost = over + max(0, flexible - sum(slack))
        best = cost if best is None else min(best, cost)
    return int(best or 0)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_creation(sheet: Sheet) -> CreationCheck:
    """Judge ``sheet`` as a new character against the creation rules of its kind (data file ``creation``):
    Attribute and Ability priorities, the Ability cap before freebies, Backgrounds, level-one Gifts, Rage,
    Gnosis and Willpower by auspice, breed and tribe, starting Renown, Rank, and the freebie points at their
    costs (Flaws give back at most ``flaw_points_max``). The freebie reading is the cheapest one: each
    group takes the priority that leaves the fewest dots to buy. A Changing Breed without public numbers
    gets every step under ``not_checked``."""
    kind = creation_kind(sheet)
    out = CreationCheck(name=sheet.name, kind=kind)
    if kind is None:
        out.not_checked = [
            f"{step}: no public source gives the {sheet.fera}'s creation numbers"
            for step in (
                "Attributes",
                "Abilities",
                "Backgrounds",
                "Gifts",
                "Rage",
                "Gnosis",
                "Willpower",
                "Renown",
                "Rank",
                "freebies",
            )
        ]
        return out
    book = rules()["creation"][kind]
    out.source = " ".join(str(book["source"]).split())
    costs = book["freebie_costs"]
    dev = out.deviations.append

    # Attributes: the dots above the free one, by group
    free = int(book["free_attribute_dot"])
    groups = list(T.ATTRIBUTE_GROUPS.items())
    dots = [sum(max(0, sheet.attributes[a] - free) for a in attrs) for _, attrs in groups]
    allot = [int(x) for x in book["attributes"]]
    _, given = group_excess(dots, allot)
    ranked = sorted(allot, reverse=True)
    out.priorities["attributes"] = {g: PRIORITY_WORDS[given[i]] for i, (g, _) in enumerate(groups)}
    for i, (g, _) in enumerate(groups):
        a = ranked[given[i]]
        if dots[i] > a:
            out.spends.append(
                Spend(
                    "Attributes",
                    dots[i] - a,
                    (dots[i] - a) * costs["attribute"],
                    f"{dots[i]} dots in {g} ({PRIORITY_WORDS[given[i]]}), {a} allowed",
                )
            )
        elif dots[i] < a:
            out.notes.append(
                f"Attributes: {_plural(a - dots[i], 'dot')} of {g} ({PRIORITY_WORDS[given[i]]}) left unspent"
            )
    for attr in T.ATTRIBUTES:
        if sheet.attributes[attr] < free:
            out.notes.append(f"{attr} {sheet.attributes[attr]}: below the free dot (a metis deformity?)")

    # Abilities: dots above the cap are freebies whatever the group
    cap = int(book["ability_cap_before_freebies"])
    ab_groups = [("Talents", T.TALENTS), ("Skills", T.SKILLS), ("Knowledges", T.KNOWLEDGES)]
    ab_dots = [sum(min(sheet.abilities.get(a, 0), cap) for a in names) for _, names in ab_groups]
    others = {a: v for a, v in sheet.abilities.items() if a in T.SECONDARY_ABILITIES} | dict(sheet.custom_abilities)
    flexible = sum(min(v, cap) for v in others.values())
    above = {a: v - cap for a, v in (sheet.abilities | sheet.custom_abilities).items() if v > cap}
    ab_allot = [int(x) for x in book["abilities"]]
    ab_over, ab_given = group_excess(ab_dots, ab_allot, flexible)
    ab_ranked = sorted(ab_allot, reverse=True)
    out.priorities["abilities"] = {g: PRIORITY_WORDS[ab_given[i]] for i, (g, _) in enumerate(ab_groups)}
    if ab_over:
        parts = [
            f"{ab_dots[i]} dots in {g} ({PRIORITY_WORDS[ab_given[i]]}), {ab_ranked[ab_given[i]]} allowed"
            for i, (g, _) in enumerate(ab_groups)
            if ab_dots[i] > ab_ranked[ab_given[i]]
        ]
        if flexible:
            parts.append(f"{counted(flexible, 'dot')} of other Abilities placed where they fit")
        out.spends.append(Spend("Abilities", ab_over, ab_over * costs["ability"], "; ".join(parts)))
    if above:
        listed = ", ".join(f"{a} {cap + n}" for a, n in above.items())
        n = sum(above.values())
        out.spends.append(
            Spend("Abilities above 3", n, n * costs["ability"], f"{listed}: none above {cap} before freebies")
        )

    # Backgrounds
    bg = sum(sheet.backgrounds.values())
    if bg > int(book["backgrounds"]):
        n = bg - int(book["backgrounds"])
        out.spends.append(Spend("Backgrounds", n, n * costs["background"], f"{bg} dots, {book['backgrounds']} given"))

    # Gifts
    allowed = int(book["level_one_gifts"])
    higher = [g for g in sheet.gifts if int(g["level"]) > 1]
    for gift in higher:
        dev(Deviation("Gifts", f"{gift['name']} is level {gift['level']}: a new character has level-one Gifts only"))
    ones = [g for g in sheet.gifts if int(g["level"]) == 1]
    if len(ones) > allowed:
        if "gift" in costs:
            n = len(ones) - allowed
            out.spends.append(Spend("Gifts", n, n * costs["gift"], f"{len(ones)} level-one Gifts, {allowed} given"))
        else:
            dev(Deviation("Gifts", f"{counted(len(ones), 'Gift')}: {kind.capitalize()} start with none"))
    elif allowed and len(ones) < allowed:
        out.notes.append(f"Gifts: {len(ones)} of the {allowed} level-one Gifts chosen")
    if allowed:
        unknown = []
        for gift in ones:
            standing, where = gift_standing(sheet, gift["name"])
            if standing == "outside":
                dev(
                    Deviation(
                        "Gifts",
                        f"{gift['name']} is a Gift of {', '.join(where)}, not of the character's breed, "
                        "auspice or tribe (gift_lists.yaml)",
                    )
                )
            elif standing == "unknown":
                unknown.append(gift["name"])
        if unknown:
            out.not_checked.append(
                f"Gifts: {', '.join(unknown)}: not in stkit's Gift lists "
                "(partial public summaries of the Revised and W20 Gift lists)"
            )
    if sheet.rites:
        out.not_checked.append("Rites: they come with the Rites Background (its dots are checked with the Backgrounds)")
    if needs_deformity(sheet.fera, sheet.creature, sheet.breed) and not sheet.deformity.strip():
        names, _ = deformity_list()
        dev(
            Deviation(
                "Metis deformity",
                f"a metis is born with a deformity and {sheet.name} has none; choose one "
                f"(`char set {sheet.name} deformity NAME`), e.g. {', '.join(names)}",
            )
        )

    # Rage, Gnosis, Willpower
    def power(name: str, base: int | None, why: str) -> None:
        have = sheet.powers[name].permanent
        if base is None:
            out.not_checked.append(f"{name}: {why}")
            return
        if have < base:
            dev(Deviation(name, f"{name} {have}: {why} starts with {base}"))
        elif have > base:
            if name.lower() not in costs:
                dev(Deviation(name, f"{name} {have}: {why} starts with {base}, and freebies cannot buy it"))
            else:
                n = have - base
                out.spends.append(Spend(name, n, n * costs[name.lower()], f"{name} {have}, {base} from {why}"))

    if kind == "garou":
        ausp = rules()["auspices"].get(sheet.auspice)
        breed = rules()["breeds"].get(sheet.breed)
        wp = tribe_willpower(sheet.tribe) if sheet.tribe else None
        power(
            "Rage",
            ausp["rage"] if ausp else None,
            f"the auspice {sheet.auspice}" if ausp else "no auspice on the sheet",
        )
        power(
            "Gnosis",
            breed["gnosis"] if breed else None,
            f"the breed {sheet.breed}" if breed else "no breed on the sheet",
        )
        why = (
            f"the tribe {sheet.tribe}"
            if wp is not None
            else (f"the tribe {sheet.tribe!r} is not in the table" if sheet.tribe else "no tribe on the sheet")
        )
        sourced = {_tribe_key(t) for t in rules().get("tribes_sourced") or []}
        if wp is not None and _tribe_key(sheet.tribe) not in sourced:
            wp, why = None, f"the starting Willpower of the {sheet.tribe} has no public source in stkit's table"
        power("Willpower", wp, why)
        _tribe_backgrounds(sheet, dev, out)
        renown_start = ausp
    elif kind == "ratkin":
        rage = book["rage_by_auspice"].get(sheet.auspice)
        gn = book["gnosis_by_breed"].get(sheet.breed)
        power("Rage", rage, f"the aspect {sheet.auspice}" if rage is not None else "no aspect on the sheet")
        power("Gnosis", gn, f"the breed {sheet.breed}" if gn is not None else "no breed on the sheet")
        power("Willpower", int(book["willpower"]), "a Ratkin")
        renown_start = {"renown_any": book["renown_any"]}
    else:
        power("Rage", int(book["rage"]), f"{kind.capitalize()}")
        power("Gnosis", int(book["gnosis"]), f"{kind.capitalize()}")
        if "willpower" in book:
            power("Willpower", int(book["willpower"]), f"{kind.capitalize()}")
        else:
            out.not_checked.append("Willpower: a mortal's comes from Courage, which the sheet does not keep")
        renown_start = {"renown": {}}

    # Renown and Rank
    perm = {r: sheet.renown[r].permanent for r in T.RENOWN}
    if renown_start is None:
        out.not_checked.append("Renown: no auspice on the sheet")
    elif "renown_any" in renown_start:
        if sum(perm.values()) != int(renown_start["renown_any"]):
            dev(
                Deviation(
                    "Renown",
                    f"{sum(perm.values())} permanent Renown in all; a new {sheet.auspice or kind.capitalize()} "
                    f"starts with {renown_start['renown_any']} in any combination",
                )
            )
    else:
        want = {r: int(renown_start.get("renown", {}).get(r, 0)) for r in T.RENOWN}
        wrong = [f"{r} {perm[r]} (starts with {want[r]})" for r in T.RENOWN if perm[r] != want[r]]
        if wrong:
            dev(Deviation("Renown", "permanent Renown " + ", ".join(wrong)))
    if sheet.rank != int(book["rank"]):
        dev(Deviation("Rank", f"Rank {sheet.rank}; a new character is Rank {book['rank']}"))

    # Merits, Flaws and the freebie budget
    merits = sum(int(m["points"]) for m in sheet.merits)
    if merits:
        out.spends.append(Spend("Merits", merits, merits * costs["merit"], ", ".join(m["name"] for m in sheet.merits)))
    flaws = sum(int(f["points"]) for f in sheet.flaws)
    back = min(flaws, int(book["flaw_points_max"]))
    if flaws > back:
        gives = "gives" if back == 1 else "give"
        out.notes.append(f"Flaws: {counted(flaws, 'point')} taken, only {back} {gives} freebie points back")
    out.available = int(book["freebies"]) + back
    if out.spent > out.available:
        dev(
            Deviation(
                "Freebie points",
                f"{out.spent} freebie points needed, {out.available} available ({book['freebies']}"
                f"{f' + {back} from Flaws' if back else ''}); {out.spent - out.available} over",
            )
        )
    return out


# ----- experience ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Purchase:
    """One trait raised with experience: its ``kind`` (attribute, ability, custom_ability, gift, rite, rage,
    gnosis, willpower), display ``name``, ``old`` and ``new`` rating (Gifts and Rites: 0 and the level),
    ``cost`` in experience and ``steps``: how the cost adds up, one phrase per dot."""

    kind: str
    name: str
    old: int
    new: int
    cost: int
    steps: tuple[str, ...]
    outside: bool = False

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "name": self.name,
            "from": self.old,
            "to": self.new,
            "cost": self.cost,
            "arithmetic": " + ".join(self.steps),
            "outside": self.outside,
        }

    @property
    def label(self) -> str:
        if self.kind in (TraitKind.gift, TraitKind.rite):
            kind = self.kind.capitalize()
            # "Rite of Cleansing" already says what it is: no "Rite Rite of Cleansing"
            said = self.name.casefold().startswith(kind.casefold() + " ")
            return f"{self.name} ({self.new})" if said else f"{kind} {self.name} ({self.new})"
        return f"{self.name} {self.old}->{self.new}"


def _dot_costs(table: dict, old: int, new: int) -> tuple[int, tuple[str, ...]]:
    steps, total = [], 0
    for r in range(old, new):
        if r == 0 and "new" in table:
            c, text = int(table["new"]), f"new {table['new']}"
        else:
            rated = max(r, 1)
            c, text = rated * int(table["per"]), f"{rated}x{table['per']}"
        steps.append(text)
        total += c
    return total, tuple(steps)


def price(
    sheet: Sheet, trait: str, to: int | None = None, *, outside: bool = False, rite_cost: str = "level"
) -> Purchase:
    """What raising ``trait`` (a name ``char set`` understands; ``gift:NAME`` / ``rite:NAME`` with ``to`` as
    the level, 1 by default) to ``to`` (default: one dot more) costs by the experience table. Raises
    InvalidValue for an unknown trait or a rating out of range, RuleRefusal for what experience cannot buy
    (Backgrounds, Renown, a lower rating, a Gift above the character's Rank or already known)."""
    table = rules()["experience"]
    ref = T.resolve_settable(
        trait, custom_abilities=tuple(sheet.custom_abilities), backgrounds=tuple(sheet.backgrounds)
    )
    if ref.kind in (TraitKind.gift, TraitKind.rite):
        level = 1 if to is None else to
        T.check_rating(level, ref)
        known = [e for e in getattr(sheet, ref.kind + "s") if T.norm(e["name"]) == T.norm(ref.name)]
        if known:
            raise RuleRefusal(
                f"{sheet.name} already knows the {ref.kind} {known[0]['name']} (level {known[0]['level']})"
            )
        if ref.kind == TraitKind.gift:
            standing, where = gift_standing(sheet, ref.name)
            if standing == "in" and to is None:
                level = int(where[0].rsplit(" level ", 1)[1])
            if standing == "outside" and not outside:
                raise RuleRefusal(
                    f"{ref.name} is a Gift of {', '.join(where)}, not of {sheet.name}'s breed, auspice or tribe; "
                    "with the Storyteller's leave buy it from outside the lists (--outside, level x5)"
                )
            if standing == "in":
                outside = False
            if level > sheet.rank:
                raise RuleRefusal(
                    f"{ref.name} is a level {level} Gift and {sheet.name} is Rank {sheet.rank}: "
                    "no Gift above the character's Rank"
                )
            key = "gift_outside" if outside else "gift"
            per = int(table[key]["per"])
            return Purchase("gift", ref.name, 0, level, level * per, (f"level {level}x{per}",), outside)
        if rite_cost == "taught":
            return Purchase("rite", ref.name, 0, level, 0, ("taught (house rule rite-cost)",))
        per = int(table["rite"]["per"])
        return Purchase("rite", ref.name, 0, level, level * per, (f"level {level}x{per}",))
    kind = {"custom_ability": "ability"}.get(ref.kind, ref.kind)
    if ref.kind == TraitKind.power:
        kind = ref.name.lower()
    if ref.kind == TraitKind.background:
        raise RuleRefusal(
            "Backgrounds are not bought with experience; they come from the story "
            f"(`char set {sheet.name} background:{ref.name} N`)"
        )
    if ref.kind in (TraitKind.renown, TraitKind.renown_temporary):
        raise RuleRefusal(f"Renown is earned by deeds, not experience: `char renown {sheet.name} {ref.name} N`")
    if kind not in table:
        raise InvalidValue(
            f"{trait!r} is not raised with experience; "
            "raise an Attribute, Ability, Gift, Rite, Rage, Gnosis or Willpower"
        )
    old = sheet.rating(ref.name)
    new = old + 1 if to is None else to
    top = int(table["maximum_rating"][kind])
    if new > top:
        raise InvalidValue(f"{ref.name} {new} is outside the allowed range 0 to {top}")
    if new <= old:
        raise RuleRefusal(f"{ref.name} is already {old}; experience only raises a Trait")
    cost, steps = _dot_costs(table[kind], old, new)
    return Purchase(ref.kind if ref.kind != TraitKind.power else kind, ref.name, old, new, cost, steps)


def apply_purchase(sheet: Sheet, p: Purchase) -> None:
    """Write ``p`` onto ``sheet`` (a new rating, or the Gift or Rite added at its level)."""
    if p.kind in (TraitKind.gift, TraitKind.rite):
        sheet.set_trait(f"{p.kind}:{p.name}", p.new)
    elif p.kind == TraitKind.custom_ability:
        sheet.custom_abilities[p.name] = p.new
    else:
        sheet.set_trait(p.name, p.new)


def revert_purchase(sheet: Sheet, item: dict) -> None:
    """Undo one stored purchase (:meth:`Purchase.to_dict`) on ``sheet``. Raises RuleRefusal when the trait
    no longer holds what the purchase made it (changed since), naming it."""
    kind, name, new, old = item["kind"], item["name"], int(item["to"]), int(item["from"])
    if kind in ("gift", "rite"):
        entries = getattr(sheet, kind + "s")
        hit = [e for e in entries if T.norm(e["name"]) == T.norm(name) and int(e["level"]) == new]
        if not hit:
            raise RuleRefusal(f"the {kind} {name} is no longer on the sheet as bought; nothing undone")
        setattr(sheet, kind + "s", [e for e in entries if e is not hit[0]])
        return
    now = sheet.custom_abilities.get(name, 0) if kind == "custom_ability" else sheet.rating(name)
    if now != new:
        raise RuleRefusal(f"{name} is {now} now, not the {new} the spend bought; nothing undone")
    if kind == "custom_ability":
        if old:
            sheet.custom_abilities[name] = old
        else:
            sheet.custom_abilities.pop(name, None)
    else:
        sheet.set_trait(name, old)


# ----- Renown and Rank -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RenownAward:
    """What :func:`award_renown` did: the Renown, the points given, permanent and temporary before and
    after, dots gained by the rollover, and the Rank before and after."""

    renown: str
    amount: int
    before: tuple[int, int]
    after: tuple[int, int]
    rank_before: int
    rank_after: int

    @property
    def gained(self) -> int:
        return self.after[0] - self.before[0]

    def to_dict(self) -> dict:
        return {
            "renown": self.renown,
            "amount": self.amount,
            "before": {"permanent": self.before[0], "temporary": self.before[1]},
            "after": {"permanent": self.after[0], "temporary": self.after[1]},
            "permanent_gained": self.gained,
            "rank_before": self.rank_before,
            "rank_after": self.rank_after,
        }


def award_renown(sheet: Sheet, renown: str, amount: int) -> RenownAward:
    """Give ``amount`` (-10..10, not 0) temporary points of ``renown`` (Glory, Honor, Wisdom). Every
    ``renown_rollover`` (10) temporary points become one permanent dot (at most 10); a loss takes
    temporary points, never below 0. Then the Rank rises to the highest the auspice's table allows
    (Ranks are never lowered here). Raises InvalidValue for an unknown Renown or amount."""
    name = sheet.renown_slot(renown)
    if name is None:
        own = [sheet.renown_label(r) for r in T.RENOWN]
        raise InvalidValue(
            f"unknown Renown {renown!r}{T.did_you_mean(renown, own)}; allowed: {sheet.renown_names_allowed()}"
        )
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or not -10 <= amount <= 10:
        raise InvalidValue(f"{amount!r} Renown points: allowed -10 to 10, not 0")
    track = sheet.renown[name]
    before = (track.permanent, track.temporary)
    step = int(rules()["renown_rollover"])
    temp = max(0, track.temporary + amount)
    while temp >= step and track.permanent < T.MAX_POWER:
        temp -= step
        track.permanent += 1
    track.temporary = min(temp, T.MAX_POWER)
    rank_before = sheet.rank
    qualified = qualifying_rank(sheet)
    if qualified is not None and qualified > sheet.rank:
        sheet.rank = qualified
    return RenownAward(name, amount, before, (track.permanent, track.temporary), rank_before, sheet.rank)


def creation_sheet(sheet: Sheet, spends: list[dict], awards: list[dict]) -> Sheet:
    """A copy of ``sheet`` as it was made: every recorded experience purchase (``spends``: the items of
    the live spends, oldest first) and Renown award (``awards``: their ``before`` tracks and ranks, oldest
    first) taken back, newest first. Purchases that no longer match the sheet are skipped."""
    s = copy.deepcopy(sheet)
    for item in reversed(spends):
        try:
            revert_purchase(s, item)
        except RuleRefusal:
            continue
    for a in reversed(awards):
        s.renown[a["renown"]].permanent = int(a["before"]["permanent"])
        s.renown[a["renown"]].temporary = int(a["before"]["temporary"])
        s.rank = int(a["rank_before"])
    return s
