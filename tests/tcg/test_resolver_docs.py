"""The YAML examples in docs/tcg-resolvers.md work and give the answers the page shows."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "tcg-resolvers.md"
runner = CliRunner()


@pytest.fixture()
def examples(tmp_path):
    text = DOC.read_text(encoding="utf-8")
    files = {}
    for match in re.finditer(r"```yaml\n# file: (\S+)\n(.*?)```", text, re.S):
        path = tmp_path / match.group(1)
        path.write_text(match.group(2), encoding="utf-8")
        files[match.group(1)] = path
    assert set(files) == {"combat.yaml", "moot.yaml", "alphas.yaml", "victory.yaml"}
    return files


def run(*args):
    result = runner.invoke(app, ["tcg", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_combat_example(examples):
    out = run("combat", str(examples["combat.yaml"]))
    assert out["winner"] == "Walks-the-Sky" and out["umbra_change"] == -1
    first = out["rounds"][0]["state"]["hunter"]
    assert (first["form"], first["wounds"], first["rage_available"], first["hand"]) == ("crinos", 3, 7, 6)
    assert out["final"]["prey"]["wounds"] == 7


def test_moot_example(examples):
    moot = run("moot", str(examples["moot.yaml"]))["moots"][0]
    assert (moot["passed"], moot["for"], moot["against"]) == (True, 7, 4)


def test_alpha_example(examples):
    assert [a["player"] for a in run("alpha-order", str(examples["alphas.yaml"]))["order"]] == ["Sarah", "Dave", "Ed"]


def test_victory_example(examples):
    out = run("victory", str(examples["victory.yaml"]))
    assert (out["renown_level"], out["winner"], out["scores"]) == (19, "Ann", {"Ann": 19, "Bob": 18})
