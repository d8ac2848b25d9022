"""The optional parts of the install (pyproject's extras) and the one-line message when one is missing.

The core install (``pip install .``) runs the player's commands: roll, odds, char, scene, tcg, shell.
The live table (``stkit serve``, the Discord door) needs the ``table`` extra, the printed PDF sheet
(``char print --pdf``) the ``print`` extra, a PostgreSQL store the ``postgres`` extra; ``test`` brings
them all. Standard library only (loaded when a command fails to import a module).
"""

from __future__ import annotations

import importlib.util

from stkit.errors import StkitError

#: Top-level module -> the extra that installs it (the distributions listed in pyproject.toml; MarkupSafe
#: is not one: the core's alembic needs it through Mako).
MODULE_EXTRA = {
    "fastapi": "table",
    "starlette": "table",
    "jinja2": "table",
    "multipart": "table",
    "python_multipart": "table",
    "sse_starlette": "table",
    "uvicorn": "table",
    "segno": "table",
    "httpx": "table",
    "cryptography": "table",
    "fpdf": "print",
    "psycopg": "postgres",
}

#: What each extra is for, in the message.
PURPOSE = {"table": "the live table and the Discord door", "print": "the PDF sheet", "postgres": "a PostgreSQL store"}


class MissingExtra(StkitError):
    """A command needs a module of an optional extra that is not installed. The message names the extra
    and the command that installs it."""

    def __init__(self, extra: str, module: str) -> None:
        super().__init__(
            f"this command needs the '{extra}' extra ({PURPOSE.get(extra, extra)}; {module} is not "
            f"installed): pip install 'stkit[{extra}]'"
        )
        self.extra = extra


def missing_extra(exc: ImportError) -> MissingExtra | None:
    """The :class:`MissingExtra` an import failure means (None when the module is no extra's: a defect)."""
    name = (exc.name or "").split(".")[0]
    extra = MODULE_EXTRA.get(name)
    return MissingExtra(extra, name) if extra is not None and isinstance(exc, ModuleNotFoundError) else None


def require(extra: str) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` can be imported (checked before a
    command does any work, so that nothing is half done)."""
    for module, wanted in MODULE_EXTRA.items():
        if wanted != extra or module in ("multipart", "python_multipart"):
            continue  # found through the others (python-multipart's module changed its name once)
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingExtra(extra, module)
