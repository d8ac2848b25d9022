"""Grapevine exchange files (``.gex``, XML): the werewolves, Fera, Kinfolk and mortals in them, as sheets.

Grapevine keeps Mind's Eye Theatre characters (the LARP rules): Attributes and Renown are lists of
adjectives ("Brawny x2"), ranks are words, and a file holds a whole troupe. The conversion to the tabletop
sheet is stkit's, documented in docs/characters.md ("Grapevine"):

- an Attribute category (Physical, Social, Mental) of n adjectives gives each of its three Attributes
  ``round((n + 3) / 3)`` dots, between 1 and 5 (:func:`category_dots`; the list does not say which adjective
  belongs to which Attribute);
- Abilities and Backgrounds: the trait's count is its dots, capped at 5; Merits and Flaws: their count
  (capped at 7) is their points;
- Glory, Honor, Wisdom: the number of adjectives is the permanent Renown (capped at 10), the element's
  ``tempglory`` ... attributes the temporary;
- Gifts and Rites: Basic 1, Intermediate 3, Advanced 5 (or the level written as a number); a werewolf's
  Basic or Intermediate Gift takes the level stkit's Gift lists give it within the tier (Basic 1-2,
  Intermediate 3-4, as Grapevine's own menus place the Garou Gifts), else the tier's lowest with a warning;
- rank words: Cliath 1, Fostern 2, Adren 3, Athro 4, Elder 5, Legend 6 (Pup 0), or a number;
- a range such as ``1-4`` counts as its upper value, with a warning; a value that is not a number is
  refused for Rage, Gnosis and Willpower.

Whatever does not convert (the adjectives themselves, Equipment, Grapevine's own bookkeeping, values over
the caps) is written into the character's notes under "From Grapevine" and named in the warnings. Other
creatures (vampires, mages...) are skipped with one warning each.

XML is parsed with defusedxml: entity declarations, external entities and DTDs are refused. A malformed
file is one DataFileError naming the line; Grapevine's binary format (it starts with ``GVBE``) is refused by
name. Nothing here touches the store: :func:`stkit.store.files.import_files` stores all or none.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stkit.errors import DataFileError, InvalidValue
from stkit.formats.imported import LoadedFile
from stkit.sheet import breeds as B
from stkit.sheet import traits as T
from stkit.sheet.sheet import MAX_XP, SPECIALTY_MIN_DOTS, Sheet, drop_low_specialties, xp_log_warnings
from stkit.text import (
    MAX_NAME,
    MAX_NOTES,
    MAX_SHORT_TEXT,
    check_text,
    counted,
    harmless_line,
    is_invisible,
    printable,
    shown_value,
)
from stkit.yamlsafe import load_packaged

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element


BINARY_MAGIC = b"GVBE"


@functools.cache
def vocabulary() -> dict:
    """The packaged ``grapevine_vocabulary.yaml``: ``ranks`` (per Changing Breed, and ``every``),
    ``levels`` (level words), ``costs`` (``gifts`` / ``rites``: experience cost -> level) and ``abilities``
    (Grapevine names -> Revised names). Its comments name the source: Grapevine 3.0's menu file."""
    data: dict = load_packaged("stkit.formats", "grapevine_vocabulary.yaml")
    return data


#: Grapevine elements stkit reads, and the creature each is.
CREATURE_ELEMENTS = {"werewolf": "shapeshifter", "fera": "shapeshifter", "kinfolk": "kinfolk", "mortal": "mortal"}
ATTRIBUTE_LISTS = {"physical": "Physical", "social": "Social", "mental": "Mental"}
RENOWN_LISTS = {"glory": "Glory", "honor": "Honor", "honour": "Honor", "wisdom": "Wisdom"}
#: Element attributes taken into the sheet (the rest go to the notes).
_KEPT_ATTRIBUTES = {
    "name",
    "player",
    "nature",
    "demeanor",
    "concept",
    "breed",
    "auspice",
    "tribe",
    "pack",
    "totem",
    "rank",
    "fera",
    "rage",
    "temprage",
    "gnosis",
    "tempgnosis",
    "willpower",
    "tempwillpower",
    "tempglory",
    "temphonor",
    "tempwisdom",
}
_EARN_TYPES = {"0", "earn", "earned", "award", "awarded", "gain", "gained"}
_SPEND_TYPES = {"3", "spend", "spent"}


