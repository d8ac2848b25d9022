"""docs/characters.md runs as written: every `$ stkit ...` line of its console blocks is run in page order on
a new database (SQLite, and PostgreSQL when STKIT_TEST_POSTGRES_URL is set), and every output line the page
shows must appear, in order, in what the command prints.

Page conventions: a line `...` skips output; `...` inside a line stands for any text (a time, a path); a
trailing `\\` continues the command on the next line; `# ...` after a command is a comment. Commands that
name "your own folder" or "your own export" get a stand-in made here: `my-sheets/` (a good a.yaml and a b.yaml
with Wits 9), `~/Downloads/fvtt-Actor-sings-at-dusk.json` (the Foundry fixture, renamed), and
`~/Downloads/fvtt-Actor-marrow-of-oaks.json` and `~/Downloads/lost-stars.gex` (tests/formats/data).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests.docpages import fits, missing, session

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "characters.md"
FOUNDRY = Path(__file__).with_name("data") / "foundry-werewolf-small.json"
IMPORTS = ROOT / "tests" / "formats" / "data"
EXAMPLES = ROOT / "examples"  # the files docs/characters.md tells a newcomer to copy


def test_session_reader():
    text = (
        "```console\n$ stkit char new A \\\n      --set Wits=2   # a comment\nCreated A\n$ export X=1\n"
        "not output\n```\n```console\n$ stkit log\n...\n3  ...  A\n```\n"
    )
    assert session(text) == [(["char", "new", "A", "--set", "Wits=2"], ["Created A"]), (["log"], ["3  ...  A"])]
    assert fits("3  ...  A  x", "3  2026-11-30 10:00:00  A  x")
    assert not fits("3  ...  A  x", "3  2026-11-30 10:00:00  B  x")
    assert not fits("Dice: 3", "Dice: 3 4")


@pytest.fixture
def readers_folder(tmp_path, monkeypatch):
    """A working folder as a reader has it: the shipped characters/, plus stand-ins for their own files."""
    work = tmp_path / "work"
    shutil.copytree(ROOT / "characters", work / "characters")
    (work / "my-sheets").mkdir()
    (work / "my-sheets" / "a.yaml").write_text("name: Good Sheet\nattributes: {Wits: 3}\n", encoding="utf-8")
    (work / "my-sheets" / "b.yaml").write_text("name: Bad Sheet\nattributes: {Wits: 9}\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    actor = json.loads(FOUNDRY.read_text(encoding="utf-8")) | {"name": "Sings-at-Dusk"}
    (home / "Downloads" / "fvtt-Actor-sings-at-dusk.json").write_text(json.dumps(actor), encoding="utf-8")
    shutil.copy(EXAMPLES / "fvtt-Actor-marrow-of-oaks.json", home / "Downloads" / "fvtt-Actor-marrow-of-oaks.json")
    shutil.copy(EXAMPLES / "lost-stars.gex", home / "Downloads" / "lost-stars.gex")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    return work


def run_page(text: str) -> list[tuple[list[str], int, list[str]]]:
    """Run every step of ``text``; assert exit codes and shown lines. Returns (argv, exit code, output)."""
    runner = CliRunner()
    ran = []
    for argv, expected in session(text):
        argv = [os.path.expanduser(a) if a.startswith("~") else a for a in argv]  # as the shell would
        result = runner.invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100"})
        got = [ln.rstrip() for ln in (result.stdout + result.stderr).splitlines()]
        shown = f"stkit {shlex.join(argv)}:\n" + "\n".join(got)
        assert result.exception is None or isinstance(result.exception, SystemExit), (shown, result.exception)
        assert result.exit_code == (1 if any(e.startswith("Error: ") for e in expected) else 0), shown
        lost = missing(expected, got)
        assert lost is None, f"missing {lost!r} in {shown}"
        ran.append((argv, result.exit_code, got))
    return ran


def test_the_page_runs_as_written(db_url, readers_folder):
    ran = run_page(DOC.read_text(encoding="utf-8"))
    commands = [shlex.join(argv) for argv, _, _ in ran]
    assert len(ran) == 67, commands
    assert [c for (_, code, _), c in zip(ran, commands, strict=True) if code] == [
        "char xp Runs-Through-Rain award 3 -r 'session 4'",
        "char set Archibald Dexterty 3",
        "roll 'Dexterity + Athletics' --char Weston --willpower",
        "char import my-sheets/",
        "char set Sees-the-Sun auspice ahroun",
        "char shift 'Old Tom' crinos",
        "char check Sees-Far",
        "char raise Sees-Far 'gift:Spirit Speech=2' --outside",
        "char raise Sees-Far Occult=3 Intelligence",
    ]
    # every command shows output, except none: a reader can check each one
    assert all(got for _, _, got in ran)


def test_page_examples_are_reproducible():
    """Every roll on the page that is not an error uses --seed or --dice, so its dice are the same for all."""
    for argv, expected in session(DOC.read_text(encoding="utf-8")):
        if argv[0] == "roll" and not any(e.startswith("Error: ") for e in expected):
            assert "--seed" in argv or "--dice" in argv, argv


def test_page_names_no_missing_folder():
    """The page's files are the shipped characters/ or clearly marked as the reader's own."""
    text = DOC.read_text(encoding="utf-8")
    assert "sheets/" not in text.replace("my-sheets/", "")
    for argv, _ in session(text):
        if argv[:2] == ["char", "import"]:
            path = argv[2]
            assert path == "characters/" or path.startswith(("my-sheets/", "~/")), path
    for line in text.splitlines():
        if line.startswith("$ stkit char import") and "characters/" not in line:
            assert "# your own" in line, line
