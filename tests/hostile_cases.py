"""The generator behind tests/test_hostile_*.py: every leaf command of the CLI, hostile values for each of
its arguments and options, and the checks every run must pass.

The command tree is walked from the root (lazy groups included), so a new command is covered the day it
is added. For each parameter the generator picks values by the parameter's type (numbers, text, paths,
choices) and fills the other required parameters with ordinary values that reach the command's body
(an existing character, scene, extended action and contest in a prepared store).
"""

from __future__ import annotations

import os
import shutil
import signal
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer.main
from typer._click import types as click_types

REPO = Path(__file__).resolve().parents[1]

#: CPU seconds any one in-process run may take (six times as many on the clock count as a hang).
TIME_BOUND = 10.0


@dataclass(frozen=True)
class Case:
    """One invocation: the command path, the arguments, which parameter is hostile and how."""

    path: tuple[str, ...]
    args: tuple[str, ...]
    param: str
    kind: str  # the hostile class, e.g. "huge-int", "control", "fifo"
    must_fail: bool  # the value can never be legal: exit 0 is a defect


# ----- hostile values ------------------------------------------------------------------------------------
HOSTILE_INTS: list[tuple[str, str, bool]] = [
    ("huge-int", "9" * 30, True),
    ("huge-negative-int", "-" + "9" * 30, True),
    ("5000-digits", "9" * 5000, True),
    ("negative", "-5", False),
    ("zero", "0", False),
    ("non-ascii-digit", "\u0663", True),  # ARABIC-INDIC DIGIT THREE
    ("fullwidth-digit", "\uff17", True),
    ("empty", "", True),
    ("whitespace", "   ", True),
    ("underscore", "1_000", True),
    ("control", "\x1b[31m1", True),
    ("exponent", "1e3", True),
    ("infinity", "inf", True),
    ("not-a-number", "nan", True),
    ("hex", "0x10", True),
    ("decimal", "2.5", True),
    ("rtl-digit", "\u202e5", True),
]

HOSTILE_TEXTS: list[tuple[str, str, bool]] = [
    ("empty", "", False),
    ("whitespace", "   ", False),
    ("esc-csi", "\x1b[31mred\x1b[0m", False),
    ("osc-title", "\x1b]0;owned\x07", False),
    ("osc8-link", "\x1b]8;;https://evil.example\x1b\\x\x1b]8;;\x1b\\", False),
    ("c1-csi", "\x9b31mred", False),
    ("bidi", "abc\u202edcba", False),
    ("line-separator", "one\u2028two\u2029three", False),
    ("stacked-marks", "Ze" + "\u0301\u0308" * 10 + "d", False),
    ("nul", "a\x00b", True),  # no command line can carry a NUL: always refused
    ("newline", "two\nlines", False),
    ("markup-close", "zzqq[/bold]", False),
    ("markup-link", "[link=https://evil.example]x[/link]", False),
    ("markup-style", "[bold red]loud[/]", False),
    ("emoji-code", ":thumbs_up:", False),
    ("undecodable", "\udcff\udcfe", True),
    ("100k", "x" * 100_000, True),
    ("5000-digit-pool", "Dexterity + " + "9" * 5000, False),
    ("non-ascii-digit", "\u0663", False),
    ("negative", "-5", False),
    ("huge-int", "9" * 30, False),
    ("markup-marker", "[bold red]qqloud[/]", False),  # shown as typed, or the markup was read: see run_case
    ("markup-link-marker", "[link=https://evil.example]qqlink[/link]", False),
    ("markup-escaped", "\\[red]x\\", False),  # rich's own escape, and a trailing backslash
    ("markup-with-escape", "[\x1b[31mred]", False),
    ("zero-width", "We\u200bston", False),
    ("rtl-isolate", "\u2067abc\u2069", False),
    ("float-huge", "1e999", False),
    ("not-a-number", "nan", False),
    ("1m", "x" * 1_000_000, True),
]

