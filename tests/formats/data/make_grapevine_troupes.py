"""Write the two Grapevine troupe fixtures: ``grapevine-56-werewolves.gex`` and ``grapevine-5-fera.gex``.

Run ``python tests/imports/data/make_grapevine_troupes.py`` to write them again; the test suite checks the
committed files are what this script writes (into a temporary folder). The files follow the XML Grapevine 3
writes (public source: github MJThillen/grapevine-evolved, grapevine-VB6/Code): ``WerewolfClass.cls`` /
``FeraClass.cls`` ``OutputToFile`` for each character's attributes and lists in their order,
``LinkedTraitList.cls`` for ``<traitlist>`` / ``<trait name val note>`` (``val`` left out when it is 1),
``ExperienceClass.cls`` for ``<experience>`` and its ``<entry date change type reason earned unspent>``
(type 0 earned, 3 spent), and the default menu file "Grapevine Menus XML.gvm" for the names, the notes
Grapevine copies into a trait ("basic", "int.", "adv."; its autonote) and the experience costs (Gifts 3 / 6 / 9,
Rites 2 / 4 / 6).

The werewolf troupe holds 357 Gifts and Rites: 25 marked ``int.`` / ``adv.`` in their notes, 15 with no note
bought for an intermediate or advanced cost, 20 with no note bought for the basic cost, 45 with no level
anywhere, the rest noted ``basic``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

HERE = Path(__file__).resolve().parent

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
    "Croatan",
)
AUSPICES = ("Ragabash", "Theurge", "Philodox", "Galliard", "Ahroun")
BREEDS = ("Homid", "Lupus", "Metis")
RANKS = ("Cliath", "Fostern", "Adren", "Athro")
# (name, menu cost, menu note) from the menus "Ragabash", "Ahroun", "Homid" ... and "Fianna, Rites" ...
GIFTS = (
    ("Open Seal", 3, "basic"),
    ("Blur of the Milky Eye", 3, "basic"),
    ("Scent of Running Water", 3, "basic"),
    ("Sense of the Prey", 3, "basic"),
    ("Razor Claws", 3, "basic"),
    ("Inspiration", 3, "basic"),
    ("Persuasion", 3, "basic"),
    ("Smell of Man", 3, "basic"),
    ("Mindspeak", 3, "basic"),
    ("Call of the Wyld", 3, "basic"),
    ("Gremlins", 6, "int."),
    ("Luna's Blessing", 6, "int."),
    ("Silver Claws", 6, "int."),
    ("Dreamspeak", 6, "int."),
    ("Thousand Forms", 9, "adv."),
    ("Strength of Will", 9, "adv."),
)
RITES = (
    ("Rite of Cleansing", 2, "basic"),
    ("Rite of Binding", 2, "basic"),
    ("Rite of Talisman Dedication", 2, "basic"),
    ("Rite of the Fetish", 4, "int."),
    ("Rite of the Hero's Sleep", 6, "adv."),
)
MIDDLE = {"int.", "adv."}


def _attrs(pairs: list[tuple[str, object]]) -> str:
    return " ".join(f"{k}={quoteattr(str(v))}" for k, v in pairs)


def _traitlist(name: str, traits: list[tuple[str, int, str]], *, abc: str = "yes", atomic: bool = False) -> list[str]:
    head = f'    <traitlist name="{name}" abc="{abc}"' + (' atomic="yes"' if atomic else "") + ' display="1">'
    lines = [head]
    for tname, val, note in traits:
        parts = [("name", tname)]
        if val != 1:
            parts.append(("val", val))
        if note:
            parts.append(("note", note))
        lines.append(f"      <trait {_attrs(parts)}/>")
    lines.append("    </traitlist>")
    return lines


def _powers(rng: random.Random, count: int, kinds: list[str]) -> list[tuple[str, str, str, int | None]]:
    """(list, name, note, cost paid or None) for ``count`` powers, each of the kind the next entry of
    ``kinds`` says: note-middle, cost-middle, cost-basic, none, note-basic."""
    out: list[tuple[str, str, str, int | None]] = []
    used: set[str] = set()
    for n in range(count):
        kind = kinds.pop()
        rite = n % 4 == 3
        pool = RITES if rite else GIFTS
        middle = kind in ("note-middle", "cost-middle")
        choices = [p for p in pool if (p[2] in MIDDLE) == middle and p[0] not in used]
        name, cost, note = rng.choice(choices)
        used.add(name)
        list_name = "Rites" if rite else "Gifts"
        if kind in ("note-middle", "note-basic"):
            out.append((list_name, name, note, None))
        elif kind in ("cost-middle", "cost-basic"):
            out.append((list_name, name, "", cost))
        else:
            out.append((list_name, name, "", None))
    return out


def werewolves() -> str:
    rng = random.Random(22)
    kinds = ["note-middle"] * 25 + ["cost-middle"] * 15 + ["cost-basic"] * 20 + ["none"] * 45
    kinds += ["note-basic"] * (357 - len(kinds))
    rng.shuffle(kinds)
    lines = ['<?xml version="1.0"?>', '<grapevine version="3" chronicle="Sept of the Long Road" usegroups="no">']
    for i in range(56):
        powers = _powers(rng, 7 if i < 21 else 6, kinds)
        spent = [(name, cost) for _, name, _, cost in powers if cost]
        earned = 20 + sum(c for _, c in spent) + i % 5
        name = f"Walker {i + 1:02d}"
        rage, gnosis, will = 2 + i % 5, 1 + i % 6, 3 + i % 5
        head = [
            ("name", name),
            ("nature", "Survivor"),
            ("demeanor", "Loner"),
            ("tribe", TRIBES[i % len(TRIBES)]),
            ("breed", BREEDS[i % 3]),
            ("auspice", AUSPICES[i % 5]),
            ("rank", RANKS[i % 4]),
            ("pack", f"Pack {i // 5 + 1}"),
            ("totem", "Stag"),
            ("rage", rage),
            ("temprage", rage - 1),
            ("gnosis", gnosis),
            ("willpower", will),
            ("honor", 1 + i % 3),
            ("glory", 2),
            ("wisdom", 1 + i % 4),
            ("physicalmax", 10),
            ("player", f"Player {i + 1}"),
            ("status", "Active"),
            ("id", i + 1),
            ("startdate", "1/15/2024"),
            ("lastmodified", "5/1/2024 8:30:00 PM"),
        ]
        lines.append(f"  <werewolf {_attrs(head)}>")
        lines.append(f'    <experience unspent="{earned - sum(c for _, c in spent)}" earned="{earned}">')
        balance = 0
        for n, amount in enumerate((earned - sum(c for _, c in spent),)):
            balance += amount
            lines.append(
                f'      <entry date="2/{n + 1}/2024" change="{amount}" type="0" reason="Sessions 1 to 6" '
                f'earned="{balance}" unspent="{balance}"/>'
            )
        unspent = balance
        for pname, cost in spent:
            balance += cost
            lines.append(
                f'      <entry date="3/1/2024" change="{cost}" type="0" reason="Story award" '
                f'earned="{balance}" unspent="{unspent + cost}"/>'
            )
            lines.append(
                f'      <entry date="3/2/2024" change="{cost}" type="3" reason={quoteattr(pname)} '
                f'earned="{balance}" unspent="{unspent}"/>'
            )
        lines.append("    </experience>")
        lines += _traitlist("Physical", [("Brawny", 2, ""), ("Quick", 1 + i % 3, ""), ("Tireless", 1, "")])
        lines += _traitlist("Social", [("Charismatic", 1 + i % 2, ""), ("Persuasive", 1, "")])
        lines += _traitlist("Mental", [("Alert", 2, ""), ("Cunning", 1, "")])
        abilities = [
            ("Brawl", 2 + i % 3, ""),
            ("Craft", 1 + i % 2, "Woodwork"),
            ("Linguistics", 2, "Spanish, Lakota"),
            ("Lore", 1, "Garou"),
            ("Primal-Urge", 2, ""),
            ("Survival", 4, "Tracking"),
        ]
        lines += _traitlist("Abilities", abilities)
        lines += _traitlist("Backgrounds", [("Pure Breed", 1 + i % 3, ""), ("Kinfolk", 2, "")])
        for list_name in ("Gifts", "Rites"):
            chosen = [(n, 1, note) for ln, n, note, _ in powers if ln == list_name]
            lines += _traitlist(list_name, chosen, abc="no", atomic=True)
        lines += _traitlist("Honor", [("Loyal", 1 + i % 3, "")], abc="yes")
        lines += _traitlist("Glory", [("Brave", 2, "")], abc="yes")
        lines += _traitlist("Wisdom", [("Insightful", 1 + i % 4, "")], abc="yes")
        lines.append(f"    <biography><![CDATA[{name} walks the long road.]]></biography>")
        lines.append("    <notes><![CDATA[]]></notes>")
        lines.append("  </werewolf>")
    lines.append("</grapevine>")
    return "\n".join(lines) + "\n"


# (name, fera, breed, auspice, rank, gifts: (name, note, cost paid or None))
FERA = (
    (
        "Shadow-of-Khan",
        "Bastet: Khan",
        "Feline",
        "Night",
        "Tilau",
        (("Catfeet", "basic", None), ("Night's Passage", "", 3), ("Eerie Eyes", "basic", None)),
    ),
    (
        "Pearl-River-Dragon",
        "Mokole: Zhong Lung",
        "Suchid",
        "Nam Hsia",
        "Hatchling",
        (("Armor of the Ancients", "basic", None), ("Dragon's Breath", "int.", None)),
    ),
    (
        "Basks-on-Stones",
        "Mokole: Gumagan",
        "Suchid",
        "Striking",
        "Father",
        (("Speak to the Sun", "basic", None), ("Mind of the Ancients", "", 6)),
    ),
    (
        "Grins-at-Fences",
        "Nuwisha",
        "Latrani",
        "Ragabash",
        "Brother",
        (("Laugh of the Coyote", "basic", None), ("Trickster's Skin", "int.", None)),
    ),
    (
        "Snow-on-the-Pass",
        "Gurahl: Ice Stalkers",
        "Ursine",
        "Kieh",
        "Sorna",
        (
            ("Bear's Fortitude", "basic", None),
            ("Mother's Touch", "basic", None),
            ("Rage of the Ancients", "adv.", None),
        ),
    ),
)


def fera() -> str:
    lines = ['<?xml version="1.0"?>', '<grapevine version="3" chronicle="The Changing Ones" usegroups="no">']
    for i, (name, kind, breed, auspice, rank, gifts) in enumerate(FERA):
        head = [
            ("name", name),
            ("nature", "Visionary"),
            ("demeanor", "Trickster" if "Nuwisha" in kind else "Loner"),
            ("fera", kind),
            ("breed", breed),
            ("auspice", auspice),
            ("rank", rank),
            ("rage", 3 if "Nuwisha" not in kind else 0),
            ("gnosis", 4 + i % 3),
            ("willpower", 5),
            ("honor", 1),
            ("glory", 2),
            ("wisdom", 3),
            ("physicalmax", 10),
            ("player", f"Player {i + 1}"),
            ("status", "Active"),
            ("id", 100 + i),
            ("lastmodified", "6/1/2024 9:00:00 PM"),
        ]
        spent = [(g, cost) for g, _, cost in gifts if cost]
        earned = 12 + sum(c for _, c in spent)
        lines.append(f"  <fera {_attrs(head)}>")
        lines.append(f'    <experience unspent="{earned - sum(c for _, c in spent)}" earned="{earned}">')
        lines.append(f'      <entry date="5/1/2024" change="{earned}" type="0" reason="Creation and play"/>')
        for g, cost in spent:
            lines.append(f'      <entry date="5/8/2024" change="{cost}" type="3" reason={quoteattr("Gift: " + g)}/>')
        lines.append("    </experience>")
        lines += _traitlist("Physical", [("Quick", 3, ""), ("Graceful", 2, "")])
        lines += _traitlist("Abilities", [("Stealth", 3, "Rooftops"), ("Enigmas", 2, "Riddles of the Sun")])
        lines += _traitlist("Gifts", [(g, 1, note) for g, note, _ in gifts], abc="no", atomic=True)
        lines.append(f"    <notes><![CDATA[{name} was found for the Changing Ones chronicle.]]></notes>")
        lines.append("  </fera>")
    lines.append("</grapevine>")
    return "\n".join(lines) + "\n"


FILES = {"grapevine-56-werewolves.gex": werewolves, "grapevine-5-fera.gex": fera}


def write(folder: Path) -> list[Path]:
    """Write both troupes into ``folder``; returns their paths."""
    out = []
    for name, make in FILES.items():
        path = folder / name
        path.write_text(make(), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(p)
