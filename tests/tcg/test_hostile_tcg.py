"""Every tcg command with hostile values in each argument and option: it finishes quickly, exits 0, 1 or 2
with at most one line on stderr, never shows a traceback, and never writes a raw control byte."""

import os
import pathlib
import re
import time

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "120"}
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

TEXTS = [
    "",
    "   ",
    "9" * 5000,
    "-5",
    "\u0663\u0667",  # Arabic-Indic digits
    "\x1b[2J\x1b]0;title\x07",
    "\x9b31m",
    "[bold]x[/bold]",
    "zzqq[/bold]",
    "[link=https://evil.example]x[/link]",
    "\u202eevil",
    "N" * 100_000,
    "\udcff\udcfe",  # undecodable bytes of a command line
]


def _files(tmp: pathlib.Path) -> list[str]:
    (tmp / "folder").mkdir()
    os.mkfifo(tmp / "fifo.yaml")
    (tmp / "empty.yaml").write_bytes(b"")
    (tmp / "binary.yaml").write_bytes(bytes(range(256)) * 40)
    (tmp / "utf16.yaml").write_bytes("hunter: {name: A}\n".encode("utf-16"))
    (tmp / "crlf.txt").write_bytes(b"Name\tType\r\nA\tAlly\r\n")
    (tmp / "huge.txt").write_bytes(b"Name\tType\n" + b"x\tAlly\n" * 3_000_000)  # 21 MB: over the size cap
    (tmp / "bomb.yaml").write_text(
        "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
        encoding="utf-8",
    )
    names = ["folder", "fifo.yaml", "empty.yaml", "binary.yaml", "utf16.yaml", "crlf.txt", "huge.txt", "bomb.yaml"]
    return [str(tmp / n) for n in names] + ["/dev/zero", str(tmp / "missing.yaml")]


TEXT_COMMANDS = [
    ["tcg", "rules", "search", "{}"],
    ["tcg", "rules", "show", "{}"],
    ["tcg", "define", "{}"],
    ["tcg", "cards", "search", "{}"],
    ["tcg", "cards", "search", "--type", "{}"],
    ["tcg", "cards", "search", "--keyword", "{}"],
    ["tcg", "cards", "search", "--renown", "{}"],
    ["tcg", "cards", "search", "--tribe", "{}", "--set", "{}"],
    ["tcg", "cards", "show", "{}"],
    ["tcg", "cards", "show", "Janus", "--set", "{}"],
    ["tcg", "cards", "search", "x", "--cards-db", "{}"],
    ["tcg", "battlefield", "--renown", "5", "--buy", "{}"],
    ["tcg", "battlefield", "--renown", "5", "--defender-keywords", "{}"],
    ["tcg", "battlefield", "--renown", "{}"],
    ["tcg", "frenzy", "--health", "5", "--wounds", "2", "--derangement", "{}"],
    ["tcg", "umbra-cost", "--gnosis", "{}", "--level", "2"],
    ["tcg", "regen", "--paw", "{}"],
]
FILE_COMMANDS = [
    ["tcg", "cards", "import", "{}"],
    ["tcg", "deck", "check", "{}"],
    ["tcg", "combat", "{}"],
    ["tcg", "moot", "{}"],
    ["tcg", "alpha-order", "{}"],
    ["tcg", "victory", "{}"],
]


def _check(argv: list[str]) -> None:
    start = time.process_time()
    result = runner.invoke(app, argv, env=ENV)
    took = time.process_time() - start
    shown = [a[:40] for a in argv]
    assert took < 10, (shown, took)
    assert result.exception is None or isinstance(result.exception, SystemExit), (shown, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (shown, result.exit_code, result.output[-300:])
    assert "Traceback" not in result.output, shown
    out = result.stdout + result.stderr
    assert not RAW_CONTROL.search(out), (shown, RAW_CONTROL.search(out))
    if result.exit_code == 1 and "Not legal" not in result.stdout:  # an illegal deck is reported on stdout
        assert result.stderr.count("\n") == 1, (shown, result.stderr[:500])


@pytest.mark.slow
@pytest.mark.parametrize("template", TEXT_COMMANDS, ids=lambda t: " ".join(x for x in t if x != "{}"))
def test_hostile_text_values(template, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative --cards-db such as "-5" is a legal file name: keep it out of the repo
    for value in TEXTS:
        _check([value if part == "{}" else part for part in template])


@pytest.mark.slow
@pytest.mark.parametrize("template", FILE_COMMANDS, ids=lambda t: " ".join(x for x in t if x != "{}"))
def test_hostile_files(template, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for path in _files(tmp_path):
        _check([path if part == "{}" else part for part in template])
