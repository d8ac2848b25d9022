"""A table kept in its own folder (--db there, or $STKIT_DATABASE_URL) leaves nothing elsewhere: the shell's
history and the card database go beside the chosen store; only the user cache folder may receive parsed
copies of stkit's own rules data (stkit.yamlsafe.load_packaged)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli import shell
from stkit.cli.app import app
from stkit.config import companion_path, default_database_path

runner = CliRunner()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """HOME and the XDG folders in a temp folder of their own, no store chosen by the environment."""
    home = tmp_path / "home"
    home.mkdir()
    for var, sub in (("HOME", ""), ("XDG_DATA_HOME", ".local/share"), ("XDG_CONFIG_HOME", ".config")):
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.delenv("STKIT_DATABASE_URL", raising=False)
    monkeypatch.delenv("STKIT_CARDS_DB", raising=False)
    return home


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def test_companion_files_go_beside_the_chosen_store(home, tmp_path, monkeypatch):
    table = tmp_path / "table"
    table.mkdir()
    db = str(table / "night.sqlite")
    assert companion_path("shell_history", db) == table / "shell_history"
    assert companion_path("shell_history") == default_database_path().parent / "shell_history"
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + db)
    assert companion_path("cards.sqlite") == table / "cards.sqlite"
    monkeypatch.setenv("STKIT_DATABASE_URL", "postgresql+psycopg://u@localhost/x")
    assert companion_path("cards.sqlite") == default_database_path().parent / "cards.sqlite"


def test_an_evening_with_db_in_its_own_folder_writes_nothing_outside_it(home, tmp_path, monkeypatch):
    table = tmp_path / "table"
    table.mkdir()
    db = str(table / "night.sqlite")
    monkeypatch.chdir(table)
    for args in (
        ["char", "new", "Weston", "--db", db],
        ["roll", "5", "--seed", "1", "--db", db],
        ["char", "show", "Weston", "--db", db],
        ["char", "damage", "Weston", "2", "--db", db],
        ["char", "export", "Weston", "-o", str(table / "weston.yaml"), "--db", db],
        ["scene", "start", "Night", "--db", db],
        ["odds", "5"],
    ):
        result = runner.invoke(app, args, env={"NO_COLOR": "1"})
        assert result.exit_code == 0, (args, result.output)
    # the card game and the shell, with the store chosen by the environment as `stkit shell --db` does
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + db)
    found = runner.invoke(app, ["tcg", "cards", "search", "rage"], env={"NO_COLOR": "1"})
    assert found.exit_code == 0, found.output
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    with create_pipe_input() as pipe:
        pipe.send_text("roll 3 --seed 2\r")
        pipe.close()
        shell.interactive(pt_input=pipe, pt_output=DummyOutput())
    assert {"night.sqlite", "cards.sqlite", "shell_history", "weston.yaml"} <= _files(table)
    outside = _files(home)
    assert all(f.startswith(".cache/stkit/data/") and f.endswith(".marshal") for f in outside), outside
