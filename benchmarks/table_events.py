"""The size of ``table_events`` after many rolls: the table keeps a bounded window, the roll log everything.

Writes N rolls (default 1,000,000) into a fresh SQLite store through the store's own event writer (one
roll-log row and one event per roll, in transactions of 10,000), then prints the rows and bytes of
``table_events`` and ``roll_log`` and the ratio of the event table's rows to its window. Target: the
event table holds at most EVENT_WINDOW + PRUNE_EVERY rows whatever N is (ratio at most 1.05).

Usage: python benchmarks/table_events.py [--rolls N]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=1_000_000)
    args = parser.parse_args()

    from stkit.store.db.engine import open_store
    from stkit.store.db.gateway import SqliteGateway
    from stkit.store.table.events import EVENT_WINDOW, PRUNE_EVERY, record_event

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite"
        open_store(f"sqlite:///{path}").dispose()
        conn = sqlite3.connect(path, isolation_level=None)
        gw = SqliteGateway(conn)
        data = {"roll": {"pool": 5, "dice": [3, 7, 9, 1, 10], "difficulty": 6, "result": 2}, "marks": []}
        started = time.perf_counter()
        done = 0
        while done < args.rolls:
            conn.execute("BEGIN IMMEDIATE")
            for _ in range(min(10_000, args.rolls - done)):
                conn.execute(
                    "INSERT INTO roll_log (created_at, chronicle, character_name, kind, expression, pool, "
                    "difficulty, dice, outcome, result, willpower, detail) VALUES ('2026-12-02 18:00:00.000000', "
                    "'default', '', 'roll', '5', 5, 6, '[3,7,9,1,10]', 'success', 2, 0, '{}')"
                )
                record_event(gw, chronicle="default", kind="roll", data=data | {"log_id": done})
                done += 1
            conn.execute("COMMIT")
        took = time.perf_counter() - started

        def size(table: str) -> tuple[int, int]:
            rows = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            try:
                pages = conn.execute("SELECT SUM(pgsize) FROM dbstat WHERE name = ?", (table,)).fetchone()[0]
            except sqlite3.OperationalError:  # SQLite built without dbstat
                pages = None
            return rows, pages or 0

        events, log = size("table_events"), size("roll_log")
        print(
            json.dumps(
                {
                    "rolls": args.rolls,
                    "seconds": round(took, 1),
                    "table_events_rows": events[0],
                    "table_events_bytes": events[1],
                    "roll_log_rows": log[0],
                    "roll_log_bytes": log[1],
                    "window": EVENT_WINDOW,
                    "ratio_rows_to_window": round(events[0] / EVENT_WINDOW, 3),
                    "target_max_rows": EVENT_WINDOW + PRUNE_EVERY,
                }
            )
        )
        conn.close()


if __name__ == "__main__":
    main()
