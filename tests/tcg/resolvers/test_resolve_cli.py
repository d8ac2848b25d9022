"""The resolver commands from the command line: in-process (CliRunner) and as a real subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

FIXTURES = Path(__file__).parent / "resolver_fixtures"
runner = CliRunner()


def run_json(*args):
    result = runner.invoke(app, ["tcg", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_umbra_cost_json():
    assert run_json("umbra-cost", "--level", "4", "--gnosis", "5") == {
        "cards": 2,
        "level": 4,
        "base": 3,
        "reduction": 1,
        "rules": ["umbra.level-discard", "umbra.gnosis-modifier"],
    }
    assert run_json("umbra-cost", "--points", "7", "--gnosis", "0")["cards"] == 1
    assert run_json("umbra-cost", "--level", "3", "--gnosis", "9", "--last-minute")["cards"] == 2
    assert run_json("umbra-cost", "--level", "3", "--gnosis", "0", "--spirit")["cards"] == 0


def test_umbra_cost_human_output_names_rules():
    result = runner.invoke(
        app, ["tcg", "umbra-cost", "--level", "4", "--gnosis", "5"], env={"NO_COLOR": "1", "COLUMNS": "200"}
    )
    assert result.exit_code == 0
    assert "Discard 2 Sept cards" in result.stdout and "umbra.gnosis-modifier" in result.stdout


def test_umbra_cost_refusals_exit_1():
    result = runner.invoke(app, ["tcg", "umbra-cost", "--level", "2", "--gnosis", "3", "--human"])
    assert result.exit_code == 1 and result.stderr.startswith("Error: humans cannot go to the Umbra")
    result = runner.invoke(app, ["tcg", "umbra-cost", "--level", "9", "--gnosis", "3"])
    assert result.exit_code == 1 and "allowed 1 to 5" in result.stderr


def test_umbra_track_json():
    out = run_json("umbra-track", "wyrm-enemy-played", "garou-killed", "alpha-pass")
    assert out["points"] == 7 and [s["points"] for s in out["steps"]] == [8, 9, 7] and "umbra.start" in out["rules"]
    assert run_json("umbra-track", "--start", "24", "points:+3")["points"] == 25


def test_frenzy_json_janus():
    out = run_json("frenzy", "--health", "5", "--wounds", "3", "--frenzy", "2")
    assert (out["frenzies"], out["threshold"], out["cards_drawn"]) == (True, 2, 2) and out["rules"]
    out = run_json("frenzy", "--health", "5", "--wounds", "3", "--frenzy", "2", "--derangement", "Melancholic")
    assert out["frenzies"] is False and out["cards_drawn"] == 0


def test_battlefield_examples_json():
    out = run_json(
        "battlefield", "--renown", "10", "--defender-keywords", "Wyrm,Black Spiral Dancer", "--buy", "Kailindo,Spirit"
    )
    assert (out["rage"], out["gnosis"], out["health"]) == (8, 8, 8)
    assert set(out["keywords"]) == {"Wyrm", "Black Spiral Dancer", "Kailindo", "Spirit"} and out["rules"]
    out = run_json("battlefield", "--renown", "5", "--defender-keywords", "Bastet", "--buy", "Kailindo, Firearm")
    assert (out["rage"], out["gnosis"], out["health"], out["keywords"]) == (3, 3, 3, ["Bastet", "Kailindo", "Firearm"])


def test_battlefield_refusal():
    result = runner.invoke(app, ["tcg", "battlefield", "--renown", "10", "--buy", "Unique"])
    assert result.exit_code == 1 and "Fast Striking, Unique, Restricted and Constrained" in result.stderr


def test_combat_json_has_state_after_each_round():
    out = run_json("combat", str(FIXTURES / "janus_frenzy.yaml"))
    assert [r["round"] for r in out["rounds"]] == [1, 2, 3, 4]
    assert out["rounds"][0]["state"]["hunter"]["wounds"] == 3 and out["rounds"][0]["state"]["hunter"]["hand"] == 6
    assert out["ended"] is True and "frenzy.frenzy-trait" in out["rules"]


def test_combat_human_log():
    result = runner.invoke(
        app, ["tcg", "combat", str(FIXTURES / "janus_frenzy.yaml")], env={"NO_COLOR": "1", "COLUMNS": "200"}
    )
    assert result.exit_code == 0
    assert "Round 1: Janus (hunter) has initiative." in result.stdout
    assert "it frenzies and draws 2 Combat cards" in result.stdout
    assert "Combat over, nobody died." in result.stdout


def test_combat_bad_file_exit_1(tmp_path):
    bad = tmp_path / "c.yaml"
    bad.write_text("hunter: {name: A, rage: 2, health: -4}\nprey: {name: B, rage: 1, health: 2}\nrounds: []\n")
    result = runner.invoke(app, ["tcg", "combat", str(bad)])
    assert result.exit_code == 1 and "hunter.health: -4 is out of range" in result.stderr
    assert "Traceback" not in result.output


def test_moot_alpha_victory_regen_json():
    moots = run_json("moot", str(FIXTURES / "moot.yaml"))["moots"]
    assert [(m["passed"], m["for"], m["against"]) for m in moots] == [(True, 7, 4), (True, 4, 0)]
    order = run_json("alpha-order", str(FIXTURES / "alphas.yaml"))
    assert [a["name"] for a in order["order"]] == ["Natasha Moon Chaser", "Janus", "Grey Fang"]
    assert run_json("victory", str(FIXTURES / "victory.yaml"))["winner"] == "Ann"
    assert run_json("regen", "--paw", "left", "--turned", "1")["turns"] == 2


def test_usage_error_exit_2():
    result = runner.invoke(app, ["tcg", "frenzy", "--health", "five", "--wounds", "1"])
    assert result.exit_code == 2


@pytest.mark.parametrize(
    "args,expect",
    [
        (["tcg", "umbra-cost", "--level", "4", "--gnosis", "5", "--json"], {"cards": 2}),
        (
            [
                "tcg",
                "battlefield",
                "--renown",
                "5",
                "--defender-keywords",
                "Bastet",
                "--buy",
                "Kailindo,Firearm",
                "--json",
            ],
            {"rage": 3, "health": 3},
        ),
    ],
)
def test_real_subprocess(args, expect):
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "stkit", *args], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {k: out[k] for k in expect} == expect


@pytest.mark.slow
def test_real_subprocess_error():
    proc = subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "moot", str(FIXTURES / "missing.yaml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1 and proc.stderr.strip().endswith("missing.yaml: no such file")
    assert proc.stderr.count("\n") == 1
