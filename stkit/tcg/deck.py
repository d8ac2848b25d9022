"""Deck lists: the text format and the legality check (Equinox Update, "Setting Up: Building a deck";
"Other Shapeshifters"; earlier rulebook "Setting Up").

Text format (one card per line; a line starting with ``#``, or `` # `` after a card, is a comment; blank
lines ignored)::

    Tribe: Stargazers
    Pack:
    1 Janus
    Sept deck:
    3 Some Ally
    Combat deck:
    2x Some Attack

Section headers (case-insensitive, trailing ``:`` optional, ``[Sept deck]`` also accepted): ``Tribe``,
``Pack`` / ``Starting pack`` / ``Garou``, ``Sept`` / ``Sept deck``, ``Combat`` / ``Combat deck``. A card
line is ``N Card Name``, ``Nx Card Name`` or just ``Card Name`` (one copy). ``Tribe: Name`` names the Tribe
card inline. Copies of a card are added up across all lines of a section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, InvalidValue
from stkit.tcg.cards import CHARACTER_TYPES, COMBAT_TYPES, EARLIER_SEPT_TYPES, SEPT_TYPES, TRIBES, Card
from stkit.tcg.common import fold_name, read_text
from stkit.text import parse_whole_number, printable

RENOWN_LEVELS = (15, 20, 25)
SECTIONS = ("tribe", "pack", "sept", "combat")
_HEADER_NAMES = {
    "tribe": "tribe",
    "tribe card": "tribe",
    "pack": "pack",
    "starting pack": "pack",
    "garou": "pack",
    "characters": "pack",
    "starting garou": "pack",
    "sept": "sept",
    "sept deck": "sept",
    "combat": "combat",
    "combat deck": "combat",
}
_HEADERS = {fold_name(k): v for k, v in _HEADER_NAMES.items()}
_LINE_RE = re.compile(r"^(?:([0-9]+)\s*[xX]?\s+)?(.+?)\s*$")
#: A count written with other digits (Arabic-Indic, full-width): never read as a number nor as a name.
_OTHER_DIGITS_RE = re.compile(r"^\d+\s*[xX]?\s")
SEPT_MIN, SEPT_MAX_COPIES = 30, 3
COMBAT_MIN, COMBAT_MAX_COPIES = 20, 2


@dataclass
class DeckLine:
    """One card line: section, copies, name as written, 1-based line number."""

    section: str
    count: int
    name: str
    line: int


@dataclass
class DeckList:
    """A parsed deck list."""

    path: str
    lines: list[DeckLine] = field(default_factory=list)

    def section(self, name: str) -> list[DeckLine]:
        """Lines of one section (tribe, pack, sept, combat)."""
        return [ln for ln in self.lines if ln.section == name]


@dataclass
class Violation:
    """One broken rule: the rule id (see `stkit tcg rules show`) and a message naming the cards."""

    rule: str
    message: str


@dataclass
class DeckReport:
    """Result of a check: legal when there are no violations. ``warnings`` name what could not be
    checked for lack of card data (no moon icons, no Renown, a Tribe given by name without its card);
    they do not make a deck illegal."""

    violations: list[Violation] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    warnings: list[Violation] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        """True when no rule is broken."""
        return not self.violations

    def to_dict(self) -> dict[str, Any]:
        """``{"legal": bool, "violations": [{"rule", "message"}], "warnings": [{"rule", "message"}]}``."""
        return {
            "legal": self.legal,
            "violations": [{"rule": v.rule, "message": v.message} for v in self.violations],
            "warnings": [{"rule": w.rule, "message": w.message} for w in self.warnings],
        }


#: Most copies one card line may ask for: the rules allow 2 or 3, so anything near this is a typo; the
#: check keeps absurd counts readable.
MAX_COPIES = 999
#: Most card lines a deck list may have: real decks list well under 200; each unknown name costs a fuzzy
#: search, so 100,000 junk lines took 25 s before this cap.
MAX_DECK_LINES = 2000


def parse_deck_text(text: str, path: str = "<deck>") -> DeckList:
    """Parse deck-list text (format in the module docstring).

    Raises DataFileError naming the file and line for a card line before any section, an unknown header,
    a count of 0 or above MAX_COPIES, or more than MAX_DECK_LINES card lines.
    """
    deck = DeckList(path)
    section: str | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        # a comment is a whole line starting with '#', or ' # ...' after a card ("First Team #21" is a name)
        line = "" if raw.lstrip().startswith("#") else re.sub(r"\s+#(\s.*)?$", "", raw).strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            key = fold_name(line[1:-1])
            if key not in _HEADERS:
                raise DataFileError(
                    f"{path}: line {n}: unknown section {line!r}; use Tribe, Pack, Sept deck, Combat deck"
                )
            section = _HEADERS[key]
            continue
        head, sep, rest = line.partition(":")
        if sep and fold_name(head) in _HEADERS:
            section = _HEADERS[fold_name(head)]
            if not rest.strip():
                continue
            line = rest.strip()
        elif not sep and fold_name(line) in _HEADERS:
            section = _HEADERS[fold_name(line)]
            continue
        if section is None:
            raise DataFileError(
                f"{path}: line {n}: card line before any section header (Tribe:, Pack:, Sept deck:, Combat deck:)"
            )
        m = _LINE_RE.match(line)
        assert m is not None  # the pattern matches any non-empty line
        if not m.group(1) and _OTHER_DIGITS_RE.match(line):
            raise DataFileError(f"{path}: line {n}: the count is not a number written with the digits 0 to 9")
        digits = (m.group(1) or "1").lstrip("0") or "0"
        if len(digits) > len(str(MAX_COPIES)):  # also spares the reader a 5,000-digit string
            raise DataFileError(
                f"{path}: line {n}: a count of {digits[:20]}{'...' if len(digits) > 20 else ''} "
                f"copies is absurd; allowed 1 to {MAX_COPIES}"
            )
        count = parse_whole_number(digits, "count", 0)
        if count < 1:
            raise DataFileError(f"{path}: line {n}: a count must be 1 or more, got {count}")
        if count > MAX_COPIES:
            raise DataFileError(f"{path}: line {n}: a count of {count} copies is absurd; allowed 1 to {MAX_COPIES}")
        deck.lines.append(DeckLine(section, count, m.group(2), n))
        if len(deck.lines) > MAX_DECK_LINES:
            raise DataFileError(
                f"{path}: line {n}: more than {MAX_DECK_LINES} card lines; a deck list is far "
                "shorter (is this the right file?)"
            )
    return deck


def parse_deck_file(path: str | Path) -> DeckList:
    """Read and parse a deck-list file (UTF-8). DataFileError if unreadable or malformed."""

    return parse_deck_text(read_text(path), str(path))


_TRIBE_NAMES = {fold_name(t): t for t in TRIBES} | {fold_name(t).rstrip("s"): t for t in TRIBES}
_TRIBE_NAMES |= {"blackfurie": "Black Furies", "blackfury": "Black Furies"}


def tribe_named(name: str) -> str | None:
    """The tribe ``name`` names (plural or singular, folded: "Get of Fenris", "Stargazer"), or None."""
    key = fold_name(name)
    return _TRIBE_NAMES.get(key) or _TRIBE_NAMES.get(key.rstrip("s"))


def _tribe_of(card: Card) -> str | None:
    if card.tribe:
        return card.tribe
    for k in card.keywords:
        if tribe_named(k):
            return k
    return None


def _is_sept(card: Card) -> bool:
    return any(t in SEPT_TYPES or t in EARLIER_SEPT_TYPES for t in (card.type, *card.subtypes))


def _known_type(card: Card) -> bool:
    return bool(card.type) and (
        _is_sept(card) or card.type in COMBAT_TYPES or card.type in CHARACTER_TYPES or card.type == "Tribe"
    )


def _same(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    na, nb = fold_name(a), fold_name(b)
    # "Stargazer" and "Stargazers" name the same tribe
    return na == nb or na.rstrip("s") == nb.rstrip("s")


def check_deck(deck: DeckList, db: Any, renown_level: int = 20) -> DeckReport:
    """Check a parsed deck against the card database ``db`` (a CardDB or anything with lookup/suggestions).

    Rules (ids in parentheses): one Tribe card (deck.tribe-card); Sept deck >= 30 cards, <= 3 of a card,
    Sept cards only (deck.sept-deck); Combat deck >= 20, <= 2 of a card, Combat cards only, equal new and
    full moons (deck.combat-deck); starting pack within ``renown_level`` counting cohort extra Renown, one
    copy per Garou, members of the tribe / Tribe Friendly / cohort or alternate shapeshifters
    (deck.starting-pack, conflicts.starting-pack-membership); alternate shapeshifters' Renown not above the
    own tribe's Garou Renown (deck.alternate-shapeshifters); no other tribe or faction with more Renown
    than the pack's tribe (deck.tribe-card); unknown names (deck.known-cards). Cub exceptions are not
    modelled. Raises InvalidValue if ``renown_level`` is not 15, 20 or 25.
    """
    if renown_level not in RENOWN_LEVELS:
        raise InvalidValue(f"Renown level {renown_level} must be one of 15, 20, 25")
    report = DeckReport()
    v = report.violations
    w = report.warnings
    by_name: Card | None = None
    for ln in deck.section("tribe"):
        # a Tribe named without its card (real card lists have no Tribe cards): the tribe is known, its
        # cohorts and Sept draw are not
        found = db.lookup(ln.name)
        tribe = tribe_named(ln.name)
        if tribe and (found is None or found.type != "Tribe"):
            by_name = Card(name=tribe, type="Tribe", tribe=tribe)
            w.append(
                Violation(
                    "deck.tribe-card",
                    f"line {ln.line}: no {tribe} Tribe card in the card database; the tribe is taken by name, "
                    "so cohort tribes and their extra Renown cannot be checked",
                )
            )

    # Resolve and count per section, across all lines.
    resolved: dict[str, list[tuple[Card, int]]] = {s: [] for s in SECTIONS}
    for section in SECTIONS:
        counts: dict[str, int] = {}
        first: dict[str, DeckLine] = {}
        for ln in deck.section(section):
            key = fold_name(ln.name)
            counts[key] = counts.get(key, 0) + ln.count
            first.setdefault(key, ln)
        for key, count in counts.items():
            ln = first[key]
            if section == "tribe" and by_name is not None and tribe_named(ln.name) == by_name.name:
                resolved[section].append((by_name, count))
                continue
            card = db.lookup(ln.name)
            if card is None:
                v.append(Violation("deck.known-cards", f"line {ln.line}: {_unknown(db, ln.name)}"))
                continue
            resolved[section].append((card, count))

    # Tribe card.
    tribes = resolved["tribe"]
    tribe_card: Card | None = None
    n_tribe_lines = sum(c for _, c in tribes) + sum(
        1 for ln in deck.section("tribe") if db.lookup(ln.name) is None and not tribe_named(ln.name)
    )
    if n_tribe_lines == 0:
        v.append(Violation("deck.tribe-card", "no Tribe card: add a 'Tribe: <name>' line"))
    elif n_tribe_lines > 1:
        v.append(Violation("deck.tribe-card", f"{n_tribe_lines} Tribe cards; a deck has exactly one"))
    for card, _ in tribes:
        if card.type != "Tribe":
            v.append(
                Violation(
                    "deck.tribe-card", f"{card.name} is a {card.type or 'card of unknown type'}, not a Tribe card"
                )
            )
        elif tribe_card is None:
            tribe_card = card

    # Sept deck.
    sept_total = _pile_total(deck, db, resolved, "sept", SEPT_MIN, v)
    for card, count in resolved["sept"]:
        if _copies_and_type(card, count, "sept", SEPT_MAX_COPIES, v, w) and not _is_sept(card):
            v.append(Violation("deck.sept-deck", f"{card.name} is a {card.type} card, not a Sept card"))

    # Combat deck.
    combat_total = _pile_total(deck, db, resolved, "combat", COMBAT_MIN, v)
    moons = {"new": 0, "full": 0}
    unknown_moon = []
    for card, count in resolved["combat"]:
        if _copies_and_type(card, count, "combat", COMBAT_MAX_COPIES, v, w) and card.type not in COMBAT_TYPES:
            v.append(Violation("deck.combat-deck", f"{card.name} is a {card.type} card, not a Combat card"))
        if card.moon:
            moons[card.moon] += count
        elif card.type == "Combat Action" or card.type is None:
            unknown_moon.append(card.name)
    if moons["new"] != moons["full"]:
        v.append(
            Violation(
                "deck.combat-deck",
                f"Combat deck has {moons['new']} new-moon and {moons['full']} "
                f"full-moon cards; the numbers must be equal",
            )
        )
    if unknown_moon:
        # real card lists carry no moon icons: a warning, since the data is missing, not the rule broken
        w.append(
            Violation(
                "deck.combat-deck",
                f"moon not recorded for {', '.join(sorted(unknown_moon))}; cannot check the new/full moon balance",
            )
        )

    # Starting pack.
    if not deck.section("pack"):
        v.append(Violation("deck.starting-pack", "no starting pack: add a 'Pack:' section listing your Garou"))
    _check_pack(resolved["pack"], tribe_card, renown_level, v, w, report.summary)
    report.summary.update(
        {
            "sept": sept_total,
            "combat": combat_total,
            "moons": moons,
            "renown_level": renown_level,
            "tribe": tribe_card.name if tribe_card else None,
        }
    )
    return report


def _pile_total(
    deck: DeckList, db: Any, resolved: dict[str, list[tuple[Card, int]]], section: str, minimum: int, v: list
) -> int:
    """The number of cards in the Sept or Combat deck (``section``), unknown names included; a violation
    when it is under ``minimum``."""
    total = sum(c for _, c in resolved[section]) + _unknown_total(deck, section, db)
    if total < minimum:
        v.append(
            Violation(f"deck.{section}-deck", f"{section.title()} deck has {total} cards; it needs at least {minimum}")
        )
    return total


def _copies_and_type(card: Card, count: int, section: str, max_copies: int, v: list, w: list) -> bool:
    """The checks the Sept and Combat decks (``section``) share for one card: a violation past
    ``max_copies`` copies, a warning when its type is not one stkit knows. True when the type is known, so
    the deck's own type rule can be checked."""
    rule, deck = f"deck.{section}-deck", f"{section.title()} deck"
    if count > max_copies:
        v.append(Violation(rule, f"{count} copies of {card.name} in the {deck}; at most {max_copies}"))
    if _known_type(card):
        return True
    kind = card.type or "not recorded"
    w.append(Violation(rule, f"{card.name}: type {kind} is not one stkit knows; cannot check it belongs in the {deck}"))
    return False


