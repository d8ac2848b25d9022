"""docs/combat.md runs as written: every `$ stkit ...` line of its console blocks is run in page order on a
new store, and every output line the page shows must appear, in order, in what the command prints.

Page conventions: a line `...` skips output; `...` inside a line stands for any text; a command whose shown
output starts with `Error: ` must exit 1.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from stkit.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "combat.md"


def session(text: str) -> list[tuple[list[str], list[str]]]:
    steps: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        current: list[str] | None = None
        for line in block.splitlines():
            if line.startswith("$ stkit "):
                current = []
                steps.append((shlex.split(line[len("$ stkit ") :], comments=True), current))
            elif line.startswith("$ "):
                current = None
            elif current is not None and line.strip() and line.strip() != "...":
                current.append(line.rstrip())
    return steps


def fits(want: str, got: str) -> bool:
    if "..." not in want:
        return want == got
    return re.fullmatch(".*".join(re.escape(part) for part in want.split("...")), got) is not None


def test_the_page_runs_as_written(db_url, monkeypatch):
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    steps = session(DOC.read_text(encoding="utf-8"))
    assert len(steps) >= 5
    for argv, expected in steps:
        result = runner.invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100"})
        got = [ln.rstrip() for ln in (result.stdout + result.stderr).splitlines()]
        failing = any(e.startswith("Error: ") for e in expected)
        assert result.exit_code == (1 if failing else 0), (argv, result.output)
        at = 0
        for want in expected:
            hit = next((i for i in range(at, len(got)) if fits(want, got[i])), None)
            assert hit is not None, f"stkit {shlex.join(argv)}: missing {want!r} in:\n" + "\n".join(got)
            at = hit + 1
