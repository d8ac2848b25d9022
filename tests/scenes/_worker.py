"""A worker process for the concurrency and crash tests (run as a script, not collected by pytest).

usage: _worker.py rolls URL ACTION_ID COUNT GATE SEED  -> prints one JSON line: the roll-log ids it made
       _worker.py hang  URL ACTION_ID MARKER             -> rolls once with Willpower and hangs mid-transaction
                                                             (after the log entry, before the tally), for a kill
       _worker.py loop  URL ACTION_ID                    -> rolls until killed
       _worker.py contest URL CONTEST_ID COUNT GATE SEED -> COUNT exchanges (both sides) on one contest

GATE is a folder: a worker creates ``ready-SEED`` in it once its store is open, then waits for ``go`` there,
so that the test starts every worker at the same moment however long the interpreters took to start.
"""

import json
import random
import sys
import time
from pathlib import Path


def wait_at_gate(gate: str, seed: int) -> None:
    folder = Path(gate)
    (folder / f"ready-{seed}").touch()
    while not (folder / "go").exists():
        time.sleep(0.001)


def main() -> None:
    mode, url, action_id = sys.argv[1], sys.argv[2], int(sys.argv[3])
    from stkit.store.db.engine import open_store
    from stkit.store.db.gateway import run_gateway
    from stkit.store.extended import roll_extended

    engine = open_store(url)
    if mode == "rolls":
        count, gate, seed = int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
        rng = random.Random(seed)
        wait_at_gate(gate, seed)
        ids = []
        for _ in range(count):
            ids.append(
                run_gateway(engine, lambda s: roll_extended(s, action_id, seed=rng.randrange(2**32)).made.log.id)
            )
        print(json.dumps({"ids": ids}))
    elif mode == "hang":
        marker = sys.argv[4]
        import stkit.store.extended as tracked

        real = tracked.advance_extended_roll

        def stall(*args, **kwargs):  # the roll and its log entry exist in the open transaction now
            with open(marker, "w") as fh:
                fh.write("mid-roll")
            time.sleep(120)
            return real(*args, **kwargs)

        tracked.advance_extended_roll = stall
        run_gateway(engine, lambda s: roll_extended(s, action_id, willpower=True, seed=1))
    elif mode == "contest":
        from stkit.store.contests import roll_contest

        count, gate, seed = int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
        rng = random.Random(seed)
        wait_at_gate(gate, seed)
        exchanges = []
        for _ in range(count):
            exchanges.append(
                run_gateway(engine, lambda s: roll_contest(s, action_id, seed=rng.randrange(2**32)).exchange.exchange)
            )
        print(json.dumps({"exchanges": exchanges}))
    elif mode == "loop":
        rng = random.Random(5)
        while True:
            run_gateway(engine, lambda s: roll_extended(s, action_id, seed=rng.randrange(2**32)))


if __name__ == "__main__":
    main()
