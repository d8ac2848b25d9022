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


def fails(*args: str, match: str) -> None:
    """``stkit *args`` exits 1 with one ``Error: `` line on standard error that holds ``match``, no traceback."""
    res = run(*args)
    assert res.exit_code == 1, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and match in lines[0], res.stderr
    assert "Traceback" not in res.output


def sheet(name: str) -> dict:
    """Character ``name``'s sheet as ``stkit char show --json`` gives it."""
    return ok_json("char", "show", name)
