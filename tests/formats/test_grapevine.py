"""Grapevine .gex exchange files: MET traits to dots by the documented table, everything unconverted in the
notes and the warnings, other creatures skipped, malformed / binary / entity-laden files refused cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from stkit.errors import DataFileError
from stkit.formats.grapevine import category_dots, from_grapevine
from stkit.store.files import load_all, load_files

DATA = Path(__file__).with_name("data")
TROUPE = DATA / "grapevine-troupe.gex"


@pytest.fixture(scope="module")
def troupe():
    return {lf.sheet.name: lf for lf in load_files(TROUPE)}


@pytest.mark.parametrize(
    ("n", "dots"), [(0, 1), (1, 1), (2, 2), (3, 2), (5, 3), (7, 3), (9, 4), (10, 4), (12, 5), (30, 5)]
)
def test_category_table(n, dots):
    assert category_dots(n) == dots


def test_three_characters_in_file_order_others_skipped(troupe):
    assert list(troupe) == ["Runs-Through-Rain", "Sees-Through-Smoke", "Erik Halvorsen"]
    first = troupe["Runs-Through-Rain"].warnings
    assert first[:2] == [
        "vampire 'Lucretia Voss' skipped: stkit keeps werewolves, Fera, Kinfolk and mortals",
        "mage 'Dr. Ambrose' skipped: stkit keeps werewolves, Fera, Kinfolk and mortals",
    ]
    assert all(lf.format == "grapevine" and lf.sheet.chronicle == "Lost Stars" for lf in troupe.values())


def test_werewolf_converted(troupe):
    s = troupe["Runs-Through-Rain"].sheet
    assert (s.player, s.nature, s.demeanor, s.concept) == ("Sam", "Survivor", "Loner", "Courier")
    assert (s.breed, s.auspice, s.tribe, s.pack, s.totem) == (
        "Lupus",
        "Galliard",
        "Silent Striders",
        "Dust Road",
        "Grandfather Thunder",
    )
    assert s.rank == 2  # Fostern
    # Physical: Quick x3 + Nimble + Tireless x2 + Wiry = 7 adjectives -> 3 dots each
    assert [s.attributes[a] for a in ("Strength", "Dexterity", "Stamina")] == [3, 3, 3]
    assert [s.attributes[a] for a in ("Charisma", "Manipulation", "Appearance")] == [2, 2, 2]  # 3 adjectives
    assert [s.attributes[a] for a in ("Perception", "Intelligence", "Wits")] == [3, 3, 3]  # 6 adjectives
    assert s.abilities == {"Alertness": 5, "Athletics": 4, "Primal-Urge": 3, "Survival": 4, "Enigmas": 2}
    assert s.custom_abilities == {"Scrounging": 2}
    assert s.specialties == {"Survival": "Deserts"}
    assert s.powers["Rage"].to_dict() == {"permanent": 3, "temporary": 2}
    assert s.powers["Gnosis"].to_dict() == {"permanent": 4, "temporary": 4}  # "1-4": the upper value
    assert s.powers["Willpower"].to_dict() == {"permanent": 4, "temporary": 1}
    assert {r: t.to_dict() for r, t in s.renown.items()} == {
        "Glory": {"permanent": 2, "temporary": 3},
        "Honor": {"permanent": 1, "temporary": 0},
        "Wisdom": {"permanent": 3, "temporary": 5},
    }
    assert s.gifts == [
        {"name": "Speed of Thought", "level": 1},
        {"name": "Eye of the Cobra", "level": 3},
        {"name": "Chant of the Old Ones", "level": 1},
    ]
    assert s.rites == [{"name": "Rite of the Cleansing", "level": 1}]
    assert s.backgrounds == {"Kinfolk": 2, "Fetish": 1}
    assert s.merits == [{"name": "Common Sense", "points": 1}]
    assert s.flaws == [{"name": "Nightmares", "points": 1}]
    assert (s.xp_total, s.xp_spent) == (10, 6)
    assert [(e["at"], e["kind"], e["amount"]) for e in s.xp_log] == [
        ("2024-02-01T00:00:00+00:00", "award", 6),
        ("2024-03-01T00:00:00+00:00", "award", 4),
        ("2024-03-02T00:00:00+00:00", "spend", 6),
    ]
    assert s.biography == "Born under the Gibbous moon on the Sonoran highway."


def test_unconverted_values_in_notes_and_warnings(troupe):
    lf = troupe["Runs-Through-Rain"]
    notes = lf.sheet.notes
    assert notes.startswith("Owes the Bone Gnawers a favour.\n\nFrom Grapevine (not converted):\n")
    for line in (
        "Physical (7 adjectives, 3 dots each): Quick x3, Nimble, Tireless x2, Wiry",
        "Abilities list 'Alertness': x7",
        "Equipment list: Fetish knife, Motorcycle (Gnosis 6)",
        "Gifts list 'Chant of the Old Ones': Esoteric",
        "experience entry 4: 1 1 Penalty for lateness 4/2/2024",
        "@narrator: Kim",
    ):
        assert line in notes.splitlines(), line
    w = lf.warnings
    assert "werewolf 'Runs-Through-Rain': @gnosis: the range '1-4' counts as its upper value 4" in w
    assert "werewolf 'Runs-Through-Rain': Abilities list 'Alertness': more than 5; 5 kept; kept in the notes" in w
    assert "werewolf 'Runs-Through-Rain': Equipment list: not converted; kept in the notes" in w
    assert (
        "werewolf 'Runs-Through-Rain': Gifts list 'Chant of the Old Ones': level not known; level 1 kept; "
        "kept in the notes"
    ) in w
    assert (
        "werewolf 'Runs-Through-Rain': not converted: @status, @npc, @id, @startdate, @lastmodified, @narrator; "
        "kept in the notes"
    ) in w


def test_fera_and_kinfolk(troupe):
    cat = troupe["Sees-Through-Smoke"].sheet
    assert (cat.fera, cat.creature, cat.breed, cat.auspice, cat.rank) == (
        "Bastet",
        "shapeshifter",
        "Feline",
        "Night",
        2,
    )
    assert cat.attributes["Dexterity"] == 3 and cat.specialties == {"Stealth": "Rooftops"}
    kin = troupe["Erik Halvorsen"].sheet
    assert (kin.creature, kin.fera, kin.tribe) == ("kinfolk", "Garou", "Get of Fenris")
    assert kin.powers["Rage"].permanent == 0 and kin.powers["Gnosis"].permanent == 0
    assert kin.abilities == {"Drive": 2, "Repair": 3}


def test_malformed_file_names_the_line():
    with pytest.raises(DataFileError) as err:
        load_files(DATA / "grapevine-malformed.gex")
    assert str(err.value) == f"{DATA / 'grapevine-malformed.gex'}: malformed XML at line 6, column 5: mismatched tag"


def test_binary_format_refused_by_name():
    with pytest.raises(DataFileError, match=r"x.gex: Grapevine's binary .gex format \(the file starts with GVBE\)"):
        from_grapevine(b"GVBE\x00\x03\x00\x00binary", source="x.gex")


@pytest.mark.parametrize(
    "xml",
    [
        b'<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaa">]><grapevine><werewolf name="&a;"/></grapevine>',
        b'<?xml version="1.0"?><!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]><grapevine>&x;</grapevine>',
    ],
)
def test_entities_and_dtds_refused(xml):
    with pytest.raises(DataFileError, match=r"e.gex: the XML declares a DTD or entities .*refused"):
        from_grapevine(xml, source="e.gex")


def test_file_of_only_other_creatures_is_an_error():
    xml = b'<grapevine><vampire name="V"/></grapevine>'
    with pytest.raises(
        DataFileError, match=r"no werewolf, Fera, Kinfolk or mortal characters found \(vampire 'V' skipped"
    ):
        from_grapevine(xml, source="v.gex")


def test_one_bad_value_never_refuses_the_troupe():
    xml = b'<grapevine><werewolf name="W" rage="lots"/><werewolf name="V" rage="\xd9\xa3"/></grapevine>'
    w, v = from_grapevine(xml, source="w.gex")
    assert w.sheet.powers["Rage"].permanent == 1  # stkit's starting value: the file gives none it can read
    assert "@rage: lots" in w.sheet.notes
    assert "werewolf 'W': @rage: 'lots' is not a number (0 to 10, or a range such as 1-4); kept in the notes" in (
        w.warnings
    )
    # an Arabic-Indic three is no number either: ASCII digits only
    assert "@rage: \u0663" in v.sheet.notes


def test_an_unknown_changing_breed_comes_in_as_garou_with_the_value_in_its_notes(tmp_path):
    bad = TROUPE.read_bytes().replace(b'name="Erik Halvorsen" fera="Garou"', b'name="Erik Halvorsen" fera="Wolfish"')
    (tmp_path / "t.gex").write_bytes(bad)
    loaded = {lf.sheet.name: lf for lf in load_all([tmp_path / "t.gex"])}
    erik = loaded["Erik Halvorsen"]
    assert erik.sheet.fera == "Garou" and "@fera: Wolfish" in erik.sheet.notes
    assert [w for w in erik.warnings if "@fera" in w] == [
        "kinfolk 'Erik Halvorsen': @fera: unknown Changing Breed 'Wolfish'; allowed: Garou, Ananasi, Bastet, "
        "Corax, Gurahl, Kitsune, Mokole, Nagah, Nuwisha, Ratkin, Rokea; imported as Garou; kept in the notes"
    ]
    assert len(loaded) == 3


def test_a_werewolf_gift_tier_is_narrowed_by_the_gift_lists():
    """Grapevine's tiers span levels (its menus: Basic 1-2, Intermediate 3-4, Advanced 5). By hand, from
    gift_lists.yaml: Spirit Drain is Theurge level 4, so Intermediate (cost 6) -> 4; Command Spirit is Theurge
    level 2, so Basic (cost 3) -> 2; Exorcism Theurge 3 -> 3; Dreamspeak is Galliard level 2, outside
    Intermediate, and Howl of Nowhere is in no list: both keep the tier's lowest (3) with one warning."""
    xml = (
        b'<grapevine><werewolf name="W"><traitlist name="Gifts">'
        b'<trait name="Spirit Drain" cost="6"/><trait name="Command Spirit" cost="3"/>'
        b'<trait name="Exorcism" note="int."/><trait name="Dreamspeak" cost="6"/>'
        b'<trait name="Howl of Nowhere" note="Intermediate"/><trait name="Feral Lobotomy" cost="9"/>'
        b"</traitlist></werewolf>"
        b'<fera name="F" fera="Bastet"><traitlist name="Gifts"><trait name="Spirit Drain" cost="6"/>'
        b"</traitlist></fera></grapevine>"
    )
    w, f = from_grapevine(xml, source="g.gex")
    assert [(g["name"], g["level"]) for g in w.sheet.gifts] == [
        ("Spirit Drain", 4),
        ("Command Spirit", 2),
        ("Exorcism", 3),
        ("Dreamspeak", 3),
        ("Howl of Nowhere", 3),
        ("Feral Lobotomy", 5),
    ]
    assert [x for x in w.warnings if "tier" in x] == [
        "werewolf 'W': Gifts list: Dreamspeak (3-4), Howl of Nowhere (3-4): the level within the Grapevine tier "
        "is not checked (stkit's Gift lists do not settle it); the tier's lowest kept"
    ]
    # a Fera's Gift keeps the tier's level: the lists are the Garou's
    assert f.sheet.gifts == [{"name": "Spirit Drain", "level": 3}]


