"""Start-up time of a plain roll against importing typer + rich.console.

Runs `stkit roll 5 -d 6 --seed 1` and `python -c "import typer, rich.console"` alternately, many times in
one go, and prints the median wall time and the median CPU time (user + system, of the child process alone)
of each and their ratios, with the load average. Target: ratio at most 1.3. On a shared, loaded machine the
wall time includes waiting for a core; the CPU-time ratio is the steadier figure.

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


def _time(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the child alone) of one run of ``cmd``."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with exit code {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


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
    load_before = os.getloadavg()
    for _ in range(args.runs):
        t_roll.append(_time(roll))
        t_ref.append(_time(reference))
    load_after = os.getloadavg()
    wall_roll, wall_ref = (statistics.median(t[0] for t in ts) for ts in (t_roll, t_ref))
    cpu_roll, cpu_ref = (statistics.median(t[1] for t in ts) for ts in (t_roll, t_ref))
    print(f"runs: {args.runs}; load average {_load(load_before)} before, {_load(load_after)} after")
    print(f"{'':32} {'wall':>9} {'CPU':>9}")
    print(f"stkit roll 5 -d 6 --seed 1      {wall_roll * 1000:7.1f}ms {cpu_roll * 1000:7.1f}ms")
    print(f"import typer, rich.console      {wall_ref * 1000:7.1f}ms {cpu_ref * 1000:7.1f}ms")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set, so stkit's modules are compiled on every run")
    print(f"ratio (target <= 1.3): wall {wall_roll / wall_ref:.2f}, CPU {cpu_roll / cpu_ref:.2f}")


def _load(avg: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.2f}" for x in avg)


if __name__ == "__main__":
    main()