#: Marker words of the markup values above, and a word of their tags: where a marker is printed, the tag's
#: word must be printed too (a command may split or normalise the value, never drop its markup unseen).
MARKUP_MARKERS = {"qqloud": "bold", "qqlink": "evil"}


#: The hostile texts as --db values: none is a database path or URL, so each must be refused.

#: The hostile texts as --db values: none is a database path or URL, so each must be refused.
HOSTILE_TEXTS_ALWAYS_BAD = [(k, v, True) for k, v, _ in HOSTILE_TEXTS]

#: File kinds that are not regular files: never a legal character, card, deck or situation file.
NOT_REGULAR = ("folder", "fifo", "symlink-to-fifo", "dev-zero", "symlink-to-dev-zero", "dev-null")
#: Regular files (see :func:`_hostile_contents`) that can never be a legal character file.
NOT_A_SHEET = (
    *NOT_REGULAR,
    "yaml-laughs",
    "yaml-merge-bomb",
    "yaml-python-tag",
    "yaml-binary-tag",
    "yaml-set-tag",
    "yaml-local-tag",
    "yaml-deep",
    "yaml-markup",
    "json-deep",
    "json-100k-digits",
    "foundry-hostile",
    "binary",
    "huge",
    "empty",
    "missing",
)


def hostile_files(root: Path) -> dict[str, Path]:
    """Files of every awkward kind under ``root``: {kind: path}. FIFOs and devices where the system has them."""
    root.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    files["folder"] = root / "folder"
    files["folder"].mkdir(exist_ok=True)
    files["missing"] = root / "no-such-file.yaml"
    files["empty"] = root / "empty.yaml"
    files["empty"].write_bytes(b"")
    files["binary"] = root / "binary.yaml"
    files["binary"].write_bytes(bytes(range(256)) * 64)
    files["utf16"] = root / "utf16.yaml"
    files["utf16"].write_bytes("name: Zo\u00eb\nchronicle: x\n".encode("utf-16"))
    files["crlf"] = root / "crlf.yaml"
    files["crlf"].write_bytes(b"name: Crlf\r\nchronicle: crlf\r\nattributes:\r\n  Strength: 2\r\n")
    files["huge"] = root / "huge.yaml"
    with open(files["huge"], "wb") as f:  # sparse: large to stat, cheap to make
        f.truncate(64 * 1024 * 1024)
    files["escape-name"] = root / "e\x1b[31mvil.yaml"
    files["escape-name"].write_text("name: [x\n")
    files["markup-content"] = root / "markup.yaml"
    files["markup-content"].write_text("name: '[link=https://evil.example]x\x1b[31m'\n")
    if hasattr(os, "mkfifo"):
        files["fifo"] = root / "pipe.yaml"
        if not files["fifo"].exists():
            os.mkfifo(files["fifo"])
        files["symlink-to-fifo"] = root / "pipe-link.yaml"
        if not files["symlink-to-fifo"].is_symlink():
            files["symlink-to-fifo"].symlink_to(files["fifo"])
    _hostile_contents(root, files)
    if Path("/dev/zero").exists():
        files["dev-zero"] = Path("/dev/zero")
        files["symlink-to-dev-zero"] = root / "zero-link.yaml"
        if not files["symlink-to-dev-zero"].is_symlink():
            files["symlink-to-dev-zero"].symlink_to("/dev/zero")
    if Path("/dev/null").exists():
        files["dev-null"] = Path("/dev/null")
    return files


