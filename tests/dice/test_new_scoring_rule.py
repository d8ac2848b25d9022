"""A new scoring rule is one ScoringRules field (plus its scoring in stkit.dice.score and its docs rows):
every holder of the rules is generated from that field. Proved by adding a throwaway rule to the
definition's source in a fresh interpreter (nothing here changes the tracked file) and reading it back from
every holder: HouseRules, ChronicleRules, RuleOverrides, the key tables, the parsing of a stored value, the
rules in force, and the CLI's per-roll option bundle (rule_options)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from stkit.cli.options import BundleNotApplied, flag_overrides, rule_options, rule_overrides
from stkit.dice.house import RuleOverrides
from stkit.dice.model import Tens

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "stkit" / "dice" / "model.py"

#: The throwaway rule, written as a field of ScoringRules is written; inserted before the Willpower rule.
NEW_FIELD = """
    sevens_fly: bool = field(
        default=False,
        metadata=_rule(
            "sevens-fly",
            _ON_OFF,
            "a throwaway rule of the test",
            phrase="7s fly",
            option="--sevens-fly/--no-sevens-fly",
        ),
    )
"""
ANCHOR = "    willpower: WillpowerRule = field("

CHECK = textwrap.dedent(
    """
    import dataclasses, importlib.abc, importlib.util, sys

    MODEL, NEW_FIELD, ANCHOR = sys.argv[1], sys.argv[2], sys.argv[3]
    source = open(MODEL, encoding="utf-8").read()
    assert source.count(ANCHOR) == 1
    patched = source.replace(ANCHOR, NEW_FIELD + ANCHOR)


    class Patched(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path, target=None):
            if name == "stkit.dice.model":
                return importlib.util.spec_from_loader(name, self, origin=MODEL)
            return None

        def create_module(self, spec):
            return None

        def exec_module(self, module):
            exec(compile(patched, MODEL, "exec"), module.__dict__)


    sys.meta_path.insert(0, Patched())

    import typer
    from typer.testing import CliRunner

    from stkit.cli.options import rule_options, rule_overrides
    from stkit.dice.house import (
        HOUSE_KEYS, SCORING_KEYS, STANDARD_CHRONICLE_RULES, ChronicleRules, RuleOverrides, parse_house_value,
        rules_from_settings,
    )
    from stkit.dice.model import HouseRules, ScoringRules, scoring_keys
    from stkit.errors import InvalidValue

    def names(cls):
        return {f.name for f in dataclasses.fields(cls)}

    assert "sevens_fly" in names(ScoringRules)
    assert scoring_keys()["sevens-fly"][0] == "sevens_fly"
    # the holders
    assert "sevens_fly" in names(HouseRules) and "sevens_fly" in names(ChronicleRules)
    assert "sevens_fly" in names(RuleOverrides)
    assert RuleOverrides().sevens_fly is None
    assert RuleOverrides(sevens_fly="on").sevens_fly is True
    try:
        RuleOverrides(sevens_fly="maybe")
    except InvalidValue as e:
        assert "on or off" in str(e), e
    else:
        raise AssertionError("a word no rule takes was accepted")
    assert RuleOverrides.of(HouseRules(sevens_fly=True)).sevens_fly is True
    # the key tables and the stored values
    assert HOUSE_KEYS["sevens-fly"] == ("sevens_fly", "on or off")
    assert SCORING_KEYS["sevens-fly"] == (True, False)
    assert parse_house_value("sevens-fly", "ON") is True
    chronicle = rules_from_settings({"sevens-fly": "on"})
    assert chronicle.sevens_fly is True and "7s fly" in chronicle.in_force()
    assert chronicle.to_dict()["sevens-fly"] is True
    assert chronicle.dice_rules().sevens_fly is True
    assert HouseRules.from_dict(HouseRules(sevens_fly=True).to_dict()).sevens_fly is True
    # a roll's own choice over the chronicle's
    over = STANDARD_CHRONICLE_RULES.override(RuleOverrides(sevens_fly=True))
    assert over.sevens_fly is True and over.dice_rules().sevens_fly is True
    # the CLI's option bundle
    app = typer.Typer()

    @app.command()
    @rule_options
    def go() -> None:
        print("chosen", rule_overrides().sevens_fly)

    runner = CliRunner()
    assert runner.invoke(app, ["--sevens-fly"]).output.strip() == "chosen True"
    assert runner.invoke(app, ["--no-sevens-fly"]).output.strip() == "chosen False"
    assert runner.invoke(app, []).output.strip() == "chosen None"
    assert "--sevens-fly" in runner.invoke(app, ["--help"]).output
    print("every holder has it")
    """
)


def test_a_new_scoring_rule_reaches_every_generated_holder():
    """Fails when any holder is written by hand (before: RuleOverrides had one hand-written field per rule, so
    ``RuleOverrides(sevens_fly=...)`` was a TypeError)."""
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(MODEL), NEW_FIELD, ANCHOR],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("every holder has it")


def test_overrides_take_every_scoring_rule_by_keyword_and_word():
    assert RuleOverrides(tens="explode").tens is Tens.EXPLODE
    with pytest.raises(TypeError):
        RuleOverrides("double")  # type: ignore[misc]  # keyword only: no rule is chosen by position


def _app(build) -> typer.Typer:
    app = typer.Typer()

    @app.command()
    @rule_options
    def go(stop: bool = False) -> None:
        overrides = build()
        if stop:
            raise typer.Exit(0)
        print("tens", overrides.tens)

    return app


def test_a_command_building_its_overrides_by_hand_fails_loudly():
    """The bundle reaches the rules through the command's run: a command that never takes it in would drop
    ``--tens explode`` silently; it is a BundleNotApplied error instead (also on a clean typer.Exit)."""
    runner = CliRunner()
    by_hand = _app(lambda: RuleOverrides(difficulty=7))
    for args in (["--tens", "explode"], ["--tens", "explode", "--stop"]):
        result = runner.invoke(by_hand, args)
        assert isinstance(result.exception, BundleNotApplied), result.output
        assert "tens" in str(result.exception)
    assert runner.invoke(by_hand, []).exit_code == 0  # nothing chosen, nothing lost
    for good in (lambda: rule_overrides(difficulty=7), lambda: flag_overrides(None, False, False)):
        result = runner.invoke(_app(good), ["--tens", "explode"])
        assert result.exit_code == 0, result.output
        assert result.output.strip() == "tens explode"
