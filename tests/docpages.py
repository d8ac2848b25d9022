"""Doc pages run as written, for the tests: the `$ stkit ...` steps of a page's console blocks and what
each shows. Page conventions: a `\\` at a line's end continues the command; `# ...` after a command is a
comment; a `$ ` line other than `$ stkit` (e.g. `$ export ...`) is shown, not run; `...` inside a shown line
stands for any text, a line `...` for any output (it is left out of the expected lines)."""

from __future__ import annotations

import re
import shlex


def session(text: str) -> list[tuple[list[str], list[str]]]:
    """[(argv after `stkit`, expected output lines)] from the ```console blocks of ``text``, in order."""
    steps: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        current: list[str] | None = None
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            if line.startswith("$ stkit "):
                current = []
                steps.append((shlex.split(line[len("$ stkit ") :], comments=True), current))
            elif line.startswith("$ "):
                current = None  # a shell line such as `$ export ...`: shown, not run
            elif current is not None and line.strip() and line.strip() != "...":
                current.append(line.rstrip())
    return steps


def fits(want: str, got: str) -> bool:
    """``want`` equals ``got``, where ``...`` inside ``want`` stands for any text."""
    if "..." not in want:
        return want == got
    return re.fullmatch(".*".join(re.escape(part) for part in want.split("...")), got) is not None


def missing(expected: list[str], got: list[str]) -> str | None:
    """The first of ``expected`` that does not :func:`fit <fits>` a line of ``got`` after the line the one
    before it fitted (None: every one is shown, in order)."""
    at = 0
    for want in expected:
        hit = next((i for i in range(at, len(got)) if fits(want, got[i])), None)
        if hit is None:
            return want
        at = hit + 1
    return None