def _unknown_total(deck: DeckList, section: str, db: Any) -> int:
    # unknown cards still count toward deck size, so one typo does not also trip the minimum
    return sum(ln.count for ln in deck.section(section) if db.lookup(ln.name) is None)


def _unknown(db: Any, name: str) -> str:
    """The message for a deck line naming no stored card: why an import refused it, or close names."""
    shown = printable(name)
    refusal = getattr(db, "refusal", lambda _name: None)(name)
    if refusal is not None:
        return f"card {shown!r} is not in the card database: its import refused it ({refusal.message})"
    close = db.suggestions(name)
    if close:
        return f"unknown card {shown!r}; did you mean {', '.join(printable(c) for c in close)}?"
    return f"unknown card {shown!r}; no card of that name in the card database: import its card list first"


def _check_pack(
    pack: list[tuple[Card, int]],
    tribe_card: Card | None,
    level: int,
    v: list[Violation],
    w: list[Violation],
    summary: dict[str, Any],
) -> None:
    tribe_name = (tribe_card.tribe or tribe_card.name) if tribe_card else None
    cohorts = dict(tribe_card.cohorts) if tribe_card else {}
    total = 0
    own_renown = 0
    alt_renown = 0
    by_faction: dict[str, int] = {}
    unknown_renown = []
    for card, count in pack:
        if count > 1:
            v.append(
                Violation("deck.starting-pack", f"{count} copies of {card.name} in the pack; one copy of any Garou")
            )
        if card.type not in ("Garou", None) and not card.alternate_shapeshifter:
            v.append(
                Violation(
                    "deck.starting-pack", f"{card.name} is a {card.type} card; the starting pack holds shapeshifters"
                )
            )
            continue
        if card.renown is None:
            unknown_renown.append(card.name)
            continue
        tribe = _tribe_of(card)
        cost = card.renown
        if card.alternate_shapeshifter:
            alt_renown += card.renown * count
            faction = tribe or "alternate shapeshifters"
        elif tribe_card is None:
            faction = tribe or "unknown tribe"
        elif tribe_card.auspice_tribe:
            # Auspice "Tribe" cards have no cohorts; the pack is bound by auspice instead of tribe
            faction = tribe or "unknown tribe"
            own_renown += card.renown * count  # the whole pack is "of the tribe" for the shapeshifter limit
            if tribe_card.auspice and card.auspice and card.auspice != tribe_card.auspice:
                v.append(Violation("deck.starting-pack", f"{card.name} is {card.auspice}, not {tribe_card.auspice}"))
        elif _same(tribe, tribe_name):
            own_renown += card.renown * count
            faction = tribe_name or "unknown tribe"
        elif any(_same(t, tribe_name) for t in card.tribe_friendly):
            faction = tribe or "unknown tribe"
        elif any(_same(tribe, name) for name in cohorts):
            cost += next(extra for name, extra in cohorts.items() if _same(tribe, name))
            faction = tribe or "unknown tribe"
        elif tribe_card.name == tribe_card.tribe and not tribe_card.set and not cohorts and tribe:
            # Tribe taken by name: whether this tribe is a cohort is unknown, so no violation
            w.append(
                Violation(
                    "deck.starting-pack",
                    f"{card.name} ({tribe}) is not of {tribe_name}; it is legal only if {tribe} is a cohort "
                    f"of {tribe_name} (cohorts need the Tribe card) and costs its printed {card.renown} Renown here",
                )
            )
            faction = tribe or "unknown tribe"
        else:
            v.append(
                Violation(
                    "deck.starting-pack",
                    f"{card.name} ({tribe or 'no tribe recorded'}) is not of {tribe_name}, a cohort tribe, "
                    f"Tribe Friendly for it, or an alternate shapeshifter",
                )
            )
            faction = tribe or "unknown tribe"
        total += cost * count
        by_faction[faction] = by_faction.get(faction, 0) + card.renown * count
    if unknown_renown:
        w.append(
            Violation(
                "deck.starting-pack",
                f"Renown not recorded for {', '.join(sorted(unknown_renown))}; cannot check the pack's Renown",
            )
        )
    if total > level:
        v.append(
            Violation(
                "deck.starting-pack",
                f"starting pack costs {total} Renown (cohort extras included); the Renown level is {level}",
            )
        )
    if alt_renown > own_renown:
        v.append(
            Violation(
                "deck.alternate-shapeshifters",
                f"alternate shapeshifters have {alt_renown} Renown, more than the {own_renown} Renown of "
                f"{tribe_name or 'your tribe'}'s own Garou",
            )
        )
    if tribe_card is not None and not tribe_card.auspice_tribe:
        for faction, renown in sorted(by_faction.items()):
            if faction != tribe_name and renown > own_renown:
                v.append(
                    Violation(
                        "deck.tribe-card",
                        f"{faction} has {renown} Renown in the pack, more than {tribe_name}'s {own_renown}",
                    )
                )
    summary.update({"pack_renown": total, "own_tribe_renown": own_renown, "alternate_renown": alt_renown})
