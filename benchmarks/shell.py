"""200 rolls through one `stkit shell` against 200 `stkit roll` processes.

Pipes N `roll 5 -d 6 --seed K` lines into one `stkit shell`, and runs `stkit roll 5 -d 6 --seed K` N times
as separate processes; prints both totals and the cost of a roll inside the shell: (shell with N rolls
minus an empty shell) / N, so that the shell's own start-up is not counted. Target: under 5 ms a roll.

Runs both kinds of roll by default: plain rolls, and logged rolls from a sheet (`roll dex+brawl -c NAME
--seed K`, the traits by their short names, against a throwaway database, each logged: the shell keeps one
store handle, so one connection and one schema check for the session). --shell-only skips the separate
processes (the slow half).

Usage: python benchmarks/shell.py [--rolls N] [--char | --plain] [--shell-only]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time


def _run(cmd: list[str], stdin: str = "", env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, text=True, stdout=subprocess.DEVNULL, check=True, env=env)
    return time.perf_counter() - start


def measure(stkit: str, rolls: int, char: bool, processes: bool = True) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, STKIT_DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite", NO_COLOR="1")
        if char:
            subprocess.run(
                [stkit, "char", "new", "Bench", "--breed", "homid", "--set", "Dexterity=3", "--set", "Brawl=2"],
                check=True,
                stdout=subprocess.DEVNULL,
                env=env,
            )
            line = "roll dex+brawl -c Bench --seed {k}"
        else:
            line = "roll 5 -d 6 --seed {k}"
        lines = [line.format(k=k) for k in range(rolls)]
        _run([stkit, "shell"], "", env)  # warm the file cache
        empty = min(_run([stkit, "shell"], "", env) for _ in range(3))
        in_shell = _run([stkit, "shell"], "\n".join(lines) + "\n", env)
        procs = 0.0
        for text in lines if processes else ():
            procs += _run([stkit, *shlex.split(text)], "", env)
    per_roll = (in_shell - empty) / rolls
    print(f"rolls: {rolls} ({'from a sheet, logged' if char else 'plain'})")
    if processes:
        print(f"{rolls} stkit roll processes      {procs * 1000:9.1f} ms  ({procs / rolls * 1000:.1f} ms a roll)")
    print(f"one stkit shell, {rolls} rolls     {in_shell * 1000:9.1f} ms  (empty shell {empty * 1000:.1f} ms)")
    print(f"a roll in the shell (target < 5 ms): {per_roll * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--char", action="store_true", help="only rolls from a character's sheet (logged)")
    parser.add_argument("--plain", action="store_true", help="only plain rolls")
    parser.add_argument("--shell-only", action="store_true", help="skip the separate stkit roll processes")
    args = parser.parse_args()
    stkit = shutil.which("stkit") or os.path.join(os.path.dirname(sys.executable), "stkit")
    for char in (False, True):
        if (char and args.plain) or (not char and args.char):
            continue
        measure(stkit, args.rolls, char, processes=not args.shell_only)


if __name__ == "__main__":
    main()