def category_dots(adjectives: int) -> int:
    """The dots each Attribute of a category gets from its count of MET adjectives: round((n + 3) / 3),
    between 1 and 5 (0 -> 1, 3 -> 2, 5 -> 3, 7 -> 3, 10 -> 4, 12 or more -> 5). stkit's table."""
    return max(1, min(T.MAX_DOTS, int((adjectives + 3) / 3 + 0.5)))


class _Character:
    """One creature element being converted: the sheet dict, its warnings and its notes."""

    def __init__(self, source: str, element: Element, index: int) -> None:
        self.source = source
        self.el = element
        self.name = (element.get("name") or "").strip()
        self.label = f"{element.tag} {shown_value(self.name)}" if self.name else f"{element.tag} #{index + 1}"
        self.warnings: list[str] = []
        self.notes: list[str] = []
        self.unsure_levels: list[str] = []  # Gifts whose level within a Grapevine tier is not checked

    def fail(self, where: str, message: str) -> DataFileError:
        return DataFileError(f"{self.source}: {self.label}: {where}: {message}")

    def keep_note(self, where: str, text: str, why: str) -> None:
        """Write ``text`` into the notes and name it in the warnings."""
        self.notes.append(f"{where}: {text}")
        self.warnings.append(f"{self.label}: {where}: {why}; kept in the notes")

    def count(self, text: str | None, where: str, *, default: int = 1) -> int | None:
        """A trait count: '3' -> 3; '1-4' -> 4 (with a warning); '' -> ``default``; words -> None."""
        t = (text or "").strip()
        if not t:
            return default
        if re.fullmatch(r"[0-9]{1,6}", t):  # ASCII digits only, as stkit.text.parse_whole_number reads
            return int(t)
        m = re.fullmatch(r"([0-9]{1,6})\s*-\s*([0-9]{1,6})", t)
        if m:
            shown = shown_value(t)
            self.warnings.append(f"{self.label}: {where}: the range {shown} counts as its upper value {m.group(2)}")
            return int(m.group(2))
        return None

    def power(self, key: str, hi: int) -> int | None:
        raw = self.el.get(key)
        if raw is None:
            return None
        n = self.count(raw, f"@{key}", default=0)
        if n is None:
            self.keep_note(f"@{key}", raw, f"{shown_value(raw)} is not a number (0 to {hi}, or a range such as 1-4)")
            return None
        if n > hi:
            self.keep_note(f"@{key}", raw, f"{n} is outside the allowed range 0 to {hi}")
            return None
        return n


def _traits(el: Element) -> list[tuple[str, str | None, str]]:
    """(name, count text, note) of each ``<trait>`` of a ``<traitlist>``; 'Brawny x2' names give count 2."""
    out = []
    for t in el.iter("trait"):
        name = (t.get("name") or "").strip()
        val = t.get("val")
        m = re.fullmatch(r"(.*?)\s*[xX\u00d7]\s*([0-9]{1,4})", name)
        if m and val is None:
            name, val = m.group(1).strip(), m.group(2)
        if name:
            out.append((name, val, (t.get("note") or "").strip()))
    return out


def _shown(name: str, val: str | None) -> str:
    return f"{name} x{val}" if val and val.strip() != "1" else name


def _parse(raw: bytes, source: str) -> Element:
    if raw.startswith(BINARY_MAGIC):
        raise DataFileError(
            f"{source}: Grapevine's binary .gex format (the file starts with GVBE) is not read; "
            "save the characters from Grapevine in its XML exchange format and import that"
        )
    import defusedxml.ElementTree as DET  # lazy: start-up (heavy library, loaded when needed)
    from defusedxml import DefusedXmlException  # lazy: start-up (heavy library, loaded when needed)

    try:
        root = DET.fromstring(raw, forbid_dtd=True)
    except DET.ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        raise DataFileError(f"{source}: malformed XML at line {line}, column {column + 1}: {reason}") from None
    except DefusedXmlException as exc:
        raise DataFileError(
            f"{source}: the XML declares a DTD or entities ({type(exc).__name__}); refused: a Grapevine file needs none"
        ) from None
    except (LookupError, ValueError) as exc:  # (after DefusedXmlException, a ValueError too)
        # an encoding the XML declaration names but Python lacks
        raise DataFileError(f"{source}: the XML cannot be decoded: {exc}") from None
    if root.tag.lower() != "grapevine":
        raise DataFileError(f"{source}: the XML's root element is <{root.tag}>; a Grapevine file has <grapevine>")
    return root


