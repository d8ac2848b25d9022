"""The slowest `stkit odds` answers the CLI still accepts, each at one of its bounds (stkit/cli/odds.py's
MAX_EXACT_TABLE_DICE, MAX_RESISTED_WORK, MAX_ATTACK_DOUBLE_DICE and the engine's own bounds), and one step
beyond each (refused at once). Target: every accepted case under 1 s.

Each case runs in-process (CliRunner) and is timed in CPU seconds of this process (time.process_time), the
best of a few runs, so that other work on a busy machine does not count; the wall time is printed beside it.

Usage: python benchmarks/odds_bounds.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from typer.testing import CliRunner

ACCEPTED = [
    "odds roll 1000 --json --specialty reroll",
    "odds roll 300 --exact --specialty reroll",
    "odds roll 300 --exact --specialty double",
    "odds resisted 500 500",
    "odds resisted 1000 250 --json",
    "odds resisted 400 400 --specialty double",
    "odds resisted 1000 160 --specialty double --json",
    "odds resisted 1000 30 --specialty reroll",
    "odds resisted 173 173 --specialty reroll --exact",
    "odds attack 100 --damage 100 --soak 100 --specialty reroll --exact",
    "odds attack 100 --damage 40 --soak 100 --specialty double --exact",
    "odds teamwork 50 50 --specialty reroll --exact",
    "odds multi 300 300 300 --exact --specialty reroll",
]
REFUSED = [
    "odds resisted 1000 1000 -d 2 --difficulty-b 10 --exact --specialty reroll",
    "odds resisted 1000 1000 --specialty double",
    "odds roll 301 --exact",
    "odds attack 100 --damage 41 --specialty double",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="stkit-bench-")
    os.environ["STKIT_DATABASE_URL"] = "sqlite:///" + os.path.join(folder, "bench.sqlite")
    os.environ["NO_COLOR"] = "1"
    from stkit.cli.app import app

    runner = CliRunner()
    worst = 0.0
    print(f"load: {os.getloadavg()[0]:.2f}")
    for expect, cases in ((0, ACCEPTED), (1, REFUSED)):
        for line in cases:
            best_cpu, best_wall = float("inf"), float("inf")
            for _ in range(args.runs):
                c0, w0 = time.process_time(), time.perf_counter()
                result = runner.invoke(app, line.split())
                best_cpu = min(best_cpu, time.process_time() - c0)
                best_wall = min(best_wall, time.perf_counter() - w0)
            assert result.exit_code == expect, (line, result.output)
            if expect == 0:
                worst = max(worst, best_cpu)
            verdict = "accepted" if expect == 0 else "refused "
            print(f"{verdict} {best_cpu:6.2f} s cpu {best_wall:6.2f} s wall  stkit {line}")
    print(f"slowest accepted: {worst:.2f} s cpu (target: under 1 s)")


if __name__ == "__main__":
    main()
