"""docs/quick.md runs as written: every `$ stkit ...` line in a console block, in order, on an empty store;
every output line shown (other than `...`) must appear, in order, within what the command prints (a
`...` inside a line stands for any text)."""

import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from stkit.cli.app import app
from tests.docpages import session

DOC = Path(__file__).resolve().parents[2] / "docs" / "quick.md"


def test_the_page_runs_as_written(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "table.sqlite"))
    runner = CliRunner()
    steps = session(DOC.read_text(encoding="utf-8"))
    assert len(steps) >= 12
    for argv, expected in steps:
        result = runner.invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100"})
        got = [ln.rstrip() for ln in (result.stdout + result.stderr).splitlines()]
        failing = any(e.startswith("Error: ") for e in expected)
        usage = any(e.startswith("no such option") for e in expected)
        assert result.exit_code == (2 if usage else 1 if failing else 0), (argv, result.output)
        at = 0
        for want in expected:
            pattern = re.compile(".*".join(re.escape(part) for part in want.split("...")))  # '...' is any text
            hits = [i for i, g in enumerate(got[at:], at) if pattern.search(g)]
            assert hits, f"stkit {shlex.join(argv)}: missing {want!r} in:\n" + "\n".join(got)
            at = hits[0] + 1
