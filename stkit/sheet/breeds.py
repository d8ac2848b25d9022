"""The Changing Breeds (Garou and the Fera), their breeds and auspices, and what kind of creature a sheet is.

Pure Python, one data table. The rules chapter stkit is built on (Chapter Five: Rules) speaks only of the
Garou; the other breeds' names come from the Changing Breeds books of Werewolf: The Apocalypse (the Revised
breedbooks and W20 *Changing Breeds*), as listed in docs/characters.md ("The Fera and the Kinfolk"). Only the
names are used: stkit rolls every shapeshifter's dice pools the same way, from the sheet.

A sheet's ``creature`` is one of :data:`CREATURES`:

- ``shapeshifter``: a Garou or a Fera, with Rage, Gnosis and forms;
- ``kinfolk``: kin of a Changing Breed (``fera`` names which), no forms, Rage and Gnosis 0 unless set;
- ``mortal``: neither, no forms, Rage and Gnosis 0 unless set.
"""

from __future__ import annotations

from dataclasses import dataclass

from stkit.errors import InvalidValue
from stkit.sheet.traits import did_you_mean, norm
from stkit.sheet.vocab import Creature
from stkit.text import fold_accents

CREATURES: tuple[str, ...] = tuple(c.value for c in Creature)


@dataclass(frozen=True)
class ChangingBreed:
    """One Changing Breed: its name, its animal, its breeds (homid first) and its auspices (the breed's
    own word for them in ``auspice_word``; empty when the breed has none)."""

    name: str
    animal: str
    breeds: tuple[str, ...]
    auspices: tuple[str, ...]
    auspice_word: str = "auspice"


#: The Garou first, then the ten Fera in alphabetical order.
CHANGING_BREEDS: tuple[ChangingBreed, ...] = (
    ChangingBreed(
        "Garou", "wolf", ("Homid", "Metis", "Lupus"), ("Ragabash", "Theurge", "Philodox", "Galliard", "Ahroun")
    ),
    ChangingBreed("Ananasi", "spider", ("Homid", "Arachnid"), ("Tenere", "Hatar", "Kumoti"), "aspect"),
    ChangingBreed("Bastet", "great cat", ("Homid", "Metis", "Feline"), ("Daylight", "Twilight", "Night"), "pryio"),
    ChangingBreed("Corax", "raven", ("Homid", "Corvid"), ()),
    ChangingBreed("Gurahl", "bear", ("Homid", "Ursine"), ("Arcas", "Uzmati", "Kojubat", "Kieh", "Rishi")),
    ChangingBreed("Kitsune", "fox", ("Kojin", "Shinju", "Roko"), ("Kataribe", "Gukutsushi", "Doshi", "Eji"), "path"),
    ChangingBreed(
        "Mokole",
        "crocodilian",
        ("Homid", "Suchid"),
        (
            "Rising Sun",
            "Noonday Sun",
            "Setting Sun",
            "Shrouded Sun",
            "Midnight Sun",
            "Decorated Sun",
            "Solar Eclipse",
            # the auspices under the names Mind's Eye Theatre gives them (Grapevine 3.0's menus), then the
            # Zhong Lung's four seasons
            "Concealing",
            "Shining",
            "Crowning",
            "Striking",
            "Gathering",
            "Unshading",
            "Warding",
            "Tung Chun",
            "Nam Hsia",
            "Sai Chau",
            "Pei Tung",
        ),
        "sun",
    ),
    ChangingBreed("Nagah", "serpent", ("Balaram", "Ahi", "Vasuki"), ("Kamakshi", "Kartikeya", "Kamsa", "Kali")),
    # every Nuwisha is born a Ragabash (W20 Changing Breeds); Grapevine writes it as the auspice
    ChangingBreed("Nuwisha", "coyote", ("Homid", "Latrani"), ("Ragabash",)),
    ChangingBreed(
        "Ratkin",
        "rat",
        ("Homid", "Metis", "Rodens"),
        (
            "Tunnel Runner",
            "Shadow Seer",
            "Knife Skulker",
            "Warrior",
            "Engineer",
            "Plague Lord",
            "Munchmausen",
            "Twitcher",
        ),
        "aspect",
    ),
    ChangingBreed("Rokea", "shark", ("Homid", "Squamus"), ("Brightwater", "Dimwater", "Darkwater")),
)
_BY_KEY: dict[str, ChangingBreed] = {norm(b.name): b for b in CHANGING_BREEDS}
#: Other spellings of a breed or auspice (folded), and the name they stand for: Grapevine's "Arachnos",
#: the short "Strike" for the Mokole's Striking auspice.
ALIASES: dict[str, str] = {"arachnos": "Arachnid", "strike": "Striking"}
FERA_NAMES: tuple[str, ...] = tuple(b.name for b in CHANGING_BREEDS)
GAROU = "Garou"
#: Each breed's three Renown, in the order of the sheet's three Renown slots (Glory, Honor, Wisdom): a
#: Bastet's Ferocity is kept in the Glory slot, its Cunning in the Wisdom slot; a name shared with the Garou
#: keeps its own slot. The names are those of the Foundry VTT WoD20 system's Splat items (github
#: JohanFalt/Foundry_WoD20 v7.2.5, packs/splats, "Renown - ..." Advantage items); the Nagah have none.
RENOWN_NAMES: dict[str, tuple[str, ...]] = {
    "Garou": ("Glory", "Honor", "Wisdom"),
    "Ananasi": ("Obedience", "Cunning", "Wisdom"),
    "Bastet": ("Ferocity", "Honor", "Cunning"),
    "Corax": ("Glory", "Honor", "Wisdom"),
    "Gurahl": ("Succor", "Honor", "Wisdom"),
    "Kitsune": ("Chie", "Toku", "Kagayaki"),
    "Mokole": ("Glory", "Honor", "Wisdom"),
    "Nagah": (),
    "Nuwisha": ("Glory", "Humor", "Cunning"),
    "Ratkin": ("Infamy", "Obligation", "Cunning"),
    "Rokea": ("Valor", "Harmony", "Innovation"),
}
#: The sheet's Renown slots, in order.
RENOWN_SLOTS: tuple[str, ...] = ("Glory", "Honor", "Wisdom")


