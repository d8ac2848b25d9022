"""Where stkit keeps its data. Standard library and platformdirs only (imported by fast CLI paths).

Database URL, first match wins:
1. ``--db PATH`` on the command line (a file path becomes a SQLite URL; a full URL is used as is);
2. the environment variable ``STKIT_DATABASE_URL`` (any SQLAlchemy URL, e.g. ``postgresql+psycopg://...``);
3. ``stkit.sqlite`` in the user's data folder (``platformdirs.user_data_dir("stkit")``).

Rules for the location (stkit.errors.InvalidValue otherwise):
- a URL has ``://``; a SQLite URL must name a file and take no ``?options`` (``?mode=ro`` is not
  honoured by the driver, so it is refused rather than silently ignored): ``sqlite://``, ``sqlite:///``
  and ``:memory:`` (or ``mode=memory``) would keep everything in memory and lose it on exit, so they are
  refused;
- anything else is a file path only when it contains a path separator or ends in .sqlite, .sqlite3 or
  .db (``garbage`` is refused as "not a database path or URL");
- an explicit path (``--db`` or the environment) must be in a folder that exists; only the default
  location's folder is created.

The chronicle new characters go into: ``--chronicle``, else ``STKIT_CHRONICLE``, else ``"default"``.

What stkit creates is private: data folders 0700, database files 0600, whatever the umask. With a store
chosen (``--db`` or the environment) nothing is written outside that store's folder (the rules-data cache
goes beside it, :func:`stkit.yamlsafe.cache_folder`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from stkit.errors import DataFileError, InvalidValue
from stkit.text import MAX_NAME, check_text

ENV_DATABASE_URL = "STKIT_DATABASE_URL"
ENV_CHRONICLE = "STKIT_CHRONICLE"
DEFAULT_CHRONICLE = "default"


def default_database_path() -> Path:
    """``<user data dir>/stkit.sqlite`` (the folder is not created here)."""

    import platformdirs  # lazy: start-up (only when no store is chosen by --db or the environment)

    return Path(platformdirs.user_data_dir("stkit", appauthor=False)) / "stkit.sqlite"


DB_SUFFIXES = (".sqlite", ".sqlite3", ".db")


def path_to_url(path: str | os.PathLike[str]) -> str:
    """A filesystem path -> ``sqlite:///ABSOLUTE/PATH``; a string that already is a URL is returned unchanged."""
    text = os.fspath(path)
    if "://" in text:
        return text
    return "sqlite:///" + str(Path(text).expanduser().resolve())


def _bad(shown: tuple[str, str], why: str) -> Exception:

    return InvalidValue(f"database {shown[0]!r} (from {shown[1]}): {why}")


def checked_url(value: str | os.PathLike[str], *, origin: str = "--db") -> str:
    """The URL of an explicitly given database (``--db`` or STKIT_DATABASE_URL, named by ``origin``), checked
    by the rules in the module docstring. Raises InvalidValue naming the value and what is allowed."""

    text = check_text(os.fspath(value).strip(), f"database (from {origin})", limit=4096)
    shown = (text, origin)
    if "://" in text:
        if text.lower().startswith("sqlite"):
            path = sqlite_path(text)
            if path is None or "mode=memory" in text.lower():
                raise _bad(
                    shown,
                    "an in-memory SQLite database loses everything when the command ends; "
                    "give a file, e.g. sqlite:////home/me/stkit.sqlite or a path",
                )
            if "?" in text:
                raise _bad(shown, "SQLite URLs take no options here (such as ?mode=ro); give the plain file URL")
            if not path.parent.is_dir():
                raise _bad(shown, f"the folder {path.parent} does not exist; create it first")
        return text
    if text == ":memory:":
        raise _bad(shown, "an in-memory SQLite database loses everything when the command ends; give a file path")
    if os.sep not in text and "/" not in text and not text.lower().endswith(DB_SUFFIXES):
        raise _bad(
            shown,
            "not a database path or URL; give a path containing a folder (./stkit.sqlite), a file "
            "ending in .sqlite, .sqlite3 or .db, or a URL such as postgresql+psycopg://host/db",
        )
    path = Path(text).expanduser().resolve()
    if path.is_dir():
        raise _bad(shown, "is a folder; give a database file inside it, e.g. " + str(path / "stkit.sqlite"))
    if not path.parent.is_dir():
        raise _bad(shown, f"the folder {path.parent} does not exist; create it first")
    return "sqlite:///" + str(path)


def database_url(db: str | os.PathLike[str] | None = None) -> str:
    """The database URL to use, by the precedence and rules described in the module docstring.
    Raises InvalidValue for a value that is not a usable database path or URL."""
    if db is not None:
        if os.fspath(db).strip() == "":
            raise InvalidValue("--db is empty; give a database file or URL, or leave the option out")
        return checked_url(db, origin="--db")
    env = os.environ.get(ENV_DATABASE_URL, "").strip()
    if env:
        return checked_url(env, origin=ENV_DATABASE_URL)
    return path_to_url(default_database_path())