#: The most characters one Grapevine file may hold (a troupe, with room to spare): the import checks
#: every name against the others, so an unbounded file would take unbounded time.
MAX_CHARACTERS = 1000


def from_grapevine(raw: bytes, *, source: str = "Grapevine file") -> list[LoadedFile]:
    """The werewolves, Fera, Kinfolk and mortals of a Grapevine XML exchange file, as LoadedFiles (format
    ``grapevine``), in file order. Every other creature is skipped with one warning (on the first
    character's LoadedFile, or an error when nothing is left). Raises DataFileError for a malformed or
    binary file and for a value that cannot be converted (naming the character and the field). Every message
    and warning quotes the file's values bounded and escaped (:func:`stkit.text.shown_value`) and is itself
    made harmless (:func:`stkit.text.harmless_line`)."""
    try:
        loaded = _from_grapevine(raw, source)
    except DataFileError as exc:
        raise type(exc)(harmless_line(str(exc))) from None
    for lf in loaded:
        lf.warnings[:] = [harmless_line(w) for w in lf.warnings]
    return loaded


def _from_grapevine(raw: bytes, source: str) -> list[LoadedFile]:
    root = _parse(raw, source)
    count = sum(1 for el in root if el.tag.lower() in CREATURE_ELEMENTS)
    if count > MAX_CHARACTERS:
        raise DataFileError(
            f"{source}: {count} characters in one file; allowed: at most {MAX_CHARACTERS} (split the troupe)"
        )
    chronicle = (root.get("chronicle") or "").strip()
    skipped: list[str] = []
    loaded: list[LoadedFile] = []
    for i, el in enumerate(list(root)):
        tag = el.tag.lower()
        if tag not in CREATURE_ELEMENTS:
            if el.get("name") is not None:
                skipped.append(
                    f"{el.tag} {shown_value(el.get('name'))} skipped: stkit keeps werewolves, Fera, Kinfolk and mortals"
                )
            elif tag not in ("usergroup", "calendar", "aprsettings", "template"):
                skipped.append(f"<{el.tag}> element skipped: not a character")
            continue
        c = _Character(source, el, i)
        sheet = _convert(c, CREATURE_ELEMENTS[tag], chronicle, i)
        loaded.append(LoadedFile(sheet, Path(source), "grapevine", c.warnings + xp_log_warnings(sheet)))
    if not loaded:
        more = f" ({'; '.join(skipped)})" if skipped else ""
        raise DataFileError(f"{source}: no werewolf, Fera, Kinfolk or mortal characters found{more}")
    loaded[0].warnings[:0] = skipped
    return loaded


