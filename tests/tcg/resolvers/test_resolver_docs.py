"""The YAML examples in docs/tcg-resolvers.md work and give the answers the page shows."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

DOC = Path(__file__).resolve().parents[3] / "docs" / "tcg-resolvers.md"
runner = CliRunner()


ROOT = DOC.parents[1]


@pytest.fixture()
def examples():
    """The four resolver files the page shows, as shipped in examples/ (the page's blocks are their text)."""
    text = DOC.read_text(encoding="utf-8")
    files = {}
    for match in re.finditer(r"```yaml\n# file: examples/(\S+)\n(.*?)```", text, re.S):
        path = ROOT / "examples" / match.group(1)
        assert path.read_text(encoding="utf-8") == match.group(2), f"examples/{match.group(1)} differs from the page"
        files[match.group(1).removesuffix(".yaml") + ".yaml"] = path
    assert set(files) == {"combat.yaml", "moot.yaml", "alphas.yaml", "victory.yaml"}
    return files


def test_the_page_commands_run_as_printed_from_the_source_root(monkeypatch):
    """Each `$ stkit tcg ... examples/...` line of the page runs from the source root and prints the
    first line the page shows."""
    import shlex

    monkeypatch.chdir(ROOT)
    text = DOC.read_text(encoding="utf-8")
    ran = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ stkit ") or "examples/" not in line:
                continue
            argv = shlex.split(line[len("$ stkit ") :])
            result = runner.invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "200"})
            assert result.exit_code == 0, (line, result.output)
            want = lines[i + 1]
            got = result.stdout.splitlines()[0]
            if "..." in want:
                assert got.startswith(want.split("...")[0]), (line, got)
            else:
                assert got == want, (line, got)
            ran.append(argv[1])
    assert sorted(ran) == ["alpha-order", "combat", "moot", "victory"]


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
