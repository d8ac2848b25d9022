"""What a command does before its own work: subcommands built only when named, packaged rules data parsed
once and kept by its hash, a mistyped command answered with a suggestion.

Speed itself is measured by benchmarks/startup.py and benchmarks/store.py (ratios, never asserted here);
these tests check the work that is skipped.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit import yamlsafe
from stkit.cli.app import app

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _python(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", **env},
        check=False,
    )


def test_a_group_builds_only_the_subcommand_named(tmp_path):
    code = (
        "import sys\n"
        "from stkit.cli.app import app, load_command\n"
        "try:\n"
        "    app(['char', 'list'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(load_command('char').commands))\n"
    )
    proc = _python(code, tmp_path, STKIT_DATABASE_URL="sqlite:///" + str(tmp_path / "s.sqlite"))
    assert proc.stdout.strip().splitlines()[-1] == "['list']", proc.stdout + proc.stderr


def test_a_lazy_group_still_lists_and_helps_with_every_subcommand():
    result = runner.invoke(app, ["char", "--help"], env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert result.exit_code == 0
    for name in ("new", "show", "list", "damage", "export", "delete"):
        assert f" {name} " in result.stdout


@pytest.mark.parametrize(
    ("args", "suggestion"),
    [(["rol", "5"], "'roll'"), (["char", "shw", "x"], "'show'"), (["odds", "atack", "5"], None)],
)
def test_a_mistyped_command_gets_a_suggestion(args, suggestion):
    result = runner.invoke(app, args, env={"NO_COLOR": "1"})
    assert result.exit_code == 2
    if suggestion is None:  # `stkit odds X` reads X as a pool: a different message, no suggestion
        return
    # worded as the mistyped option is: "no such option --wilpower; did you mean --willpower?"
    assert f"no such command '{args[0] if args[0] != 'char' else args[1]}'; did you mean {suggestion}?" in result.stderr


def test_packaged_data_is_parsed_once_and_kept_by_hash(tmp_path, monkeypatch):
    monkeypatch.setenv(yamlsafe.CACHE_ENV, str(tmp_path / "cache"))
    first = yamlsafe.load_packaged("stkit.sheet", "character_rules.yaml")
    text = (REPO / "stkit" / "sheet" / "data" / "character_rules.yaml").read_text(encoding="utf-8")
    assert first == yamlsafe.load(text, "character_rules.yaml")
    (kept,) = (tmp_path / "cache").iterdir()
    assert kept.name.startswith("character_rules.yaml.") and kept.suffix == ".marshal"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "cache").stat().st_mode) == 0o700

    def no_parsing(*_a, **_k):
        raise AssertionError("parsed again")

    monkeypatch.setattr(yamlsafe, "load", no_parsing)
    assert yamlsafe.load_packaged("stkit.sheet", "character_rules.yaml") == first


def test_a_damaged_or_unwritable_cache_only_means_parsing(tmp_path, monkeypatch):
    monkeypatch.setenv(yamlsafe.CACHE_ENV, str(tmp_path / "cache"))
    good = yamlsafe.load_packaged("stkit.sheet", "arms.yaml")
    (kept,) = (tmp_path / "cache").iterdir()
    kept.write_bytes(b"\xff\x00 not marshal")
    assert yamlsafe.load_packaged("stkit.sheet", "arms.yaml") == good
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would go")
    monkeypatch.setenv(yamlsafe.CACHE_ENV, str(blocker / "cache"))
    assert yamlsafe.load_packaged("stkit.sheet", "arms.yaml") == good


def test_an_edited_data_file_is_parsed_afresh(tmp_path, monkeypatch):
    """The cache is keyed by the YAML's bytes: the same name with other content is another entry."""
    monkeypatch.setenv(yamlsafe.CACHE_ENV, str(tmp_path / "cache"))
    package = tmp_path / "pkg"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    (package / "data" / "x.yaml").write_text("a: 1\n")
    assert yamlsafe.load_packaged("pkg", "x.yaml") == {"a": 1}
    (package / "data" / "x.yaml").write_text("a: 2\n")
    assert yamlsafe.load_packaged("pkg", "x.yaml") == {"a": 2}
    assert len(list((tmp_path / "cache").iterdir())) == 2


