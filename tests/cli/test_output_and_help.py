"""User text is printed literally (no rich markup injection), shared options behave the same in every
command, and the help reads well at 80 columns."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests.cli.tree import all_commands, is_group, leaf_commands, missing_help, walk

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "120"}
NAME = "[bold]Red[/] Fang [link=x]"  # markup-looking text: must come out exactly as typed


def run(*args: str, env: dict | None = None):
    return runner.invoke(app, list(args), env=env or ENV)


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


# ---- markup injection ------------------------------------------------------------------------------------


def test_character_names_and_reasons_print_literally(db_url):
    assert f"Created {NAME} in chronicle" in ok("char", "new", NAME, "--player", "[red]Kyle[/red]")
    assert NAME in ok("char", "show", NAME)
    listed = ok("char", "list")
    assert NAME in listed and "[red]Kyle[/red]" in listed
    ok("char", "xp", NAME, "award", "3", "-r", "[i]the boss[/i] fight")
    xp_log = ok("char", "xp", NAME)
    assert f"{NAME}: 3 earned, 0 spent, 3 unspent" in xp_log and "[i]the boss[/i] fight" in xp_log
    assert ok("char", "delete", NAME, "--yes").strip() == f"Deleted {NAME}."


def test_list_in_a_narrow_terminal_prints_names_literally(db_url):
    ok("char", "new", NAME)
    out = run("char", "list", env={"NO_COLOR": "1", "COLUMNS": "30"}).stdout
    assert NAME in out


def test_scene_and_extended_names_print_literally(db_url):
    assert f"Scene 1 {NAME} opened" in ok("scene", "start", NAME)
    assert NAME in ok("scene", "show")
    ok("extended", "start", "[b]Stay hidden[/b]", "--pool", "5", "--target", "3")
    assert "[b]Stay hidden[/b]" in ok("extended", "list")


@pytest.mark.slow
def test_subprocess_prints_a_markup_name_literally(tmp_path):
    db = str(tmp_path / "s.sqlite")
    env = {**os.environ, "NO_COLOR": "1", "STKIT_DATABASE_URL": db}
    cmd = [sys.executable, "-m", "stkit"]
    made = subprocess.run([*cmd, "char", "new", NAME], capture_output=True, text=True, env=env, timeout=60)
    assert made.returncode == 0, made.stderr
    shown = subprocess.run(
        [*cmd, "roll", "Dexterity + 2", "--char", NAME, "--seed", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"{NAME}: Dexterity 1 + 2 = 3")


# ---- shared options ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["roll", "5"],
        ["odds", "5"],
        ["teamwork", "3", "4"],
        ["odds", "teamwork", "3", "4"],
        ["resisted", "3", "4"],
        ["odds", "resisted", "3", "4"],
        ["multi", "5", "5"],
        ["odds", "multi", "5", "5"],
    ],
)
def test_extra_ones_cancel_needs_reroll_everywhere(command):
    result = run(*command, "--extra-ones-cancel")
    assert result.exit_code == 1
    assert result.stderr == "Error: --extra-ones-cancel only applies with --specialty reroll\n"
    assert run(*command, "--extra-ones-cancel", "--specialty", "REROLL", "--json").exit_code == 0


def test_odds_and_roll_take_the_same_house_rules():
    rolled = json.loads(
        ok("roll", "6", "--dice", "10,10,1,1,5,3", "--specialty", "double", "--ones-dont-cancel", "--json")
    )
    assert rolled["result"] == 4 and rolled["outcome"] == "success"  # two 10s worth two each, no cancelling
    odds = json.loads(ok("odds", "1", "-d", "10", "--specialty", "double", "--ones-dont-cancel", "--json"))
    assert odds["house_rules"] == {
        "specialty": "double",
        "extra_ones_cancel": False,
        "ones_cancel": False,
        "tens": "once",
        "tens_cancel_ones": False,
        "specialty_botch": True,
        "willpower": "success",
    }
    assert odds["distribution"][2]["exact"] == "1/10"  # one die: a 10 is worth two successes


def test_json_keeps_text_as_typed(db_url):
    data = json.loads(ok("char", "new", "Mère-des-Loups", "--json"))
    assert data["name"] == "Mère-des-Loups"
    assert "Mère-des-Loups" in ok("char", "show", "Mère-des-Loups", "--json")  # UTF-8, not \u escapes


# ---- help at 80 columns ---------------------------------------------------------------------------------------

ALL = [" ".join(p) for p, _ in all_commands()]
GROUPS = [""] + [" ".join(p) for p, c in all_commands() if is_group(c)]


@functools.cache  # the same help screen is checked by several tests: render it once
def _help(path: str) -> str:
    result = run(*path.split(), "--help", env={"NO_COLOR": "1", "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


# ---- every command has help ----------------------------------------------------------------------------------


def test_the_walk_reaches_every_lazy_group_and_nested_command():
    from stkit.cli.app import LAZY_COMMANDS

    paths = {" ".join(p) for p, _ in all_commands()}
    assert set(LAZY_COMMANDS) <= paths
    assert {"roll", "char show", "extended roll", "tcg rules search", "tcg deck check"} <= paths
    assert len(leaf_commands()) >= 50


def test_the_walk_finds_a_command_without_help_inside_a_lazy_group():
    import typer.main
    from typer.core import TyperGroup

    inner = typer.Typer()

    @inner.command("documented")
    def documented() -> None:
        """Does one thing."""

    @inner.command("bare")
    def bare() -> None:
        pass

    loaded = typer.main.get_group(inner)

    class Lazy(TyperGroup):
        # lists its commands without holding them, as the root group does
        def list_commands(self, ctx):
            return ["sub"]

        def get_command(self, ctx, name):
            return loaded if name == "sub" else None

    root = Lazy(name="root", help="The root.")
    assert getattr(root, "commands", {}) == {}  # nothing to find by walking .commands
    found = [(p, c) for p, c in walk(root, []) if p]
    assert [" ".join(p) for p, c in found if not is_group(c)] == ["sub bare", "sub documented"]
    assert missing_help(found) == ["sub", "sub bare"]


@pytest.mark.parametrize("path", ALL)
def test_every_command_has_help(path):
    command = dict((" ".join(p), c) for p, c in all_commands())[path]
    assert missing_help([(path.split(), command)]) == [], f"stkit {path} has no help text"
    opening = " ".join((command.help or command.short_help).split()[:4])  # the help's first words
    text = " ".join(_help(path).split())  # the help screen, rewrapped
    assert text.startswith(f"Usage: stkit {path} ")
    assert opening in text


@pytest.mark.parametrize("path", ALL)
def test_help_cuts_nothing_at_80_columns(path):
    cut = [line for line in _help(path).splitlines() if "\u2026" in line]
    assert cut == []  # e.g. '--no-botch-spoi…' when the option names were squeezed


@pytest.mark.parametrize("path", GROUPS)
def test_each_command_summary_is_one_line_at_80_columns(path):
    panel = _help(path).split("Commands")[1].splitlines()[1:]
    rows = [line for line in panel[: next(i for i, x in enumerate(panel) if x.startswith("\u2570"))]]
    continued = [line for line in rows if line[2] == " "]  # a summary wrapped onto a second line
    assert rows and continued == []


def test_teamwork_help_shows_the_whole_botch_option():
    text = _help("teamwork")
    assert "--botch-spoils" in text and "--no-botch-spoils" in text and "RULE" in text
