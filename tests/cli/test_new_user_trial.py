"""Findings of a new user's first evening with stkit: each message names what the user typed."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "80"})


def test_char_list_of_a_chronicle_that_does_not_exist_names_it_and_the_ones_there_are():
    assert run("char", "new", "Shadow").exit_code == 0
    result = run("char", "list", "--chronicle", "typo")
    assert result.exit_code == 1, result.stdout
    assert "No characters yet" not in result.stdout
    line = result.stderr.strip()
    assert "\n" not in line and "'typo'" in line and "default" in line
    # the default chronicle of an empty store is no mistake
    fresh = run("char", "list", "--chronicle", "default", "--json")
    assert fresh.exit_code == 0


def test_char_list_unknown_chronicle_in_an_empty_store():
    result = run("char", "list", "--chronicle", "typo")
    assert result.exit_code == 1 and "'typo'" in result.stderr and "none yet" in result.stderr


def test_a_missing_argument_is_named_as_the_usage_line_names_it():
    for args, shown in (
        (("odds", "resisted", "5"), "POOL_B"),
        (("resisted", "5"), "POOL_B"),
        (("contest", "start"), "NAME"),
        (("saved", "add", "claws"), "POOL"),
    ):
        result = run(*args)
        assert result.exit_code == 2, args
        assert f"Missing argument '{shown}'" in result.stderr, result.stderr
        assert "pool_b" not in result.stderr


def test_saved_add_keeps_an_earlier_roll_of_that_name_unless_forced():
    assert run("char", "new", "Shadow").exit_code == 0
    assert run("saved", "add", "claws", "5", "-c", "Shadow").exit_code == 0
    refused = run("saved", "add", "Claws", "7", "-c", "Shadow")
    assert refused.exit_code == 1
    assert "--force" in refused.stderr and "'claws'" in refused.stderr and "\n" not in refused.stderr.strip()
    kept = json.loads(run("saved", "list", "-c", "Shadow", "--json").stdout)["saved_rolls"]
    assert [(r["name"], r["pool"]) for r in kept] == [("claws", "5")]
    forced = run("saved", "add", "Claws", "7", "-c", "Shadow", "--force")
    assert forced.exit_code == 0 and forced.stdout.startswith("Replaced Claws: 7")
    again = json.loads(run("saved", "add", "bite", "3", "-c", "Shadow", "--force", "--json").stdout)
    assert again["replaced"] is False
    kept = json.loads(run("saved", "list", "-c", "Shadow", "--json").stdout)["saved_rolls"]
    assert sorted((r["name"], r["pool"]) for r in kept) == [("Claws", "7"), ("bite", "3")]


def test_a_roll_without_a_specialty_does_not_report_one():
    plain = json.loads(run("roll", "5", "--seed", "1", "--json").stdout)
    assert plain["house_rules"]["specialised"] is False
    named = json.loads(run("roll", "5", "--seed", "1", "--specialty", "double", "--json").stdout)
    assert named["house_rules"]["specialised"] is True


def test_rules_that_score_alike_stay_equal_whatever_the_roll_names():
    from stkit.dice.model import HouseRules, Specialty

    assert HouseRules(specialised=False) == HouseRules() and hash(HouseRules(specialised=False)) == hash(HouseRules())
    assert HouseRules(specialised=False).specialised is False
    assert HouseRules(Specialty.DOUBLE, specialised=False) != HouseRules(Specialty.DOUBLE)


def test_no_output_line_says_s_in_brackets_for_a_plural():
    """Every count in a message takes its noun in the right number (stkit.text.counted): no string in
    stkit/ (docstrings aside) writes a word with "(s)"; "http(s)" is a scheme, not a plural."""
    import io
    import re
    import tokenize
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "stkit"
    kinds = {tokenize.STRING} | ({tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set())
    found = []
    for path in sorted(root.rglob("*.py")):
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            text = tok.string.replace("http(s)", "")
            docstring = text.lstrip("rbfRBF").startswith(('"""', "'''"))
            if tok.type in kinds and not docstring and re.search(r"[A-Za-z]\(s\)", text):
                found.append(f"{path.relative_to(root)}:{tok.start[0]}")
    assert found == []


def test_counts_in_tcg_lines_take_their_noun_in_number():
    from stkit.tcg.resolvers.umbra import parse_umbra_event, resolve_umbra_cost
    from stkit.text import plural_word

    assert [plural_word(n, "field") for n in (1, 2, 0)] == ["field", "fields", "fields"]
    assert parse_umbra_event("level:+1")[2].endswith("+1 level")
    assert parse_umbra_event("points:-3")[2].endswith("-3 points")
    assert "Gnosis 5 takes 1 card off the discard." in " ".join(resolve_umbra_cost(level=4, gnosis=5).explanation)


def test_char_use_marks_its_dice_as_a_roll_does(tmp_path, monkeypatch):
    from stkit.sheet.sheet import Sheet, Track
    from stkit.store.characters import create_character
    from stkit.store.db.gateway import run_unit

    url = f"sqlite:///{tmp_path / 'use.sqlite'}"
    monkeypatch.setenv("STKIT_DATABASE_URL", url)
    sheet = Sheet(name="Hums")
    sheet.powers["Gnosis"] = Track(6, 6)
    sheet.fetishes = [{"name": "Spirit Whistle", "level": 2, "gnosis": 7}]
    assert run("char", "list").exit_code == 0  # the store made the usual way
    run_unit(url, lambda gw: create_character(gw, sheet))
    marked = []
    for seed in range(1, 8):
        shown = run("char", "use", "Hums", "Spirit Whistle", "--seed", str(seed)).stdout
        line = next(x for x in shown.splitlines() if x.startswith("Dice: "))
        assert line.endswith(f" (seed {seed})")
        tokens = line.removeprefix("Dice: ").removesuffix(f" (seed {seed})").split()
        # difficulty 7 (the fetish's Gnosis): 7 to 10 bracketed, a 1 in angle brackets, the rest bare
        for token in tokens:
            if token.startswith("["):
                assert 7 <= int(token.strip("[]")) <= 10, line
            elif token.startswith("<"):
                assert token == "<1>", line
            else:
                assert 2 <= int(token) <= 6, line
        marked.append(any(t.startswith(("[", "<")) for t in tokens))
    assert any(marked)
