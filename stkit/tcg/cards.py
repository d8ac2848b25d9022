"""Rage card schema, validation and importers (stkit YAML/JSON/CSV and LackeyCCG tab-separated lists).

The schema holds what the rules need (Equinox Update "The Cards", earlier rulebook "The Cards", Battlefields
supplement): stats of characters and their Breed / Crinos sides, combat card fields, Tribe card fields and
Battlefield attacker/defender options. Unknown values stay ``None``.

Pure Python (PyYAML, csv, json); the database lives in :mod:`stkit.tcg.db`.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, InvalidValue, NotFound
from stkit.tcg.common import normalize_name, read_text
from stkit.tcg.common import parse_yaml as _parse_yaml_text

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
COMBAT_KINDS = ("attack", "defense", "flex", "counterattack")
MOONS = ("new", "full")
SPEEDS = ("fast", "slow")

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
KNOWN_KEYWORDS = frozenset(
    k.casefold()
    for k in (
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

    @property
    def key(self) -> str:
        """Normalized name, the matching key."""
        return normalize_name(self.name)

    def has_keyword(self, keyword: str) -> bool:
        """True if the card carries ``keyword`` (folded), counting its type as a keyword (keyword rule)."""
        k = normalize_name(keyword)
        return any(normalize_name(x) == k for x in (*self.keywords, self.type or ""))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping of every field (unknown values are null)."""
        return asdict(self)


