"""Real Rage card lists: the LackeyCCG plugin's tab-separated card data, read whole.

The community's plugin file is the one machine-readable Rage card list a player will bring. Its shape:

- one card per line, tab-separated, a header row naming the columns (``Name``, ``Expansion``, ``ImageFile``,
  ``Sealed``, ``Type``, ``Notes``, ``Requires``, ``Keywords``, ``Renown``, ``Rage``, ``Gnosis``, ``Health``,
  ``CRage``, ``CGnosis``, ``CHealth``, ``Damage``, ``Text``, ``Errata``; other spellings of these are
  understood too); no quoting, so a ``"`` or ``'`` is an ordinary character wherever it stands;
- types of the earlier Rage game (``Character - Gaia``, ``Character (Wyrm)``, ``Territory``, ``Quest``,
  ``Caern``, ``Board Meeting``, ``Realm``, ``Action``) and compound types (``Ally - Victim``);
- keywords and requirements joined with `` - ``; the tribe, breed and auspice are among the keywords;
- two-sided characters: the breed side in Renown / Rage / Gnosis / Health, the Crinos side in CRage /
  CGnosis / CHealth; on a Combat card ``Rage`` is its Rage cost.

Every physical line after the header is accounted for: it starts a card that is imported, it is merged
into the row before it (the rest of a text split over two lines, or the same card listed twice), or it is
refused with its line and reason (only a row that carries no card: no name, or text no card can hold).
A value that cannot be read (``lots`` as a Health) never costs the card: the field stays unknown, the text
is kept in ``extra`` and a warning names it. Source of the card anatomy: earlier rulebook, "The Cards";
Equinox Update, "The Cards" and "Combat".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, InvalidValue
from stkit.tcg.cards import (
    AUSPICES,
    BREEDS,
    CARD_TYPES,
    EARLIER_SEPT_TYPES,
    INT_FIELDS,
    MAX_CARD_NUMBER,
    MAX_CARD_ROWS,
    TRIBES,
    Card,
    CardError,
    ParsedFile,
    Progress,
    RowError,
    card_from_mapping,
    combat_kind_notes,
    is_alternate_shapeshifter,
)
from stkit.tcg.common import fold_name, fold_words
from stkit.tcg.vocab import CombatKind, Moon, Speed
from stkit.text import MAX_SHORT_TEXT, parse_whole_number, printable

#: Folded column name -> schema field. ``crinos.X`` fills the Crinos side.
COLUMNS = {
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
    "crage": "crinos.rage",
    "cgnosis": "crinos.gnosis",
    "chealth": "crinos.health",
    "crinosrage": "crinos.rage",
    "crinosgnosis": "crinos.gnosis",
    "crinoshealth": "crinos.health",
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
_NUMBER_FIELDS = {*INT_FIELDS, "crinos.rage", "crinos.gnosis", "crinos.health"}
#: Keywords and requirements are joined with " - " (a hyphen inside a word, "Manic-Depressive", is not a
#: separator); ";" and "," also separate, as some hand-made lists use them.
_LIST_PARTS = re.compile(r"\s+-\s+|\s*;\s*|\s+-$|^-\s+")
_TYPE_SPLIT = re.compile(r"\s+-\s+|\s*[()]\s*")
#: A text cut at this many characters was probably cut by the list's maker (a database field limit).
TRUNCATION_LENGTHS = (254, 255)
_KINDS = {fold_name(k.value): k.value for k in CombatKind} | {"defence": "defense", "counter": "counterattack"}
_PLAIN_TYPES = {fold_name(t): t for t in (*CARD_TYPES, *EARLIER_SEPT_TYPES)}
_TRIBE_KEYS = {fold_name(t): t for t in TRIBES} | {fold_name(t.rstrip("s")): t for t in TRIBES}
_TRIBE_KEYS |= {"blackfury": "Black Furies", "blackfurie": "Black Furies"}
_BLOCK_RE = re.compile(
    r"\breduc\w*\s+the\s+damage\s+of\s+(?:any\s+|an\s+|one\s+)*attacks?\s+by\s+(?:up\s+to\s+)?(\d{1,3})\b"
    r"|\bblocks?\s+(?:up\s+to\s+)?(\d{1,3})\s+(?:points?\s+of\s+)?damage\b",
    re.I,
)
#: Words in a Combat card's text that give one of its own values: it blocks, deals damage, strikes first
#: or last, costs Rage. Read only after _NOT_THIS_CARD has taken out what speaks of other cards.
_TEXT_HINTS = {
    "block": re.compile(r"\bblocks?\b|\breduc\w*\s+(?:the\s+)?damage|\bprevent\w*\s+(?:\w+\s+)?damage", re.I),
    "damage": re.compile(
        r"\b(?:does|deals?|inflicts?|causes?)\s+(?:[\dx]+\s+|\w+\s+)?(?:points?\s+of\s+)?damage\b", re.I
    ),
    "speed": re.compile(
        r"\b(?:this card|it) (?:is|counts as) (?:fast|slow)[- ]striking\b|\bstrikes?\s+(?:first|last)\b", re.I
    ),
    "rage_cost": re.compile(r"\b(?:this card\s+)?costs?\s+(?:\d+|x)\s+(?:more\s+|less\s+|extra\s+)?rage\b", re.I),
}
#: Text about another card or the opponent, never one of this card's own values: "cannot be blocked",
#: "Unblockable", "a Slow Striking attacker", "the opponent's Block", "extra damage", "no damage".
_NOT_THIS_CARD = re.compile(
    r"\b(?:cannot|can't|can not|may not)\s+be\s+blocked\b|\bunblockable\b|\bblocked\b"
    r"|\b(?:an?|the|any|against)\s+(?:fast|slow)[- ]striking\s+\w+"
    r"|\b(?:opponent|attacker|defender|target)'?s?\s+(?:\w+\s+){0,3}(?:block|damage|rage cost)\b"
    r"|\b(?:does|deals?)\s+(?:no|\d+\s+extra|extra)\s+damage\b|\brage\s+cost\s+\d+\s+cards?\b",
    re.I,
)
#: A sentence that gives a value only in some cases.
_CONDITION_RE = re.compile(r"\b(?:if|unless|only|when|whenever|while|against|instead|as long as)\b", re.I)
#: A number column marked as depending on the text: "1*", "2+".
_MARKED_NUMBER = re.compile(r"([0-9]{1,3})\s*[*+]")
#: Keywords and subtypes naming a Combat Action's kind: the rules' four kinds and the earlier game's
#: words for them (strikes are attacks, blocks and dodges defenses).
_KIND_WORDS = _KINDS | {
    "strike": "attack",
    "strikes": "attack",
    "block": "defense",
    "dodge": "defense",
    "parry": "defense",
    "evade": "defense",
    "counterstrike": "counterattack",
    "counterattacks": "counterattack",
    "counterattack": "counterattack",
    "attacks": "attack",
    "defenses": "defense",
    "flexes": "flex",
}
#: Text that says how a Combat Action is played, read when no keyword names its kind.
_KIND_TEXT = (
    ("counterattack", re.compile(r"\bcounter-?attack\b", re.I)),
    ("flex", re.compile(r"\bflex\b|\bas (?:either )?an attack or (?:as )?a defen[cs]e\b", re.I)),
    (
        "defense",
        re.compile(
            r"\bplay(?:ed)? (?:only )?(?:when|while) (?:your )?opponent has (?:the )?initiative\b"
            r"|\bplay(?:ed)? as a defen[cs]e\b|\bin reaction to damage\b"
            r"|\bdodges? (?:one|an|any|all|1|up to \w+) (?:\w+ )?attacks?\b",
            re.I,
        ),
    ),
    (
        "attack",
        re.compile(
            r"\bplay(?:ed)? (?:only )?(?:when|while) you have (?:the )?initiative\b"
            r"|\bplay(?:ed)? as an attack\b",
            re.I,
        ),
    ),
)


@dataclass
class _Record:
    line: int
    parts: list[str]
    notes: list[str] = field(default_factory=list)
    #: sentences of continuation rows (a row holding only its first field) that belong to this card's text
    tails: list[str] = field(default_factory=list)
    #: the rest of this card's errata, from a continuation row that also held the rest of its text
    errata_tails: list[str] = field(default_factory=list)


def _looks_like_sentence(value: str) -> bool:
    """True for text no card name reads like: a full sentence, a fragment starting in lower case, many
    words, or more characters than a name may hold."""
    s = value.strip()
    return len(s) > MAX_SHORT_TEXT or s[-1:] in '.!?;:)"' or s[:1].islower() or len(s.split()) >= 7


def _split_lines(text: str) -> list[str]:
    # only line breaks end a row: str.splitlines would also split at form feeds and U+2028 inside text
    return re.split(r"\r\n|\r|\n", text)


def resolve_type(raw: str, keywords: list[str]) -> dict[str, Any]:
    """The schema fields a printed type gives: type, subtypes, printed type, affiliation, combat kind.

    ``"Character - Gaia"`` with a Garou keyword gives type Garou, affiliation Gaia; ``"Ally - Victim"``
    type Ally, subtype Victim; ``"Attack"`` or ``"Combat - Attack"`` type Combat Action, kind attack;
    ``"Action"`` the earlier game's Sept card. ``known`` is False for a type stkit has never seen (kept
    as its own type by the caller).
    """
    parts = [p for p in _TYPE_SPLIT.split(raw.strip()) if p]
    if not parts:
        return {"known": True}
    first, rest = fold_name(parts[0]), parts[1:]
    out: dict[str, Any] = {"known": True}
    if first in ("character", "characters"):
        is_garou = any(fold_name(k) == "garou" or fold_name(k) in _TRIBE_KEYS for k in keywords)
        out["type"] = "Garou" if is_garou else "Character"
        if rest:
            out["affiliation"] = rest[0]
        out["printed_type"] = raw.strip()
    elif first in _KINDS:
        out.update(type="Combat Action", kind=_KINDS[first], printed_type=raw.strip())
    elif first == "combat":
        sub = fold_name(rest[0]) if rest else ""
        if sub == "event":
            out["type"] = "Combat Event"
        else:
            out["type"] = "Combat Action"
            if sub in _KINDS:
                out["kind"] = _KINDS[sub]
        out["printed_type"] = raw.strip()
    elif first in _PLAIN_TYPES:
        out["type"] = _PLAIN_TYPES[first]
        out["subtypes"] = [_PLAIN_TYPES.get(fold_name(p), p) for p in rest]
        if rest:
            out["printed_type"] = raw.strip()
    else:
        out.update(type=" ".join(raw.split()), known=False)
    return out


def _number(value: str, column: str, warnings: list[str], allow_x: bool = False) -> int | str | None:
    """A printed number, or None (with a warning) when it cannot be read as one."""
    s = value.strip()
    if not s:
        return None
    if allow_x and s.upper() == "X":
        return "X"
    if not s.startswith("-"):
        try:
            return parse_whole_number(s, column, 0, MAX_CARD_NUMBER)
        except InvalidValue:
            pass
    warnings.append(f"{column} {printable(s[:20])!r} is not a number from 0 to {MAX_CARD_NUMBER}; kept as text")
    return None


def _split_list(value: str, comma_names: frozenset[str] | None = None) -> list[str]:
    """A keyword or requirement list: items joined with " - " (or ";"). ``comma_names`` None: a comma never
    separates items (the plugin's own lists, joined with " - ", hold commas inside one item: "Fomori,
    Iliad", "Black Spiral Dancer, Hellcat", "Any Gaia Garou in the Umbra, or one who has been in the
    Umbra"). Else, for a list whose file joins its lists with commas, a "," separates items too, except
    inside a name of ``comma_names`` (folded card names holding a comma, "Den of Rorth, Son of Bast")."""
    out: list[str] = []
    for part in _LIST_PARTS.split(value):
        if comma_names is None:
            if part.strip():
                out.append(part.strip())
            continue
        pieces = [p.strip() for p in part.split(",")]
        i = 0
        while i < len(pieces):
            for j in range(len(pieces), i + 1, -1):  # the longest run of pieces that forms a known name
                joined = ", ".join(pieces[i:j])
                if fold_name(joined) in comma_names:
                    out.append(joined)
                    i = j
                    break
            else:
                if pieces[i]:
                    out.append(pieces[i])
                i += 1
    return out


def _pick(keywords: list[str], table: dict[str, str]) -> str | None:
    for k in keywords:
        hit = table.get(fold_name(k))
        if hit:
            return hit
    return None


def _is_playtest(set_name: str) -> bool:
    words = fold_words(set_name).split()
    return "playtest" in fold_name(set_name) or "test" in words


def _card_mapping(
    values: dict[str, str],
    extra: dict[str, str],
    warnings: list[str],
    comma_names: frozenset[str] | None = None,
    tails: list[str] | None = None,
    errata_tails: list[str] | None = None,
) -> dict[str, Any]:
    """Turn one record's column values into a mapping in stkit's card schema. ``tails``: sentences of the
    continuation rows below the record, appended to its errata when they are errata (they say so, or
    the card already has errata: the row ran on from its last field), else to its text."""
    item: dict[str, Any] = {"name": values.get("name", "").strip()}
    for tail in tails or ():
        column = "errata" if values.get("errata", "").strip() or fold_name(tail).startswith("errata") else "text"
        values[column] = _joined(values.get(column, ""), tail)
    for tail in errata_tails or ():
        values["errata"] = _joined(values.get("errata", ""), tail)
    keywords = _split_list(values.get("keywords", ""), comma_names)
    item["keywords"] = keywords
    item["requirements"] = _split_list(values.get("requirements", ""), comma_names)
    if values.get("benefits", "").strip():
        item["benefits"] = _split_list(values["benefits"], comma_names)
    if values.get("set", "").strip():
        item["set"] = " ".join(values["set"].split())
    if values.get("type", "").strip():
        resolved = resolve_type(values["type"], keywords)
        if not resolved.pop("known"):
            warnings.append(f"type {printable(resolved['type'])!r} is not one stkit knows; kept as its own type")
        item.update(resolved)
    if values.get("kind", "").strip():
        kind = _KINDS.get(fold_name(values["kind"]))
        if kind:
            item["kind"] = kind
        else:
            extra["kind"] = values["kind"].strip()
    combat = item.get("type") in ("Combat Action", "Combat Event")
    crinos: dict[str, Any] = {}
    for column, raw in values.items():
        if column not in _NUMBER_FIELDS or not raw.strip():
            continue
        number = _number(raw, column, warnings)
        if number is None:
            extra[column] = raw.strip()
            continue
        if column.startswith("crinos."):
            crinos[column.split(".", 1)[1]] = number
        elif column == "rage" and combat and not values.get("rage_cost", "").strip():
            item["rage_cost"] = number  # on a Combat card the Rage column is the card's Rage cost
        else:
            item[column] = number
    if crinos:
        item["crinos_side"] = crinos
    for column in ("damage", "block"):
        if values.get(column, "").strip():
            raw = values[column].strip()
            marked = _MARKED_NUMBER.fullmatch(raw)
            if marked:
                # "1*": a value the card's text makes conditional
                item.setdefault("conditional", {})[column] = {"value": int(marked.group(1)), "when": "see text"}
                continue
            number = _number(raw, column, warnings, allow_x=True)
            if number is None:
                extra[column] = raw
            else:
                item[column] = number
    text = values.get("text", "").strip()
    if text:
        item["text"] = text
        if len(values.get("text", "")) in TRUNCATION_LENGTHS or len(text) in TRUNCATION_LENGTHS:
            item["possibly_truncated"] = True
            warnings.append(f"text is {len(text)} characters long: possibly cut off by the list's maker")
    if values.get("errata", "").strip():
        item["errata"] = [values["errata"].strip()]
    for column in ("tribe", "breed", "auspice", "moon", "speed", "kailindo", "paw_print", "playtest"):
        if values.get(column, "").strip():
            item[column] = values[column].strip()
    item.setdefault("tribe", _pick(keywords, _TRIBE_KEYS))
    item.setdefault("breed", _pick(keywords, {fold_name(b): b for b in BREEDS}))
    item.setdefault("auspice", _pick(keywords, {fold_name(a): a for a in AUSPICES}))
    if "moon" in item:
        item["moon"] = item["moon"].casefold().replace("moon", "").strip()
    else:
        moon = _pick(keywords, {"newmoon": Moon.NEW.value, "fullmoon": Moon.FULL.value})
        if moon:
            item["moon"] = moon
    if is_alternate_shapeshifter(item.get("type"), item.get("subtypes", []), keywords):
        # another werecreature (Equinox Update, "Other Shapeshifters"): it may join any pack
        item["alternate_shapeshifter"] = True
    if combat:
        _combat_fields(item, keywords, text)
    if _is_playtest(item.get("set", "")):
        item["playtest"] = True
    if extra:
        item["extra"] = extra
    return item


def _joined(text: str, tail: str) -> str:
    """``text`` with the rest of it from a continuation row: after a line without closing punctuation a
    tail starting with a capital is a new line of the card (the plugin had a line break there: "Requires:
    Beast-of-War, Glass Walkers" then "Spirit. These ..."), else the same sentence running on."""
    text = text.rstrip()
    if not text:
        return tail.strip()
    new_line = text[-1:] not in ".!?;:)\"'\u201d\ufffd" and tail.lstrip()[:1].isupper()
    return text + ("\n" if new_line else " ") + tail.strip()


def _sentence_at(text: str, pos: int) -> str:
    """The sentence of ``text`` holding character ``pos``."""
    starts = [m.end() for m in re.finditer(r"[.!?](?:\s|$)", text[:pos])]
    begin = starts[-1] if starts else 0
    stop = re.search(r"[.!?](?:\s|$)", text[pos:])
    return text[begin : pos + (stop.end() if stop else len(text) - pos)].strip()


def _combat_kind(item: dict[str, Any], keywords: list[str], text: str) -> str | None:
    """The kind a Combat Action's keywords, text or numbers give (Equinox Update, "Combat": attacks deal
    Damage, defenses Block, flexes use either, counterattacks hurt instead of blocking), or None. A
    keyword in parentheses ("(Block)": it blocks only in some case the text gives) names no kind, and a
    defense that also deals Damage (a Dodge or Block card with a Damage number) is played either way: a
    flex."""
    kind = _kind_of(item, keywords, text)
    damage = item.get("damage")
    if kind == CombatKind.DEFENSE.value and (damage == "X" or (isinstance(damage, int) and damage > 0)):
        return CombatKind.FLEX.value
    return kind


def _plain_keywords(keywords: list[str]) -> list[str]:
    # the keywords that say what a card is: one in parentheses only qualifies it
    return [k for k in keywords if not k.strip().startswith("(")]


def _kind_of(item: dict[str, Any], keywords: list[str], text: str) -> str | None:
    words = [fold_name(k) for k in _plain_keywords(keywords)] + [fold_name(t) for t in item.get("subtypes", [])]
    kinds = list(dict.fromkeys(_KIND_WORDS[w] for w in words if w in _KIND_WORDS))
    if len(kinds) == 1:
        return kinds[0]
    if len(kinds) > 1:
        # "Attack - Defense": a card played either way is a flex; a counterattack word wins over its parts
        if CombatKind.COUNTERATTACK.value in kinds:
            return CombatKind.COUNTERATTACK.value
        return CombatKind.FLEX.value
    for kind, pattern in _KIND_TEXT:
        if text and pattern.search(text):
            return kind
    damage, block = item.get("damage") is not None, item.get("block") is not None
    if damage and block:
        return CombatKind.FLEX.value
    if damage:
        return CombatKind.ATTACK.value
    if block:
        return CombatKind.DEFENSE.value
    return None


def _combat_fields(item: dict[str, Any], keywords: list[str], text: str) -> None:
    """Read the kind, speed and block amount a Combat card gives only in its keywords or text, keep a value
    the text makes conditional apart (``conditional``), and list the fields whose value stays in the text
    alone (Equinox Update, "Combat")."""
    folded = {fold_name(k) for k in _plain_keywords(keywords)}
    if "speed" not in item:
        if folded & {"faststriking", "fast"}:
            item["speed"] = Speed.FAST.value
        elif folded & {"slowstriking", "slow"}:
            item["speed"] = Speed.SLOW.value
    if "block" not in item and text and "block" not in item.get("conditional", {}):
        found = _BLOCK_RE.search(text)
        if found:
            amount = int(found.group(1) or found.group(2))
            sentence = _sentence_at(text, found.start())
            if _CONDITION_RE.search(sentence):
                item.setdefault("conditional", {})["block"] = {"value": amount, "when": sentence}
            else:
                item["block"] = amount
    if "kind" not in item and item["type"] == "Combat Action":
        kind = _combat_kind(item, keywords, text)
        if kind:
            item["kind"] = kind
    plain = _NOT_THIS_CARD.sub(" ", text or "")
    text_only = []
    for name, pattern in _TEXT_HINTS.items():
        if item.get(name) is None and name not in item.get("conditional", {}) and pattern.search(plain):
            text_only.append(name)
    if text_only:
        item["text_only"] = text_only


def _header(path: Path, first: str) -> tuple[list[str | None], list[str]]:
    names = [h.strip() for h in first.split("\t")]
    columns = [COLUMNS.get(fold_name(h)) for h in names]
    if "name" not in columns:
        raise DataFileError(f"{path}: line 1: header has no Name column")
    return columns, names


def parse_lackey(
    path: Path, text: str, progress: Progress | None = None, known_names: Iterable[str] = ()
) -> ParsedFile:
    """A LackeyCCG plugin card list, read whole (the rules for each row are in the module docstring).
    ``known_names``: card names from outside the file (the built-in cards) whose commas are no list
    separators in a file whose lists are joined with commas.

    Returns every card read, with the rows refused (``errors``), merged (``merged``) and the warnings about
    cards kept (``warnings``), each with its 1-based line. Raises DataFileError for a file without a
    tab-separated header naming a Name column, or with more than MAX_CARD_ROWS rows.
    """
    lines = _split_lines(text)
    if len(lines) > MAX_CARD_ROWS + 1:
        raise DataFileError(f"{path}: {len(lines) - 1} rows; a card file may hold at most {MAX_CARD_ROWS}")
    columns, names = _header(path, lines[0])
    ncols = len(columns)
    reach = max(columns.index("type") if "type" in columns else 1, 1)
    type_idx = columns.index("type") if "type" in columns else None
    name_idx = columns.index("name")
    records: list[_Record] = []
    merged: list[RowError] = []
    refused: list[RowError] = []
    rows = 0
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        rows += 1
        parts = line.split("\t")
        prev = records[-1] if records else None
        starts_card = (
            type_idx is not None
            and len(parts) > type_idx
            and bool(parts[type_idx].strip())
            and resolve_type(parts[type_idx], [])["known"]
        )
        if (
            prev is not None
            and parts[0].strip()
            and len(prev.parts) < ncols
            and len(prev.parts) + len(parts) - 1 <= ncols
            and not starts_card
        ):
            # the rest of the row before: a line break inside one of its fields (a text, a keyword list)
            joiner = "" if prev.parts[-1].rstrip().endswith("-") and parts[0].lstrip().startswith("-") else " "
            prev.parts[-1] = (prev.parts[-1].rstrip() + joiner + parts[0].strip()).strip()
            prev.parts.extend(parts[1:])
            merged.append(RowError(n, f"the rest of line {prev.line} (its row was split over two lines)"))
            continue
        filled = [i for i, value in enumerate(parts) if value.strip()]
        only_first = filled == [0] and (type_idx is not None or len(parts) <= reach or _looks_like_sentence(parts[0]))
        if prev is not None and only_first:
            # a continuation row: only its first field is filled, with a sentence (or a cut-off fragment,
            # "Frenzied opponents act at -") of the card above; no type, no set: never a card of its own
            prev.tails.append(parts[0].strip())
            merged.append(
                RowError(n, f"a continuation of line {prev.line}'s text, appended to it (no card of its own)")
            )
            continue
        if prev is not None and filled == [0, 1] and not starts_card and _looks_like_sentence(parts[0]):
            # the rest of the card above's last two fields: its text ran on past a line break, then its errata
            prev.tails.append(parts[0].strip())
            prev.errata_tails.append(parts[1].strip())
            merged.append(
                RowError(
                    n, f"a continuation of line {prev.line}'s text and errata, appended to them (no card of its own)"
                )
            )
            continue
        if len(parts) > ncols:
            second = _second_record(parts, ncols, name_idx, type_idx)
            if second is not None:
                records.append(_Record(n, parts[:second]))
                records.append(_Record(n, parts[second:], ["two rows on one line; read as two cards"]))
                continue
        records.append(_Record(n, parts))
    cards: list[Card] = []
    warnings: list[RowError] = []
    untyped: list[RowError] = []
    comma_names = _comma_names(records, columns, name_idx, known_names)
    seen: dict[tuple[str, str], tuple[int, Card]] = {}
    total = len(records)
    for i, rec in enumerate(records):
        if progress and (i % 200 == 0 or i == total - 1):
            progress(i + 1, total)
        card, notes, reason = _build(rec, columns, names, ncols, comma_names)
        if card is None:
            refused.append(RowError(rec.line, reason or "no card", _name_of(rec, name_idx)))
            continue
        for note in notes:
            warnings.append(RowError(rec.line, note, card.name))
        ident = (card.key, fold_name(card.set or ""))
        if ident in seen:
            first_line, first = seen[ident]
            same = first.to_dict() == card.to_dict()
            how = "the same" if same else "different"
            merged.append(
                RowError(
                    rec.line,
                    f"{printable(card.name)} ({printable(card.set or 'no set')}) is listed again with {how} "
                    f"text; line {first_line} is kept",
                    card.name,
                )
            )
            continue
        seen[ident] = (rec.line, card)
        cards.append(card)
        if card.type == "Combat Action" and not card.kind:
            kind, why = combat_kind_notes().get(card.key, (None, ""))
            if kind:
                card.kind = kind
            else:
                message = (
                    f"Combat Action whose kind is not stated (its text and errata were read: {why})"
                    if why
                    else "Combat Action with no kind: no keyword, text or number says which"
                )
                untyped.append(RowError(rec.line, message, card.name))
    return ParsedFile(str(path), "lackey", cards, refused, merged, warnings, lines=rows, untyped=untyped)


def _comma_names(
    records: list[_Record], columns: list[str | None], name_idx: int, known_names: Iterable[str]
) -> frozenset[str] | None:
    """None when the file joins its lists with " - " (the plugin's way: a comma then never separates
    items); else the folded names holding a comma among the file's cards and ``known_names``, list items
    that must not be split at their comma."""
    lists = [i for i, c in enumerate(columns) if c in ("keywords", "requirements", "benefits")]
    if any(len(r.parts) > i and _LIST_PARTS.search(r.parts[i].strip()) for r in records for i in lists):
        return None
    names = {_name_of(rec, name_idx) or "" for rec in records} | set(known_names)
    return frozenset(fold_name(n) for n in names if "," in n)


def _second_record(parts: list[str], ncols: int, name_idx: int, type_idx: int | None) -> int | None:
    """Where a second record starts on an over-long line, or None when the extra fields are no record."""
    for start in (ncols, ncols - 1):
        rest = parts[start:]
        if len(rest) <= max(name_idx, type_idx or 0) or not rest[name_idx].strip():
            continue
        if type_idx is None or (resolve_type(rest[type_idx], [])["known"] and rest[type_idx].strip()):
            return start
    return None


def _name_of(rec: _Record, name_idx: int) -> str | None:
    value = rec.parts[name_idx].strip() if len(rec.parts) > name_idx else ""
    return value or None


def _build(
    rec: _Record,
    columns: list[str | None],
    names: list[str],
    ncols: int,
    comma_names: frozenset[str] | None = None,
) -> tuple[Card | None, list[str], str | None]:
    notes = list(rec.notes)
    parts = rec.parts
    extra: dict[str, str] = {}
    if len(parts) > ncols:
        over = [p.strip() for p in parts[ncols:] if p.strip()]
        if over:
            extra["overflow"] = " | ".join(over)
            notes.append(f"{len(parts)} fields but the header has {ncols}; the extra ones are kept as 'overflow'")
        parts = parts[:ncols]
    values: dict[str, str] = {}
    for column, header, value in zip(columns, names, parts, strict=False):  # a short row: the rest is empty
        if column is None:
            if value.strip():
                extra[header or f"column {len(extra) + 1}"] = value.strip()
        elif column in values and value.strip():
            values[column] = (values[column] + " - " + value).strip(" -")
        else:
            values.setdefault(column, value)
    if not values.get("name", "").strip():
        filled = any(p.strip() for p in parts)
        return None, notes, "no card name (the Name field is empty)" if filled else "an empty row of tabs"
    try:
        card = card_from_mapping(
            _card_mapping(values, extra, notes, comma_names, rec.tails, rec.errata_tails),
            known_keywords=None,
            open_types=True,
        )
    except CardError as exc:
        return None, notes, str(exc)
    return card, notes, None
