"""`char print` with --pdf and --html naming one file (the same name, another spelling of it, a link to it):
a usage error before anything is written, never a PDF left behind by a command that then fails."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests import hostile_cases as H

runner = CliRunner()


@pytest.mark.parametrize(
    ("pdf", "html"), [("same.out", "same.out"), ("same.out", "./same.out"), ("link.out", "same.out")]
)
def test_one_file_for_both_outputs_is_a_usage_error(db_url, tmp_path, monkeypatch, pdf, html):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.out").symlink_to("same.out")  # dangling until something writes same.out
    assert runner.invoke(app, ["char", "new", "Weston"]).exit_code == 0
    result = runner.invoke(app, ["char", "print", "Weston", "--pdf", pdf, "--html", html], env={"NO_COLOR": "1"})
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("Error: Invalid value: --pdf and --html name the same file (")
    assert "give two files" in result.stderr and len(result.stderr.splitlines()) == 1
    assert not H.raw_controls(result.stderr)
    assert not (tmp_path / "same.out").exists()  # nothing written


def test_two_files_are_both_written(db_url, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["char", "new", "Weston"]).exit_code == 0
    result = runner.invoke(app, ["char", "print", "Weston", "--pdf", "a.pdf", "--html", "a.html"])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF") and (tmp_path / "a.html").exists()
