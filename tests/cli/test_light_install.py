"""The player's light install: `pip install .` brings the core (roll, odds, char, scene, tcg, shell); the
live table, the Discord door and the PDF sheet are extras, and a command whose extra is missing says in one
line which to install (exit 1, no traceback). Missing modules are simulated by an import blocker: a
``sitecustomize`` on PYTHONPATH that makes the named modules unimportable, as if not installed."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

#: Distribution (as pyproject names it) -> the top-level module it installs, spelled out here.
DISTRIBUTIONS = {
    "fastapi": "fastapi",
    "Jinja2": "jinja2",
    "python-multipart": "multipart",
    "sse-starlette": "sse_starlette",
    "uvicorn": "uvicorn",
    "segno": "segno",
    "httpx": "httpx",
    "cryptography": "cryptography",
    "fpdf2": "fpdf",
    "psycopg[binary]": "psycopg",
}

BLOCKER = """
import os, sys
BLOCKED = set(os.environ["STKIT_TEST_BLOCK"].split(","))
class _Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Blocker())
"""


def _names(requirements: list[str]) -> set[str]:
    return {r.split(">")[0].split("<")[0].split("=")[0].split(";")[0].strip() for r in requirements}


def test_the_core_install_holds_no_server_or_pdf_tools_and_the_test_extra_pulls_every_extra():
    core = _names(PROJECT["dependencies"])
    extras = PROJECT["optional-dependencies"]
    assert core.isdisjoint(DISTRIBUTIONS), core & set(DISTRIBUTIONS)
    assert _names(extras["table"]) == {
        "fastapi",
        "Jinja2",
        "python-multipart",
        "sse-starlette",
        "uvicorn",
        "segno",
        "httpx",
        "cryptography",
    }
    assert _names(extras["print"]) == {"fpdf2"}
    assert "stkit[table,print,postgres]" in extras["test"]


def test_every_extra_module_is_named_by_the_extra_that_installs_it():
    from stkit.extras import MODULE_EXTRA

    for extra in ("table", "print", "postgres"):
        for dist in _names(PROJECT["optional-dependencies"][extra]):
            assert MODULE_EXTRA[DISTRIBUTIONS[dist]] == extra, dist


def _stkit(tmp_path: pathlib.Path, blocked: str, *args: str) -> subprocess.CompletedProcess:
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(hook), str(ROOT)]),
        "STKIT_TEST_BLOCK": blocked,
        "NO_COLOR": "1",
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "STKIT_DATABASE_URL": "sqlite:///" + str(tmp_path / "s.sqlite"),
    }
    env.pop("STKIT_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "stkit", *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )


def test_the_blocker_blocks(tmp_path):
    proc = _stkit(tmp_path, "fastapi", "--version")
    assert proc.returncode == 0, proc.stderr
    hook = tmp_path / "hook"
    env = {**os.environ, "PYTHONPATH": str(hook), "STKIT_TEST_BLOCK": "fastapi"}
    probe = subprocess.run([sys.executable, "-c", "import fastapi"], capture_output=True, text=True, env=env)
    assert probe.returncode == 1 and "No module named 'fastapi'" in probe.stderr


@pytest.mark.parametrize(
    ("blocked", "args", "extra"),
    [
        ("fastapi", ["serve", "--port", "0"], "table"),
        ("uvicorn", ["serve", "--port", "0"], "table"),
        ("httpx", ["discord", "follow", "--once"], "table"),
        ("fpdf", ["char", "print", "Weston", "--pdf", "weston.pdf"], "print"),
    ],
)
def test_a_command_whose_extra_is_missing_names_it_in_one_line(tmp_path, blocked, args, extra):
    made = _stkit(tmp_path, blocked, "char", "new", "Weston")
    assert made.returncode == 0, made.stderr
    proc = _stkit(tmp_path, blocked, *args)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"pip install 'stkit[{extra}]'" in proc.stderr and blocked in proc.stderr, proc.stderr
    assert not (tmp_path / "weston.pdf").exists() and not (tmp_path / "table_links.json").exists()


def test_the_players_commands_run_without_any_extra(tmp_path):
    blocked = ",".join(sorted(set(DISTRIBUTIONS.values()) | {"starlette"}))
    for args in (
        ["roll", "5", "--seed", "1"],
        ["odds", "5", "-d", "6"],
        ["char", "new", "Weston"],
        ["char", "list"],
        ["char", "show", "Weston"],
        ["roll", "Dexterity + Brawl", "-c", "Weston", "--seed", "1"],
        ["scene", "start", "Night one"],
        ["tcg", "--help"],
    ):
        proc = _stkit(tmp_path, blocked, *args)
        assert proc.returncode == 0, (args, proc.stderr)