def _hostile_contents(root: Path, files: dict[str, Path]) -> None:
    """Regular files whose content is hostile: YAML bombs and tags, deep or huge JSON, a Foundry actor and a
    Grapevine file quoting escape codes and markup, a deck list of escape codes, markup and a long line."""
    import json

    loud = "[bold red]qqloud[/]\x1b]0;owned\x07\x9b2J\u202e"
    laughs = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    laughs += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    merges = ["m0: &m0 {k: 1}"] + [f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}]}}" for i in range(1, 40)]
    actor = json.loads((REPO / "tests" / "formats" / "data" / "foundry-werewolf-marrow.json").read_text())
    actor["system"]["advantages"]["gnosis"]["temporary"] = loud + "A" * 100_000
    actor["items"].append({"name": loud, "type": "Spell", "system": {}})
    actor["system"][loud] = "kept nowhere"
    contents: dict[str, tuple[str, str | bytes]] = {
        "yaml-laughs": ("laughs.yaml", "\n".join(laughs) + "\nname: Bomb\n"),
        "yaml-merge-bomb": ("merges.yaml", "\n".join(merges) + "\nname: Bomb\n"),
        "yaml-python-tag": ("python.yaml", "name: !!python/object/apply:os.system ['true']\n"),
        "yaml-binary-tag": ("binary-tag.yaml", "name: Bin\nconcept: !!binary aGk=\n"),
        "yaml-set-tag": ("set-tag.yaml", "name: !!set {a, b}\n"),
        "yaml-local-tag": ("local-tag.yaml", "name: !SECRET x\n"),
        "yaml-deep": ("deep.yaml", "name: " + "[" * 100_000 + "]" * 100_000 + "\n"),
        "yaml-markup": ("markup2.yaml", f"name: Ok\nconcept: {json.dumps(loud)}\nbreed: {json.dumps(loud)}\n"),
        "json-deep": ("deep.json", "[" * 100_000 + "]" * 100_000),
        "json-100k-digits": ("digits.json", '{"name": "A", "rank": ' + "9" * 100_000 + "}"),
        "json-huge-float": ("float.json", '{"name": "A", "rank": 1e999}'),
        "foundry-hostile": ("actor.json", json.dumps(actor)),
        "grapevine-hostile": (
            "troupe.gex",
            '<grapevine><vampire name="' + "[red]v[/red]&#x202e;" + '"/><werewolf name="[bold]W[/bold]&#x9b;2J" '
            'rage="[red]'
            + "9" * 5000
            + '" gnosis="1-4"><traitlist name="Abilities"><trait name="[link=x]'
            + "A" * 50_000
            + '" val="[b]"/></traitlist></werewolf></grapevine>',
        ),
        "deck-hostile": (
            "deck.txt",
            f"4 {loud}\n2 Gaia's Claws\x1b[2J\n1 " + "B" * 100_000 + "\n" + "9" * 5000 + " Bite\n[red]3 Bite\n",
        ),
    }
    for kind, (name, content) in contents.items():
        path = root / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        files[kind] = path