def _convert(c: _Character, creature: str, chronicle: str, index: int) -> Sheet:
    el = c.el
    if not c.name:
        c.name = f"Unnamed {el.tag} {index + 1}"
        c.warnings.append(f"{c.label}: @name: the character has no name; imported as {shown_value(c.name)}")
    out: dict[str, Any] = {"name": c.name, "creature": creature}
    if chronicle:
        out["chronicle"] = chronicle
    for f in ("player", "nature", "demeanor", "concept", "tribe", "pack", "totem"):
        out[f] = (el.get(f) or "").strip()
    fera_text = (el.get("fera") or "").strip()
    # Grapevine's Fera menu writes a submenu pick as "Bastet: Khan" (the Changing Breed, then its tribe,
    # a Gurahl's tribe or a Mokole's stream)
    detail = ""
    if ":" in fera_text:
        fera_text, detail = (part.strip() for part in fera_text.split(":", 1))
    try:
        out["fera"] = B.get_changing_breed(fera_text).name
    except InvalidValue as exc:
        out["fera"] = B.GAROU
        c.keep_note("@fera", el.get("fera") or "", f"{exc}; imported as {B.GAROU}")
        detail = ""
    if el.tag.lower() == "fera" and not fera_text:
        c.keep_note(
            "@fera", "", f"a <fera> names its Changing Breed ({', '.join(B.FERA_NAMES[1:])}); imported as Garou"
        )
    if detail and not out["tribe"]:
        out["tribe"] = detail
    elif detail and T.norm(detail) != T.norm(out["tribe"]):
        c.keep_note("@fera", el.get("fera") or "", f"{detail!r} beside the tribe {out['tribe']!r}")
    for f, lookup in (("breed", B.lookup_breed), ("auspice", B.lookup_auspice)):
        value = (el.get(f) or "").strip()
        try:
            out[f] = lookup(value, out["fera"])
        except InvalidValue as exc:
            out[f] = ""
            c.keep_note(f"@{f}", value, str(exc))
    out["rank"] = _rank(c, (el.get("rank") or "").strip(), out["fera"])
    for p in ("rage", "gnosis", "willpower"):
        perm = c.power(p, T.MAX_POWER)
        temp = c.power(f"temp{p}", 99 if p == "rage" else T.MAX_POWER)
        if perm is None and temp is None:
            continue
        perm = perm if perm is not None else (temp or 0)
        temp = temp if temp is not None else perm
        if p != "rage" and temp > perm:
            c.keep_note(f"@temp{p}", str(temp), f"more than the {p.capitalize()} rating {perm}; {perm} kept")
            temp = perm
        out[p] = {"permanent": perm, "temporary": temp}
    spends = _spends(el)
    attributes: dict[str, int] = {}
    abilities: dict[str, int] = {}
    custom: dict[str, int] = {}
    specialties: dict[str, str] = {}
    backgrounds: dict[str, int] = {}
    renown: dict[str, dict[str, int]] = {}
    entries: dict[str, list[dict]] = {"gifts": [], "rites": [], "merits": [], "flaws": []}
    for child in el:
        tag = child.tag.lower()
        if tag == "traitlist":
            _trait_list(c, child, attributes, abilities, custom, specialties, backgrounds, renown, entries, spends)
        elif tag == "experience":
            out["experience"] = _experience(c, child)
        elif tag in ("biography", "description"):
            text = (child.text or "").strip()
            if text:
                out["biography"] = (out.get("biography", "") + "\n\n" + text).strip()
        elif tag == "notes":
            out["notes"] = (child.text or "").strip()
        elif (child.text or "").strip() or child.attrib:
            c.keep_note(f"<{child.tag}>", (child.text or "").strip() or str(dict(child.attrib)), "not converted")
    # Grapevine writes the permanent Renown twice: as a number (@glory) and as the list's adjectives; the
    # number counts when there is no list, and is the same value when the list's count agrees
    consumed = set()
    for r in ("Glory", "Honor", "Wisdom"):
        raw = el.get(r.lower())
        if raw is None:
            continue
        n = c.count(raw, f"@{r.lower()}", default=0)
        if r not in renown and n is not None and n <= T.MAX_POWER:
            renown[r] = {"permanent": n}
            consumed.add(r.lower())
        elif r in renown and n == renown[r].get("permanent"):
            consumed.add(r.lower())
    kept = _KEPT_ATTRIBUTES | consumed
    for k, v in el.attrib.items():
        if k.lower() not in kept and v.strip():
            c.notes.append(f"@{k}: {v.strip()}")
    unkept = [k for k, v in el.attrib.items() if k.lower() not in kept and v.strip()]
    if unkept:
        c.warnings.append(f"{c.label}: not converted: @{', @'.join(unkept)}; kept in the notes")
    for r in ("Glory", "Honor", "Wisdom"):
        temp = c.power(f"temp{r.lower()}", T.MAX_POWER)
        if temp is not None:
            renown.setdefault(r, {"permanent": 0})["temporary"] = temp
        renown.setdefault(r, {"permanent": 0}).setdefault("temporary", 0)
    out.update(
        attributes=attributes,
        abilities=abilities,
        custom_abilities=custom,
        specialties=specialties,
        backgrounds=backgrounds,
        renown=renown,
        **entries,
    )
    drop_low_specialties(out, c.warnings, f"{c.label}: ")
    if c.notes:
        block = "From Grapevine (not converted):\n" + "\n".join(c.notes)
        out["notes"] = (out.get("notes", "") + "\n\n" + block).strip()
    _fit_texts(c, out)
    return Sheet.from_dict(out, source=f"{c.source}: {c.label}")


