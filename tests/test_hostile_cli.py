"""The generated hostile-input test: every leaf command of the CLI (the click tree walked from the root,
lazy groups included) run with hostile values in each of its arguments and options.

Every run must end within the time bound with exit 0, 1 or 2, at most one line on stderr when it fails
(and at least one), no traceback, no raw control character or hyperlink on stdout or stderr, no rich
markup in a value read as markup, and never exit 0 for a value that cannot be legal. File parameters get
awkward files (FIFOs, devices, huge, binary) and hostile contents (YAML bombs and tags, JSON nested
100,000 deep, a Foundry actor and a Grapevine file quoting escape codes and markup, a hostile deck list). The fast test runs one value per parameter (rotating over the
classes); the slow one runs every value on every parameter. The generator is tests/hostile_cases.py.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests import hostile_cases as H

runner = CliRunner()

#: Failures of the card game's commands (stkit/tcg, stkit/cli/tcg, another engineer's files) that this
#: test finds and reports: (command, parameter, hostile class). Listed cases are still run by the slow
#: sweep and reported as expected failures; the fast test skips the ones that hang (10 s each).
KNOWN_TCG: set[tuple[tuple[str, ...], str, str]] = set()


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A store holding Weston, scene 1, extended action 1 and contest 1; awkward files; fixture files."""
    root = tmp_path_factory.mktemp("hostile")
    store = root / "template.sqlite"
    env = {
        "STKIT_DATABASE_URL": "sqlite:///" + str(store),
        "HOME": str(root / "home"),
        "XDG_DATA_HOME": str(root / "home" / "share"),
    }
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        for args in (
            ["char", "import", str(H.REPO / "characters" / "weston.yaml")],
            ["scene", "start", "Night"],
            ["extended", "start", "Climb", "--pool", "5", "--difficulty", "7", "--target", "5"],
            ["contest", "start", "Chase", "--a", "4", "--b", "5", "--target", "3"],
        ):
            result = runner.invoke(app, args)
            assert result.exit_code == 0, (args, result.output)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    from stkit.store.db.engine import dispose_engines

    dispose_engines()
    fixtures = {
        "character": H.REPO / "characters" / "weston.yaml",
        "combat": H.REPO / "tests" / "tcg" / "resolver_fixtures" / "janus_frenzy.yaml",
        "moot": H.REPO / "tests" / "tcg" / "resolver_fixtures" / "moot.yaml",
        "alpha": H.REPO / "tests" / "tcg" / "resolver_fixtures" / "alphas.yaml",
        "victory": H.REPO / "tests" / "tcg" / "resolver_fixtures" / "victory.yaml",
        "cards": H.REPO / "examples" / "cards.yaml",
        "deck": H.REPO / "examples" / "deck.txt",
    }
    return {"template": store, "files": H.hostile_files(root / "files"), "fixtures": fixtures, "home": root / "home"}


