"""Rage card schema, validation and importers (stkit YAML/JSON/CSV; LackeyCCG lists in :mod:`stkit.tcg.lackey`).

The schema holds what the rules need (Equinox Update "The Cards", earlier rulebook "The Cards", Battlefields
supplement): stats of characters and their Breed / Crinos sides, combat card fields, Tribe card fields and
Battlefield attacker/defender options. Unknown values stay ``None``.

Limits: a card file holds at most MAX_CARD_ROWS cards and MAX_CARD_FILE_BYTES bytes; a name at most
``stkit.text.MAX_SHORT_TEXT`` characters, card text at most ``stkit.text.MAX_NOTES``.

Pure Python (PyYAML, csv, json); the database lives in :mod:`stkit.tcg.db`.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

from stkit import jsonsafe
from stkit.errors import DataFileError, InvalidValue, NotFound
from stkit.tcg.common import fold_name, read_yaml
from stkit.tcg.common import parse_yaml as _parse_yaml_text
from stkit.tcg.vocab import CombatKind, Moon, Speed, values
from stkit.text import (
    MAX_NOTES,
    MAX_SHORT_TEXT,
    check_text,
    counted,
    parse_whole_number,
    plural_word,
    printable,
    shown_key,
)

#: Most cards (rows) one card file may hold: the real community list has about 1,600.
MAX_CARD_ROWS = 50_000
#: Largest card file read, in bytes (the real list is well under 2 MB).
MAX_CARD_FILE_BYTES = 20 * 1024 * 1024

CARD_TYPES = (
    "Tribe",
    "Garou",
    "Ally",
    "Enemy",
    "Victim",
    "Battlefield",
    "Gift",
    "Rite",
    "Equipment",
    "Past Life",
    "Totem",
    "Event",
    "Moot",
    "Combat Event",
    "Combat Action",
)
SEPT_TYPES = frozenset(
    {"Ally", "Enemy", "Victim", "Battlefield", "Gift", "Rite", "Equipment", "Past Life", "Totem", "Event", "Moot"}
)
COMBAT_TYPES = frozenset({"Combat Event", "Combat Action"})
#: Card types of the earlier Rage game found in real card lists; they go in the Sept deck ("Action" is a
#: Sept card there, not a Combat Action). The three documents give them no rules of their own.
EARLIER_SEPT_TYPES = frozenset({"Territory", "Quest", "Caern", "Board Meeting", "Realm", "Action"})
#: A character of the earlier game: "Character - Gaia", "Character (Wyrm)"; Garou among them become Garou.
CHARACTER_TYPES = frozenset({"Garou", "Character"})
COMBAT_KINDS = values(CombatKind)
MOONS = values(Moon)
SPEEDS = (Speed.FAST.value, Speed.SLOW.value)
BREEDS = ("Homid", "Lupus", "Metis")
AUSPICES = ("Ragabash", "Theurge", "Philodox", "Galliard", "Ahroun")

TRIBES = (
    "Black Furies",
    "Bone Gnawers",
    "Children of Gaia",
    "Fianna",
    "Get of Fenris",
    "Glass Walkers",
    "Red Talons",
    "Shadow Lords",
    "Silent Striders",
    "Silver Fangs",
    "Stargazers",
    "Uktena",
    "Wendigo",
    "Black Spiral Dancers",
)
# The keywords the three documents mention or imply, plus card types, tribes, breeds and auspices. stkit's
# own card files must use these (or declare extras in a top-level `keywords:` list); Lackey imports are
# lenient because real plugins carry many more.
KEYWORD_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(
        (
            *CARD_TYPES,
            *TRIBES,
            "Black Fury",
            "Bone Gnawer",
            "Silver Fang",
            "Stargazer",
            "Shadow Lord",
            "Silent Strider",
            "Red Talon",
            "Glass Walker",
            "Black Spiral Dancer",
            "Character",
            "Sept",
            "Combat",
            "Homid",
            "Lupus",
            "Metis",
            "Crinos",
            "Ragabash",
            "Theurge",
            "Philodox",
            "Galliard",
            "Ahroun",
            "Gaia",
            "Wyrm",
            "Weaver",
            "Wyld",
            "Spirit",
            "Human",
            "Animal",
            "Fomori",
            "Vampire",
            "Bastet",
            "Monster",
            "Kailindo",
            "Firearm",
            "Klaive",
            "Fast",
            "Slow",
            "Fast Striking",
            "Unique",
            "Restricted",
            "Constrained",
            "Long",
            "Long Event",
            "Moot Event",
            "Minor Rite",
            "Umbra",
            "Pre-Combat",
            "Mid-Combat",
            "Post-Combat",
            "In",
            "Out",
            "In/Out",
            "Cub",
            "Male",
            "Female",
            "Corrupt",
            "Tribe Friendly",
            "Amnesiac",
            "Demophobic",
            "Hysterical",
            "Melancholic",
            "Manic-Depressive",
            "Multiple-Persona",
            "Obsessive",
            "Paranoid",
            "Perfectionist",
            "Powermad",
            "Vengeful",
            "Alpha",
            "Attack",
            "Defense",
            "Flex",
            "Counterattack",
            "New Moon",
            "Full Moon",
            "Weapon",
            "Pack",
        )
    )
)
KNOWN_KEYWORDS = frozenset(k.casefold() for k in KEYWORD_NAMES)


#: The werecreatures that are not Garou (Equinox Update, "Other Shapeshifters", which names the Bastet;
#: the others are the Changing Breeds of the World of Darkness a card list may carry, as the White Wolf
#: Wiki's "Fera" page lists them, the Ajaba werehyenas included), folded. A card is an alternate
#: shapeshifter when its type, subtypes or keywords name one of these.
SHAPESHIFTER_KINDS = frozenset(
    {
        "ajaba",
        "bastet",
        "corax",
        "gurahl",
        "mokole",
        "nagah",
        "nuwisha",
        "ratkin",
        "rokea",
        "ananasi",
        "kitsune",
        "apis",
        "camazotz",
        "grondr",
        "fera",
        "werecreature",
        "shapeshifter",
        "changingbreed",
    }
)


def is_alternate_shapeshifter(type_: str | None, subtypes: Iterable[str], keywords: Iterable[str]) -> bool:
    """True when a character card is another werecreature: not a Garou, and its type, subtypes or
    keywords name a shapeshifter kind (SHAPESHIFTER_KINDS). What a card lacks (no Garou keyword, a Crinos
    column left over) never makes it one: a human, a fomor, a Bane or a vampire is no shapeshifter. A
    keyword in parentheses only qualifies the card ("(Rokea)" on a Bane that counts as a Rokea for its
    Combat cards) and names no kind."""
    if type_ not in CHARACTER_TYPES or type_ == "Garou":
        return False
    words = (type_, *subtypes, *(k for k in keywords if not k.strip().startswith("(")))
    return any(fold_name(w) in SHAPESHIFTER_KINDS for w in words)


class AmbiguousName(NotFound):
    """A name fits several cards or terms equally; ``candidates`` lists them."""

    def __init__(self, name: str, candidates: Iterable[str]):
        self.name = name
        self.candidates = list(candidates)
        super().__init__(f"{name!r} is ambiguous; candidates: {'; '.join(self.candidates)}")


@dataclass
class Card:
    """One card. Integer stats are >= 0 or None when unknown; ``damage``/``block`` may also be "X".

    Sides: ``breed_side`` / ``crinos_side`` hold side-specific stats (rage, gnosis, health, text) for
    two-sided shapeshifters. ``cohorts`` maps a cohort tribe to its extra Renown cost (Tribe cards).
    ``attacker_options`` / ``defender_options`` (Battlefields): lists of {option, requirements, max_renown,
    cards}. ``rulings``: rule ids or short texts.

    Read from real card lists: ``printed_type`` is the type as the file wrote it when stkit files it under
    another (``"Character - Gaia"`` filed as Garou), ``subtypes`` the other parts of a compound type
    (``"Ally - Victim"``: type Ally, subtype Victim), ``affiliation`` Gaia / Wyrm / Rogue, ``text_only`` the
    fields whose value the card gives only in its text, ``conditional`` the values its text gives only in
    some cases (field -> ``{"value": 1, "when": "the sentence saying when"}``; the plain field stays
    unknown), ``possibly_truncated`` a text cut at 254 or 255
    characters by the list's maker, and ``extra`` the file's columns outside the schema, kept as written.
    """

    name: str
    type: str | None = None
    set: str | None = None
    playtest: bool = False
    keywords: list[str] = field(default_factory=list)
    requirements: list[str] = field(default_factory=list)
    benefits: list[str] = field(default_factory=list)
    renown: int | None = None
    rage: int | None = None
    gnosis: int | None = None
    health: int | None = None
    tribe: str | None = None
    tribe_friendly: list[str] = field(default_factory=list)
    alternate_shapeshifter: bool = False
    breed: str | None = None
    auspice: str | None = None
    breed_side: dict[str, Any] | None = None
    crinos_side: dict[str, Any] | None = None
    frenzy: int | None = None
    insight: int | None = None
    sustained_rage: int | None = None
    kailindo: bool = False
    paw_print: bool | None = None
    gnosis_cost: int | None = None
    kind: str | None = None
    damage: int | str | None = None
    block: int | str | None = None
    rage_cost: int | None = None
    moon: str | None = None
    speed: str | None = None
    sept_draw: int | None = None
    tribe_fury: int | None = None
    cohorts: dict[str, int] = field(default_factory=dict)
    auspice_tribe: bool = False
    attacker_options: list[dict[str, Any]] = field(default_factory=list)
    defender_options: list[dict[str, Any]] = field(default_factory=list)
    text: str | None = None
    errata: list[str] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    printed_type: str | None = None
    subtypes: list[str] = field(default_factory=list)
    affiliation: str | None = None
    text_only: list[str] = field(default_factory=list)
    conditional: dict[str, dict[str, Any]] = field(default_factory=dict)
    possibly_truncated: bool = False
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The folded name (:func:`stkit.text.fold_name`), the matching key."""
        return fold_name(self.name)

    @property
    def types(self) -> list[str]:
        """The type, its subtypes and the printed type, plus the category a type belongs to ("Combat" for
        Combat Actions and Events, "Character" for Garou): everything a type filter matches."""
        found = [t for t in (self.type, *self.subtypes, self.printed_type) if t]
        if self.type in COMBAT_TYPES:
            found.append("Combat")
        elif self.type == "Garou":
            found.append("Character")
        return list(dict.fromkeys(found))

    def has_type(self, type_: str) -> bool:
        """True if ``type_`` (folded) is the card's type, a subtype or its printed type."""
        k = fold_name(type_)
        return any(fold_name(t) == k for t in self.types)

    def has_keyword(self, keyword: str) -> bool:
        """True if the card carries ``keyword`` (folded), counting its type as a keyword (keyword rule)."""
        k = fold_name(keyword)
        return any(fold_name(x) == k for x in (*self.keywords, *self.types))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping of every field (unknown values are null)."""
        return asdict(self)


FIELD_NAMES = tuple(f.name for f in fields(Card))
#: The card's whole-number fields (the importers read each of them from a column of the same name).
INT_FIELDS = (
    "renown",
    "rage",
    "gnosis",
    "health",
    "frenzy",
    "insight",
    "sustained_rage",
    "gnosis_cost",
    "rage_cost",
    "sept_draw",
    "tribe_fury",
)
_LIST_FIELDS = ("keywords", "requirements", "benefits", "tribe_friendly", "errata", "rulings", "subtypes", "text_only")
_BOOL_FIELDS = ("playtest", "alternate_shapeshifter", "kailindo", "auspice_tribe", "possibly_truncated")
#: Fields holding prose (several lines, up to MAX_NOTES characters); every other text is a short name.
_LONG_FIELDS = frozenset({"text", "errata", "rulings", "benefits", "effect", "extra", "conditional"})
_SIDE_KEYS = {"rage", "gnosis", "health", "renown", "text", "keywords"}
_OPTION_KEYS = {"option", "requirements", "max_renown", "cards"}


class CardError(InvalidValue):
    """A card value is invalid; the importer adds the file and place to the message."""


#: Largest number a card field takes: printed stats are small; a bigger one is a typo (and a 5,000-digit
#: string would not even convert).
MAX_CARD_NUMBER = 999
_HUGE = 10**40


def _int(value: Any, name: str, allow_x: bool = False) -> int | str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if allow_x and isinstance(value, str) and value.strip().upper() == "X":
        return "X"
    if isinstance(value, bool):
        raise CardError(f"field '{name}': {value!r} is not a whole number")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        s = value.strip()
        try:
            # the one ASCII-digit reader: '\u0663' or '\uff14' is no number; far above the cap is capped
            value = parse_whole_number(s, f"field '{name}'", -_HUGE, _HUGE)
        except InvalidValue:
            # the value itself is not repeated: it is the file's content, not ours to echo
            raise CardError(
                f"field '{name}': not a whole number" + (" or X" if allow_x else "") + " (use the digits 0 to 9)"
            ) from None
        if abs(value) > MAX_CARD_NUMBER and len(s) > 20:
            raise CardError(f"field '{name}': {s[:20]}... is above {MAX_CARD_NUMBER} (allowed 0 to {MAX_CARD_NUMBER})")
    if not isinstance(value, int):
        raise CardError(f"field '{name}': {repr(value)[:40]} is not a whole number")
    if value < 0:
        raise CardError(f"field '{name}': {value} is below 0 (allowed 0 or more)")
    if value > MAX_CARD_NUMBER:
        raise CardError(f"field '{name}': {value} is above {MAX_CARD_NUMBER} (allowed 0 to {MAX_CARD_NUMBER})")
    return value


def _bool(value: Any, name: str) -> bool:
    if value is None or value == "":
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    s = str(value).strip().casefold()
    if s in ("yes", "y", "true", "1", "x", "playtest"):
        return True
    if s in ("no", "n", "false", "0"):
        return False
    raise CardError(f"field '{name}': {value!r} is not yes/no")


def _list(value: Any, name: str, sep: str = r"[;,]") -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [p.strip() for p in re.split(sep, value) if p.strip()]
    if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
        return [str(v).strip() for v in value if str(v).strip()]
    # the value is named by its kind only: it is the file's content
    raise CardError(f"field '{name}': expected a list of text, got {_kind_of(value)}")


def _kind_of(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list holding something other than text"
    return "a single value"


@functools.lru_cache(maxsize=64)
def _folded(allowed: tuple[str, ...]) -> dict[str, str]:
    return {fold_name(a): a for a in allowed}


def _choice(value: Any, name: str, allowed: Iterable[str]) -> str | None:
    if value is None or value == "":
        return None
    allowed = tuple(allowed)
    folded = _folded(allowed)
    key = fold_name(str(value))
    if key not in folded:
        raise CardError(f"field '{name}': {value!r} is not one of {', '.join(allowed)}")
    return folded[key]


def _side(value: Any, name: str) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - _SIDE_KEYS:
        raise CardError(f"field '{name}': must be a mapping with keys from {', '.join(sorted(_SIDE_KEYS))}")
    out: dict[str, Any] = {}
    for k, v in value.items():
        if k in ("text",):
            out[k] = None if v is None else str(v)
        elif k == "keywords":
            out[k] = _list(v, f"{name}.keywords")
        else:
            out[k] = _int(v, f"{name}.{k}")
    return out


def _conditional(value: Any) -> dict[str, dict[str, Any]]:
    """``{field: {value, when}}`` for the combat numbers a card's text makes conditional."""
    if value is None or value == {}:
        return {}
    if not isinstance(value, dict):
        raise CardError("field 'conditional': must map a field (damage, block, rage_cost) to {value, when}")
    out: dict[str, dict[str, Any]] = {}
    for key, spec in value.items():
        if key not in ("damage", "block", "rage_cost") or not isinstance(spec, dict) or set(spec) - {"value", "when"}:
            raise CardError("field 'conditional': must map a field (damage, block, rage_cost) to {value, when}")
        when = spec.get("when")
        if not isinstance(when, str) or not when.strip():
            raise CardError(f"field 'conditional.{key}.when': say when the value applies")
        out[str(key)] = {
            "value": _int(spec.get("value"), f"conditional.{key}.value", allow_x=True),
            "when": when.strip(),
        }
    return out


