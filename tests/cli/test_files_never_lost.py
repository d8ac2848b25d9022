"""Files never lost: a command that writes a file refuses an existing one without --force, writes it all at
once (a temporary file renamed into place) and keeps a replaced file's permissions."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError
from stkit.safefile import write_atomic
from tests.cli.tree import leaf_commands

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "s.sqlite"))
    monkeypatch.setenv("NO_COLOR", "1")
    assert runner.invoke(app, ["char", "import", str(REPO / "characters" / "weston.yaml")]).exit_code == 0
    return tmp_path


def test_export_refuses_an_existing_file_without_force(store):
    target = store / "f.txt"
    target.write_text("keep\n")
    result = runner.invoke(app, ["char", "export", "Weston", "-o", str(target)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {target}: already exists; use --force to replace it\n"
    assert target.read_text() == "keep\n"
    assert sorted(p.name for p in store.iterdir() if p.name.startswith(".f.txt")) == []


def test_export_with_force_replaces_and_keeps_the_mode(store):
    target = store / "f.txt"
    target.write_text("keep\n")
    target.chmod(0o644)
    result = runner.invoke(app, ["char", "export", "Weston", "-o", str(target), "--force"])
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith("name: Weston\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_a_new_export_is_private(store):
    target = store / "new.yaml"
    assert runner.invoke(app, ["char", "export", "Weston", "-o", str(target)]).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_symlink_to_a_file_counts_as_existing(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("keep\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    with pytest.raises(DataFileError, match="already exists; use --force"):
        write_atomic(link, b"new\n")
    assert real.read_text() == "keep\n"


def test_a_failed_rename_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "w.yaml"
    target.write_text("old\n")

    def refuse(*_a):
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(DataFileError, match=r"w\.yaml: cannot be written: Permission denied"):
        write_atomic(target, b"new\n", force=True)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["w.yaml"]


def test_every_file_writing_option_has_force():
    """Every option that names a file to write (--output / -o) sits beside a --force flag."""
    missing = []
    writers = 0
    for path, command in leaf_commands():
        names = {o for p in command.params for o in getattr(p, "opts", [])}
        if "--output" in names or "-o" in names:
            writers += 1
            if "--force" not in names:
                missing.append(" ".join(path))
    assert writers >= 1
    assert missing == []


@pytest.mark.slow
def test_real_process_keeps_an_existing_file(tmp_path):
    db = str(tmp_path / "s.sqlite")
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO)}
    run = [sys.executable, "-m", "stkit"]
    subprocess.run([*run, "char", "new", "Kim", "--db", db], env=env, check=True, capture_output=True, timeout=60)
    target = tmp_path / "f.txt"
    target.write_text("keep\n")
    proc = subprocess.run(
        [*run, "char", "export", "Kim", "-o", str(target), "--db", db],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1 and "already exists; use --force" in proc.stderr
    assert target.read_text() == "keep\n"
