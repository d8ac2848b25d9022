"""Speed of the character store's everyday commands on a big database.

Fills a database with 10,000 characters and 1,000,000 logged rolls (bulk inserts), then times, in one run
and interleaved, as real subprocesses:

    stkit --version                                   (the baseline: start-up alone)
    stkit char show NAME
    stkit char list                                   (a screenful: the default --limit)
    stkit char set NAME Dexterity 3
    stkit char damage NAME 1
    stkit char heal NAME 1
    stkit log --char NAME --limit 20
    stkit roll "Dexterity + Brawl" --char NAME --seed 1

and prints each command's median wall time and median CPU time (user + system of the command alone) and
their ratios to the baseline, with the load average. Target: each ratio <= 2. On a shared, loaded machine
the wall time includes waiting for a core; the CPU-time ratio is the steadier figure.

Usage: python benchmarks/store.py [--db PATH_OR_URL] [--characters 10000] [--rolls 1000000] [--repeat 15]
(the default database is a new SQLite file in a temporary folder; an existing filled database is reused).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stkit.sheet.sheet import Sheet
from stkit.sheet.traits import ABILITIES, ATTRIBUTES, name_key


def fill(url: str, n_chars: int, n_rolls: int) -> None:
    """Create the schema and bulk-insert the characters and the roll log (skipped when already filled)."""
    from sqlalchemy import func, select

    from stkit.store.db.engine import open_store
    from stkit.store.db.models import Character, RollLog

    engine = open_store(url)
    with engine.connect() as conn:
        have = conn.execute(select(func.count()).select_from(Character.__table__)).scalar_one()
        logged = conn.execute(select(func.count()).select_from(RollLog.__table__)).scalar_one()
    if have >= n_chars and logged >= n_rolls:
        print(f"reusing {have} characters and {logged} logged rolls")
        return
    rng = random.Random(2024)
    now = datetime.now(UTC)
    t0 = time.perf_counter()
    rows = []
    for i in range(n_chars):
        s = Sheet(name=f"Garou {i:05d}")
        for a in ATTRIBUTES:
            s.attributes[a] = rng.randint(1, 5)
        for a in rng.sample(ABILITIES, 8):
            s.abilities[a] = rng.randint(1, 4)
        s.abilities["Brawl"] = rng.randint(1, 5)
        s.powers["Willpower"].permanent = s.powers["Willpower"].temporary = rng.randint(3, 8)
        rows.append(
            {
                "chronicle": "default",
                "name": s.name,
                "name_key": name_key(s.name),
                "player": f"player {i % 50}",
                "breed": "",
                "auspice": "",
                "tribe": "",
                "form": "Homid",
                "sheet": json.dumps(s.to_dict()),
                "version": 1,
                "created_at": now,
                "updated_at": now,
            }
        )
    with engine.begin() as conn:
        conn.execute(Character.__table__.insert(), rows)
    print(f"inserted {n_chars} characters in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    batch = 50_000
    for start in range(0, n_rolls, batch):
        rows = []
        for j in range(start, min(start + batch, n_rolls)):
            cid = rng.randint(1, n_chars)
            pool = rng.randint(1, 10)
            dice = [rng.randint(1, 10) for _ in range(pool)]
            succ = sum(1 for d in dice if d >= 6)
            ones = dice.count(1)
            result = max(succ - ones, 0)
            outcome = "success" if result else ("botch" if succ == 0 and ones else "failure")
            rows.append(
                {
                    "created_at": now - timedelta(seconds=n_rolls - j),
                    "chronicle": "default",
                    "character_id": cid,
                    "character_name": f"Garou {cid - 1:05d}",
                    "kind": "roll",
                    "expression": "Dexterity + Brawl",
                    "pool": pool,
                    "difficulty": 6,
                    "dice": json.dumps(dice),
                    "outcome": outcome,
                    "result": result,
                    "willpower": False,
                    "detail": "{}",
                }
            )
        with engine.begin() as conn:
            conn.execute(RollLog.__table__.insert(), rows)
    print(f"inserted {n_rolls} logged rolls in {time.perf_counter() - t0:.1f} s")


def timed(argv: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the child alone) of one run of ``argv``."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - t0
    err = p.stderr.read().decode() if p.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {err}")
    return elapsed, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="database file or URL (default: a new SQLite file in a temp folder)")
    ap.add_argument("--characters", type=int, default=10_000)
    ap.add_argument("--rolls", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    tmp = None
    if args.db is None:
        tmp = tempfile.mkdtemp(prefix="stkit-bench-")
        args.db = str(Path(tmp) / "bench.sqlite")
    from stkit.config import database_url

    url = database_url(args.db)
    fill(url, args.characters, args.rolls)
    name = f"Garou {args.characters // 2:05d}"
    env = dict(os.environ, NO_COLOR="1", STKIT_DATABASE_URL=url)
    stkit = [sys.executable, "-m", "stkit"]
    commands = {
        "stkit --version": [*stkit, "--version"],
        f"stkit char show '{name}'": [*stkit, "char", "show", name],
        "stkit char list": [*stkit, "char", "list"],
        f"stkit char set '{name}' Dexterity 3": [*stkit, "char", "set", name, "Dexterity", "3"],
        f"stkit char damage '{name}' 1": [*stkit, "char", "damage", name, "1"],
        f"stkit char heal '{name}' 1": [*stkit, "char", "heal", name, "1"],
        f"stkit log --char '{name}' --limit 20": [*stkit, "log", "--char", name, "--limit", "20"],
        f"stkit roll 'Dexterity + Brawl' --char '{name}' --seed 1": [
            *stkit,
            "roll",
            "Dexterity + Brawl",
            "--char",
            name,
            "--seed",
            "1",
        ],
    }
    for argv in commands.values():  # warm the OS cache and .pyc files
        timed(argv, env)
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    load_before = os.getloadavg()
    for _ in range(args.repeat):
        for label, argv in commands.items():
            times[label].append(timed(argv, env))
    load_after = os.getloadavg()
    base_wall = statistics.median(t[0] for t in times["stkit --version"])
    base_cpu = statistics.median(t[1] for t in times["stkit --version"])
    print(
        f"\n{args.characters} characters, {args.rolls} logged rolls, {args.repeat} runs each, database {url.split('://')[0]}"
    )
    print(f"load average {_load(load_before)} before, {_load(load_after)} after")
    if env.get("PYTHONDONTWRITEBYTECODE"):
        # stkit's own modules are then compiled on every start, which weighs on the bigger commands
        print("note: PYTHONDONTWRITEBYTECODE is set, so stkit's modules are compiled on every run")
    print("medians of the wall time and of the CPU time (user + system of the command alone: steadier when the")
    print("machine is loaded); target: each ratio <= 2")
    print(f"{'command':<62} {'wall':>9} {'ratio':>7} {'CPU':>9} {'ratio':>7}")
    for label, ts in times.items():
        wall = statistics.median(t[0] for t in ts)
        cpu = statistics.median(t[1] for t in ts)
        ratio, cpu_ratio = wall / base_wall, cpu / base_cpu
        verdict = "" if label == "stkit --version" else ("ok" if max(ratio, cpu_ratio) <= 2 else "OVER")
        print(f"{label:<62} {wall * 1000:>7.1f}ms {ratio:>6.2f}x {cpu * 1000:>7.1f}ms {cpu_ratio:>6.2f}x  {verdict}")


def _load(avg: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.2f}" for x in avg)


if __name__ == "__main__":
    main()
