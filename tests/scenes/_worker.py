"""A worker process for the concurrency and crash tests (run as a script, not collected by pytest).

usage: _worker.py rolls URL ACTION_ID COUNT START_AT SEED  -> prints one JSON line: the roll-log ids it made
       _worker.py hang  URL ACTION_ID MARKER                -> rolls once with Willpower and hangs mid-transaction
                                                                (after the log entry, before the tally), for a kill
       _worker.py loop  URL ACTION_ID                       -> rolls until killed
       _worker.py contest URL CONTEST_ID COUNT START_AT SEED -> COUNT exchanges (both sides) on one contest
"""

import json
import random
import sys
import time


def main() -> None:
    mode, url, action_id = sys.argv[1], sys.argv[2], int(sys.argv[3])
    from stkit.store.db import open_store, run_transaction
    from stkit.store.extended import roll_extended

    engine = open_store(url)
    if mode == "rolls":
        count, start_at, seed = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
        rng = random.Random(seed)
        while time.time() < start_at:  # all workers start together
            time.sleep(0.001)
        ids = []
        for _ in range(count):
            ids.append(run_transaction(engine, lambda s: roll_extended(s, action_id, rng=rng).made.log.id))
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
        run_transaction(engine, lambda s: roll_extended(s, action_id, willpower=True, rng=random.Random(1)))
    elif mode == "contest":
        from stkit.store.contests import roll_contest

        count, start_at, seed = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
        rng = random.Random(seed)
        while time.time() < start_at:
            time.sleep(0.001)
        exchanges = []
        for _ in range(count):
            exchanges.append(
                run_transaction(engine, lambda s: roll_contest(s, action_id, rng=rng)["exchange"]["exchange"])
            )
        print(json.dumps({"exchanges": exchanges}))
    elif mode == "loop":
        rng = random.Random(5)
        while True:
            run_transaction(engine, lambda s: roll_extended(s, action_id, rng=rng))


if __name__ == "__main__":
    main()
