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
from tests.docpages import missing, session

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "combat.md"


def test_the_page_runs_as_written(db_url, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    text = DOC.read_text(encoding="utf-8")
    assert len(session(text)) >= 5
    _run_page(CliRunner(), text, monkeypatch, tmp_path)


def _run_page(runner: CliRunner, text: str, monkeypatch, tmp_path: Path) -> None:
    """Run a page's steps as a reader would, its `$ export STKIT_DATABASE_URL=sqlite:///NAME` and
    `$ export STKIT_DATABASE_URL="$(mktemp -d)/NAME"` lines included (the file made in ``tmp_path``)."""
    exports = r'^\$ export STKIT_DATABASE_URL=(?:sqlite:///|"\$\(mktemp -d\)/)([^"\s]+)"?$'
    found = re.findall(exports, text, re.M)
    assert found or "STKIT_DATABASE_URL" not in text, "an export line the runner cannot read"
    for line in found:
        monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / line))
    for argv, expected in session(text):
        result = runner.invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100"})
        got = [ln.rstrip() for ln in (result.stdout + result.stderr).splitlines()]
        failing = any(e.startswith("Error: ") for e in expected)
        assert result.exit_code == (1 if failing else 0), (argv, result.output)
        lost = missing(expected, got)
        assert lost is None, f"stkit {shlex.join(argv)}: missing {lost!r} in:\n" + "\n".join(got)


def test_the_page_runs_after_the_readme_in_one_store(db_url, monkeypatch, tmp_path):
    """A newcomer follows README.md top to bottom in the default store, then this page, which moves to a
    store of its own first: every step still does what the page shows."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("STKIT_CARDS_DB", str(tmp_path / "cards.sqlite"))
    from tests.test_docs_examples import README_NOT_RUN, _readme_steps

    runner = CliRunner()
    for commands, _shown in _readme_steps():
        for argv in commands:
            if " ".join(argv).startswith(README_NOT_RUN) or argv[0] in README_NOT_RUN:
                continue
            done = runner.invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100"})
            assert done.exit_code == 0, (argv, done.output)
    _run_page(runner, DOC.read_text(encoding="utf-8"), monkeypatch, tmp_path)
