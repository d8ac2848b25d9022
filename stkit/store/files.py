"""Character files: YAML/JSON import and export, and the other tools' files (Foundry VTT, Grapevine).

A character file holds one character in the shape of :meth:`stkit.sheet.sheet.Sheet.to_dict` (see
docs/characters.md). YAML is read with a ``yaml.SafeLoader`` subclass only (duplicate keys, alias
bombs, deep nesting and tags other than plain data's refused). Files over MAX_FILE_BYTES are refused. A
Foundry actor export (JSON with a ``type`` and a ``system`` block) is translated by
:mod:`stkit.formats.foundry`; a Grapevine exchange file (``.gex``, XML) by :mod:`stkit.formats.grapevine`, and
may hold several characters.

Every error is a DataFileError naming the file, the field and the allowed range; an import with any bad
file imports nothing.
"""

from __future__ import annotations

import codecs
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from stkit import jsonsafe
from stkit.errors import DataFileError, InvalidValue
from stkit.formats.foundry import UnsupportedActor, dump_foundry, from_foundry
from stkit.formats.grapevine import from_grapevine
from stkit.formats.imported import LoadedFile
from stkit.safefile import describe, read_bytes, write_atomic
from stkit.sheet import traits as T
from stkit.sheet.sheet import Sheet, xp_log_warnings
from stkit.store.characters import create_character, find_character, list_characters
from stkit.text import escape_json_controls, printable, shown_key, without_quotes
from stkit.yamlsafe import plain_data_loader

if TYPE_CHECKING:  # pragma: no cover
    from stkit.store.db.gateway import Gateway

CHARACTER_SUFFIXES = (".yaml", ".yml", ".json", ".gex")
#: Largest character file read (bytes); a real sheet is a few kilobytes.
MAX_FILE_BYTES = 1_000_000
#: Largest Grapevine file read (bytes): a whole troupe, a few kilobytes per character.
MAX_TROUPE_FILE_BYTES = 20_000_000
#: Most YAML aliases (*name) in one file, and most values once every alias is expanded: a sheet has a few
#: hundred values; an "alias bomb" expands to billions.
MAX_YAML_ALIASES = 100
MAX_EXPANDED_NODES = 100_000
#: Deepest nesting of lists/mappings accepted (a sheet needs 4).
MAX_DEPTH = 20


def _yaml_loader():
    """A yaml.SafeLoader subclass that refuses duplicate mapping keys, more than MAX_YAML_ALIASES aliases,
    nesting deeper than MAX_DEPTH, and (by :func:`stkit.yamlsafe.plain_data_loader`) any tag but plain data's
    (``!!binary``, ``!!set``, ``!!python/...``) and merge bombs; each raises yaml.YAMLError with a
    ``problem`` and ``problem_mark``."""
    import yaml  # lazy: start-up (heavy library, loaded when needed)
    from yaml.constructor import ConstructorError  # lazy: start-up (heavy library, loaded when needed)
    from yaml.events import AliasEvent, CollectionStartEvent  # lazy: start-up (heavy library, loaded when needed)

    class StrictLoader(plain_data_loader(yaml.SafeLoader)):  # type: ignore[misc]
        aliases = 0
        depth = 0

        def compose_node(self, parent, index):
            event = self.peek_event()
            if isinstance(event, AliasEvent):
                self.aliases += 1
                if self.aliases > MAX_YAML_ALIASES:
                    raise ConstructorError(
                        None,
                        None,
                        f"more than {MAX_YAML_ALIASES} aliases (*name); a character file needs none",
                        event.start_mark,  # type: ignore[arg-type]  # the C and pure-Python Marks alike
                    )
            elif isinstance(event, CollectionStartEvent):
                self.depth += 1
                if self.depth > MAX_DEPTH:
                    raise ConstructorError(
                        None,
                        None,
                        f"nested more than {MAX_DEPTH} levels deep",
                        event.start_mark,  # type: ignore[arg-type]
                    )
            node = super().compose_node(parent, index)
            if isinstance(event, CollectionStartEvent):
                self.depth -= 1
            return node

        def compose_document(self):
            node = super().compose_document()
            sizes: dict[int, int] = {}

            def size(n) -> int:
                if id(n) not in sizes:
                    kids = (
                        n.value
                        if isinstance(n, yaml.SequenceNode)
                        else ([x for pair in n.value for x in pair] if isinstance(n, yaml.MappingNode) else [])
                    )
                    sizes[id(n)] = 1 + sum(size(k) for k in kids)
                return sizes[id(n)]

            if node is not None and size(node) > MAX_EXPANDED_NODES:
                raise ConstructorError(
                    None,
                    None,
                    f"expands to {size(node)} values once its aliases are "
                    f"followed; allowed: at most {MAX_EXPANDED_NODES}",
                    node.start_mark,
                )
            return node

        def construct_mapping(self, node, deep=False):
            if isinstance(node, yaml.MappingNode):
                seen: set = set()
                for key_node, _ in node.value:
                    key = self.construct_object(key_node, deep=True)
                    try:
                        duplicate = key in seen
                        seen.add(key)
                    except TypeError:  # an unhashable key: the base class reports it
                        continue
                    if duplicate:
                        shown = f"'{shown_key(key)}'" if shown_key(key) == str(key) else shown_key(key)
                        raise ConstructorError(None, None, f"the key {shown} appears twice", key_node.start_mark)
            return super().construct_mapping(node, deep=deep)

    return StrictLoader