FIELD_NAMES = tuple(f.name for f in fields(Card))
_INT_FIELDS = (
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
_LIST_FIELDS = ("keywords", "requirements", "benefits", "tribe_friendly", "errata", "rulings")
_BOOL_FIELDS = ("playtest", "alternate_shapeshifter", "kailindo", "auspice_tribe")
_SIDE_KEYS = {"rage", "gnosis", "health", "renown", "text", "keywords"}
_OPTION_KEYS = {"option", "requirements", "max_renown", "cards"}


class CardError(InvalidValue):
    """A card value is invalid; the importer adds the file and place to the message."""


#: Largest number a card field takes: printed stats are small; a bigger one is a typo (and a 5,000-digit
#: string would not even convert).
MAX_CARD_NUMBER = 999


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
        if not re.fullmatch(r"[+-]?\d+", s):
            raise CardError(f"field '{name}': {value!r} is not a whole number" + (" or X" if allow_x else ""))
        if len(s.lstrip("+-").lstrip("0")) > len(str(MAX_CARD_NUMBER)):
            raise CardError(
                f"field '{name}': {s[:20]}{'...' if len(s) > 20 else ''} is above {MAX_CARD_NUMBER} "
                f"(allowed 0 to {MAX_CARD_NUMBER})"
            )
        value = int(s)
    if not isinstance(value, int):
        raise CardError(f"field '{name}': {value!r} is not a whole number")
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
    raise CardError(f"field '{name}': expected a list of text, got {value!r}")


def _choice(value: Any, name: str, allowed: Iterable[str]) -> str | None:
    if value is None or value == "":
        return None
    allowed = tuple(allowed)
    folded = {normalize_name(a): a for a in allowed}
    key = normalize_name(str(value))
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


_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _refuse_control_characters(value: Any, name: str) -> None:
    """Refuse control characters (ESC, BEL, ...) anywhere in a card's text: printed later, they would drive
    the reader's terminal (clear it, retitle it). Tabs and line breaks are text and stay allowed."""
    if isinstance(value, str):
        found = _CONTROL_RE.search(value)
        if found:
            raise CardError(
                f"field '{name or 'name'}': control character {found.group()!r} is not allowed in card text"
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_control_characters(key, name)
            _refuse_control_characters(item, f"{name}.{key}" if name else str(key))
    elif isinstance(value, list):
        for item in value:
            _refuse_control_characters(item, name)


def card_from_mapping(raw: dict[str, Any], known_keywords: frozenset[str] | None = KNOWN_KEYWORDS) -> Card:
    """Validate one card mapping in stkit's schema and build a Card.

    ``known_keywords``: folded allowed keywords, or None to accept any. Raises CardError (an InvalidValue)
    naming the field and the allowed values.
    """
    if not isinstance(raw, dict):
        raise CardError(f"a card must be a mapping of fields, got {type(raw).__name__}")
    _refuse_control_characters(raw, "")
    unknown = sorted(str(k) for k in set(raw) - set(FIELD_NAMES))
    if unknown:
        raise CardError(f"unknown field(s) {', '.join(unknown)}")
    name = raw.get("name")
    if not isinstance(name, str) or not normalize_name(name):
        raise CardError("field 'name': every card needs a name")
    kw: dict[str, Any] = {"name": " ".join(name.split())}
    kw["type"] = _choice(raw.get("type"), "type", CARD_TYPES)
    kw["set"] = None if raw.get("set") in (None, "") else str(raw["set"])
    for f in _INT_FIELDS:
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
    kw["breed"] = _choice(raw.get("breed"), "breed", ("Homid", "Lupus", "Metis"))
    kw["auspice"] = _choice(raw.get("auspice"), "auspice", ("Ragabash", "Theurge", "Philodox", "Galliard", "Ahroun"))
    for f in ("tribe", "text"):
        v = raw.get(f)
        kw[f] = None if v in (None, "") else " ".join(str(v).split()) if f == "tribe" else str(v).strip()
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
    """A row the importer could not read: 1-based line number (or item number) and why."""

    line: int
    message: str


@dataclass
class ParsedFile:
    """The cards read from a file, rows skipped (Lackey only) and the format detected."""

    path: str
    format: str
    cards: list[Card]
    errors: list[RowError] = field(default_factory=list)


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
    known = KNOWN_KEYWORDS | frozenset(k.casefold() for k in extra_keywords)
    cards: list[Card] = []
    problems: list[str] = []
    total = len(items)
    for i, raw in enumerate(items):
        try:
            cards.append(card_from_mapping(raw, known))
        except CardError as exc:
            label = raw.get("name") if isinstance(raw, dict) else None
            if isinstance(label, str) and _CONTROL_RE.search(label):
                label = repr(label)  # never echo raw control characters to the terminal
            place = where_fmt(i) + (f" ({label})" if isinstance(label, str) else "")
            problems.append(f"{path}: {place}: {exc}")
        if progress and (i % 200 == 0 or i == total - 1):
            progress(i + 1, total)
    if problems:
        # validate the whole file so the user sees how much is wrong, but name the first place precisely
        more = f" (and {len(problems) - 1} more bad card(s); nothing imported)" if len(problems) > 1 else ""
        raise DataFileError(problems[0] + more)
    return cards


def _split_document(path: Path, data: Any) -> tuple[Any, list[str]]:
    if isinstance(data, dict):
        extra = set(data) - {"keywords", "cards"}
        if extra:
            raise DataFileError(f"{path}: top level: unknown key(s) {', '.join(sorted(map(str, extra)))}")
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
        data = json.loads(text)
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
    bad = [h for h in header if h not in FIELD_NAMES]
    if bad:
        raise DataFileError(f"{path}: line 1: unknown column(s) {', '.join(bad)}")
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


# LackeyCCG column names (folded) -> stkit field.
_LACKEY_COLUMNS = {
    "name": "name",
    "cardname": "name",
    "title": "name",
    "set": "set",
    "expansion": "set",
    "edition": "set",
    "type": "type",
    "cardtype": "type",
    "subtype": "kind",
    "combattype": "kind",
    "kind": "kind",
    "keywords": "keywords",
    "keyword": "keywords",
    "traits": "keywords",
    "requirements": "requirements",
    "requires": "requirements",
    "requirement": "requirements",
    "benefits": "benefits",
    "benefit": "benefits",
    "renown": "renown",
    "rage": "rage",
    "gnosis": "gnosis",
    "health": "health",
    "frenzy": "frenzy",
    "insight": "insight",
    "sustainedrage": "sustained_rage",
    "kailindo": "kailindo",
    "pawprint": "paw_print",
    "paw": "paw_print",
    "gnosiscost": "gnosis_cost",
    "damage": "damage",
    "block": "block",
    "ragecost": "rage_cost",
    "cost": "rage_cost",
    "moon": "moon",
    "speed": "speed",
    "septdraw": "sept_draw",
    "tribefury": "tribe_fury",
    "fury": "tribe_fury",
    "breed": "breed",
    "tribe": "tribe",
    "auspice": "auspice",
    "text": "text",
    "cardtext": "text",
    "rulestext": "text",
    "errata": "errata",
    "playtest": "playtest",
}
_LACKEY_IGNORED = {"imagefile", "image", "rarity", "artist", "number", "flavor", "flavortext", "id"}
_TYPE_ALIASES = {
    "attack": "attack",
    "defense": "defense",
    "defence": "defense",
    "flex": "flex",
    "counterattack": "counterattack",
    "counter attack": "counterattack",
}


def _lackey_row_to_mapping(values: dict[str, str]) -> dict[str, Any]:
    item: dict[str, Any] = {}
    for field_name, value in values.items():
        value = value.strip()
        if value == "":
            continue
        if field_name == "errata":
            item[field_name] = [value]
        elif field_name == "moon":
            v = value.casefold().replace("moon", "").strip()
            item[field_name] = v
        else:
            item[field_name] = value
    t = item.get("type")
    if t is not None:
        folded = normalize_name(t)
        if folded in _TYPE_ALIASES:  # a combat kind used as the type column
            item["type"] = "Combat Action"
            item.setdefault("kind", _TYPE_ALIASES[folded])
        elif folded in ("combat", "action"):
            item["type"] = "Combat Action"
    if "kind" in item:
        item["kind"] = _TYPE_ALIASES.get(normalize_name(item["kind"]), item["kind"])
    set_name = item.get("set", "")
    if "playtest" in normalize_name(set_name):
        item["playtest"] = True
    return item


def parse_lackey(path: Path, text: str, progress: Progress | None = None) -> ParsedFile:
    """A LackeyCCG plugin card list: tab-separated, header row of field names.

    Quotes are ordinary characters (never delimiters); short rows leave the missing fields empty; rows with a
    set name containing "playtest" or a true Playtest column are kept, marked playtest. A row that cannot
    be read (no name, a bad number, a negative stat, extra non-empty fields) is skipped and reported with its
    line number; keywords are not checked against stkit's list.
    """
    lines = text.splitlines()
    header_raw = lines[0].split("\t")
    columns: list[str | None] = []
    for h in header_raw:
        key = normalize_name(h).replace(" ", "")
        if key in _LACKEY_COLUMNS:
            columns.append(_LACKEY_COLUMNS[key])
        else:
            columns.append(None)  # ImageFile, Rarity and unknown columns are not part of the schema
    if "name" not in columns:
        raise DataFileError(f"{path}: line 1: header has no Name column")
    cards: list[Card] = []
    errors: list[RowError] = []
    total = len(lines)
    seen: set[tuple[str, str]] = set()
    for n, line in enumerate(lines[1:], start=2):
        if progress and (n % 200 == 0 or n == total):
            progress(n - 1, total - 1)
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) > len(columns):
            if any(p.strip() for p in parts[len(columns) :]):
                errors.append(RowError(n, f"{len(parts)} fields but the header has {len(columns)}"))
                continue
            parts = parts[: len(columns)]
        values = {c: v for c, v in zip(columns, parts) if c is not None}
        try:
            card = card_from_mapping(_lackey_row_to_mapping(values), known_keywords=None)
        except CardError as exc:
            errors.append(RowError(n, str(exc)))
            continue
        key = (card.key, normalize_name(card.set or ""))
        if key in seen:
            errors.append(RowError(n, f"duplicate of an earlier row: {card.name} ({card.set or 'no set'})"))
            continue
        seen.add(key)
        cards.append(card)
    return ParsedFile(str(path), "lackey", cards, errors)


def parse_card_file(path: str | Path, progress: Progress | None = None) -> ParsedFile:
    """Read and validate a whole card file before anything is stored.

    Formats: stkit YAML / JSON / CSV (strict: any bad card raises DataFileError naming file and place) and
    LackeyCCG tab-separated lists (lenient: unreadable rows come back in ``errors`` with line numbers).
    ``progress(done, total)`` is called now and then. Raises DataFileError for unreadable files.
    """
    path = Path(path)
    text = read_text(path, ("utf-8-sig", "cp1252"))  # Lackey plugins are often Windows-1252
    if not text.strip():
        raise DataFileError(f"{path}: the file is empty")
    fmt = detect_format(path, text)
    parser = {"yaml": parse_yaml, "json": parse_json, "csv": parse_csv, "lackey": parse_lackey}[fmt]
    return parser(path, text, progress)


def builtin_cards_path() -> Path:
    """The packaged ``data/cards.yaml`` (cards whose facts the three documents give)."""
    from importlib import resources

    return Path(str(resources.files("stkit.tcg") / "data" / "cards.yaml"))


def load_builtin_cards() -> list[Card]:
    """The packaged cards, validated (DataFileError if the packaged file is broken)."""
    return parse_card_file(builtin_cards_path()).cards
