"""Packaging: PostgreSQL is an optional extra, the test extra carries the gates' tools, the package ships its
type hints, and a PostgreSQL URL without the driver gets one line naming the extra to install."""

from __future__ import annotations

import pathlib
import sys
import tomllib

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import StoreError

ROOT = pathlib.Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _names(requirements: list[str]) -> set[str]:
    return {r.split(">")[0].split("<")[0].split("=")[0].split(";")[0].strip() for r in requirements}


def test_postgres_is_an_optional_extra_that_the_test_extra_pulls_in():
    assert not any(r.startswith("psycopg") for r in PROJECT["dependencies"])
    assert _names(PROJECT["optional-dependencies"]["postgres"]) == {"psycopg[binary]"}
    test_extra = _names(PROJECT["optional-dependencies"]["test"])
    assert {"stkit[table,print,postgres]", "pytest", "pytest-xdist", "hypothesis", "ruff", "mypy"} <= test_extra


def test_the_package_ships_its_type_hints():
    assert (ROOT / "stkit" / "py.typed").is_file()
    assert "Typing :: Typed" in PROJECT["classifiers"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


@pytest.fixture
def without_psycopg(monkeypatch):
    # None in sys.modules makes `import psycopg` fail as it does where the extra is not installed
    for name in [m for m in sys.modules if m == "psycopg" or m.startswith("psycopg.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)


def test_a_postgresql_url_without_the_driver_names_the_extra(without_psycopg):
    from stkit.store.db.engine import make_engine

    with pytest.raises(StoreError) as caught:
        make_engine("postgresql+psycopg://stkit:secret@127.0.0.1:1/nowhere-a")
    assert str(caught.value) == (
        "the database URL 'postgresql+psycopg://stkit:***@127.0.0.1:1/nowhere-a' needs the PostgreSQL driver: "
        "pip install 'stkit[postgres]'"
    )


def test_the_cli_says_it_in_one_line(without_psycopg):
    result = CliRunner().invoke(
        app, ["char", "list", "--db", "postgresql+psycopg://stkit@127.0.0.1:1/nowhere-b"], env={"NO_COLOR": "1"}
    )
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the database URL 'postgresql+psycopg://stkit@127.0.0.1:1/nowhere-b' needs the PostgreSQL "
        "driver: pip install 'stkit[postgres]'\n"
    )