def _fit(c: _Character, value: str, where: str, limit: int, multiline: bool = False) -> str:
    """``value`` as a sheet can hold it: a control or invisible character written as its escape (``\\x1b``)
    and text past ``limit`` cut, each named in a warning, so one odd text never refuses the troupe."""
    try:
        return check_text(value, where, limit=limit, multiline=multiline)
    except InvalidValue:
        pass
    fixed = printable(value, multiline=multiline)
    fixed = "".join(f"\\u{ord(ch):04x}" if not multiline and is_invisible(ch) else ch for ch in fixed)
    if fixed != value:
        c.warnings.append(f"{c.label}: {where}: control or invisible characters written as escapes")
    if len(fixed) > limit:
        c.warnings.append(f"{c.label}: {where}: {len(fixed)} characters; cut to the {limit} a sheet holds")
        fixed = fixed[:limit]
    return fixed


def _fit_texts(c: _Character, out: dict[str, Any]) -> None:
    """Every text of the sheet dict ``out`` through :func:`_fit`, with its field's limit."""
    for f in ("name", "chronicle"):
        if isinstance(out.get(f), str):
            out[f] = _fit(c, out[f], f, MAX_NAME)
    for f in ("player", "nature", "demeanor", "concept", "tribe", "pack", "totem"):
        if isinstance(out.get(f), str):
            out[f] = _fit(c, out[f], f, MAX_SHORT_TEXT)
    for f in ("biography", "notes"):
        if isinstance(out.get(f), str):
            out[f] = _fit(c, out[f], f, MAX_NOTES, multiline=True)
    for section in ("abilities", "custom_abilities", "backgrounds", "specialties"):
        block = out.get(section)
        if isinstance(block, dict):
            out[section] = {
                _fit(c, k, f"{section} name", MAX_SHORT_TEXT): (
                    _fit(c, v, f"{section}.{k}", MAX_SHORT_TEXT) if isinstance(v, str) else v
                )
                for k, v in block.items()
            }
    for section in ("gifts", "rites", "merits", "flaws"):
        for entry in out.get(section) or []:
            entry["name"] = _fit(c, entry["name"], f"{section} name", MAX_SHORT_TEXT)
    for entry in (out.get("experience") or {}).get("log", []):
        entry["reason"] = _fit(c, entry["reason"], "experience reason", MAX_SHORT_TEXT)


def _rank(c: _Character, text: str, fera: str) -> int:
    """The rank of a rank word of ``fera``'s (Grapevine's "Rank, Werewolf" / "Rank, Fera" menus, see
    grapevine_vocabulary.yaml) or a number 0-6; anything else goes to the notes and counts as 0."""
    if not text:
        return 0
    ranks = vocabulary()["ranks"]
    words = {**ranks["every"], **ranks.get(fera, {})}
    key = " ".join(text.lower().split())
    if key in words:
        return int(words[key])
    n = c.count(text, "@rank", default=0)
    if n is not None and n <= T.MAX_RANK:
        return n
    known = ", ".join(w.title() for w in words)
    c.keep_note("@rank", text, f"not a rank stkit knows for the {fera} (words: {known}; or 0-{T.MAX_RANK})")
    return 0


def _spends(el: Element) -> list[tuple[str, str]]:
    """(folded reason, change) of each experience spend entry (type 3) of a character element, for the
    level of a power bought with it."""
    out = []
    for xp in el.iter("experience"):
        for e in xp.iter("entry"):
            if (e.get("type") or "").strip().lower() in _SPEND_TYPES:
                out.append((T.norm(e.get("reason") or ""), (e.get("change") or "").strip()))
    return out