# ----- ordinary values for the other parameters --------------------------------------------------------
def ordinary_values(fixtures: dict[str, Path]) -> dict[tuple[str, ...], dict[str, list[str]]]:
    """For a command path, the value(s) each required parameter gets when another one is under test."""
    char = {"name": ["Weston"]}
    return {
        ("char", "set"): {**char, "trait": ["Dexterity"], "value": ["3"]},
        ("char", "spend"): {**char, "power": ["willpower"]},
        ("char", "regain"): {**char, "power": ["willpower"]},
        ("char", "damage"): {**char, "levels": ["1"]},
        ("char", "heal"): char,
        ("char", "shift"): {**char, "form": ["crinos"]},
        ("char", "xp"): char,
        ("char", "show"): char,
        ("char", "export"): char,
        ("char", "delete"): char,
        ("char", "new"): {"name": ["Newcomer"]},
        ("house", "set"): {"key": ["difficulty"]},
        ("char", "import"): {"paths": [str(fixtures["character"])]},
        ("contest", "start"): {"name": ["Chase"], "a": ["4"], "b": ["5"]},
        ("contest", "roll"): {"contest_id": ["1"]},
        ("contest", "status"): {"contest_id": ["1"]},
        ("contest", "abandon"): {"contest_id": ["1"]},
        ("extended", "start"): {"name": ["Climb"]},
        ("extended", "roll"): {"action_id": ["1"]},
        ("extended", "status"): {"action_id": ["1"]},
        ("extended", "abandon"): {"action_id": ["1"]},
        ("multi",): {"pools": ["6", "5"]},
        ("teamwork",): {"pools": ["4", "3"]},
        ("roll",): {"pool": ["5"]},
        ("resisted",): {"pool_a": ["5"], "pool_b": ["4"]},
        ("odds", "roll"): {"pool": ["5"]},
        ("odds", "resisted"): {"pool_a": ["5"], "pool_b": ["4"]},
        ("odds", "teamwork"): {"pools": ["4", "3"]},
        ("odds", "multi"): {"pools": ["6", "5"]},
        ("scene", "start"): {"name": ["Night"]},
        ("tcg", "define"): {"term": ["Gnosis"]},
        ("tcg", "umbra-cost"): {"gnosis": ["3"]},
        ("tcg", "frenzy"): {"health": ["3"], "wounds": ["1"]},
        ("tcg", "battlefield"): {"renown": ["2"]},
        ("tcg", "combat"): {"file": [str(fixtures["combat"])]},
        ("tcg", "moot"): {"file": [str(fixtures["moot"])]},
        ("tcg", "alpha-order"): {"file": [str(fixtures["alpha"])]},
        ("tcg", "victory"): {"file": [str(fixtures["victory"])]},
        ("tcg", "rules", "search"): {"query": ["rage"]},
        ("tcg", "rules", "show"): {"rule_id": ["deck.size"]},
        ("tcg", "cards", "import"): {"file": [str(fixtures["cards"])]},
        # a loopback port nothing listens on: the sweep never reaches the network
        ("tcg", "cards", "fetch"): {"url": ["http://127.0.0.1:9/carddata.txt"]},
        ("tcg", "cards", "show"): {"name": ["Gaia's Claws"]},
        ("tcg", "deck", "check"): {"file": [str(fixtures["deck"])]},
    }


# ----- the command tree --------------------------------------------------------------------------------
def leaf_commands() -> list[tuple[tuple[str, ...], object]]:
    """Every leaf command as (path, click command), lazy groups loaded."""
    from stkit.cli.app import app

    root = typer.main.get_command(app)
    found: list[tuple[tuple[str, ...], object]] = []

    def walk(command, path: tuple[str, ...]) -> None:
        if hasattr(command, "list_commands"):  # a group, whose subcommands may be built only when named
            ctx = typer.Context(command, info_name=path[-1])
            for name in sorted(command.list_commands(ctx)):
                walk(command.get_command(ctx, name), (*path, name))
        else:
            found.append((path, command))

    ctx = typer.Context(root)
    group: Any = root  # the root is a group (StkitGroup): it lists and loads the lazy command groups
    for name in group.list_commands(ctx):
        walk(group.get_command(ctx, name), (name,))
    return found


def _kind_of(param) -> str:
    t = param.type
    if isinstance(t, click_types.IntParamType):
        return "int"
    if isinstance(t, click_types.BoolParamType) or getattr(param, "is_flag", False):
        return "flag"
    name = type(t).__name__
    if "Path" in name:
        return "path"
    if "Choice" in name:
        return "choice"
    if isinstance(t, click_types.StringParamType):
        return "text"
    return "other"


def _invocation(param, value: str) -> list[str]:
    if param.param_type_name == "argument":
        return [value]
    opts = [o for o in param.opts if o.startswith("--")] or list(param.opts)
    return [f"{opts[0]}={value}"] if value.startswith("-") else [opts[0], value]


def _tested_params(command) -> list:
    return [p for p in command.params if p.name not in ("help",) and _kind_of(p) != "flag"]


#: Text parameters that carry a number (read with stkit.text.parse_whole_number), by command path: they get
#: the hostile numbers, and a non-ASCII digit or a 5,000-digit number must be refused as for an integer.
NUMBER_TEXTS = {
    (("extended", "start"), "interval"),
    (("char", "set"), "value"),  # the ordinary trait is Dexterity, a rating
    (("house", "set"), "value"),  # the ordinary key is difficulty
}


