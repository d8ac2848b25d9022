"""Shared fixtures: every test runs with its own data folder and database, never the real home.

- ``_isolated_store`` (autouse): points STKIT_DATABASE_URL at a SQLite file in a fresh home folder (a copy of
  the migrated template; no file under the ``empty_store`` mark) and the platformdirs/XDG/HOME folders at
  that home; clears STKIT_CHRONICLE; closes cached engines afterwards.
- ``db_url``: parametrised over SQLite and, when STKIT_TEST_POSTGRES_URL is set (``.ci/postgres.sh``),
  PostgreSQL (a fresh schema per test, dropped afterwards). It also sets STKIT_DATABASE_URL to that URL so
  CLI commands without --db use it. Tests that take it run once per database. The SQLite file is a copy of
  a store migrated once per session (``_migrated_sqlite_template``), so a test skips alembic; a test marked
  ``empty_store`` gets no file instead, and its first open migrates (the migration tests rely on that).
  The PostgreSQL schema is always empty: the first open migrates it.
- ``migrated_db_url``: ``db_url`` (kept as a name for tests that need a store at the newest revision).
"""

from __future__ import annotations

import itertools
import os
import pathlib
import re
import shutil
import sys
import uuid
from urllib.parse import quote

import pytest
from hypothesis import settings

POSTGRES_ENV = "STKIT_TEST_POSTGRES_URL"

# Hypothesis: the "ci" profile (CI set, as .ci/run does) runs every property test with the examples it
# asks for; the "fast" profile (anywhere else) runs a quarter of them, at least FAST_MIN_EXAMPLES, for the
# local loop. HYPOTHESIS_PROFILE=ci runs the full count locally.
FAST_SHARE = 4
FAST_MIN_EXAMPLES = 10
settings.register_profile("ci", settings.get_profile("default"))
settings.register_profile("fast", max_examples=100 // FAST_SHARE)
_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _CI else "fast")
settings.load_profile(HYPOTHESIS_PROFILE)


def _dispose_engines() -> None:
    db = sys.modules.get("stkit.store.db.engine")
    if db is not None:
        db.dispose_engines()


@pytest.fixture(scope="session")
def _homes(tmp_path_factory):
    """The folder holding every test's home folder, and a counter naming the next one."""
    return tmp_path_factory.mktemp("homes"), itertools.count()


@pytest.fixture(scope="session")
def _tmp_paths(tmp_path_factory):
    """The folder holding every test's ``tmp_path``, and a counter naming the next one."""
    return tmp_path_factory.mktemp("tmp"), itertools.count()


@pytest.fixture
def tmp_path(request, _tmp_paths) -> pathlib.Path:
    """pytest's ``tmp_path`` (a new empty folder for the test, named after it, mode 0700), numbered by a
    counter: pytest's own numbering scans every folder made so far, each time."""
    root, numbers = _tmp_paths
    path = root / f"{re.sub(r'[^A-Za-z0-9_-]', '_', request.node.name)[:30]}{next(numbers)}"
    path.mkdir(mode=0o700)
    return path


@pytest.fixture(autouse=True)
def _isolated_store(request, _homes, monkeypatch):
    # numbered by a counter: tmp_path_factory.mktemp scans every folder made so far, each time
    homes, numbers = _homes
    home = homes / f"home{next(numbers)}"
    home.mkdir(mode=0o700)  # as mktemp makes it
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(home / "stkit-test.sqlite"))
    monkeypatch.delenv("STKIT_CHRONICLE", raising=False)
    if request.node.get_closest_marker("empty_store") is None:
        # commands run without --db open this store: a copy of the migrated template spares each test alembic
        shutil.copy(request.getfixturevalue("_migrated_sqlite_template"), home / "stkit-test.sqlite")
    yield home
    _dispose_engines()


def _postgres_params() -> list:
    marks = [pytest.mark.postgres]
    if os.environ.get("STKIT_REQUIRE_POSTGRES") and not os.environ.get(POSTGRES_ENV):
        # CI sets this so that a PostgreSQL server that failed to start cannot pass as skipped tests.
        raise RuntimeError(f"STKIT_REQUIRE_POSTGRES is set but {POSTGRES_ENV} is not (source .ci/postgres.sh)")
    if not os.environ.get(POSTGRES_ENV):
        marks.append(pytest.mark.skip(reason=f"{POSTGRES_ENV} is not set (source .ci/postgres.sh)"))
    return [pytest.param("sqlite", id="sqlite"), pytest.param("postgresql", id="postgresql", marks=marks)]


@pytest.fixture(scope="session")
def _migrated_sqlite_template(tmp_path_factory):
    """A SQLite store file at the newest schema revision, built once per test session (per xdist worker)."""
    from stkit.store.db.engine import dispose_engines, open_store

    path = tmp_path_factory.mktemp("template") / "store.sqlite"
    open_store("sqlite:///" + str(path))
    dispose_engines()  # the last connection closing checkpoints the WAL into the file
    assert not path.with_name(path.name + "-wal").exists() or path.with_name(path.name + "-wal").stat().st_size == 0
    return path


@pytest.fixture
def migrated_db_url(db_url) -> str:
    """``db_url`` holding a store at the newest revision (a copied template on SQLite, unless the test is
    marked ``empty_store``)."""
    return db_url


@pytest.fixture(params=_postgres_params())
def db_url(request, tmp_path, monkeypatch) -> str:
    """A database URL for one test: a copy of the migrated SQLite template (no file at all under the
    ``empty_store`` mark), or a new schema on the test PostgreSQL server."""
    if request.param == "sqlite":
        path = tmp_path / "store.sqlite"
        if request.node.get_closest_marker("empty_store") is None:
            # shutil.copy keeps the template's permission bits, as the store created them
            shutil.copy(request.getfixturevalue("_migrated_sqlite_template"), path)
        url = "sqlite:///" + str(path)
        monkeypatch.setenv("STKIT_DATABASE_URL", url)
        yield url
        _dispose_engines()
        return
    import psycopg

    base = os.environ[POSTGRES_ENV]
    schema = "t_" + uuid.uuid4().hex[:12]
    plain = base.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in base else "?"
    url = f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    monkeypatch.setenv("STKIT_DATABASE_URL", url)
    yield url
    _dispose_engines()
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """End the run with one line saying how many PostgreSQL tests were skipped and how to run them (none
    when STKIT_TEST_POSTGRES_URL is set: they ran)."""
    if os.environ.get(POSTGRES_ENV):
        return
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "postgresql" in getattr(r, "keywords", {})]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} PostgreSQL tests skipped: {POSTGRES_ENV} is not set. To run them too, start a "
            "throwaway server on loopback with `source .ci/postgres.sh` (needs PostgreSQL's server binaries), "
            "then run the tests again."
        )


def pytest_collection_modifyitems(config, items) -> None:
    """Under the "fast" profile, cut the examples a test sets itself with ``@settings(max_examples=N)``
    too (a profile only changes the default): N // FAST_SHARE, at least FAST_MIN_EXAMPLES."""
    if HYPOTHESIS_PROFILE != "fast":
        return
    done: set[int] = set()
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        # where @given keeps the test's settings; absent (another hypothesis version): full counts run
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is None or id(test) in done:
            continue
        done.add(id(test))
        fewer = max(FAST_MIN_EXAMPLES, own.max_examples // FAST_SHARE)
        if fewer < own.max_examples:
            test._hypothesis_internal_use_settings = settings(own, max_examples=fewer)
