"""The one hardened YAML reader of stkit: PyYAML's safe loading plus the checks a hostile file needs.

Standard library plus PyYAML (imported on first use, so importing this module costs little). Why: every
file a user hands stkit (character sheets, card lists, combat and moot situations) is YAML written by a
person or a tool, and PyYAML's safe loader alone keeps the last of two equal keys without a word, and
hands back a graph in which a few lines of anchors and aliases stand for billions of values.

:func:`load` refuses, each with one :class:`stkit.errors.DataFileError` line naming the source and the
place:

- a mapping key written twice in one mapping (``name: A`` and later ``name: B``);
- more than ``max_nodes`` values once aliases (``*name``) are expanded, which is what every consumer that
  walks the data would do (the "billion laughs" bomb);
- nesting deeper than ``max_depth`` levels (a long text is scanned first: libyaml's composer would crash on
  some tens of thousands of levels);
- a value that parses but cannot be built (an integer of thousands of digits);
- a tag other than those of plain values, lists and mappings (``!!binary``, ``!!set``, ``!!omap``,
  ``!!pairs``, ``!!python/...``, a local ``!tag``): a file of plain data needs none (:func:`plain_data_loader`);
- merge keys (``<<: [*a, *a]``) that copy more than MAX_MERGED entries into one mapping: PyYAML copies
  merged entries while it builds, so nested merges double at every level (a "merge bomb") before any
  count of the result could run.

It uses PyYAML's C parser when present (same safety, about ten times faster than the pure-Python one).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from stkit.errors import DataFileError, InvalidValue
from stkit.text import shown_key, without_quotes


def _key(key: Any) -> str:
    """A mapping key for a message: quoted when it looks like a field name, else not shown."""
    shown = shown_key(key)
    return f"{shown!r}" if shown == str(key) else shown


#: Most values a document may expand to (aliases counted each time they are used).
MAX_NODES = 200_000
#: Deepest nesting of lists and mappings allowed (real files nest a handful of levels).
MAX_DEPTH = 50

#: Most entries one mapping may hold once its merge keys (``<<``) are copied in.
MAX_MERGED = 10_000
#: The tags a value may carry, written (``!!str``) or implied: plain values, lists, mappings, merge keys.
#: Anything else builds Python objects no consumer expects (bytes, sets, tuples) or is refused anyway.
ALLOWED_TAGS = frozenset(
    "tag:yaml.org,2002:" + name for name in ("null", "bool", "int", "float", "str", "timestamp", "seq", "map", "merge")
)
_SHOWN_TAG = re.compile(r"[a-z][a-z/]{0,39}")

_LOADER: Any = None
_PLAIN: dict[Any, Any] = {}


def _shown_tag(tag: str) -> str:
    """A tag as a message shows it: a YAML one by its name up to any ``:`` (``!!binary``, ``!!python/name``),
    any other not at all (a local ``!tag`` is the file's own text: a link to a secret must not be quoted)."""
    name = tag.removeprefix("tag:yaml.org,2002:").split(":")[0]
    if tag.startswith("tag:yaml.org,2002:") and _SHOWN_TAG.fullmatch(name):
        return "!!" + name
    return "(a tag that is not shown)"


def plain_data_loader(base: Any) -> Any:
    """A subclass of the PyYAML loader class ``base`` that builds plain data only: a tag outside
    ALLOWED_TAGS raises ``ConstructorError`` (problem ``the YAML tag !!binary is not allowed; ...``) and a
    mapping that merge keys fill with more than MAX_MERGED entries raises ``ConstructorError`` (problem
    ``merge keys (<<) copy more than N entries into one mapping; ...``). The one tag policy of stkit's YAML
    readers (this module's and the character files' in :mod:`stkit.store.files`)."""
    if base in _PLAIN:
        return _PLAIN[base]
    from yaml.constructor import ConstructorError  # lazy: start-up (heavy library, loaded when needed)

    def refuse(loader: Any, node: Any) -> Any:
        raise ConstructorError(
            None,
            None,
            f"the YAML tag {_shown_tag(str(node.tag))} is not allowed; allowed: plain text, numbers, true/false,"
            " dates, lists and mappings",
            node.start_mark,
        )

    class PlainDataLoader(base):
        yaml_constructors: ClassVar[dict[Any, Any]] = {
            **{tag: f for tag, f in base.yaml_constructors.items() if tag in ALLOWED_TAGS},
            None: refuse,
        }
        yaml_multi_constructors: ClassVar[dict[Any, Any]] = {}

        def flatten_mapping(self, node: Any) -> None:
            merges = any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value)
            super().flatten_mapping(node)  # flattens each merged mapping through this method first
            if merges and len(node.value) > MAX_MERGED:
                raise ConstructorError(
                    None,
                    None,
                    f"merge keys (<<) copy more than {MAX_MERGED} entries into one mapping; write the data out plainly",
                    node.start_mark,
                )

    _PLAIN[base] = PlainDataLoader
    return PlainDataLoader


