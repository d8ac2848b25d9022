"""Hypothesis: any valid sheet exported to Foundry imports back as the same sheet, with no warnings."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkit.formats.foundry import from_foundry, to_foundry
from stkit.sheet import breeds as B
from stkit.sheet import traits as T
from stkit.sheet.forms import FORM_NAMES, form_slots
from stkit.sheet.sheet import Sheet

words = (
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ'-é", min_size=1, max_size=20)
    .map(str.strip)
    .filter(bool)
)
free_text = st.text(alphabet="abcdefgh XYZ.,;é\u2019", max_size=30)
dots = st.integers(0, 5)


@st.composite
def sheets(draw) -> dict:
    row = draw(st.sampled_from(B.CHANGING_BREEDS))
    creature = draw(st.sampled_from(B.CREATURES))
    rage = draw(st.integers(0, 10))
    gnosis = draw(st.integers(0, 10))
    willpower = draw(st.integers(0, 10))
    health = {}
    left = 7
    for d in T.DAMAGE_TYPES:
        health[d] = draw(st.integers(0, left))
        left -= health[d]
    abilities = draw(st.dictionaries(st.sampled_from(T.ABILITIES), st.integers(1, 5), max_size=8))
    custom = draw(st.dictionaries(words.filter(lambda w: T.lookup_ability(w) is None), st.integers(1, 5), max_size=3))
    # a specialty needs a Trait of four dots or more (stkit.sheet.sheet.SPECIALTY_MIN_DOTS)
    traits = [t for t, n in {**abilities, **custom}.items() if n >= 4]
    log = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "at": st.sampled_from(["2026-11-30T21:00:00+00:00", "2024-05-01"]),
                    "kind": st.sampled_from(["award", "spend"]),
                    "amount": st.integers(1, 50),
                    "reason": free_text,
                }
            ),
            max_size=4,
        )
    )
    earned = sum(e["amount"] for e in log if e["kind"] == "award") + draw(st.integers(0, 20))
    weapon = st.fixed_dictionaries(
        {
            "name": words,
            "kind": st.sampled_from(["melee", "ranged"]),
            "attack_attribute": st.sampled_from(["Dexterity", "Strength", ""]),
            "attack_ability": st.sampled_from(["Brawl", "Melee", "Firearms", "Primal-Urge", "Crafts", "Acting", ""]),
            "accuracy": st.integers(-10, 10),
            "damage_attribute": st.sampled_from(["Strength", ""]),
            "damage_bonus": st.integers(0, 20),
            "damage_type": st.sampled_from(T.DAMAGE_TYPES),
            "difficulty": st.integers(2, 10),
            "natural": st.booleans(),
            "two_handed": st.booleans(),
            "equipped": st.booleans(),
            "conceal": st.sampled_from(["", "P", "J", "T", "N"]),
        }
    ).map(lambda w: w | ({"range": 30, "rate": 3, "clip": 17} if w["kind"] == "ranged" else {}))
    return {
        "name": draw(words),
        "chronicle": draw(st.sampled_from(["default", "Lost Stars"])),
        "player": draw(free_text),
        "concept": draw(free_text),
        "nature": draw(free_text),
        "tribe": draw(free_text),
        "pack": draw(free_text),
        "totem": draw(free_text),
        "fera": row.name,
        "creature": creature,
        "breed": draw(st.sampled_from(("", *row.breeds))),
        "auspice": draw(st.sampled_from(("", *row.auspices))),
        "rank": draw(st.integers(0, 6)),
        "form": draw(st.sampled_from(form_slots(row.name))) if creature == "shapeshifter" else "Homid",
        "attributes": {a: draw(dots) for a in T.ATTRIBUTES},
        "abilities": abilities,
        "custom_abilities": custom,
        "specialties": draw(st.dictionaries(st.sampled_from(traits), words, max_size=3)) if traits else {},
        "backgrounds": draw(st.dictionaries(words, st.integers(1, 5), max_size=3)),
        "gifts": draw(st.lists(st.fixed_dictionaries({"name": words, "level": st.integers(1, 6)}), max_size=3)),
        "rites": draw(st.lists(st.fixed_dictionaries({"name": words, "level": st.integers(1, 6)}), max_size=2)),
        "merits": draw(st.lists(st.fixed_dictionaries({"name": words, "points": st.integers(0, 7)}), max_size=2)),
        "flaws": draw(st.lists(st.fixed_dictionaries({"name": words, "points": st.integers(0, 7)}), max_size=2)),
        "fetishes": draw(
            st.lists(
                st.fixed_dictionaries({"name": words, "level": st.integers(1, 6), "gnosis": st.integers(0, 10)}),
                max_size=2,
            )
        ),
        "weapons": draw(st.lists(weapon, max_size=3)),
        "armor": draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "name": words,
                        "bashing": st.integers(0, 10),
                        "lethal": st.integers(0, 10),
                        "aggravated": st.integers(0, 10),
                        "dexterity_penalty": st.integers(0, 5),
                        "equipped": st.booleans(),
                        "forms": st.lists(st.sampled_from(FORM_NAMES), unique=True),
                    }
                ),
                max_size=2,
            )
        ),
        "renown": {r: {"permanent": draw(st.integers(0, 10)), "temporary": draw(st.integers(0, 12))} for r in T.RENOWN},
        "rage": {"permanent": rage, "temporary": draw(st.integers(0, 20))},
        "gnosis": {"permanent": gnosis, "temporary": draw(st.integers(0, gnosis))},
        "willpower": {"permanent": willpower, "temporary": draw(st.integers(0, willpower))},
        "health": health,
        "experience": {
            "total": earned,
            "spent": min(earned, sum(e["amount"] for e in log if e["kind"] == "spend")),
            "log": log,
        },
        "biography": draw(free_text),
        "notes": draw(free_text),
        "storyteller_notes": draw(free_text),
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets(), st.sampled_from(["current", "legacy"]))
def test_any_sheet_round_trips_through_foundry(data, layout):
    sheet = Sheet.from_dict(data, source="generated")
    exported = json.loads(json.dumps(to_foundry(sheet, layout)))
    back = from_foundry(exported, source="export.json")
    want = sheet.to_dict()
    got = back.sheet.to_dict()
    for key in want:
        assert got[key] == want[key], key
    assert [w for w in back.warnings if not w.startswith("experience:")] == []


@pytest.mark.parametrize("layout", ["current", "legacy"])
@pytest.mark.parametrize("name", ["ART", "RELIGION", "Religion", "Zz"])
def test_a_custom_ability_in_a_slot_foundry_names_otherwise_keeps_its_own_spelling(name, layout):
    """Foundry has slots "art" and "religion" that are not Werewolf Abilities: a custom Ability spelt
    "ART" goes in that slot with its own spelling beside it and comes back as "ART" (it was lost from the
    current layout, found by the property above)."""
    data = Sheet(name="X").to_dict() | {"custom_abilities": {name: 2}}
    sheet = Sheet.from_dict(data, source="generated")
    back = from_foundry(json.loads(json.dumps(to_foundry(sheet, layout))), source="export.json")
    assert back.sheet.custom_abilities == {name: 2}
