"""docs/scenes.md is a real session: every `$ stkit ...` line is run in order on an empty store, and every
output line the page shows (other than `...`) must appear, in order, in what the command prints."""

import shlex
from pathlib import Path

from typer.testing import CliRunner

from stkit.cli.app import app
from tests.docpages import session

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scenes.md"


def test_the_walkthrough_runs_as_written(store_url, monkeypatch):
    monkeypatch.chdir(ROOT)  # `stkit char import characters/`
    runner = CliRunner()
    steps = session(DOC.read_text(encoding="utf-8"))
    assert len(steps) > 40
    for argv, expected in steps:
        result = runner.invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100"})
        got = [ln.rstrip() for ln in (result.stdout + result.stderr).splitlines()]
        failing = any(e.startswith("Error: ") for e in expected)
        assert result.exit_code == (1 if failing else 0), (argv, result.output)
        at = 0
        for want in expected:
            assert want in got[at:], f"stkit {shlex.join(argv)}: missing {want!r} in:\n" + "\n".join(got)
            at = got.index(want, at) + 1