def _loader_class() -> Any:
    """A safe loader class (C parser when PyYAML has it) whose mappings refuse duplicate keys."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import yaml  # lazy: start-up (heavy library, loaded when needed)
    from yaml.constructor import ConstructorError  # lazy: start-up (heavy library, loaded when needed)

    base = plain_data_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))

    class StrictSafeLoader(base):  # type: ignore[misc, valid-type]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: dict[Any, Any] = {}
                for key_node, _ in node.value:
                    if key_node.tag == "tag:yaml.org,2002:merge":
                        continue
                    key = self.construct_object(key_node, deep=True)
                    try:
                        first = seen.setdefault(key, key_node)
                    except TypeError:
                        continue  # an unhashable key: the base constructor reports it
                    if first is not key_node:
                        raise ConstructorError(
                            None,
                            None,
                            f"duplicate key {_key(key)} (first given at line {first.start_mark.line + 1}); "
                            "each key may appear once in a mapping",
                            key_node.start_mark,
                        )
            return super().construct_mapping(node, deep=deep)

    _LOADER = StrictSafeLoader
    return _LOADER


def _check_size(data: Any, source: str, max_nodes: int, max_depth: int) -> None:
    """Walk ``data`` as a consumer would (aliases expanded), refusing too many values or too deep a nest."""
    count = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > max_nodes:
            raise DataFileError(
                f"{source}: holds more than {max_nodes} values once its YAML aliases (*name) are expanded; "
                "write the data out plainly"
            )
        if isinstance(value, (dict, list)):
            if depth > max_depth:
                raise DataFileError(f"{source}: nested more than {max_depth} levels deep; allowed: {max_depth}")
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)


#: Texts longer than this are scanned for their nesting depth before they are built: libyaml's composer
#: recurses in C with no limit, and some tens of thousands of levels overflow the C stack (a crash, not an
#: error). A shorter text cannot nest that deep.
_SCAN_FROM = 10_000


def _deeper_than(text: str, max_depth: int) -> bool:
    """True when the YAML ``text`` opens more than ``max_depth`` nested collections, read from the parser's
    event stream (iterative, in C when available), stopping at the first level too deep. A text the parser
    refuses is left to :func:`load`, which reports the same fault at the same place."""
    import yaml  # lazy: start-up (heavy library, loaded when needed)

    depth = 0
    try:
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > max_depth:
                    return True
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return False
    return False


def load(text: str, source: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse the YAML ``text`` (read from ``source``, a path or label used in messages) safely.

    Returns plain Python data (dict, list, str, int, float, bool, None, dates). Raises DataFileError
    ``<source>: malformed YAML at line L, column C: <problem>`` (duplicate keys included), ``<source>:
    holds more than N values ...``, ``<source>: nested more than N levels deep ...`` or ``<source>: a value
    cannot be read: ...``; a tag other than plain data's, or merge keys copying more than MAX_MERGED
    entries, is a malformed-YAML line naming the place.
    """
    import yaml  # lazy: start-up (heavy library, loaded when needed)

    too_deep = f"{source}: nested more than {max_depth} levels deep; allowed: {max_depth}"
    if len(text) > _SCAN_FROM and _deeper_than(text, max_depth):
        raise DataFileError(too_deep)
    try:
        data = yaml.load(text, Loader=_loader_class())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if not str(problem).startswith("duplicate key"):  # the parser's own words may quote the file
            problem = without_quotes(str(problem))
        if "maximum nesting depth" in str(problem):  # libyaml's own depth limit: the same fact as below
            raise DataFileError(too_deep) from None
        raise DataFileError(f"{source}: malformed YAML{where}: {problem}") from None
    except RecursionError:
        raise DataFileError(too_deep) from None
    except (ValueError, OverflowError) as exc:
        # values PyYAML parsed but cannot build, such as an integer of more than 4300 digits
        raise DataFileError(f"{source}: a value cannot be read: {str(exc).split(';')[0]}") from None
    _check_size(data, source, max_nodes, max_depth)
    return data