@pytest.fixture
def memory_cap():
    """Cap this process's address space while a sweep runs: a regression that reads /dev/zero fails with
    MemoryError instead of taking the machine's memory."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        with open("/proc/self/statm") as f:
            in_use = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (in_use + (2 << 30), hard))
    except (OSError, ValueError):
        pass
    yield
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _sweep(prepared, tmp_path, monkeypatch, path, command, *, thorough: bool) -> None:
    store = tmp_path / "store.sqlite"
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(store))
    # a hostile value may be a legal relative path (`-o -5`, `--cards-db ' '`): files land here, not in the repo
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    # `stkit serve` would serve until stopped: the sweep checks how it takes its values, not the serving
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    # likewise `stkit discord follow` would follow until stopped
    from stkit.discord.webhook import Follower

    monkeypatch.setattr(Follower, "run", lambda self: None)
    dirty = True
    problems: list[str] = []
    expected: list[str] = []
    plan = None if thorough else H.sample_plan(LEAVES, prepared["files"])
    for case in H.cases_for(path, command, prepared["files"], prepared["fixtures"], plan=plan):
        known = (case.path, case.param, case.kind) in KNOWN_TCG
        if known and not thorough:
            continue
        if dirty:
            H.restore_store(prepared["template"], store)
        found, code = H.run_case(runner, app, case)
        dirty = code != 1 and code != 2  # a refused command stores nothing (checked by the regressions)
        if found:
            (expected if known else problems).append(f"{case.param}={case.kind}: {'; '.join(found)}")
    assert problems == [], "\n".join(problems)
    if expected:
        pytest.xfail("known card game failures (stkit/tcg): " + " | ".join(expected)[:2000])


LEAVES = H.leaf_commands()


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_every_command_survives_a_sample_of_hostile_values(prepared, tmp_path, monkeypatch, memory_cap, path, command):
    _sweep(prepared, tmp_path, monkeypatch, path, command, thorough=False)


@pytest.mark.slow
@pytest.mark.parametrize(("path", "command"), LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_every_command_survives_every_hostile_value(prepared, tmp_path, monkeypatch, memory_cap, path, command):
    _sweep(prepared, tmp_path, monkeypatch, path, command, thorough=True)


def test_the_generator_covers_every_leaf_command_and_class(prepared):
    names = {" ".join(p) for p, _ in LEAVES}
    assert {"roll", "char import", "scene show", "contest abandon", "extended roll", "tcg cards search"} <= names
    assert len(names) >= 50
    kinds = set()
    for path, command in LEAVES:
        plan = H.sample_plan(LEAVES, prepared["files"])
        kinds |= {c.kind for c in H.cases_for(path, command, prepared["files"], prepared["fixtures"], plan=plan)}
    # the fast sample still touches every class of hostile value
    every = {k for k, _, _ in H.HOSTILE_INTS + H.HOSTILE_TEXTS} | {f"file-{k}" for k in prepared["files"]}
    assert every - kinds == set()


@pytest.mark.parametrize("variable", ["COLUMNS", "LINES"])
@pytest.mark.parametrize(("kind", "value", "_"), [c for c in H.HOSTILE_INTS if c[0] != "empty"])
def test_terminal_size_variables_are_read_as_numbers(variable, kind, value, _):
    """rich sizes its output from $COLUMNS / $LINES: a hostile value is one error line (exit 1) before any
    command runs, the help included, never an internal error or a width read from another script's digits."""
    for args in (["roll", "5", "--seed", "1"], ["--help"], ["roll", "--help"]):
        result = runner.invoke(app, args, env={"NO_COLOR": "1", variable: value})
        assert result.exit_code == 1, (args, result.output)
        assert result.stdout == ""
        assert result.stderr.startswith(f"Error: the environment variable {variable} ")
        assert len(result.stderr.splitlines()) == 1 and not H.raw_controls(result.stderr)
    ok = runner.invoke(app, ["roll", "5", "--seed", "1"], env={"NO_COLOR": "1", variable: "80"})
    assert ok.exit_code == 0 and "5 dice at difficulty 6" in ok.stdout


def test_the_checks_catch_what_they_look_for():
    """The checks themselves: a raw ESC, a C1 byte, a bidi override or a surrogate is found; newline and tab
    are not."""
    assert H.raw_controls("a\x1b[31m") == ["\x1b"]
    assert H.raw_controls("\x9b1m\u202e\udcff") == ["\x9b", "\u202e", "\udcff"]
    assert H.raw_controls("two\nlines\tand a tab, \\x1b shown as text") == []


def test_the_markup_check_catches_markup_read_as_markup():
    """A command that prints a value through rich markup loses the value's tags: the check says so."""
    import typer
    from rich.console import Console

    demo = typer.Typer()

    @demo.command()
    def show(value: str) -> None:
        Console().print(f"got {value}")  # the defect the check looks for: the value read as markup

    case = H.Case(("show",), ("[bold red]qqloud[/]",), "value", "markup-marker", False)
    problems, code = H.run_case(runner, demo, case)
    assert code == 0 and any("read as markup" in p for p in problems), problems


# ----- a few real processes ------------------------------------------------------------------------------
def _real(
    args: list[bytes | str], *, env_extra: dict | None = None, timeout: float = 30
) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(H.REPO), **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "stkit", *args],
        capture_output=True,
        env=env,
        timeout=timeout,
        check=False,
        cwd=os.environ.get("HOME", "/"),  # the per-test home folder of tests/conftest.py
    )


