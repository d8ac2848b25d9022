"""Start-up time of a plain roll against importing typer + rich.console.

Runs `stkit roll 5 -d 6 --seed 1` and `python -c "import typer, rich.console"` alternately, many times in
one go, and prints the median wall time of each and their ratio. Target: ratio at most 1.3.

Usage: python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def _time(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    # the script installed beside this interpreter (a virtual environment's), not the first on PATH: a
    # version manager's shim there would add its own start-up and may run another checkout
    beside = os.path.join(os.path.dirname(sys.executable), "stkit")
    stkit = beside if os.path.exists(beside) else (shutil.which("stkit") or beside)
    roll = [stkit, "roll", "5", "-d", "6", "--seed", "1"]
    reference = [sys.executable, "-c", "import typer, rich.console"]
    for cmd in (roll, reference):  # warm the file cache
        _time(cmd)
    t_roll, t_ref = [], []
    for _ in range(args.runs):
        t_roll.append(_time(roll))
        t_ref.append(_time(reference))
    m_roll, m_ref = statistics.median(t_roll), statistics.median(t_ref)
    print(f"runs: {args.runs}")
    print(f"stkit roll 5 -d 6 --seed 1      median {m_roll * 1000:7.1f} ms")
    print(f"import typer, rich.console      median {m_ref * 1000:7.1f} ms")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set, so stkit's modules are compiled on every run")
    print(f"ratio (target <= 1.3): {m_roll / m_ref:.2f}")


if __name__ == "__main__":
    main()
