"""`stkit tcg rules search` prints the answer: the best hit's text, the others by title, every id."""

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.tcg.rules import get_rule, search_rules

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


def test_the_first_hit_is_shown_in_full_and_the_others_by_title():
    hits = search_rules("can a regenerating garou vote", limit=3).hits
    first, second = hits[0].entry, hits[1].entry
    result = runner.invoke(app, ["tcg", "rules", "search", "can a regenerating garou vote", "-n", "3"], env=ENV)
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert first.text in out and first.id in out and first.title in out
    assert f"Source: Equinox Update, \u201c{first.section}\u201d" in out
    assert second.id in out and second.title in out
    assert second.text not in out  # the others are titles only


def test_a_conflict_shown_first_carries_its_ruling():
    result = runner.invoke(app, ["tcg", "rules", "search", "conflicts.crinos-flip-threshold"], env=ENV)
    out = " ".join(result.stdout.split())
    assert "stkit rules: " + get_rule("conflicts.crinos-flip-threshold").conflict["ruling"] in out


def test_json_keeps_the_ids_and_adds_each_hit_text():
    result = runner.invoke(app, ["tcg", "rules", "search", "war", "form", "--json", "-n", "2"], env=ENV)
    data = json.loads(result.stdout)
    assert data["corrected"] == "crinos"
    assert [r["id"] for r in data["results"]] == [h.entry.id for h in search_rules("war form", limit=2).hits]
    assert data["results"][0]["text"] == get_rule(data["results"][0]["id"]).text


@pytest.mark.slow
def test_subprocess_prints_the_answer():
    out = subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "rules", "search", "how", "long", "does", "an", "event", "last"],
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
        check=True,
        timeout=60,
    )
    best = search_rules("how long does an event last").hits[0].entry
    assert best.text in " ".join(out.stdout.split())
