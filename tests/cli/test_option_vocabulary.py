"""One option vocabulary: every command (the real click tree, tests/cli/tree.py) spells a shared idea the same
way, and has the options every command must have. The table is docs/quick.md's "Options every command
shares"; this test checks the tree against the table and the table against this test."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.tree import leaf_commands

REPO = Path(__file__).resolve().parents[2]

#: The shared ideas: long option -> every spelling it has on every command that takes it.
SHARED: dict[str, tuple[str, ...]] = {
    "--char": ("-c", "--char"),
    "--chronicle": ("--chronicle",),
    "--difficulty": ("-d", "--difficulty"),
    "--pool": ("-p", "--pool"),
    "--json": ("--json",),
    "--seed": ("--seed",),
    "--db": ("--db",),
    "--willpower": ("-w", "--willpower"),
    "--type": ("-t", "--type"),
    "--limit": ("-n", "--limit"),
    "--format": ("-f", "--format"),
    "--output": ("-o", "--output"),
    "--force": ("--force",),
    "--yes": ("-y", "--yes"),
}
#: Short options that belong to a shared idea: nowhere else may they mean something else.
SHORT = {short: long for long, spellings in SHARED.items() for short in spellings if not short.startswith("--")}

#: Known departures in commands another engineer owns (stkit/cli/tcg): (command, option) -> why.
ELSEWHERE = {
    ("tcg umbra-cost", "-p"): "the card game's --points; its owner decides (reported)",
    ("char arm", "-w"): "--weapon, a new command of the table pages' owner (reported)",
}

#: Commands without --json: an interactive prompt has no single result to print.
NO_JSON = {"shell"}
#: The card game keeps its own card database (--cards-db) and no chronicle: no --db there.
NO_DB_PREFIX = ("tcg",)
#: Commands that roll dice: each takes --seed so that the roll can be replayed.
ROLLERS = {
    "roll",
    "multi",
    "resisted",
    "teamwork",
    "attack",
    "char hit",
    "char rage",
    "char regen",
    "char shift",
    "char stay-active",
    "contest roll",
    "extended roll",
    "saved roll",
    "scene initiative",
}


def _options(command) -> list[tuple[str, list[str]]]:
    """(name, every spelling) of each option of ``command``, secondary (--no-x) spellings left out."""
    return [(p.name, list(p.opts)) for p in command.params if p.param_type_name == "option"]


def test_a_shared_idea_is_spelled_the_same_everywhere():
    wrong = []
    for path, command in leaf_commands():
        where = " ".join(path)
        for _, opts in _options(command):
            longs = [o for o in opts if o.startswith("--")]
            for long in longs:
                if long in SHARED and sorted(opts) != sorted(SHARED[long]):
                    wrong.append(f"{where}: {'/'.join(opts)} (shared: {'/'.join(SHARED[long])})")
            for short in (o for o in opts if not o.startswith("--")):
                if short in SHORT and SHORT[short] not in longs and (where, short) not in ELSEWHERE:
                    wrong.append(f"{where}: {short} means {'/'.join(longs)}, elsewhere {SHORT[short]}")
    assert wrong == []


def test_every_command_has_the_options_every_command_must_have():
    missing = []
    names = set()
    for path, command in leaf_commands():
        where = " ".join(path)
        names.add(where)
        spelled = {o for _, opts in _options(command) for o in opts}
        if where not in NO_JSON and "--json" not in spelled:
            missing.append(f"{where}: --json")
        if not where.startswith(NO_DB_PREFIX) and "--db" not in spelled:
            missing.append(f"{where}: --db")
        dice_by_hand = any(o.startswith("--dice") for o in spelled)
        if (where in ROLLERS or dice_by_hand) and "--seed" not in spelled:
            missing.append(f"{where}: --seed")
        if "--output" in spelled and "--force" not in spelled:
            missing.append(f"{where}: --force beside --output")
    assert names >= ROLLERS, ROLLERS - names
    assert missing == []


def test_a_pool_is_positional_or_p_pool_never_another_spelling():
    """A pool is the command's argument (roll, odds, saved add ...) or -p/--pool; an option named after a pool
    with any other spelling is a departure (side pools of a contest, --pool-a / --pool-b, name their side)."""
    wrong = []
    for path, command in leaf_commands():
        for p in command.params:
            if p.param_type_name == "option" and p.name in ("pool", "pool_opt") and sorted(p.opts) != ["--pool", "-p"]:
                wrong.append(f"{' '.join(path)}: {'/'.join(p.opts)}")
    assert wrong == []


def test_the_quick_reference_table_lists_every_shared_option():
    text = (REPO / "docs" / "quick.md").read_text(encoding="utf-8")
    section = text.split("## Options every command shares", 1)
    assert len(section) == 2, "docs/quick.md lost its table of shared options"
    rows = re.findall(r"^\|\s*`([^`]+)`\s*\|", section[1].split("\n## ", 1)[0], re.MULTILINE)
    documented = {r.split()[0] for r in rows}
    wanted = {"/".join(SHARED[long]) for long in SHARED}
    assert wanted <= documented, wanted - documented
