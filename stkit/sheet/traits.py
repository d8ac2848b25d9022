"""The trait catalogue of a Werewolf: The Apocalypse (Revised) character, and forgiving name matching.

Pure Python (rapidfuzz is imported only to suggest a name after a miss). Names are compared after
case-folding and dropping spaces, hyphens and underscores, so "primal urge", "Primal-Urge" and "PRIMALURGE"
are one trait. Rules source: Chapter Five: Rules ("Ratings": dots from 0 to 5, some Traits to 10; its examples
also use Repair, Acting and Security, which are kept here as secondary abilities).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from stkit.errors import InvalidValue
from stkit.sheet.vocab import TraitKind
from stkit.text import fold_accents, is_invisible, without_surrogates

ATTRIBUTES: tuple[str, ...] = (
    "Strength",
    "Dexterity",
    "Stamina",
    "Charisma",
    "Manipulation",
    "Appearance",
    "Perception",
    "Intelligence",
    "Wits",
)
ATTRIBUTE_GROUPS: dict[str, tuple[str, ...]] = {
    "Physical": ATTRIBUTES[0:3],
    "Social": ATTRIBUTES[3:6],
    "Mental": ATTRIBUTES[6:9],
}
TALENTS: tuple[str, ...] = (
    "Alertness",
    "Athletics",
    "Brawl",
    "Dodge",
    "Empathy",
    "Expression",
    "Intimidation",
    "Primal-Urge",
    "Streetwise",
    "Subterfuge",
)
SKILLS: tuple[str, ...] = (
    "Animal Ken",
    "Crafts",
    "Drive",
    "Etiquette",
    "Firearms",
    "Leadership",
    "Melee",
    "Performance",
    "Stealth",
    "Survival",
)
KNOWLEDGES: tuple[str, ...] = (
    "Computer",
    "Enigmas",
    "Investigation",
    "Law",
    "Linguistics",
    "Medicine",
    "Occult",
    "Politics",
    "Rituals",
    "Science",
)
#: Secondary abilities the rules chapter's examples name; any other ability goes in ``custom_abilities``.
SECONDARY_ABILITIES: tuple[str, ...] = ("Acting", "Repair", "Security")
ABILITY_GROUPS: dict[str, tuple[str, ...]] = {
    "Talents": TALENTS,
    "Skills": SKILLS,
    "Knowledges": KNOWLEDGES,
    "Secondary": SECONDARY_ABILITIES,
}
ABILITIES: tuple[str, ...] = TALENTS + SKILLS + KNOWLEDGES + SECONDARY_ABILITIES
#: Traits rated 0-10 with a temporary pool of points beside the rating.
POWERS: tuple[str, ...] = ("Rage", "Gnosis", "Willpower")
RENOWN: tuple[str, ...] = ("Glory", "Honor", "Wisdom")
BREEDS: tuple[str, ...] = ("Homid", "Metis", "Lupus")
AUSPICES: tuple[str, ...] = ("Ragabash", "Theurge", "Philodox", "Galliard", "Ahroun")
#: Well-known Backgrounds, used only to suggest a spelling; any named Background is allowed.
BACKGROUNDS: tuple[str, ...] = (
    "Allies",
    "Ancestors",
    "Contacts",
    "Fate",
    "Fetish",
    "Kinfolk",
    "Mentor",
    "Pure Breed",
    "Resources",
    "Rites",
    "Totem",
)
DAMAGE_TYPES: tuple[str, ...] = ("aggravated", "lethal", "bashing")  # worst first
#: Free-text identity fields of a sheet: field -> label.
IDENTITY_FIELDS: dict[str, str] = {
    "player": "Player",
    "concept": "Concept",
    "nature": "Nature",
    "demeanor": "Demeanor",
    "breed": "Breed",
    "auspice": "Auspice",
    "tribe": "Tribe",
    "pack": "Pack",
    "totem": "Pack totem",
    "deformity": "Metis deformity",
    "fera": "Changing Breed",
    "creature": "Creature",
    "biography": "Biography",
    "notes": "Notes",
    "storyteller_notes": "Storyteller notes",
}
#: The usual short forms on a sheet. Three-letter Attribute abbreviations win over prefix matching, where
#: "str", "per" and "int" would be ambiguous (Streetwise, Performance, Intimidation); any other unique
#: prefix ("mel", "fire", "ath", "lead") is matched without a table.
ABBREVIATIONS: dict[str, str] = {
    "str": "Strength",
    "dex": "Dexterity",
    "sta": "Stamina",
    "cha": "Charisma",
    "man": "Manipulation",
    "app": "Appearance",
    "per": "Perception",
    "int": "Intelligence",
    "wit": "Wits",
    "pu": "Primal-Urge",
    "ak": "Animal Ken",
    "wp": "Willpower",
}
MAX_DOTS = 5
MAX_POWER = 10
MAX_RANK = 6


def norm(text: str) -> str:
    """The comparison key of a trait name: NFKC, case-folded, without spaces, hyphens, underscores."""
    return re.sub(r"[\s_\-]+", "", unicodedata.normalize("NFKC", text).casefold())


def name_key(name: str) -> str:
    """The comparison key of a character name: invisible characters dropped ('Bob\u200b' is 'bob'),
    accents folded ('Zoë' is 'zoe'), case-folded, hyphens/underscores/runs of spaces as one space. Changing
    it needs a migration that recomputes the stored ``characters.name_key`` (see
    migrations/versions/0003_name_key_accents.py and 0007_characters_whole.py)."""

    visible = "".join(ch for ch in without_surrogates(name) if not is_invisible(ch))
    folded = fold_accents(unicodedata.normalize("NFKC", visible)).casefold()
    return " ".join(re.split(r"[\s_\-]+", folded)).strip()


def legacy_name_key(name: str) -> str:
    """The name key of stkit before accents were folded (revisions 0001-0002): NFKC, case-folded, hyphens,
    underscores and runs of spaces as one space. A stored row keeps it when its folded key was taken."""
    return " ".join(re.split(r"[\s_\-]+", unicodedata.normalize("NFKC", name).casefold())).strip()


def suggest(text: str, choices: list[str] | tuple[str, ...], *, cutoff: float = 75.0) -> str | None:
    """The closest of ``choices`` to ``text`` on normalised names (a score 0..100 of at least ``cutoff``), or
    None. A choice at least as long as ``text`` is scored by rapidfuzz's WRatio (the typed text may be part
    of it: 'death' -> 'Grins-at-Death'); a shorter one only by its whole-string ratio, and only from
    :data:`SHORTER_CUTOFF` (a typo or two), so that 'claws' does not suggest 'Law'."""
    if not choices:
        return None
    from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

    def score(typed: str, choice: str, **_: object) -> float:
        if len(choice) >= len(typed):
            return fuzz.WRatio(typed, choice)
        whole = fuzz.ratio(typed, choice)
        return whole if whole >= SHORTER_CUTOFF else 0.0

    keyed = {norm(c): c for c in choices}
    hit = process.extractOne(norm(text), list(keyed), scorer=score, score_cutoff=cutoff)
    return keyed[hit[0]] if hit else None


#: The least whole-string similarity (0..100) a suggestion shorter than the typed text needs.
SHORTER_CUTOFF = 80.0


def did_you_mean(text: str, choices: list[str] | tuple[str, ...]) -> str:
    """' (did you mean "X"?)' or '' when nothing is close."""
    best = suggest(text, choices)
    return f' (did you mean "{best}"?)' if best else ""


def _index(names: tuple[str, ...]) -> dict[str, str]:
    return {norm(n): n for n in names}


_ATTR = _index(ATTRIBUTES)
_ABIL = _index(ABILITIES)
_POWER = _index(POWERS)
_RENOWN = _index(RENOWN)


@dataclass(frozen=True)
class TraitRef:
    """A resolved trait name.

    ``kind``: a :class:`~stkit.sheet.vocab.TraitKind` (the name of one given as text is taken): attribute,
    ability, custom_ability, background, power (Rage/Gnosis/Willpower rating), power_points (their temporary
    points), renown, renown_temporary, identity, rank, gift, rite, merit, flaw, specialty (``name`` is then the
    Attribute or Ability the specialty belongs to). ``name`` is the display name (or the identity field
    name); ``maximum`` the highest rating allowed.
    """

    kind: TraitKind
    name: str
    maximum: int = MAX_DOTS
    minimum: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", TraitKind(self.kind))


def lookup_attribute(text: str) -> str | None:
    return _ATTR.get(norm(text))


def lookup_ability(text: str) -> str | None:
    return _ABIL.get(norm(text))


def lookup_power(text: str) -> str | None:
    return _POWER.get(norm(text))


def lookup_renown(text: str) -> str | None:
    return _RENOWN.get(norm(text))


def lookup_breed(text: str) -> str:
    """'homid' -> 'Homid'; '' stays ''; anything else raises InvalidValue with a suggestion."""
    return _lookup_choice(text, BREEDS, "breed")


def lookup_auspice(text: str) -> str:
    """'ahroun' -> 'Ahroun'; '' stays ''; anything else raises InvalidValue with a suggestion."""
    return _lookup_choice(text, AUSPICES, "auspice")


def _lookup_choice(text: str, choices: tuple[str, ...], what: str) -> str:
    if not text or not text.strip():
        return ""
    hit = _index(choices).get(norm(text))
    if hit is None:
        raise InvalidValue(f"unknown {what} {text!r}{did_you_mean(text, choices)}; allowed: {', '.join(choices)}")
    return hit


_PREFIXES = {
    "background": "background",
    "bg": "background",
    "gift": "gift",
    "rite": "rite",
    "merit": "merit",
    "flaw": "flaw",
    "ability": "custom_ability",
    "custom": "custom_ability",
    "specialty": "specialty",
    "speciality": "specialty",
}
_TEMP_WORDS = ("temporary", "temp", "points", "point", "current")


def resolve_settable(
    text: str, *, custom_abilities: tuple[str, ...] = (), backgrounds: tuple[str, ...] = ()
) -> TraitRef:
    """Resolve a name given to ``char set``: a trait, a prefixed entry (``background:Resources``,
    ``gift:Razor Claws``, ``rite:...``, ``merit:...``, ``flaw:...``, ``ability:Repair Bikes``), an identity
    field (player, concept, nature, demeanor, breed, auspice, tribe, pack, rank, notes, storyteller notes), or
    the temporary points of Rage/Gnosis/Willpower/Glory/Honor/Wisdom ("Willpower points", "temporary Glory").

    Raises InvalidValue naming the text, with a "did you mean" suggestion.
    """
    raw = text.strip()
    if ":" in raw:
        prefix, _, rest = raw.partition(":")
        kind = _PREFIXES.get(norm(prefix))
        if kind is None:
            raise InvalidValue(
                f"unknown entry kind {prefix!r} in {text!r}; "
                "allowed prefixes: background, gift, rite, merit, flaw, ability, specialty"
            )
        if not rest.strip():
            raise InvalidValue(f"{text!r} names no {kind}; write e.g. {prefix}:Name")
        name = rest.strip()
        if kind == "specialty":
            trait = lookup_attribute(name) or lookup_ability(name) or _index(tuple(custom_abilities)).get(norm(name))
            if trait is None:
                raise InvalidValue(
                    f"{name!r} is not an Attribute or Ability of the sheet"
                    f"{did_you_mean(name, ATTRIBUTES + ABILITIES)}; a specialty belongs to one"
                )
            return TraitRef(TraitKind.specialty, trait)
        if kind == "background":
            name = _index(tuple(backgrounds) + BACKGROUNDS).get(norm(name), name)
        if kind == "custom_ability":
            known = lookup_ability(name)
            if known:
                return TraitRef(TraitKind.ability, known)
            name = _index(tuple(custom_abilities)).get(norm(name), name)
        maximum = {"merit": 7, "flaw": 7, "gift": 6, "rite": 6}.get(kind, MAX_DOTS)
        return TraitRef(TraitKind(kind), name, maximum, 1 if kind in ("gift", "rite") else 0)
    key = norm(raw)
    words = [w for w in re.split(r"[\s_\-]+", raw.casefold()) if w]
    if len(words) >= 2 and (words[0] in _TEMP_WORDS or words[-1] in _TEMP_WORDS):
        core = " ".join(words[1:] if words[0] in _TEMP_WORDS else words[:-1])
        if (p := lookup_power(core)) is not None:
            return TraitRef(TraitKind.power_points, p, 99 if p == "Rage" else MAX_POWER)
        if (r := lookup_renown(core)) is not None:
            return TraitRef(TraitKind.renown_temporary, r, MAX_POWER)
    if (a := _ATTR.get(key)) is not None:
        return TraitRef(TraitKind.attribute, a)
    if (a := _ABIL.get(key)) is not None:
        return TraitRef(TraitKind.ability, a)
    if (a := _index(tuple(custom_abilities)).get(key)) is not None:
        return TraitRef(TraitKind.custom_ability, a)
    if (a := _index(tuple(backgrounds)).get(key)) is not None:
        return TraitRef(TraitKind.background, a)
    if (p := _POWER.get(key)) is not None:
        return TraitRef(TraitKind.power, p, MAX_POWER)
    if (r := _RENOWN.get(key)) is not None:
        return TraitRef(TraitKind.renown, r, MAX_POWER)
    if key == "rank":
        return TraitRef(TraitKind.rank, "rank", MAX_RANK)
    ident = {norm(f): f for f in IDENTITY_FIELDS} | {norm(v): f for f, v in IDENTITY_FIELDS.items()}
    ident |= {"stnotes": "storyteller_notes", "storytellernotes": "storyteller_notes"}
    if key in ident:
        return TraitRef(TraitKind.identity, ident[key])
    choices = (
        list(ATTRIBUTES)
        + list(ABILITIES)
        + list(custom_abilities)
        + list(backgrounds)
        + list(POWERS)
        + list(RENOWN)
        + list(IDENTITY_FIELDS.values())
        + ["Rank"]
    )
    raise InvalidValue(
        f"unknown trait {text!r}{did_you_mean(raw, choices)}; for a custom ability write ability:{raw}, "
        f"for a Background background:{raw}"
    )


def check_rating(value: int, ref: TraitRef, *, where: str = "") -> int:
    """``value`` if it is a whole number within ``ref``'s range, else InvalidValue naming the range."""
    label = ref.name if ref.kind != TraitKind.power_points else f"{ref.name} points"
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue(f"{where}{label} {value!r} is not a whole number; allowed: {ref.minimum} to {ref.maximum}")
    if not ref.minimum <= value <= ref.maximum:
        raise InvalidValue(f"{where}{label} {value} is outside the allowed range {ref.minimum} to {ref.maximum}")
    return value