def values_for(target, files: dict[str, Path], path: tuple[str, ...] = ()) -> tuple[str, list[tuple[str, str, bool]]]:
    """(which list, the hostile (class, value, must fail) triples) for one parameter of the command at
    ``path``, by its type."""
    if (path, target.name) in NUMBER_TEXTS:
        return "number-text", HOSTILE_INTS
    # Only a path that is not a regular file can never be legal: a new or existing regular file may be a
    # legal output (--output) or a new database (--db), and --db may go unused by a plain roll.
    # --db is checked by every command before it runs (stkit.config.check_db_option), also by those that never
    # open the store: a folder, FIFO or device there always fails, and so does every hostile text.
    file_values = [(f"file-{k}", str(v), k in NOT_REGULAR) for k, v in files.items()]
    if target.name == "db":
        return "db", HOSTILE_TEXTS_ALWAYS_BAD + file_values
    kind = _kind_of(target)
    if kind == "int":
        return "int", HOSTILE_INTS
    if path == ("char", "import") and kind == "path":
        # a character file whose content can never be a legal sheet must be refused
        refused = [(k, v, must or k.removeprefix("file-") in NOT_A_SHEET) for k, v, must in file_values]
        return "character-path", refused + [(k, v, k == "nul") for k, v, _ in HOSTILE_TEXTS if k in ("esc-csi", "nul")]
    if kind == "path":
        # a file name may hold any byte but NUL: only what is printed about it is checked
        texts = [(k, v, k == "nul") for k, v, _ in HOSTILE_TEXTS if k in ("esc-csi", "undecodable", "nul")]
        return "path", file_values + texts
    if kind == "choice":
        return "choice", [(k, v, True) for k, v, _ in HOSTILE_TEXTS if k in ("esc-csi", "markup-link", "empty")]
    if target.name == "cards_db":
        # the card database opens a device path as SQLite today and leaves /dev/null-journal behind (as
        # root): devices stay out of the sweep until that is fixed in stkit/tcg
        return "text+regular-files", HOSTILE_TEXTS + [v for v in file_values if "dev-" not in v[0]]
    if target.name == "file":
        return "text+files", HOSTILE_TEXTS + file_values
    return "text", HOSTILE_TEXTS


def sample_plan(leaves: list[tuple[tuple[str, ...], object]], files: dict[str, Path]) -> dict[tuple, int]:
    """The fast sample: {(command path, parameter name): index of its one hostile value}. Values are dealt
    round-robin over the parameters of each list in tree order, so that the sample covers every class."""
    counters: dict[str, int] = {}
    plan: dict[tuple, int] = {}
    for path, command in leaves:
        for target in _tested_params(command):
            key, _ = values_for(target, files, path)
            plan[(path, target.name)] = counters.get(key, 0)
            counters[key] = counters.get(key, 0) + 1
    return plan


def cases_for(
    path: tuple[str, ...],
    command,
    files: dict[str, Path],
    fixtures: dict[str, Path],
    *,
    plan: dict[tuple, int] | None = None,
) -> Iterator[Case]:
    """The hostile invocations of one command: each parameter in turn gets each hostile value of its kind
    (with a ``plan`` from :func:`sample_plan`: its one value of the fast sample), the required others
    their ordinary value."""
    ordinary = ordinary_values(fixtures).get(path, {})
    params = _tested_params(command)
    for target in params:
        _, values = values_for(target, files, path)
        if plan is not None:
            values = [values[plan[(path, target.name)] % len(values)]]
        for hostile_kind, value, must_fail in values:
            args: list[str] = list(path)
            for p in params:
                if p is target:
                    args += _invocation(p, value)
                elif p.required or p.name in ordinary:
                    for v in ordinary.get(p.name, ["1" if _kind_of(p) == "int" else "x"])[: 1 if p.nargs == 1 else 2]:
                        args += _invocation(p, v)
            if target.name == "yes" or path == ("char", "delete"):
                args.append("--yes")
            # A legal-looking value for a free-text field (a name, a note) may be stored: only values that
            # can never be legal must fail.
            yield Case(path, tuple(args), target.name or "?", hostile_kind, must_fail)


