"""An error line quoting a very long value (a file name of thousands of characters) is cut in the middle:
the reason at its end stays on the line, never only the value with what is wrong cut off."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stkit.cli.app import MAX_ERROR_CHARS, app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["char", "import", "x" * 5000], "nothing was imported"),
        (["char", "export", "Weston", "-o", "x" * 5000], "File name too long"),
        (["tcg", "moot", "x" * 5000], "File name too long"),
    ],
)
def test_the_reason_of_a_long_error_line_is_kept(db_url, tmp_path, monkeypatch, args, reason):
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["char", "new", "Weston"]).exit_code == 0
    result = runner.invoke(app, args, env={"NO_COLOR": "1"})
    assert result.exit_code == 1
    line = result.stderr.rstrip("\n")
    assert "\n" not in line and line.startswith("Error: ")
    assert len(line) <= len("Error: ") + MAX_ERROR_CHARS
    assert "…" in line and reason in line, line[-200:]
