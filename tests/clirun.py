"""`stkit` run in-process the way a user types it, for the tests: no colour, 120 columns."""

from __future__ import annotations

import json

from click.testing import Result
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def run(*args: object) -> Result:
    """The finished run of ``stkit *args`` (each made a string: paths too), whatever its exit code."""
    return runner.invoke(app, [str(a) for a in args], env={"NO_COLOR": "1", "COLUMNS": "120"})


def ok(*args: object) -> str:
    """Standard output of ``stkit *args``, which must exit 0."""
    res = run(*args)
    assert res.exit_code == 0, res.output
    return res.stdout


def ok_json(*args: str) -> dict:
    """The JSON document ``stkit *args --json`` prints."""
    return json.loads(ok(*args, "--json"))


def error(*args: object, code: int = 1) -> str:
    """Standard error of ``stkit *args``, which must exit ``code``."""
    res = run(*args)
    assert res.exit_code == code, (res.stdout, res.stderr)
    return res.stderr


def one_error(res: Result, *needles: str) -> str:
    """The one line a refused run printed: exit 1, nothing on standard output, and on standard error one
    line starting ``Error: `` that holds every needle."""
    assert res.exit_code == 1, (res.exit_code, res.output, res.exception)
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def fails(*args: str, match: str) -> None:
    """``stkit *args`` is refused with one ``Error: `` line that holds ``match`` (see :func:`one_error`)."""
    one_error(run(*args), match)


def sheet(name: str) -> dict:
    """Character ``name``'s sheet as ``stkit char show --json`` gives it."""
    return ok_json("char", "show", name)