def renown_names(fera: str = GAROU) -> dict[str, str]:
    """{slot: the breed's own name} for ``fera`` ('Bastet' -> {'Glory': 'Ferocity', 'Honor': 'Honor',
    'Wisdom': 'Cunning'}); empty for a breed without Renown (the Nagah)."""
    names = RENOWN_NAMES.get(get_changing_breed(fera).name, RENOWN_SLOTS)
    return dict(zip(RENOWN_SLOTS, names, strict=False))


def get_changing_breed(text: str) -> ChangingBreed:
    """'bastet' -> the Bastet row; '' -> the Garou. Raises InvalidValue naming the text and the ten Fera."""
    if not text or not text.strip():
        return _BY_KEY["garou"]
    hit = _BY_KEY.get(norm(fold_accents(text)))  # the system of Foundry VTT once wrote "Mokolé"
    if hit is None:
        raise InvalidValue(
            f"unknown Changing Breed {text!r}{did_you_mean(text, FERA_NAMES)}; allowed: {', '.join(FERA_NAMES)}"
        )
    return hit


def lookup_creature(text: str) -> str:
    """'Kinfolk' -> 'kinfolk'; '' -> 'shapeshifter'. Raises InvalidValue naming the allowed kinds."""
    t = norm(text or "") or "shapeshifter"
    t = {"garou": "shapeshifter", "fera": "shapeshifter", "werewolf": "shapeshifter", "kin": "kinfolk"}.get(t, t)
    if t not in CREATURES:
        raise InvalidValue(f"unknown creature {text!r}; allowed: {', '.join(CREATURES)}")
    return t


def lookup_breed(text: str, fera: str = GAROU) -> str:
    """The breed's display name for the Changing Breed ``fera`` ('feline', 'Bastet' -> 'Feline'); '' stays ''.
    Raises InvalidValue naming the breed's allowed breeds."""
    row = get_changing_breed(fera)
    return _choice(text, row.breeds, "breed" if row.name == GAROU else f"{row.name} breed")


def lookup_auspice(text: str, fera: str = GAROU) -> str:
    """The auspice's display name for ``fera`` ('night', 'Bastet' -> 'Night'); '' stays ''. A breed without
    auspices (Corax, Nuwisha) accepts only ''. Raises InvalidValue naming what is allowed."""
    row = get_changing_breed(fera)
    if not row.auspices:
        if text and text.strip():
            raise InvalidValue(f"the {row.name} have no auspices; leave the auspice empty (got {text!r})")
        return ""
    what = "auspice" if row.name == GAROU else f"{row.name} {row.auspice_word}"
    return _choice(text, row.auspices, what)


def _choice(text: str, choices: tuple[str, ...], what: str) -> str:
    if not text or not text.strip():
        return ""
    by_key = {norm(c): c for c in choices}
    hit = by_key.get(norm(text)) or by_key.get(norm(ALIASES.get(norm(text), "")))
    if hit is None:
        raise InvalidValue(f"unknown {what} {text!r}{did_you_mean(text, choices)}; allowed: {', '.join(choices)}")
    return hit