def _power_level(c: _Character, key: str, name: str, val: str | None, note: str, cost: str | None, spends) -> int:
    """A Gift's or Rite's level: from its note's level word ('basic', 'int.', 'adv.'; 'Intermediate') or
    number, else from its experience cost (the trait's ``cost`` or the spend entry naming it: Gifts 3 / 6 / 9,
    Rites 2 / 4 / 6, see grapevine_vocabulary.yaml), else 1, named in a warning. A werewolf's Gift marked by
    word or cost is narrowed within its tier by :func:`_gift_in_tier`."""
    where = f"{key.capitalize()} list {name!r}"
    vocab = vocabulary()
    words = [w.strip(".,;:()") for w in note.lower().split()]
    for w in words:
        if w in vocab["levels"]:
            return _gift_in_tier(c, key, name, int(vocab["levels"][w]))
    if note:
        n = c.count(words[-1] if words and words[0] in ("level", "lvl") else note, where)
        if n is not None and 1 <= n <= 6:
            return n
    costs = {str(k): int(v) for k, v in vocab["costs"][key].items()}
    paid = (cost or "").strip()
    if not paid:
        paid = next((change for reason, change in spends if T.norm(name) and T.norm(name) in reason), "")
    if paid in costs:
        return _gift_in_tier(c, key, name, costs[paid])
    if note:
        c.keep_note(where, note, "level not known; level 1 kept")
    else:
        c.warnings.append(f"{c.label}: {where}: no level (no note, no experience cost); level 1 kept")
    return 1


def _gift_in_tier(c: _Character, key: str, name: str, tier: int) -> int:
    """The level of a werewolf's Gift whose Grapevine tier (Basic 1, Intermediate 3, Advanced 5) spans more
    than one level (grapevine_vocabulary.yaml ``spans``: Basic 1-2, Intermediate 3-4): the one level stkit's
    Gift lists give the Gift within that span, else the span's lowest, the Gift's name kept in
    ``c.unsure_levels`` for one warning. Rites and other creatures' Gifts keep the tier's level."""
    span = [int(n) for n in vocabulary()["spans"].get(key, {}).get(tier, [tier])]
    if c.el.tag != "werewolf" or len(span) < 2:
        return tier
    from stkit.sheet.lifebook import gift_lists  # lazy: start-up

    want = T.norm(name)
    listed = {n for gifts in gift_lists().values() for g, n in gifts.items() if T.norm(g) == want}
    inside = sorted(listed & set(span))
    if len(inside) == 1:
        return inside[0]
    c.unsure_levels.append(f"{name} ({span[0]}-{span[-1]})")
    return span[0]


