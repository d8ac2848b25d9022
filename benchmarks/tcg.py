"""Speed of the Rage card tools: import a generated 2,000-row list in the LackeyCCG plugin's columns, with
every trait of the real file, then rules and card searches.

Targets: import under 2 s; any search under 50 ms in-process. Run: ``python benchmarks/tcg.py``.
Everything happens in a temporary folder; the real card database is never touched.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

WORDS = [
    "Howling", "Moon", "Fang", "Spiral", "Shadow", "Gaia", "Wyrm", "Storm", "Eater", "Silver", "Dust", "Claw",
    "Rage", "Gnosis", "Umbra", "Stone", "River", "Ash", "Blood", "Song", "Hunter", "Prey", "Ghost", "Iron",
    "Glass", "Bone", "Star", "Wind", "Fire", "Night",
]  # fmt: skip
TRIBES = ["Get of Fenris", "Wendigo", "Bone Gnawers", "Stargazers", "Black Furies", "Fianna", "Uktena"]
#: the plugin's header row, as it reads
PLUGIN_HEADER = "Name Expansion ImageFile Sealed Type Notes Requires Keywords Renown Rage Gnosis Health CRage CGnosis"
HEADER = [*PLUGIN_HEADER.split(), "CHealth", "Damage", "Text", "Errata"]
# the real plugin's types: earlier-game ones, compound ones, combat cards, and one no rules book names
SEPT_TYPES = ["Territory", "Quest", "Caern", "Board Meeting", "Realm", "Action", "Ally - Victim",
              "Enemy - Victim", "Territory - Realm", "Gift", "Rite", "Equipment", "Event", "Ally", "Enemy",
              "Gateway"]  # fmt: skip


def _row(**values: object) -> str:
    return "\t".join(str(values.get(h, "")) for h in HEADER)


def make_lackey(path: Path, n: int = 2000, seed: int = 7) -> list[str]:
    """Write an ``n``-row list in the LackeyCCG plugin's columns with every trait of the real file
    (two-sided Garou, " - " keyword lists, earlier-game and compound types, Combat cards with costs in the
    Rage column and blocks only in the text, rows split over two lines, two rows on one line, texts cut at
    255 characters, printings in two sets, repeated rows, (+1)/(-1) names, playtest sets, stray quotes,
    unreadable numbers and nameless rows); return the card names."""
    rng = random.Random(seed)
    lines = ["\t".join(HEADER)]
    names: list[str] = []
    i = 0
    while len(lines) <= n:
        i += 1
        name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {i}"
        text = " ".join(rng.choice(WORDS).lower() for _ in range(20)) + ' with a "quote'
        kind = i % 10
        expansion = "Playtest Set" if i % 53 == 0 else rng.choice(["Limited", "Unlimited", "Wyrm", "Umbra"])
        if kind < 3:
            tribe = rng.choice(TRIBES)
            keywords = f"Garou - {tribe} - {rng.choice(['Ahroun', 'Theurge', 'Ragabash'])} - "
            keywords += f"{rng.choice(['Homid', 'Lupus'])} - Gaia - {rng.choice(['Male', 'Female'])}"
            row = _row(Name=name, Expansion=expansion, ImageFile=f"img{i}.jpg", Type="Character - Gaia",
                       Keywords=keywords, Renown=rng.randint(1, 8), Rage=rng.randint(1, 5),
                       Gnosis=rng.randint(1, 5), Health=rng.randint(2, 6), CRage=rng.randint(3, 8),
                       CGnosis=rng.randint(1, 5), CHealth=rng.randint(4, 9), Text=text)  # fmt: skip
        elif kind < 6:
            keywords = rng.choice(["Attack - Crinos", "Block - Fast Striking", "Attack - Slow Striking", "Flex"])
            card_text = "Reduces the damage of any one attack by up to 3 points." if "Block" in keywords else text
            row = _row(Name=name, Expansion=expansion, Type="Combat", Keywords=keywords, Rage=rng.randint(0, 4),
                       Damage="" if "Block" in keywords else rng.randint(1, 5), Text=card_text)  # fmt: skip
        else:
            row = _row(Name=name, Expansion=expansion, Type=rng.choice(SEPT_TYPES), Requires="Homid",
                       Keywords="Wyrm - Spirit", Renown=rng.choice([1, 2, "lots"]), Text=text)  # fmt: skip
        names.append(name)
        if i % 101 == 0:  # a record split over two physical lines
            head, _, rest = row.rpartition("\t")
            cut = head.rsplit(" ", 3)
            lines.append(cut[0])
            lines.append(" ".join(cut[1:]) + "\t" + rest)
        elif i % 103 == 0:  # two records on one line
            second = _row(Name=f"Second {name}", Expansion="Limited", Type="Event", Text="The other half.")
            lines.append(row + "\t" + second)
        elif i % 107 == 0:  # a text cut at 255 characters
            lines.append(_row(Name=name, Expansion=expansion, Type="Gift", Text=(text * 5)[:255]))
        elif i % 109 == 0:  # the same card again, and in another set with other text
            lines.append(row)
            lines.append(row)
            lines.append(row.replace(expansion, "Promo", 1).replace(" with a ", " now with a ", 1))
        elif i % 113 == 0:  # names differing only by a sign
            lines.append(_row(Name=f"Gauntlet Flux {i} (+1)", Expansion="Limited", Type="Event", Text="Up."))
            lines.append(_row(Name=f"Gauntlet Flux {i} (-1)", Expansion="Limited", Type="Event", Text="Down."))
        elif i % 127 == 0:  # a row that names no card
            lines.append(_row(Expansion="Limited", Type="Ally", Text="no name here"))
        else:
            lines.append(row)
    path.write_text("\n".join(lines[: n + 1]) + "\n", encoding="utf-8")
    return names


def timed(fn, repeat: int = 20) -> tuple[float, float]:
    """(median ms, max ms) of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    from stkit.tcg.db import CardDB
    from stkit.tcg.rules import default_index

    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        src = tmpdir / "cards.txt"
        names = make_lackey(src)
        with CardDB(tmpdir / "cards.sqlite") as db:
            start = time.perf_counter()
            report = db.import_file(src)
            import_s = time.perf_counter() - start
            accounted = report.imported + len(report.merged) + len(report.skipped)
            print(
                f"import {report.rows} rows: {report.imported} cards, {len(report.merged)} merged, "
                f"{len(report.skipped)} refused, {len(report.warnings)} warnings ({accounted} accounted for; a line "
                f"holding two cards counts twice): {import_s:.3f} s (target < 2 s)"
            )

            start = time.perf_counter()
            index = default_index()
            print(f"rules index build ({len(index.entries)} entries): {(time.perf_counter() - start) * 1000:.1f} ms")
            # loaded once per process, by the first question holding a word the rules never use
            from stkit.tcg.rules import is_english

            start = time.perf_counter()
            is_english("healing")
            print(f"English word list, loaded once: {(time.perf_counter() - start) * 1000:.1f} ms")
            worst = 0.0
            for query in (
                "combat deck moons",
                "regeneratoin wounds",
                "kailindo",
                "battlefield keyword spirit",
                "umbra",
            ):
                med, mx = timed(lambda q=query: index.search(q))
                worst = max(worst, mx)
                print(f"rules search {query!r}: median {med:.2f} ms, max {mx:.2f} ms")
            for label, query in (
                ("exact", names[1234]),
                ("prefix", names[42][:8]),
                ("fuzzy", names[777][:-3] + "xq"),
                ("text", "quote ghost"),
                ("filtered", ""),
            ):
                kwargs = {"type_": "Garou", "keyword": "Get of Fenris"} if label == "filtered" else {}
                med, mx = timed(lambda q=query, kw=kwargs: db.search(q, **kw))
                worst = max(worst, mx)
                print(f"card search {label} {query!r}: median {med:.2f} ms, max {mx:.2f} ms")
            from stkit.tcg.db import CardFilter, NumberRange

            flt = CardFilter(tribe="Wendigo", crinos=True, ranges=(("renown", NumberRange(3, 6)),))
            med, mx = timed(lambda: db.search("", filters=flt))
            worst = max(worst, mx)
            print(f"card search every filter: median {med:.2f} ms, max {mx:.2f} ms")
            med, mx = timed(lambda: db.find(names[1500].lower()))
            worst = max(worst, mx)
            print(f"card show (exact name): median {med:.2f} ms, max {mx:.2f} ms")
            print(
                f"slowest search: {worst:.2f} ms (target < 50 ms): {'OK' if worst < 50 else 'SLOW'}; "
                f"import {'OK' if import_s < 2 else 'SLOW'}"
            )


if __name__ == "__main__":
    main()
