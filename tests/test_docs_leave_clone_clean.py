"""A reader follows the pages from a clone of the repository: README.md and docs/*.md show their walkthroughs
as ```console blocks run from the clone's root (`stkit char import characters/`). A command there that
writes a file (`-o`, `--output`, `--pdf`, `--html`, a shell `>`) must name a place outside the clone (the
home folder, `~/Downloads/...`, or an absolute path), else following the page leaves untracked files in the
working copy. Files the pages tell the reader to copy (`cp examples/X ~/Downloads/`) must be shown as a
`$ cp` line of the block that uses them, so the walkthrough runs when followed line by line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
WRITING_OPTIONS = ("-o", "--output", "--pdf", "--html")


def console_commands(text: str) -> list[str]:
    """Every `$ ...` line of the ```console blocks of ``text``, continuation lines joined."""
    lines: list[str] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            if line.startswith("$ "):
                lines.append(line[2:])
    return lines


def written_paths(command: str) -> list[str]:
    """The file names ``command`` writes: the value after a writing option, or after a shell `>`."""
    words = shlex.split(command, comments=True)
    found: list[str] = []
    for i, word in enumerate(words):
        if word in (*WRITING_OPTIONS, ">", ">>") and i + 1 < len(words):
            found.append(words[i + 1])
        elif word.startswith(tuple(f"{o}=" for o in WRITING_OPTIONS if o.startswith("--"))):
            found.append(word.split("=", 1)[1])
    return found


def outside_the_clone(path: str) -> bool:
    return path.startswith(("~/", "/", "$")) or path == "-"


def test_reader_helpers():
    text = "```console\n$ stkit char print A --pdf a.pdf \\\n  --html ~/a.html   # note\nWrote a.pdf\n```\n"
    assert console_commands(text) == ["stkit char print A --pdf a.pdf  --html ~/a.html   # note"]
    assert written_paths(console_commands(text)[0]) == ["a.pdf", "~/a.html"]
    assert written_paths("stkit char export A --output=x.yaml > y.txt") == ["x.yaml", "y.txt"]
    assert not outside_the_clone("troupe.pdf") and outside_the_clone("~/Downloads/troupe.pdf")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_walkthroughs_write_nothing_into_the_clone(page):
    inside = [
        (command, path)
        for command in console_commands(page.read_text(encoding="utf-8"))
        for path in written_paths(command)
        if not outside_the_clone(path)
    ]
    assert not inside, f"{page.name}: these commands write into the reader's clone: {inside}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_copied_examples_are_copied_in_the_walkthrough(page):
    text = page.read_text(encoding="utf-8")
    commands = console_commands(text)
    for source, target in re.findall(r"`cp (examples/\S+) (~/\S+?)/?`", text):
        name = Path(source).name
        users = [i for i, c in enumerate(commands) if f"{target.rstrip('/')}/{name}" in c and not c.startswith("cp ")]
        copies = [i for i, c in enumerate(commands) if c.startswith(f"cp {source} ")]
        assert users, f"{page.name}: `cp {source}` is advised but no command uses {target}/{name}"
        assert copies and copies[0] < users[0], (
            f"{page.name}: `$ cp {source} {target}` is not a line before its first use"
        )
