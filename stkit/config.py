"""Where stkit keeps its data. Standard library and platformdirs only (imported by fast CLI paths).

Database URL, first match wins:
1. ``--db PATH`` on the command line (a file path becomes a SQLite URL; a full URL is used as is);
2. the environment variable ``STKIT_DATABASE_URL`` (any SQLAlchemy URL, e.g. ``postgresql+psycopg://...``);
3. ``stkit.sqlite`` in the user's data folder (``platformdirs.user_data_dir("stkit")``).

The chronicle new characters go into: ``--chronicle``, else ``STKIT_CHRONICLE``, else ``"default"``.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_DATABASE_URL = "STKIT_DATABASE_URL"
ENV_CHRONICLE = "STKIT_CHRONICLE"
DEFAULT_CHRONICLE = "default"


def default_database_path() -> Path:
    """``<user data dir>/stkit.sqlite`` (the folder is not created here)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("stkit", appauthor=False)) / "stkit.sqlite"


def path_to_url(path: str | os.PathLike[str]) -> str:
    """A filesystem path -> ``sqlite:///ABSOLUTE/PATH``; a string that already is a URL is returned unchanged."""
    text = os.fspath(path)
    if "://" in text:
        return text
    return "sqlite:///" + str(Path(text).expanduser().resolve())


def database_url(db: str | os.PathLike[str] | None = None) -> str:
    """The database URL to use, by the precedence described in the module docstring."""
    if db is not None and os.fspath(db) != "":
        return path_to_url(db)
    env = os.environ.get(ENV_DATABASE_URL, "").strip()
    if env:
        return path_to_url(env)
    return path_to_url(default_database_path())


def sqlite_path(url: str) -> Path | None:
    """The file behind a ``sqlite:///`` URL (None for another database or an in-memory SQLite)."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            rest = url[len(prefix) :].split("?", 1)[0]
            if not rest or rest == ":memory:":
                return None
            return Path(rest)
    return None


def default_chronicle(chronicle: str | None = None) -> str:
    """The chronicle to use: the given one, else ``STKIT_CHRONICLE``, else ``"default"``."""
    if chronicle and chronicle.strip():
        return chronicle.strip()
    env = os.environ.get(ENV_CHRONICLE, "").strip()
    return env or DEFAULT_CHRONICLE