#: The environment variable naming the folder for the parsed packaged data (default: see cache_folder).
CACHE_ENV = "STKIT_CACHE_DIR"


def cache_folder() -> Path | None:
    """Where parsed packaged data is kept: ``$STKIT_CACHE_DIR`` if set; else, when a store is chosen (``--db``
    or ``$STKIT_DATABASE_URL``), nothing is written outside that store's folder: ``stkit-cache`` beside a
    SQLite file, and None (kept in memory only) for a PostgreSQL store, which has no folder; else
    ``stkit/data`` in the user cache folder (``~/.cache/stkit/data`` on Linux, via platformdirs). A
    malformed ``$STKIT_DATABASE_URL`` gives None (the command itself reports it)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen)
    from stkit.config import (  # lazy: start-up (only when packaged data is read)
        STORE_CACHE_FOLDER,
        chosen_store,
        sqlite_path,
    )

    try:
        store = chosen_store()
    except InvalidValue:
        return None
    if store is not None:
        path = sqlite_path(store)
        return None if path is None else path.parent / STORE_CACHE_FOLDER
    import platformdirs  # lazy: start-up (only when packaged data is read)

    return Path(platformdirs.user_cache_dir("stkit")) / "data"


def load_packaged(package: str, name: str) -> Any:
    """The packaged YAML data file ``name`` of ``package``'s ``data`` folder, parsed with :func:`load`.

    The YAML stays the one source; what parsing it gives is kept, in :mod:`marshal` form, in
    :func:`cache_folder` under the SHA-256 of the YAML's bytes (and the Python version), so that a command
    reading the rules does not import PyYAML and parse them on every run: an edited file has a new hash and
    is parsed again. The cache is best effort: a folder that cannot be written, or a cache file that cannot
    be read, only means the YAML is parsed. Raises DataFileError if the packaged file is damaged."""
    import hashlib  # lazy: start-up (only when packaged data is read)

    raw = (resources.files(package) / "data" / name).read_bytes()
    tag = f"{sys.version_info[0]}{sys.version_info[1]}"
    folder = cache_folder()
    if folder is None:  # a store without a folder: parsed here, kept by the callers' own memory
        return load(raw.decode("utf-8"), name)
    cached = folder / f"{name}.{hashlib.sha256(raw).hexdigest()[:32]}.py{tag}.marshal"
    try:
        with open(cached, "rb") as f:
            return marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        pass  # no cache yet, or a damaged one: parse the YAML
    data = load(raw.decode("utf-8"), name)
    _write_cache(cached, data)
    return data


def _write_cache(path: Path, data: Any) -> None:
    """Write ``data`` to ``path`` atomically (a temporary 0600 file renamed into place), in a 0700 folder;
    any failure (a read-only folder, a value marshal cannot hold) leaves no file and is ignored."""
    from stkit.config import FILE_MODE, make_private_folder  # lazy: start-up (only when the cache is first written)

    try:
        blob = marshal.dumps(data)
        make_private_folder(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
    except (OSError, ValueError):
        return