def test_mortal_element():
    xml = b'<grapevine><mortal name="Officer Diaz" willpower="3"/></grapevine>'
    (lf,) = from_grapevine(xml, source="m.gex")
    assert (lf.sheet.creature, lf.sheet.form, lf.sheet.powers["Rage"].permanent) == ("mortal", "Homid", 0)


def test_dates_and_counts_in_other_scripts_digits_are_not_numbers():
    xml = (
        '<grapevine><werewolf name="W"><experience earned="٥" unspent="0">'
        '<entry date="٣/1/2024" change="2" type="0" reason="Play"/></experience>'
        '<traitlist name="Abilities"><trait name="Brawl" val="٣"/></traitlist></werewolf></grapevine>'
    ).encode()
    (lf,) = from_grapevine(xml, source="d.gex")
    assert lf.sheet.abilities == {} and lf.sheet.xp_total == 0
    assert "Abilities list 'Brawl': ٣" in lf.sheet.notes
    assert "experience entry 1 @date: ٣/1/2024" in lf.sheet.notes


def test_odd_text_is_escaped_or_cut_with_a_warning_not_refused():
    xml = (
        '<grapevine><werewolf name="Bob&#x200b;" tribe="Fianna&#x202e;" concept="' + "x" * 300 + '">'
        '<notes>Line&#x9b;2J</notes></werewolf><werewolf name="Ann"/></grapevine>'
    ).encode()
    bob, ann = from_grapevine(xml, source="h.gex")
    assert (bob.sheet.name, bob.sheet.tribe, bob.sheet.notes) == ("Bob\\u200b", "Fianna\\u202e", "Line\\x9b2J")
    assert bob.sheet.concept == "x" * 200 and ann.sheet.name == "Ann"
    assert "werewolf 'Bob\\u200b': concept: 300 characters; cut to the 200 a sheet holds" in bob.warnings
    assert "werewolf 'Bob\\u200b': tribe: control or invisible characters written as escapes" in bob.warnings