def _one_error_line(proc: subprocess.CompletedProcess) -> str:
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 1, (proc.returncode, err)
    assert len(err.splitlines()) == 1 and err.startswith("Error: "), err
    assert not H.raw_controls(err) and "Traceback" not in err
    return err.strip()


@pytest.mark.slow
def test_real_process_undecodable_argument_and_variable(tmp_path):
    db = str(tmp_path / "s.sqlite")
    assert _real(["char", "new", "Weston", "--db", db]).returncode == 0
    assert _one_error_line(_real([b"roll", b"5", b"--char", b"Weston", b"--task", b"\xff\xfe", b"--db", db.encode()]))
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(H.REPO)}
    env_b = {k.encode(): v.encode() for k, v in env.items()} | {b"STKIT_CHRONICLE": b"\xff\xfe"}
    proc = subprocess.run(
        [sys.executable, "-m", "stkit", "scene", "start", "Dawn", "--db", db],
        capture_output=True,
        env=env_b,
        timeout=30,
        check=False,
        cwd=tmp_path,
    )
    assert _one_error_line(proc) == (
        "Error: STKIT_CHRONICLE contains the byte 0xff at position 1, which is not UTF-8 text; give the value in UTF-8"
    )


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="needs FIFOs and /dev/zero")
def test_real_process_fifo_and_device_files_end_at_once(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    db = str(tmp_path / "s.sqlite")
    assert _real(["char", "new", "Weston", "--db", db]).returncode == 0
    assert "named pipe (FIFO)" in _one_error_line(_real(["char", "import", str(fifo), "--db", db], timeout=20))
    assert "is a device" in _one_error_line(_real(["char", "import", str(link), "--db", db], timeout=20))
    assert "named pipe (FIFO)" in _one_error_line(_real(["char", "export", "Weston", "-o", str(fifo), "--db", db]))


@pytest.mark.slow
def test_real_process_colour_output_keeps_user_text_inert(tmp_path):
    """With colour forced on (as on a terminal), styles are the only escape sequences: a name that is rich
    markup for a link, and a name stored raw with ESC, C1 and bidi characters (as an old store may hold),
    print as typed and as visible escapes."""
    import re
    import sqlite3

    db = tmp_path / "s.sqlite"
    link = "[link=https://evil.example]x[/link]"
    assert _real(["char", "new", link, "--db", str(db)]).returncode == 0
    assert _real(["char", "new", "Plain", "--db", str(db)]).returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE characters SET name = ? WHERE name = 'Plain'", ("Ev\x1b]0;owned\x07il\x9b2J\u202e",))
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {
        "FORCE_COLOR": "1",
        "TERM": "xterm-256color",
        "PYTHONPATH": str(H.REPO),
    }
    for args in (["char", "list"], ["char", "show", link]):
        proc = subprocess.run(
            [sys.executable, "-m", "stkit", *args, "--db", str(db)],
            capture_output=True,
            env=env,
            timeout=30,
            check=False,
            cwd=tmp_path,
        )
        out = (proc.stdout + proc.stderr).decode("utf-8")
        assert proc.returncode == 0, out
        assert "\x1b[" in out  # colour is on: the check below is not vacuous
        assert "\x1b]8" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out
        assert re.sub(r"\x1b\[[0-9;]*m", "", out).count("\x1b") == 0, out
        assert link in re.sub(r"\x1b\[[0-9;]*m", "", out)
    listed = re.sub(r"\x1b\[[0-9;]*m", "", _real(["char", "list", "--db", str(db)]).stdout.decode())
    assert "Ev\\x1b]0;owned\\x07il\\x9b2J\\u202e" in listed


def test_prepared_files_are_what_their_names_say(tmp_path):
    # Built afresh: the sweep may legally overwrite the shared files (an export's -o names one of them).
    files = H.hostile_files(tmp_path)
    assert files["utf16"].read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff")
    assert b"\r\n" in files["crlf"].read_bytes()
    assert files["huge"].stat().st_size > 20 * 1024 * 1024
    if "fifo" in files:
        import stat

        assert stat.S_ISFIFO(os.stat(files["fifo"]).st_mode)
