"""One CLI roll for a stored character on SQLite and on PostgreSQL, side by side.

Creates a character on a fresh SQLite file and on the PostgreSQL database given, then runs
`stkit roll "Dexterity + Brawl" -c Mari --seed N` against each, alternately, many times, and prints the
median wall time of each and their ratio (target: PostgreSQL at most 1.5 times SQLite on loopback), with
the load average at the time. STKIT_PG_DRIVER=psycopg times the psycopg fallback instead of libpq.

Usage: python benchmarks/store_cli.py --db postgresql+psycopg://USER:PASS@127.0.0.1:PORT/DB [--runs N]
(the database gets a schema of its own, dropped afterwards).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from urllib.parse import quote


def _time(cmd: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (postgresql+psycopg://...)")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    import psycopg

    stkit = shutil.which("stkit") or os.path.join(os.path.dirname(sys.executable), "stkit")
    schema = "bench_" + uuid.uuid4().hex[:10]
    plain = args.db.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in args.db else "?"
    pg = f"{args.db}{sep}options={quote(f'-csearch_path={schema}')}"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, HOME=tmp, NO_COLOR="1")
            sqlite = "sqlite:///" + os.path.join(tmp, "store.sqlite")
            for url in (sqlite, pg):  # creates and migrates the store: not timed
                new = [stkit, "char", "new", "Mari", "--set", "Dexterity=3", "--set", "Brawl=2", "--db", url]
                subprocess.run(new, stdout=subprocess.DEVNULL, check=True, env=env)
            times: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
            for n in range(args.runs + 1):
                for name, url in (("sqlite", sqlite), ("postgresql", pg)):
                    took = _time([stkit, "roll", "Dexterity + Brawl", "-c", "Mari", "--seed", str(n), "--db", url], env)
                    if n:  # the first of each warms the file cache
                        times[name].append(took)
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    m_sqlite, m_pg = statistics.median(times["sqlite"]), statistics.median(times["postgresql"])
    driver = "psycopg" if os.environ.get("STKIT_PG_DRIVER", "").strip().lower() == "psycopg" else "libpq (ctypes)"
    load = os.getloadavg()[0]
    print(f"runs: {args.runs} each, alternating; load average {load:.2f} (1 min); PostgreSQL over {driver}")
    print(f"stkit roll -c Mari on SQLite      median {m_sqlite * 1000:7.1f} ms")
    print(f"stkit roll -c Mari on PostgreSQL  median {m_pg * 1000:7.1f} ms")
    print(f"ratio PostgreSQL / SQLite (target <= 1.5): {m_pg / m_sqlite:.2f}")


if __name__ == "__main__":
    main()
