"""Speed of the Rage card tools: import a generated 2,000-card Lackey list, then rules and card searches.

Targets: import under 2 s; any search under 50 ms in-process. Run: ``python benchmarks/tcg.py``.
Everything happens in a temporary folder; the real card database is never touched.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

TYPES = [
    "Garou",
    "Ally",
    "Enemy",
    "Victim",
    "Gift",
    "Rite",
    "Equipment",
    "Event",
    "Moot",
    "Totem",
    "Attack",
    "Defense",
    "Flex",
    "Counterattack",
]
WORDS = [
    "Howling",
    "Moon",
    "Fang",
    "Spiral",
    "Shadow",
    "Gaia",
    "Wyrm",
    "Storm",
    "Eater",
    "Silver",
    "Dust",
    "Claw",
    "Rage",
    "Gnosis",
    "Umbra",
    "Stone",
    "River",
    "Ash",
    "Blood",
    "Song",
    "Hunter",
    "Prey",
    "Ghost",
    "Iron",
    "Glass",
    "Bone",
    "Star",
    "Wind",
    "Fire",
    "Night",
]
KEYWORDS = ["Wyrm", "Gaia", "Homid", "Lupus", "Metis", "Spirit", "Human", "Kailindo", "Firearm", "Klaive"]


def make_lackey(path: Path, n: int = 2000, seed: int = 7) -> list[str]:
    """Write an ``n``-card Lackey tab-separated list; return the card names."""
    rng = random.Random(seed)
    header = "Name\tSet\tImageFile\tType\tKeywords\tRenown\tRage\tGnosis\tHealth\tDamage\tBlock\tRageCost\tMoon\tText"
    lines = [header]
    names = []
    for i in range(n):
        name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {i}"
        names.append(name)
        t = rng.choice(TYPES)
        kws = ", ".join(rng.sample(KEYWORDS, 2))
        text = " ".join(rng.choice(WORDS).lower() for _ in range(25)) + ' with a "quote'
        if t in ("Attack", "Defense", "Flex", "Counterattack"):
            row = [
                name,
                "Base",
                f"img{i}",
                t,
                kws,
                "",
                "",
                "",
                "",
                str(rng.randint(0, 5)),
                str(rng.randint(0, 5)),
                str(rng.randint(0, 4)),
                rng.choice(["New Moon", "Full Moon"]),
                text,
            ]
        else:
            row = [
                name,
                "Playtest" if i % 50 == 0 else "Base",
                f"img{i}",
                t,
                kws,
                str(rng.randint(1, 8)),
                str(rng.randint(1, 8)),
                str(rng.randint(1, 8)),
                str(rng.randint(1, 10)),
                "",
                "",
                "",
                "",
                text,
            ]
        if i % 97 == 0:
            row = row[:5]  # cut short
        lines.append("\t".join(row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
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
            print(f"import {report.imported} cards ({len(report.skipped)} skipped): {import_s:.3f} s (target < 2 s)")

            start = time.perf_counter()
            index = default_index()
            print(f"rules index build ({len(index.entries)} entries): {(time.perf_counter() - start) * 1000:.1f} ms")
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
                kwargs = {"type_": "Garou", "keyword": "Wyrm"} if label == "filtered" else {}
                med, mx = timed(lambda q=query, kw=kwargs: db.search(q, **kw))
                worst = max(worst, mx)
                print(f"card search {label} {query!r}: median {med:.2f} ms, max {mx:.2f} ms")
            med, mx = timed(lambda: db.find(names[1500].lower()))
            worst = max(worst, mx)
            print(f"card show (exact name): median {med:.2f} ms, max {mx:.2f} ms")
            print(
                f"slowest search: {worst:.2f} ms (target < 50 ms): {'OK' if worst < 50 else 'SLOW'}; "
                f"import {'OK' if import_s < 2 else 'SLOW'}"
            )


if __name__ == "__main__":
    main()
