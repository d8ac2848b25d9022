"""The metis deformity: the packaged list of the book's deformities and the lookup a new metis goes through.

Pure Python over ``data/metis_deformities.yaml`` (names only, with the public source they come from). Who
must have one: a Garou metis (Revised and W20 breeds: every metis is born with a deformity, chosen at
creation). A Bastet or Ratkin metis may carry one; other Changing Breeds' metis are not judged.
"""

from __future__ import annotations

import functools
from importlib import resources

from stkit.sheet import traits as T
from stkit.text import check_text, fold_accents
from stkit.yamlsafe import load

#: The Changing Breeds whose metis must name a deformity at creation.
DEFORMED_FERA = frozenset({"Garou"})


@functools.cache
def deformity_list() -> tuple[tuple[str, ...], str]:
    """(the deformities' names in the file's order, the source line). Raises DataFileError if the packaged
    file is damaged."""
    text = (resources.files("stkit.sheet") / "data" / "metis_deformities.yaml").read_text(encoding="utf-8")
    data = load(text, "metis_deformities.yaml")
    return tuple(str(n) for n in data["names"]), " ".join(str(data["source"]).split())


def needs_deformity(fera: str, creature: str, breed: str) -> bool:
    """True for a shapeshifter metis of a Changing Breed in DEFORMED_FERA (a Garou metis)."""
    return creature == "shapeshifter" and breed == "Metis" and fera in DEFORMED_FERA


def lookup_deformity(text: str) -> tuple[str, list[str]]:
    """(the deformity as kept, warnings): '' stays ''; a name from the list in its listed spelling
    ('no tail' -> 'No Tail'); any other name kept as typed with one warning naming the list (the books
    invite a deformity of one's own). Raises InvalidValue for control characters or an over-long text."""
    typed = check_text(text, "metis deformity").strip()
    if not typed:
        return "", []
    names, _ = deformity_list()
    key = T.norm(fold_accents(typed))
    for name in names:
        if T.norm(name) == key:
            return name, []
    return typed, [
        f"deformity {typed!r} is not one of the book's ({', '.join(names)}); kept as typed, "
        "a deformity of the player's own with the Storyteller's leave"
    ]