def _options(value: Any, name: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise CardError(f"field '{name}': must be a list of options")
    out = []
    for i, opt in enumerate(value, 1):
        if not isinstance(opt, dict) or set(opt) - _OPTION_KEYS:
            raise CardError(f"field '{name}' option {i}: keys must be from {', '.join(sorted(_OPTION_KEYS))}")
        out.append(
            {
                "option": None if opt.get("option") is None else str(opt["option"]),
                "requirements": _list(opt.get("requirements"), f"{name}[{i}].requirements"),
                "max_renown": _int(opt.get("max_renown"), f"{name}[{i}].max_renown"),
                "cards": _int(opt.get("cards"), f"{name}[{i}].cards"),
            }
        )
    return out


def _refuse_bad_text(value: Any, name: str, long: bool = False) -> None:
    """Refuse control characters (ESC, BEL, C1, bidirectional overrides) and over-long text anywhere in a
    card: printed later, a control character would drive the reader's terminal, and a 100,000-character
    name is no card. Prose fields allow line breaks and tabs and MAX_NOTES characters; names and keywords
    MAX_SHORT_TEXT."""
    if isinstance(value, str):
        try:
            check_text(value, f"field '{name or 'name'}'", limit=MAX_NOTES if long else MAX_SHORT_TEXT, multiline=long)
        except InvalidValue as exc:
            raise CardError(str(exc)) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_bad_text(key, name)
            inner = f"{name}.{key}" if name else str(key)
            _refuse_bad_text(item, inner, long or str(key) in _LONG_FIELDS)
    elif isinstance(value, list):
        if len(value) > 200:
            raise CardError(f"field '{name}': {len(value)} items; allowed: at most 200")
        for item in value:
            _refuse_bad_text(item, name, long)


def card_from_mapping(
    raw: dict[str, Any], known_keywords: frozenset[str] | None = KNOWN_KEYWORDS, *, open_types: bool = False
) -> Card:
    """Validate one card mapping in stkit's schema and build a Card.

    ``known_keywords``: folded allowed keywords, or None to accept any. ``open_types``: accept a type
    outside CARD_TYPES as its own type (real card lists; the caller warns). Raises CardError (an
    InvalidValue) naming the field and the allowed values.
    """
    if not isinstance(raw, dict):
        raise CardError(f"a card must be a mapping of fields, got {type(raw).__name__}")
    for key, value in raw.items():
        if key in INT_FIELDS or key in ("damage", "block"):
            continue  # numbers get their own message (a 5,000-digit one: "above 999")
        _refuse_bad_text(value, str(key), str(key) in _LONG_FIELDS)
    unknown = sorted(str(k) for k in set(raw) - set(FIELD_NAMES))
    if unknown:
        raise CardError(f"unknown {plural_word(len(unknown), 'field')} {', '.join(shown_key(k) for k in unknown)}")
    name = raw.get("name")
    if not isinstance(name, str) or not fold_name(name):
        raise CardError("field 'name': every card needs a name")
    kw: dict[str, Any] = {"name": " ".join(name.split())}
    if (
        open_types
        and raw.get("type") not in (None, "")
        and fold_name(str(raw["type"])) not in {fold_name(t) for t in CARD_TYPES}
    ):
        kw["type"] = " ".join(str(raw["type"]).split())
    else:
        kw["type"] = _choice(raw.get("type"), "type", CARD_TYPES)
    kw["set"] = None if raw.get("set") in (None, "") else str(raw["set"])
    for f in INT_FIELDS:
        kw[f] = _int(raw.get(f), f)
    for f in ("damage", "block"):
        kw[f] = _int(raw.get(f), f, allow_x=True)
    for f in _LIST_FIELDS:
        kw[f] = _list(raw.get(f), f)
    for f in _BOOL_FIELDS:
        kw[f] = _bool(raw.get(f), f)
    pp = raw.get("paw_print")
    kw["paw_print"] = None if pp is None or pp == "" else _bool(pp, "paw_print")
    kw["kind"] = _choice(raw.get("kind"), "kind", COMBAT_KINDS)
    kw["moon"] = _choice(raw.get("moon"), "moon", MOONS)
    kw["speed"] = _choice(raw.get("speed"), "speed", SPEEDS)
    kw["breed"] = _choice(raw.get("breed"), "breed", BREEDS)
    kw["auspice"] = _choice(raw.get("auspice"), "auspice", AUSPICES)
    for f in ("tribe", "text", "printed_type", "affiliation"):
        v = raw.get(f)
        kw[f] = None if v in (None, "") else str(v).strip() if f == "text" else " ".join(str(v).split())
    extra = raw.get("extra") or {}
    if not isinstance(extra, dict):
        raise CardError("field 'extra': must map column names to text")
    kw["extra"] = {str(k): str(v) for k, v in extra.items()}
    kw["conditional"] = _conditional(raw.get("conditional"))
    kw["breed_side"] = _side(raw.get("breed_side"), "breed_side")
    kw["crinos_side"] = _side(raw.get("crinos_side"), "crinos_side")
    cohorts = raw.get("cohorts") or {}
    if not isinstance(cohorts, dict):
        raise CardError("field 'cohorts': must map a tribe name to its extra Renown cost")
    kw["cohorts"] = {str(t): _int(c, f"cohorts.{t}") or 0 for t, c in cohorts.items()}
    kw["attacker_options"] = _options(raw.get("attacker_options"), "attacker_options")
    kw["defender_options"] = _options(raw.get("defender_options"), "defender_options")
    if known_keywords is not None:
        for k in kw["keywords"]:
            if k.casefold() not in known_keywords:
                raise CardError(
                    f"field 'keywords': unknown keyword {k!r} (declare it in a top-level "
                    f"'keywords:' list if it is real)"
                )
    if kw["kind"] and kw["type"] not in (None, "Combat Action"):
        raise CardError(f"field 'kind': {kw['kind']!r} is only for Combat Action cards, not {kw['type']}")
    return Card(**kw)


# --- importers -----------------------------------------------------------------------------------------


@dataclass
class RowError:
    """A row the importer refused, merged or warned about: 1-based line number, why, and the card name the
    row seemed to carry (None when it carried none)."""

    line: int
    message: str
    name: str | None = None


@dataclass
class ParsedFile:
    """The cards read from a file and the format detected; for real card lists (Lackey) also the rows
    refused (``errors``), the physical lines merged into the row before them or found twice (``merged``),
    and warnings about cards kept (``warnings``)."""

    path: str
    format: str
    cards: list[Card]
    errors: list[RowError] = field(default_factory=list)
    merged: list[RowError] = field(default_factory=list)
    warnings: list[RowError] = field(default_factory=list)
    lines: int = 0
    #: Combat Actions whose kind no keyword, text or number gives (line, message, card name)
    untyped: list[RowError] = field(default_factory=list)


Progress = Callable[[int, int], None]


def detect_format(path: Path, text: str) -> str:
    """'yaml', 'json', 'csv' or 'lackey', from the extension (and tabs in the first line for .txt)."""
    ext = path.suffix.casefold()
    if ext in (".yaml", ".yml"):
        return "yaml"
    if ext == ".json":
        return "json"
    if ext == ".csv":
        return "csv"
    if ext in (".tsv", ".txt", ".tab"):
        first = text.split("\n", 1)[0]
        if "\t" in first:
            return "lackey"
        raise DataFileError(f"{path}: line 1: expected a tab-separated header row of field names")
    raise DataFileError(
        f"{path}: unknown card-list format {ext or '(no extension)'}; use .yaml, .json, .csv or "
        f"a tab-separated .txt/.tsv"
    )


def _cards_from_items(
    path: Path, items: Any, extra_keywords: Iterable[str], where_fmt: Callable[[int], str], progress: Progress | None
) -> list[Card]:
    if not isinstance(items, list):
        raise DataFileError(f"{path}: top level: expected a list of cards (or {{keywords: [...], cards: [...]}})")
    if len(items) > MAX_CARD_ROWS:
        raise DataFileError(f"{path}: {len(items)} cards; a card file may hold at most {MAX_CARD_ROWS}")
    known = KNOWN_KEYWORDS | frozenset(k.casefold() for k in extra_keywords)
    cards: list[Card] = []
    problems: list[str] = []
    total = len(items)
    first_place: dict[tuple[str, str], int] = {}
    for i, raw in enumerate(items):
        label = raw.get("name") if isinstance(raw, dict) else None
        if isinstance(label, str):
            label = printable(label[:60] + ("..." if len(label) > 60 else ""))  # never echo control characters
        place = where_fmt(i) + (f" ({label})" if isinstance(label, str) else "")
        try:
            card = card_from_mapping(raw, known)
        except CardError as exc:
            problems.append(f"{path}: {place}: {exc}")
        else:
            ident = (card.key, fold_name(card.set or ""))
            if ident in first_place:
                problems.append(
                    f"{path}: {place}: the same card as {where_fmt(first_place[ident])} (same name and set); "
                    "list each printing once"
                )
            else:
                first_place[ident] = i
                cards.append(card)
        if progress and (i % 200 == 0 or i == total - 1):
            progress(i + 1, total)
    if problems:
        # validate the whole file so the user sees how much is wrong, but name the first place precisely
        more = f" (and {counted(len(problems) - 1, 'more bad card')}; nothing imported)" if len(problems) > 1 else ""
        raise DataFileError(problems[0] + more)
    return cards


def _split_document(path: Path, data: Any) -> tuple[Any, list[str]]:
    if isinstance(data, dict):
        extra = set(data) - {"keywords", "cards"}
        if extra:
            raise DataFileError(
                f"{path}: top level: unknown {plural_word(len(extra), 'key')} "
                f"{', '.join(sorted({shown_key(k) for k in map(str, extra)}))}"
            )
        kws = data.get("keywords") or []
        if not isinstance(kws, list):
            raise DataFileError(f"{path}: keywords: must be a list")
        return data.get("cards") or [], [str(k) for k in kws]
    return data, []


def parse_yaml(path: Path, text: str, progress: Progress | None = None) -> ParsedFile:
    """stkit YAML card list: a list of card mappings, or ``{keywords: [extra...], cards: [...]}``."""
    data = _parse_yaml_text(text, path)
    items, extra = _split_document(path, data if data is not None else [])
    return ParsedFile(str(path), "yaml", _cards_from_items(path, items, extra, lambda i: f"card {i + 1}", progress))


def parse_json(path: Path, text: str, progress: Progress | None = None) -> ParsedFile:
    """stkit JSON card list: same shapes as the YAML format."""
    try:
        data = jsonsafe.loads(text)
    except jsonsafe.JsonRefusal as exc:
        raise DataFileError(f"{path}: malformed JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{path}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        # a number with thousands of digits (Python converts at most 4300) or lists nested thousands deep
        problem = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise DataFileError(f"{path}: malformed JSON: {problem}") from None
    items, extra = _split_document(path, data)
    return ParsedFile(str(path), "json", _cards_from_items(path, items, extra, lambda i: f"card {i + 1}", progress))


def _csv_rows(reader: csv.DictReader, path: Path) -> Iterable[dict[str, Any]]:
    """The rows of ``reader``; a malformed row raises DataFileError naming the line."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DataFileError(
                f"{path}: line {max(reader.line_num, 2)}: malformed CSV: {exc} (a double quote left open?)"
            ) from None
        yield row


def parse_csv(path: Path, text: str, progress: Progress | None = None) -> ParsedFile:
    """stkit CSV card list: a header of schema field names; list fields separated by ';'.

    Side and option fields are not available in CSV (use YAML/JSON). Cohorts: ``Tribe=1;Tribe=2``.
    """
    # strict: a quote left open (which would swallow every following row into one field) is an error
    reader = csv.DictReader(io.StringIO(text), strict=True)
    try:
        header = reader.fieldnames or []
    except csv.Error as exc:
        raise DataFileError(f"{path}: line {reader.line_num}: malformed CSV: {exc}") from None
    bad = [i for i, h in enumerate(header, 1) if h not in FIELD_NAMES]
    if bad:
        # named by position: the header's text is the file's content, not repeated in an error line
        where = f"column {bad[0]} is" if len(bad) == 1 else f"columns {', '.join(map(str, bad[:10]))} are"
        raise DataFileError(f"{path}: line 1: {where} not a card field name (such as name, type, set, renown, text)")
    items = []
    for row in _csv_rows(reader, path):
        if any("\n" in v or "\r" in v for v in row.values() if isinstance(v, str)):
            raise DataFileError(
                f"{path}: line {reader.line_num}: a value spans several lines (a double quote "
                'left open?); write "" for a quote inside a quoted value'
            )
        item: dict[str, Any] = {k: v for k, v in row.items() if k is not None and v not in (None, "")}
        if None in row:
            raise DataFileError(f"{path}: line {reader.line_num}: more values than header columns")
        if "cohorts" in item:
            pairs = [p.split("=", 1) for p in item["cohorts"].split(";") if p.strip()]
            if any(len(p) != 2 for p in pairs):
                raise DataFileError(f"{path}: line {reader.line_num}: cohorts must look like 'Tribe=1;Other=2'")
            item["cohorts"] = {a.strip(): b.strip() for a, b in pairs}
        item["_line"] = reader.line_num
        items.append(item)
    lines = [it.pop("_line") for it in items]
    return ParsedFile(str(path), "csv", _cards_from_items(path, items, (), lambda i: f"line {lines[i]}", progress))


#: The ``kind`` that ``data/combat_kinds.yaml`` gives a Combat Action whose text and errata name no kind.
KIND_NOT_STATED = "not stated"


@functools.lru_cache(maxsize=1)
def combat_kind_notes() -> dict[str, tuple[str | None, str]]:
    """Folded card name -> (kind, why) for the Combat Actions of the community list on which nothing a reader
    looks for names the kind, each read by hand (packaged ``data/combat_kinds.yaml``). ``kind`` is one of
    attack / defense / flex / counterattack when the card's words state it, else None ("not stated");
    ``why`` is what the card does say. Raises DataFileError naming the item when the file is malformed."""
    path = Path(str(resources.files("stkit.tcg") / "data" / "combat_kinds.yaml"))
    data = read_yaml(path)
    out: dict[str, tuple[str | None, str]] = {}
    for i, item in enumerate(data if isinstance(data, list) else [None]):
        kinds = (*values(CombatKind), KIND_NOT_STATED)
        if (
            not isinstance(item, dict)
            or set(item) != {"name", "kind", "why"}
            or item["kind"] not in kinds
            or not all(isinstance(item[k], str) and item[k].strip() for k in ("name", "why"))
        ):
            raise DataFileError(f"{path}: item {i + 1}: needs name, why and a kind among {', '.join(kinds)}")
        kind = None if item["kind"] == KIND_NOT_STATED else item["kind"]
        out[fold_name(item["name"])] = (kind, " ".join(item["why"].split()))
    return out