#: The URL schemes of the stores stkit runs on (SQLite, PostgreSQL with any driver).
_STORE_SCHEME = r"(?i)(sqlite|postgres(ql)?)(\+[a-z0-9_]+)?://"  # compiled on first use: --db only


def check_db_option(db: str | os.PathLike[str]) -> None:
    """Check a ``--db`` value as every command does before it runs, whether it opens the store or not: the
    rules of :func:`database_url`, and a SQLite file that exists must be a regular file (a FIFO, device or
    folder is refused by name, :func:`stkit.safefile.check_writable_target`). Raises InvalidValue or
    DataFileError naming the value."""
    from stkit.safefile import check_writable_target  # lazy: start-up (only when --db is given)

    if os.fspath(db).strip() == "":
        raise InvalidValue("--db is empty; give a database file or URL, or leave the option out")
    url = checked_url(db, origin="--db")
    if "://" in url and not re.match(_STORE_SCHEME, url):
        raise InvalidValue(
            f"cannot use the database URL {url!r}: stkit runs on SQLite or PostgreSQL; give a file path, "
            "a sqlite:/// URL or a postgresql+psycopg:// URL"
        )
    path = sqlite_path(url)
    if path is not None:
        try:
            check_writable_target(path)
        except DataFileError as exc:
            raise InvalidValue(f"database {exc}; give the path of a database file, e.g. ./stkit.sqlite") from None
    global _chosen_store
    _chosen_store = url


#: The store --db chose in this process (set by :func:`check_db_option`, which every command runs on it).
_chosen_store: str | None = None


def chosen_store() -> str | None:
    """The URL of the store chosen by ``--db`` (checked by :func:`check_db_option`), else by
    ``$STKIT_DATABASE_URL``; None when neither chose one (the default store in the user data folder).
    Raises InvalidValue for a malformed ``$STKIT_DATABASE_URL``."""
    if _chosen_store is not None:
        return _chosen_store
    env = os.environ.get(ENV_DATABASE_URL, "").strip()
    return checked_url(env, origin=ENV_DATABASE_URL) if env else None


def forget_chosen_store() -> None:
    """Forget the store --db chose (before the next command line run in the same process)."""
    global _chosen_store
    _chosen_store = None


#: The folder beside a chosen SQLite store that holds stkit's cache (parsed rules data) for it.
STORE_CACHE_FOLDER = "stkit-cache"


def sqlite_path(url: str) -> Path | None:
    """The file behind a ``sqlite:///`` URL (None for another database or an in-memory SQLite)."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            rest = url[len(prefix) :].split("?", 1)[0]
            if not rest or rest == ":memory:":
                return None
            return Path(rest)
    return None


def companion_path(name: str, db: str | os.PathLike[str] | None = None) -> Path:
    """Where a file that goes with the store is kept (the shell's history, the card database): beside the
    chosen SQLite store when one is chosen (``db``, as --db gives it, else $STKIT_DATABASE_URL), so that a
    table kept in its own folder leaves nothing elsewhere; else (no store chosen, or a PostgreSQL one, which
    has no folder) in the user data folder beside the default store. The folder is not created here.
    Raises InvalidValue for a malformed ``db`` (:func:`database_url`)."""
    chosen = db if db is not None else (os.environ.get(ENV_DATABASE_URL, "").strip() or None)
    if chosen is not None:
        path = sqlite_path(database_url(chosen))
        if path is not None:
            return path.parent / name
    return default_database_path().parent / name


def default_chronicle(chronicle: str | None = None) -> str:
    """The chronicle to use: the given one, else ``STKIT_CHRONICLE``, else ``"default"``; checked as every
    stored name is (:func:`stkit.text.check_text` with the name limit). Raises InvalidValue naming
    ``--chronicle`` or ``STKIT_CHRONICLE`` for a control character, an undecodable byte or a name over
    :data:`stkit.text.MAX_NAME` characters."""

    if chronicle is not None:
        if not chronicle.strip():
            raise InvalidValue("--chronicle is empty; give a chronicle's name, or leave the option out")
        return check_text(chronicle.strip(), "--chronicle", limit=MAX_NAME)
    env = os.environ.get(ENV_CHRONICLE, "").strip()
    return check_text(env, ENV_CHRONICLE, limit=MAX_NAME) if env else DEFAULT_CHRONICLE


#: Permissions of what stkit creates: the data folders and database files are the user's alone, whatever
#: the umask (character sheets hold Storyteller-only notes).
FOLDER_MODE = 0o700
FILE_MODE = 0o600


def make_private_folder(path: Path) -> None:
    """Create ``path`` and any missing parent folders with mode 0700 (the umask cannot widen it; folders
    that already exist are left as they are). Raises OSError."""
    missing: list[Path] = []
    current = path
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:
            continue  # another process made it first
        os.chmod(folder, FOLDER_MODE)  # mkdir's mode is masked by the umask; chmod is not


def make_private_file(path: Path) -> bool:
    """Create ``path`` empty with mode 0600 unless it exists (an empty file is an empty SQLite database,
    so SQLite and its -wal/-shm files then keep that mode). True when it was created. Raises OSError."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
    except FileExistsError:
        return False
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return True