def _trait_list(
    c: _Character,
    child: Element,
    attributes: dict[str, int],
    abilities: dict[str, int],
    custom: dict[str, int],
    specialties: dict[str, str],
    backgrounds: dict[str, int],
    renown: dict[str, dict[str, int]],
    entries: dict[str, list[dict]],
    spends: list[tuple[str, str]],
) -> None:
    list_name = (child.get("name") or "").strip()
    key = list_name.lower()
    traits = _traits(child)
    where = f"{list_name} list"
    if key in ATTRIBUTE_LISTS:
        n = 0
        for name, val, _note in traits:
            k = c.count(val, f"{where} {name!r}")
            if k is None:
                c.keep_note(f"{where} {name!r}", str(val), "not a count")
                continue
            n += k
        dots = category_dots(n)
        for a in T.ATTRIBUTE_GROUPS[ATTRIBUTE_LISTS[key]]:
            attributes[a] = dots
        shown = ", ".join(_shown(name, val) for name, val, _ in traits)
        c.notes.append(f"{list_name} ({counted(n, 'adjective')}, {counted(dots, 'dot')} each): {shown}")
        c.warnings.append(
            f"{c.label}: {where}: {counted(n, 'adjective')} give each {ATTRIBUTE_LISTS[key]} Attribute "
            f"{counted(dots, 'dot')}; "
            "the adjectives are kept in the notes"
        )
        return
    if key in RENOWN_LISTS:
        n = sum(c.count(val, f"{where} {name!r}") or 1 for name, val, _ in traits)
        if n > T.MAX_POWER:
            c.keep_note(where, f"{n} adjectives", f"more than {T.MAX_POWER}; {T.MAX_POWER} kept")
            n = T.MAX_POWER
        renown.setdefault(RENOWN_LISTS[key], {})["permanent"] = n
        if traits:
            c.notes.append(f"{list_name}: " + ", ".join(_shown(name, val) for name, val, _ in traits))
        return
    if key in ("abilities", "backgrounds", "merits", "flaws"):
        cap = T.MAX_DOTS if key in ("abilities", "backgrounds") else 7
        for name, val, note in traits:
            how_many = c.count(val, f"{where} {name!r}")
            if how_many is None:
                c.keep_note(f"{where} {name!r}", str(val), "not a count")
                continue
            n = how_many
            if n > cap:
                c.keep_note(f"{where} {name!r}", f"x{n}", f"more than {cap}; {cap} kept")
                n = cap
            if key == "abilities":
                alias = vocabulary()["abilities"].get(T.norm(name))
                known = T.lookup_ability(alias or name)
                (abilities if known else custom)[known or name] = max(
                    n, (abilities if known else custom).get(known or name, 0)
                )
                if note and n >= SPECIALTY_MIN_DOTS:
                    specialties[known or name] = note
                elif note:  # below four dots a note is no specialty: which languages, which tribe's Lore
                    c.notes.append(f"{where} {name!r} x{n}: {note}")
            elif key == "backgrounds":
                backgrounds[name] = n
                if note:
                    c.notes.append(f"{where} {name!r}: {note}")
            else:
                entries[key].append({"name": name, "points": n})
                if note:
                    c.notes.append(f"{where} {name!r}: {note}")
        return
    if key in ("gifts", "rites"):
        costs = {(t.get("name") or "").strip(): t.get("cost") for t in child.iter("trait")}
        for name, val, note in traits:
            level = _power_level(c, key, name, val, note, costs.get(name), spends)
            entries[key].append({"name": name, "level": level})
        if c.unsure_levels:
            c.warnings.append(
                f"{c.label}: {where}: {', '.join(c.unsure_levels)}: the level within the Grapevine tier is not "
                "checked (stkit's Gift lists do not settle it); the tier's lowest kept"
            )
            c.unsure_levels = []
        return
    if traits:
        shown = ", ".join(_shown(name, val) for name, val, _ in traits)
        shown += "".join(f" ({note})" for _, _, note in traits if note)
        c.keep_note(where, shown, "not converted")


def _experience(c: _Character, child: Element) -> dict:
    """``<experience unspent= earned=>`` and its ``<entry>`` elements as the sheet's experience."""
    earned = c.count(child.get("earned"), "experience @earned", default=0)
    unspent = c.count(child.get("unspent"), "experience @unspent", default=0)
    if earned is None or unspent is None or earned > MAX_XP or unspent > earned:
        shown = f"earned {child.get('earned')!r}, unspent {child.get('unspent')!r}"
        c.keep_note("experience", shown, f"{shown}: not totals stkit reads (0 to {MAX_XP}, unspent at most earned)")
        earned, unspent = 0, 0
    log = []
    for i, e in enumerate(child.iter("entry")):
        kind_text = (e.get("type") or "").strip().lower()
        amount = c.count(e.get("change"), f"experience entry {i + 1} @change", default=0)
        reason = (e.get("reason") or "").strip()
        date = (e.get("date") or "").strip()
        kind = "award" if kind_text in _EARN_TYPES else "spend" if kind_text in _SPEND_TYPES else None
        if kind is None or not amount:
            c.keep_note(
                f"experience entry {i + 1}", f"{kind_text} {e.get('change')} {reason} {date}".strip(), "not converted"
            )
            continue
        at = _iso_date(date)
        if at is None:
            c.keep_note(
                f"experience entry {i + 1} @date", date, "not a date stkit reads; the entry is dated 1970-01-01"
            )
            at = "1970-01-01T00:00:00+00:00"
        log.append({"at": at, "kind": kind, "amount": amount, "reason": reason})
    return {"total": earned, "spent": earned - unspent, "log": log}


def _iso_date(text: str) -> str | None:
    """Grapevine's dates ('5/1/2024', '2024-05-01', '5/1/2024 8:30:00 PM') as ISO 8601 (UTC); None when the
    text is none of these."""

    t = text.strip()
    if not t.isascii():  # strptime would read other scripts' digits
        return None
    for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S", "%Y-%m-%dT%H:%M:%S"):
        try:
            return dt.datetime.strptime(t, fmt).replace(tzinfo=dt.UTC).isoformat()
        except ValueError:
            continue
    return None