def _value_error(exc: ValueError) -> str:
    """A parser's ValueError in plain words (Python refuses to read numbers of more than 4300 digits)."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "integer string conversion" in text:
        return "a number has thousands of digits; allowed: whole numbers in the ranges of docs/characters.md"
    return text


def _depth_ok(data: object, limit: int = MAX_DEPTH) -> bool:
    """True when ``data`` nests lists/dicts at most ``limit`` deep (iterative: no recursion)."""
    stack = [(data, 0)]
    while stack:
        obj, d = stack.pop()
        if isinstance(obj, (dict, list)):
            if d >= limit:
                return False
            stack.extend((v, d + 1) for v in (obj.values() if isinstance(obj, dict) else obj))
    return True


def find_character_files(path: Path) -> list[Path]:
    """The character files at ``path``: the file itself, or a folder's regular *.yaml/*.yml/*.json/*.gex files
    (sorted; FIFOs, devices and links to them in a folder are passed over). Raises DataFileError for a path
    that does not exist."""
    try:
        if path.is_dir():
            return sorted(p for p in path.iterdir() if p.suffix.lower() in CHARACTER_SUFFIXES and p.is_file())
        if not path.exists() and not path.is_symlink():
            raise DataFileError(f"{describe(path)}: no such file or folder")
    except OSError as exc:
        raise DataFileError(f"{describe(path)}: cannot be read: {exc.strerror or exc}") from None
    return [path]


def decode_text(data: bytes, shown: str) -> str:
    """The text of a file's bytes: UTF-8 (a byte-order mark dropped), or UTF-16 / UTF-32 when the file starts
    with their byte-order mark (as Windows editors save). Line ends (CRLF, CR) become newlines. Raises
    DataFileError naming the file and the first byte that is not text."""

    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        encoding = "utf-32"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8-sig"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise DataFileError(
            f"{shown}: not a text file: byte {exc.start + 1} (0x{data[exc.start]:02x}) is not {exc.encoding.upper()}"
            "; save the file as UTF-8"
        ) from None
    if "\x00" in text:
        raise DataFileError(f"{shown}: not a text file: it contains NUL bytes; save the file as UTF-8 text")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def load_file(path: Path, *, chronicle: str | None = None) -> LoadedFile:
    """Parse and validate one character file. ``chronicle`` overrides the file's chronicle. Raises
    DataFileError naming the file and the field. A Grapevine file may hold several characters: use
    :func:`load_files`."""
    loaded = load_files(path, chronicle=chronicle)
    if len(loaded) != 1:
        raise DataFileError(f"{describe(path)}: holds {len(loaded)} characters; allowed here: one")
    return loaded[0]


def load_files(path: Path, *, chronicle: str | None = None) -> list[LoadedFile]:
    """Parse and validate the character(s) of one file (a regular file of at most MAX_FILE_BYTES bytes,
    MAX_TROUPE_FILE_BYTES for Grapevine, read by :func:`stkit.safefile.read_bytes`: a FIFO, device or
    folder is refused by name): one for YAML, JSON and Foundry, any number for a Grapevine ``.gex`` (its
    other creatures skipped with a warning). ``chronicle`` overrides the file's chronicle. Raises
    DataFileError naming the file and the field."""

    shown = describe(path)
    suffix = path.suffix.lower()
    if suffix == ".gex":  # XML: its own declaration names the encoding
        found = from_grapevine(read_bytes(path, max_bytes=MAX_TROUPE_FILE_BYTES), source=str(path))
        for lf in found:
            lf.path = path
            if chronicle:
                lf.sheet.chronicle = chronicle
        return found
    text = decode_text(read_bytes(path, max_bytes=MAX_FILE_BYTES), shown)
    if not text.strip():
        raise DataFileError(f"{shown}: the file is empty; a character file needs at least a name")
    if suffix == ".json":
        try:
            data = jsonsafe.loads(text)
        except jsonsafe.JsonRefusal as exc:
            raise DataFileError(f"{shown}: malformed JSON: {exc}") from None
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}"
            raise DataFileError(f"{shown}: malformed JSON at {where}: {exc.msg}") from None
        except RecursionError:
            raise DataFileError(f"{shown}: malformed JSON: nested too deep; allowed: {MAX_DEPTH} levels") from None
        except ValueError as exc:  # e.g. a number of thousands of digits
            raise DataFileError(f"{shown}: malformed JSON: {_value_error(exc)}") from None
        if not _depth_ok(data):
            raise DataFileError(f"{shown}: malformed JSON: nested too deep; allowed: {MAX_DEPTH} levels")
        if isinstance(data, dict) and isinstance(data.get("system"), dict) and "type" in data:
            loaded = from_foundry(data, source=str(path))
            loaded.path = path
            if chronicle:
                loaded.sheet.chronicle = chronicle
            return [loaded]
        fmt = "json"
    elif suffix in (".yaml", ".yml"):
        import yaml  # lazy: start-up (heavy library, loaded when needed)

        try:
            data = yaml.load(text, Loader=_yaml_loader())
        except RecursionError:
            raise DataFileError(f"{shown}: malformed YAML: nested too deep; allowed: {MAX_DEPTH} levels") from None
        except ValueError as exc:  # e.g. an integer of thousands of digits
            raise DataFileError(f"{shown}: malformed YAML: {_value_error(exc)}") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            if not str(problem).startswith(("the key ", "expands to ")):  # the parser's words may quote the file
                problem = without_quotes(str(problem))
            raise DataFileError(f"{shown}: malformed YAML{where}: {problem}") from None
        fmt = "yaml"
    else:
        raise DataFileError(f"{shown}: unknown file type {suffix!r}; allowed: .yaml, .yml, .json, .gex")
    sheet = Sheet.from_dict(data, source=str(path))
    if chronicle:
        sheet.chronicle = chronicle
    return [LoadedFile(sheet, path, fmt, xp_log_warnings(sheet))]


def load_all(paths: list[Path], *, chronicle: str | None = None) -> list[LoadedFile]:
    """Parse every file first; any bad file, or two files for one name, raises DataFileError (the first
    error, with a count of the others) and nothing is imported."""
    loaded: list[LoadedFile] = []
    errors: list[str] = []
    files: list[Path] = []
    for p in paths:
        try:
            files.extend(find_character_files(Path(p)))
        except DataFileError as exc:
            errors.append(str(exc))
    if not files and not errors:
        raise DataFileError(f"{', '.join(map(str, paths))}: no .yaml, .yml, .json or .gex character files found")
    seen: dict[tuple[str, str], Path] = {}
    skipped: list[str] = []
    for f in files:
        try:
            found = load_files(f, chronicle=chronicle)
        except UnsupportedActor as exc:  # another game's creature among the characters: skipped, like Grapevine's
            if len(files) == 1:
                errors.append(str(exc))
            else:
                skipped.append(f"{exc}; skipped")
            continue
        except DataFileError as exc:
            errors.append(str(exc))
            continue
        for lf in found:
            key = (lf.sheet.chronicle, T.name_key(lf.sheet.name))
            if key in seen:
                errors.append(f"{f}: name: duplicate name {lf.sheet.name!r}, already in {seen[key]}")
                continue
            seen[key] = f
            loaded.append(lf)
    if errors:
        more = f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
        raise DataFileError(errors[0] + more + "; nothing was imported")
    if not loaded and skipped:
        raise DataFileError(f"{skipped[0]}: no character left to import; nothing was imported")
    if skipped:
        loaded[0].warnings[:0] = skipped
    return loaded


def import_files(
    gw: Gateway, paths: list[Path], *, chronicle: str | None = None, replace: bool = False
) -> list[LoadedFile]:
    """Import character files into the store in the caller's transaction.
    A name already stored in the chronicle is an error (DataFileError naming the file) unless ``replace``."""
    loaded = load_all(paths, chronicle=chronicle)
    for lf in loaded:
        try:
            create_character(gw, lf.sheet, replace=replace)
        except InvalidValue as exc:
            raise DataFileError(f"{lf.path}: name: {exc} (use --replace to overwrite); nothing was imported") from None
    return loaded


def dump(sheet: Sheet, fmt: str = "yaml", *, player_view: bool = False, foundry_layout: str = "current") -> str:
    """The character file text of ``sheet`` in ``fmt``: yaml, json, or foundry (a Foundry VTT WoD20 actor in
    ``foundry_layout`` current or legacy, see :func:`stkit.formats.foundry.to_foundry`), with no raw control
    character: a control or bidi character in a stored field is written as a JSON or YAML escape.
    ``player_view`` leaves the Storyteller notes out."""

    if fmt == "foundry":
        shown = replace(sheet, storyteller_notes="") if player_view else sheet
        return escape_json_controls(dump_foundry(shown, foundry_layout))
    data = sheet.to_dict(player_view=player_view)
    if fmt == "json":
        return escape_json_controls(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
    if fmt != "yaml":
        raise InvalidValue(f"export format {fmt!r}; allowed: yaml, json, foundry")
    import yaml  # lazy: start-up (heavy library, loaded when needed)

    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
    if printable(text, multiline=True) != text:  # text stored before it was checked: all escaped
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=False, default_flow_style=False)
    return text


def print_sheets(gw: Gateway, name: str | None, chronicle: str | None = None, *, every: bool = False) -> list[Sheet]:
    """The sheets `char print` puts on paper: the character ``name``, or with ``every`` each character of
    ``chronicle`` (every chronicle when None), by chronicle and name. Raises NotFound as find_character does,
    InvalidValue when ``every`` finds none or neither a name nor ``every`` is given."""
    if every:
        rows = list_characters(gw, chronicle)
        if not rows:
            raise InvalidValue(f"no characters to print{f' in chronicle {chronicle!r}' if chronicle else ''}")
        return [row.to_sheet() for row in rows]
    if not name:
        raise InvalidValue("give a character's name, or --all for every character")
    return [find_character(gw, name, chronicle).to_sheet()]


def write_new_file(path: Path, data: bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` with :func:`stkit.safefile.write_atomic`: all at once, an existing file only
    with ``force`` (its mode kept). Raises DataFileError naming the path (and --force)."""
    write_atomic(path, data, force=force)


def write_file(path: Path, text: str, *, force: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` with :func:`stkit.safefile.write_atomic`: all at once (a temporary
    file renamed into place), an existing file only with ``force`` (its mode kept), a FIFO, device or folder
    refused by name. Raises DataFileError naming the path."""

    write_atomic(path, text.encode("utf-8"), force=force)
