"""200 rolls through one `stkit shell` against 200 `stkit roll` processes.

Pipes N `roll 5 -d 6 --seed K` lines into one `stkit shell`, and runs `stkit roll 5 -d 6 --seed K` N times
as separate processes; prints both totals and the cost of a roll inside the shell: (shell with N rolls
minus an empty shell) / N, so that the shell's own start-up is not counted. Target: under 5 ms a roll.

Usage: python benchmarks/shell.py [--rolls N] [--char]   (--char: `roll "Dexterity + Brawl" -c NAME`
rolls against a throwaway database, each logged)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--char", action="store_true", help="roll from a character's sheet (logged rolls)")
    args = parser.parse_args()
    stkit = shutil.which("stkit") or os.path.join(os.path.dirname(sys.executable), "stkit")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, STKIT_DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite", NO_COLOR="1")
        if args.char:
            subprocess.run(
                [stkit, "char", "new", "Bench", "--breed", "homid", "--set", "Dexterity=3", "--set", "Brawl=2"],
                check=True,
                stdout=subprocess.DEVNULL,
                env=env,
            )
            line = 'roll "Dexterity + Brawl" -c Bench --seed {k}'
        else:
            line = "roll 5 -d 6 --seed {k}"
        lines = [line.format(k=k) for k in range(args.rolls)]
        _run([stkit, "shell"], "", env)  # warm the file cache
        empty = min(_run([stkit, "shell"], "", env) for _ in range(3))
        in_shell = _run([stkit, "shell"], "\n".join(lines) + "\n", env)
        procs = 0.0
        for text in lines:
            procs += _run([stkit, *shlex.split(text)], "", env)
    per_roll = (in_shell - empty) / args.rolls
    print(f"rolls: {args.rolls} ({'from a sheet, logged' if args.char else 'plain'})")
    print(f"{args.rolls} stkit roll processes      {procs * 1000:9.1f} ms  ({procs / args.rolls * 1000:.1f} ms a roll)")
    print(f"one stkit shell, {args.rolls} rolls     {in_shell * 1000:9.1f} ms  (empty shell {empty * 1000:.1f} ms)")
    print(f"a roll in the shell (target < 5 ms): {per_roll * 1000:.2f} ms")


if __name__ == "__main__":
    main()