def test_char_show_with_a_warm_cache_does_not_load_yaml(tmp_path):
    env = {"STKIT_DATABASE_URL": "sqlite:///" + str(tmp_path / "s.sqlite"), yamlsafe.CACHE_ENV: str(tmp_path / "c")}
    made = _python("from stkit.cli.app import app; app(['char', 'new', 'Weston'])", tmp_path, **env)
    assert "Weston" in made.stdout, made.stderr
    code = (
        "import sys\n"
        "from stkit.cli.app import app\n"
        "try:\n"
        "    app(['char', 'show', 'Weston'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('yaml' in sys.modules)\n"
    )
    _python(code, tmp_path, **env)  # fills the cache
    proc = _python(code, tmp_path, **env)
    assert "Weston" in proc.stdout and proc.stdout.strip().splitlines()[-1] == "False", proc.stdout + proc.stderr


def test_finding_a_character_by_name_searches_an_index(tmp_path, monkeypatch):
    """`char show NAME` on a big store: every lookup of the characters table goes through an index (a
    full scan of 10,000 sheets was most of the time of the store commands)."""
    import sqlite3

    db = tmp_path / "s.sqlite"
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(db))
    for name in ("Weston", "Mari Cabrah"):
        assert runner.invoke(app, ["char", "new", name]).exit_code == 0
    from stkit.store.db.engine import dispose_engines

    dispose_engines()
    statements: list[str] = []
    real_connect = sqlite3.connect

    def traced(*args, **kwargs):
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(sqlite3, "connect", traced)
    for typed in ("Weston", "mari cabrah", "Mari"):
        result = runner.invoke(app, ["char", "show", typed], env={"NO_COLOR": "1"})
        assert result.exit_code == 0, result.output
    lookups = [s for s in statements if s.lstrip().upper().startswith("SELECT") and "FROM characters" in s]
    assert lookups
    with real_connect(db) as conn:
        plans = {s: " ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + s)) for s in lookups}
    scans = {s: p for s, p in plans.items() if "SCAN characters" in p and "INDEX" not in p}
    assert scans == {}


def test_a_store_edit_loads_neither_the_dice_engine_nor_platformdirs(tmp_path):
    """`char heal` with the store chosen by the environment: the house-rule vocabulary of the dice engine,
    not its rolling modules; no platformdirs (no default folder to find)."""
    env = {"STKIT_DATABASE_URL": "sqlite:///" + str(tmp_path / "s.sqlite"), yamlsafe.CACHE_ENV: str(tmp_path / "c")}
    made = _python("from stkit.cli.app import app; app(['char', 'new', 'Weston'])", tmp_path, **env)
    assert "Weston" in made.stdout, made.stderr
    code = (
        "import sys\n"
        "from stkit.cli.app import app\n"
        "try:\n"
        "    app(['char', 'damage', 'Weston', '1'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('stkit.dice.', 'platformdirs'))))\n"
    )
    proc = _python(code, tmp_path, **env)
    assert proc.stdout.strip().splitlines()[-1] == "['stkit.dice.house', 'stkit.dice.model']", proc.stdout + proc.stderr


@pytest.mark.parametrize("width", [30, 50, 80, 120])
def test_the_character_table_fits_the_width_and_never_cuts_a_name(width):
    """`char list` draws its own table: every line within the width (in terminal cells, wide characters
    counted twice), each name whole at the start of its row; no table only when even name, health and the
    three points columns with their two-cell gaps are wider than the terminal."""
    import random
    import unicodedata

    from stkit.cli.char.commands import character_table
    from stkit.sheet.sheet import Sheet

    def cells(text: str) -> int:  # independent of rich: East Asian wide characters take two cells
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

    rng = random.Random(width)
    drawn = 0
    for _ in range(60):
        rows = []
        for i in range(rng.randint(1, 12)):
            s = Sheet(
                name="".join(rng.choice("abcXYZ -\u6f22\u00e9") for _ in range(rng.randint(1, 30))).strip() or "x"
            )
            s.player = "".join(rng.choice("pqr ") for _ in range(rng.randint(0, 20)))
            s.tribe = rng.choice(["", "Get of Fenris", "Children of Gaia"])
            s.chronicle = rng.choice(["default", "another"])
            rows.append((i, s))
        lines = character_table(rows, width)
        narrowest = max(cells(s.name) for _, s in rows) + len("unhurt") + len("Rage") + len("Gnosis") + len("Willpower")
        if lines is None:
            assert narrowest + 2 * 4 > width
            continue
        drawn += 1
        assert max(cells(ln) for ln, _ in lines) <= width
        texts = [ln for ln, _ in lines]
        for _, s in rows:
            assert any(t == s.name or t.startswith(s.name + "  ") for t in texts), (s.name, texts)
    if width >= 80:
        assert drawn == 60


def test_a_character_list_is_drawn_without_rich_tables(tmp_path):
    """A screenful of `char list` costs as much in rich's Table (measuring, padding) as in the rest of the
    command: the list draws its own columns."""
    env = {"STKIT_DATABASE_URL": "sqlite:///" + str(tmp_path / "s.sqlite"), yamlsafe.CACHE_ENV: str(tmp_path / "c")}
    made = _python("from stkit.cli.app import app; app(['char', 'new', 'Weston'])", tmp_path, **env)
    assert "Weston" in made.stdout, made.stderr
    code = (
        "import sys\n"
        "from stkit.cli.app import app\n"
        "try:\n"
        "    app(['char', 'list'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('rich.table', 'rich.padding') if m in sys.modules))\n"
    )
    proc = _python(code, tmp_path, **env)
    assert "Weston" in proc.stdout, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_a_plain_roll_loads_neither_json_nor_the_log_vocabulary_nor_the_action_planner(tmp_path):
    """`stkit roll 5`: no JSON (only --json and the roll log need it), no sheet vocabulary (the log kind of
    a logged roll), no multiple-actions module; and the control-character patterns are not compiled for
    text that holds none."""
    code = (
        "import re, sys\n"
        "from stkit.cli.launch import main\n"
        "sys.argv = ['stkit', 'roll', '5', '-d', '6', '--seed', '1']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as done:\n"
        "    assert done.code == 0, done.code\n"
        "from stkit import text\n"
        "compiled = [p for (_, p, *_) in re._cache if p in (text._CONTROL_ONE_LINE, text._CONTROL_MULTILINE)]\n"
        "print(sorted(m for m in ('json', 'stkit.sheet.vocab', 'stkit.dice.actions') if m in sys.modules), compiled)\n"
    )
    proc = _python(code, tmp_path, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    assert "1 success" in proc.stdout, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[] []", proc.stdout + proc.stderr


def test_the_console_script_freezes_what_start_up_made_and_collects_later(tmp_path):
    """The console script's entry point switches the collector off before the frameworks load and freezes
    what they made before the command runs; a second collect_later starts no second timer."""
    assert 'stkit = "stkit.cli.launch:main"' in (REPO / "pyproject.toml").read_text(encoding="utf-8")
    code = (
        "import gc, sys, threading\n"
        "import stkit.cli.app as app\n"
        "seen = {}\n"
        "app.main = lambda: seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count())\n"
        "from stkit.cli.launch import main\n"
        "from stkit.cli.collector import collect_later\n"
        "main()\n"
        "before = threading.active_count()\n"
        "collect_later()\n"
        "print(seen['enabled'], seen['frozen'] > 10_000, threading.active_count() == before)\n"
    )
    proc = _python(code, tmp_path)
    assert proc.stdout.strip().splitlines()[-1] == "False True True", proc.stdout + proc.stderr


def test_reading_characters_loads_no_writing_or_creation_modules(tmp_path):
    """`char show` and `char list` write nothing: no event, scene or character-creation module (the next
    Rank comes from stkit.sheet.ranks); `stkit log` rolls nothing: no dice-rolling module."""
    env = {"STKIT_DATABASE_URL": "sqlite:///" + str(tmp_path / "s.sqlite"), yamlsafe.CACHE_ENV: str(tmp_path / "c")}
    made = _python("from stkit.cli.app import app; app(['char', 'new', 'Weston'])", tmp_path, **env)
    assert "Weston" in made.stdout, made.stderr
    heavy = (
        "stkit.store.table.events",
        "stkit.store.scenes",
        "stkit.store.fight.rules",
        "stkit.sheet.lifebook",
        "stkit.dice.request",
    )
    for args in (["char", "show", "Weston"], ["char", "list"], ["log", "--limit", "5"]):
        code = (
            "import sys\n"
            "from stkit.cli.app import app\n"
            "try:\n"
            f"    app({args!r})\n"
            "except SystemExit as done:\n"
            "    assert done.code in (0, None), done.code\n"
            f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
        )
        proc = _python(code, tmp_path, **env)
        assert proc.stdout.strip().splitlines()[-1] == "[]", (args, proc.stdout + proc.stderr)
