"""With a store chosen (``--db`` or ``$STKIT_DATABASE_URL``), stkit writes nothing outside that store's
folder: the parsed rules data is cached beside a SQLite store, and kept in memory for a PostgreSQL one."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: Commands that read the packaged rules data (breeds, tribes, Gifts, ranks) and write to the store.
COMMANDS = [
    ["char", "new", "Weston", "--breed", "Lupus", "--tribe", "Get of Fenris"],
    ["char", "set", "Weston", "Brawl", "3"],
    ["char", "show", "Weston"],
    ["char", "list"],
    ["roll", "Dexterity + Brawl", "-c", "Weston", "--seed", "1"],
    ["char", "damage", "Weston", "1"],
    ["log"],
]


def _env(tmp_path: pathlib.Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "STKIT_"))}
    return env | {"HOME": str(home), "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}


def _everything_under(folder: pathlib.Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("chosen_by", ["--db", "STKIT_DATABASE_URL"])
def test_nothing_is_written_outside_the_chosen_stores_folder(tmp_path, chosen_by):
    env = _env(tmp_path)
    store = tmp_path / "table" / "troupe.sqlite"
    store.parent.mkdir()
    extra: list[str] = []
    if chosen_by == "--db":
        extra = ["--db", str(store)]
    else:
        env["STKIT_DATABASE_URL"] = "sqlite:///" + str(store)
    for args in COMMANDS:
        proc = subprocess.run(
            [sys.executable, "-m", "stkit", *args, *extra],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path / "table",
            timeout=60,
        )
        assert proc.returncode == 0, (args, proc.stderr)
    assert _everything_under(tmp_path / "home") == []
    assert any(p.name.endswith(".marshal") for p in (store.parent / "stkit-cache").iterdir())


def test_without_a_chosen_store_the_cache_is_in_the_user_cache_folder(tmp_path):
    env = _env(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "stkit", "char", "new", "Weston", "--tribe", "Get of Fenris"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert any(p.endswith(".marshal") for p in _everything_under(tmp_path / "home" / ".cache" / "stkit"))


def test_a_store_without_a_folder_keeps_the_parsed_data_in_memory(monkeypatch, tmp_path):
    from stkit import config, yamlsafe

    monkeypatch.setattr(config, "_chosen_store", None)  # no --db in this process
    monkeypatch.delenv(yamlsafe.CACHE_ENV, raising=False)
    monkeypatch.setenv("STKIT_DATABASE_URL", "postgresql+psycopg://stkit@127.0.0.1:1/nowhere")
    assert yamlsafe.cache_folder() is None
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "troupe.sqlite"))
    assert yamlsafe.cache_folder() == tmp_path / "stkit-cache"


def test_each_command_line_chooses_its_store_anew(tmp_path, monkeypatch):
    """Two command lines in one process (as in `stkit shell`): the second, without --db, does not keep the
    first one's store for its cache."""
    from typer.testing import CliRunner

    from stkit import config, yamlsafe
    from stkit.cli.app import app

    monkeypatch.delenv(yamlsafe.CACHE_ENV, raising=False)
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    runner = CliRunner()
    assert runner.invoke(app, ["char", "list", "--db", str(first / "s.sqlite")]).exit_code == 0
    assert config.chosen_store() == "sqlite:///" + str(first / "s.sqlite")
    env = {"STKIT_DATABASE_URL": "sqlite:///" + str(second / "s.sqlite"), "NO_COLOR": "1"}
    assert runner.invoke(app, ["char", "list"], env=env).exit_code == 0
    monkeypatch.setenv("STKIT_DATABASE_URL", env["STKIT_DATABASE_URL"])
    assert yamlsafe.cache_folder() == second / "stkit-cache"