# ----- the checks ----------------------------------------------------------------------------------------
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def raw_controls(text: str) -> list[str]:
    """The raw control characters in ``text`` (C0 but newline and tab, DEL, C1, bidi overrides, surrogates)."""
    bad = []
    for ch in text:
        if ch in "\n\t":
            continue
        if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI or ch in "\u2028\u2029":
            bad.append(ch)
    run = 0
    for ch in text:  # more than four combining marks on one character (stkit.text.MAX_COMBINING)
        run = run + 1 if unicodedata.combining(ch) else 0
        if run == 5:
            bad.append("stacked combining marks")
    return bad


class Hang(BaseException):
    """Raised by the alarm: a run took longer than the time bound (a BaseException so no handler eats it)."""


def _on_alarm(signum, frame):
    raise Hang()


def run_case(runner, app, case: Case, *, bound: float = TIME_BOUND) -> tuple[list[str], int | None]:
    """Run one case in-process: (what is wrong with the run, empty when it passes; the exit code, None
    for a hang)."""
    problems: list[str] = []
    old = signal.signal(signal.SIGALRM, _on_alarm)
    hang = bound * 6  # the wall-clock deadline, generous: only a run that never ends reaches it
    signal.setitimer(signal.ITIMER_REAL, hang)
    start = time.process_time()  # CPU time for the bound: a busy machine stretches only the alarm's
    try:
        result = runner.invoke(app, list(case.args), env={"NO_COLOR": "1", "COLUMNS": "100"})
    except Hang:
        return [f"hang: no answer within {hang} s"], None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    elapsed = time.process_time() - start
    out, err = result.stdout, result.stderr
    if isinstance(result.exception, Hang):
        return [f"hang: no answer within {hang} s"], None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        problems.append(f"exception {type(result.exception).__name__}: {result.exception}")
    if result.exit_code not in (0, 1, 2):
        problems.append(f"exit code {result.exit_code}")
    if "Traceback" in out + err:
        problems.append("traceback in the output")
    if "internal error" in err:
        problems.append(f"internal error: {err.strip()[:300]}")
    # `tcg deck check` exits 1 for an illegal deck, its report on stdout (the documented exit code)
    verdict = case.path == ("tcg", "deck", "check") and result.exit_code == 1 and "Not legal" in out
    if result.exit_code in (1, 2) and len(err.splitlines()) > 1:
        problems.append(f"{len(err.splitlines())} lines on stderr: {err[:300]!r}")
    if result.exit_code in (1, 2) and not err.strip() and not verdict:
        problems.append("failed without a message on stderr")
    for stream, text in (("stdout", out), ("stderr", err)):
        bad = raw_controls(text)
        if bad:
            problems.append(f"raw control characters in {stream}: {sorted(set(bad))!r}")
    if "\x1b]8" in out + err:
        problems.append("OSC-8 hyperlink in the output")
    for marker, tag_word in MARKUP_MARKERS.items():
        if marker in out + err and tag_word not in out + err:
            problems.append(f"rich markup around {marker!r} was read as markup, not shown as typed")
    if case.must_fail and result.exit_code == 0:
        problems.append("a value that can never be legal was accepted (exit 0)")
    if elapsed > bound:
        problems.append(f"took {elapsed:.1f} s of CPU time")
    return problems, result.exit_code


def restore_store(template: Path, target: Path) -> None:
    """Put the prepared store back (engines closed first, WAL files dropped)."""
    from stkit.store.db.engine import dispose_engines

    dispose_engines()
    for suffix in ("-wal", "-shm", "-journal"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    shutil.copyfile(template, target)
